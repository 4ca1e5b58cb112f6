//! What may stop a search: the clock, the memory cap, the caller's cancellation flag.
//! Polled every few hundred positions so a stop request is honoured within milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Event, Progress, Unknown};

pub struct Budget<'a> {
    pub deadline: Instant,
    pub memory_bytes: usize,
    pub cancel: &'a AtomicBool,
    pub peak_bytes: usize,
}

impl Budget<'_> {
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

    /// A search's bookkeeping after its `expanded`th expansion: every [`POLL_EVERY`] a
    /// look at the budget with the search's `bytes` now, every [`REPORT_EVERY`] a
    /// `progress` event. `Some` when the search must stop.
    pub fn tick(
        &mut self,
        expanded: u64,
        bytes: impl FnOnce() -> usize,
        progress: Progress,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Option<Unknown> {
        let why = if expanded % POLL_EVERY == 0 {
            self.exceeded(bytes())
        } else {
            None
        };
        if why.is_none() && expanded % REPORT_EVERY == 0 {
            on_event(Event::Progress(progress));
        }
        why
    }
}

/// Positions between two looks at the budget.
pub const POLL_EVERY: u64 = 256;
/// Positions between two progress events.
pub const REPORT_EVERY: u64 = 1 << 15;
