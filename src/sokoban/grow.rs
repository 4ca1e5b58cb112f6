//! Growth of the arrays that hold something per position: by a quarter, not doubled.
//!
//! The memory cap counts capacity, what the allocator gave out. Doubled, every
//! per-position array of a search doubles at the same length, so past 2²³ positions
//! the count could jump over the cap while half of it was never used: the search
//! stopped with about half the cap in use. A quarter keeps the count within 25 % of
//! what is used, at a few more reallocations (glibc moves big blocks by remapping
//! pages, not by copying).

use std::collections::BinaryHeap;

/// Elements every array may hold before it grows by a quarter (small arrays double).
const FIRST: usize = 1 << 12;

/// How many more elements to reserve for `more` elements past `len`.
fn step(len: usize, more: usize) -> usize {
    (len / 4).max(FIRST).max(more)
}

/// Makes room for `more` elements in `v`.
pub fn room<T>(v: &mut Vec<T>, more: usize) {
    if v.capacity() - v.len() < more {
        v.reserve_exact(step(v.len(), more));
    }
}

/// Makes room for one more element in `heap`.
pub fn room_in_heap<T: Ord>(heap: &mut BinaryHeap<T>) {
    if heap.capacity() == heap.len() {
        heap.reserve_exact(step(heap.len(), 1));
    }
}

/// `v` resized to `len` elements (new ones `value`), growing by a quarter.
pub fn resize<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    if len > v.len() {
        room(v, len - v.len());
        v.resize(len, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_by_a_quarter_past_the_first_block() {
        let mut v: Vec<u32> = Vec::new();
        for i in 0..100_000 {
            room(&mut v, 1);
            v.push(i);
            assert!(v.capacity() <= v.len() + (v.len() / 4).max(FIRST));
        }
        let mut heap = BinaryHeap::new();
        for i in 0..100_000u32 {
            room_in_heap(&mut heap);
            heap.push(i);
            assert!(heap.capacity() <= heap.len() + (heap.len() / 4).max(FIRST));
        }
        let mut flags = Vec::new();
        resize(&mut flags, 70_000, false);
        assert_eq!(flags.len(), 70_000);
        assert!(flags.capacity() <= 70_000 + FIRST);
    }
}
