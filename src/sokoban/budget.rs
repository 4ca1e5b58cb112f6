//! What may stop a search: the clock, the memory cap, the caller's cancellation flag.
//! Polled every few hundred positions, or every position where positions are slow (a
//! level of hundreds of boxes), so a stop request is honoured within milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Event, Progress, Unknown};

pub struct Budget<'a> {
    pub deadline: Instant,
    pub memory_bytes: usize,
    pub cancel: &'a AtomicBool,
    pub peak_bytes: usize,
    /// Positions between two looks at the budget now, at most [`POLL_EVERY`].
    poll_every: u64,
    /// Ticks so far, over every search this budget bounds.
    ticks: u64,
    /// The tick count of the next look.
    next_poll: u64,
    /// When the budget was last looked at.
    polled: Instant,
}

impl<'a> Budget<'a> {
    pub fn new(deadline: Instant, memory_bytes: usize, cancel: &'a AtomicBool) -> Budget<'a> {
        Budget {
            deadline,
            memory_bytes,
            cancel,
            peak_bytes: 0,
            poll_every: 1,
            ticks: 0,
            next_poll: 0,
            polled: Instant::now(),
        }
    }

    /// Why a search starting now must stop at once, if it must. Its first position
    /// looks at the budget again: its positions may cost far more than the last
    /// search's (the optimal mode's fast search after its exact one took 256 positions
    /// of 10 ms each before its first look).
    pub fn starting(&mut self, bytes: usize) -> Option<Unknown> {
        self.poll_every = 1;
        self.next_poll = self.ticks + 1;
        self.polled = Instant::now();
        self.exceeded(bytes)
    }

    /// Why the search must stop now, if it must.
    pub fn exceeded(&mut self, bytes: usize) -> Option<Unknown> {
        self.peak_bytes = self.peak_bytes.max(bytes);
        if self.cancel.load(Ordering::Relaxed) {
            Some(Unknown::Cancelled)
        } else if bytes > self.memory_bytes {
            Some(Unknown::Memory)
        } else if Instant::now() >= self.deadline {
            Some(Unknown::Time)
        } else {
            None
        }
    }

    /// A search's bookkeeping after its `expanded`th expansion: every [`POLL_EVERY`] (or
    /// fewer, see [`Budget::next_interval`]) a look at the budget with the search's
    /// `bytes` now, every [`REPORT_EVERY`] a `progress` event. `Some` when the search
    /// must stop.
    pub fn tick(
        &mut self,
        expanded: u64,
        bytes: impl FnOnce() -> usize,
        progress: Progress,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Option<Unknown> {
        self.ticks += 1;
        let why = if self.ticks >= self.next_poll {
            self.next_interval();
            self.next_poll = self.ticks + self.poll_every;
            self.exceeded(bytes())
        } else {
            None
        };
        if why.is_none() && expanded % REPORT_EVERY == 0 {
            on_event(Event::Progress(progress));
        }
        why
    }

    /// Sets the positions to the next look from the time since the last: doubled up to
    /// [`POLL_EVERY`] while looks come quicker than [`POLL_QUICK`], back to every
    /// position once one takes longer than [`POLL_SLOW`]. A level's positions may cost
    /// microseconds or, with hundreds of boxes, tens of milliseconds each (a matching
    /// phase per child): a fixed count overshot a 2 s limit by 9 s.
    fn next_interval(&mut self) {
        let now = Instant::now();
        let since = now - self.polled;
        self.polled = now;
        if since > POLL_SLOW {
            self.poll_every = 1;
        } else if since < POLL_QUICK {
            self.poll_every = (self.poll_every * 2).min(POLL_EVERY);
        }
    }
}

/// Positions between two looks at the budget, at most.
pub const POLL_EVERY: u64 = 256;
/// Looks closer than this may be spaced further.
const POLL_QUICK: Duration = Duration::from_millis(1);
/// A look later than this comes back to every position.
const POLL_SLOW: Duration = Duration::from_millis(10);
/// Positions between two progress events.
pub const REPORT_EVERY: u64 = 1 << 15;

#[cfg(test)]
mod tests {
    use super::*;

    fn ticks_to_stop(budget: &mut Budget<'_>) -> u64 {
        let progress = Progress {
            positions: 0,
            lower_bound: 0,
        };
        (1..=10 * POLL_EVERY)
            .find(|&n| budget.tick(n, || 0, progress, &mut |_| {}).is_some())
            .unwrap_or(u64::MAX)
    }

    /// The first position looks at the budget (a position may take seconds on a large
    /// level); quick positions are then looked at every [`POLL_EVERY`] at most.
    #[test]
    fn the_first_tick_looks_and_later_ones_within_the_poll_interval() {
        let cancel = AtomicBool::new(true);
        let mut budget = Budget::new(Instant::now() + Duration::from_secs(3600), 1 << 30, &cancel);
        assert_eq!(ticks_to_stop(&mut budget), 1);
        let quiet = AtomicBool::new(false);
        let mut budget = Budget::new(Instant::now() + Duration::from_secs(3600), 1 << 30, &quiet);
        assert_eq!(ticks_to_stop(&mut budget), u64::MAX);
        quiet.store(true, Ordering::Relaxed);
        assert!(ticks_to_stop(&mut budget) <= POLL_EVERY);
        // A search after another starts its counts again: the budget still looks.
        assert!(ticks_to_stop(&mut budget) <= POLL_EVERY);
        // A search announced as starting looks at its first position.
        quiet.store(false, Ordering::Relaxed);
        assert_eq!(ticks_to_stop(&mut budget), u64::MAX);
        assert_eq!(budget.starting(0), None);
        quiet.store(true, Ordering::Relaxed);
        assert_eq!(ticks_to_stop(&mut budget), 1);
    }

    #[test]
    fn a_passed_deadline_or_a_full_memory_stops_at_once() {
        let cancel = AtomicBool::new(false);
        let mut budget = Budget::new(Instant::now(), 1 << 30, &cancel);
        assert_eq!(budget.exceeded(0), Some(Unknown::Time));
        let mut budget = Budget::new(Instant::now() + Duration::from_secs(3600), 10, &cancel);
        assert_eq!(budget.exceeded(11), Some(Unknown::Memory));
        assert_eq!(budget.exceeded(10), None);
        assert_eq!(budget.peak_bytes, 11);
    }
}
