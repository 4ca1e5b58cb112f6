//! Growth of the arrays that hold something per position: by a quarter, not doubled.
//!
//! The memory cap counts capacity, what the allocator gave out. Doubled, every
//! per-position array of a search doubles at the same length, so past 2²³ positions
//! the count could jump over the cap while half of it was never used: the search
//! stopped with about half the cap in use. A quarter keeps the count within 25 % of
//! what is used, at a few more reallocations (glibc moves big blocks by remapping
//! pages, not by copying). A per-position array is a [`Column`], which cannot grow
//! any other way.

use std::collections::BinaryHeap;
use std::ops::{Deref, DerefMut};

/// Elements every array may hold before it grows by a quarter (small arrays double).
const FIRST: usize = 1 << 12;

/// How many more elements to reserve for `more` elements past `len`.
fn step(len: usize, more: usize) -> usize {
    (len / 4).max(FIRST).max(more)
}

/// Makes room for `more` elements in `v`.
fn room<T>(v: &mut Vec<T>, more: usize) {
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
fn resize<T: Clone>(v: &mut Vec<T>, len: usize, value: T) {
    if len > v.len() {
        room(v, len - v.len());
        v.resize(len, value);
    }
}

/// An array with something per position: it makes its own room by a quarter, so no
/// caller can forget to, and reports its bytes as the memory cap counts them.
pub struct Column<T>(Vec<T>);

impl<T> Column<T> {
    pub fn new() -> Column<T> {
        Column(Vec::new())
    }

    pub fn push(&mut self, value: T) {
        room(&mut self.0, 1);
        self.0.push(value);
    }

    /// Bytes held: capacity, not length (what the allocator really gave out).
    pub fn bytes(&self) -> usize {
        self.0.capacity() * std::mem::size_of::<T>()
    }
}

impl<T: Clone> Column<T> {
    pub fn extend_from_slice(&mut self, values: &[T]) {
        room(&mut self.0, values.len());
        self.0.extend_from_slice(values);
    }

    /// Lengthens the column to `len` elements (new ones `value`); never shortens it.
    pub fn grow_to(&mut self, len: usize, value: T) {
        resize(&mut self.0, len, value);
    }
}

impl<T> Deref for Column<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> DerefMut for Column<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
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

    #[test]
    fn a_column_grows_by_a_quarter_and_counts_its_capacity_in_bytes() {
        let mut column: Column<u32> = Column::new();
        for i in 0..100_000 {
            column.push(i);
            assert!(column.0.capacity() <= column.len() + (column.len() / 4).max(FIRST));
        }
        column.extend_from_slice(&[1; 30_000]);
        assert!(column.0.capacity() <= column.len() + (column.len() / 4).max(FIRST));
        assert_eq!(column.bytes(), column.0.capacity() * 4);
        let mut flags: Column<u8> = Column::new();
        flags.grow_to(70_000, 0);
        flags.grow_to(10, 1);
        assert_eq!((flags.len(), flags[69_999]), (70_000, 0));
        assert!(flags.bytes() <= 70_000 + FIRST);
    }
}
