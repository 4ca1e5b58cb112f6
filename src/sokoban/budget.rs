//! What may stop a search: the clock, the memory cap, the caller's cancellation flag.
//! Polled every few hundred positions so a stop request is honoured within milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::Unknown;

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
}

/// Positions between two looks at the budget.
pub const POLL_EVERY: u64 = 256;
/// Positions between two progress events.
pub const REPORT_EVERY: u64 = 1 << 15;
