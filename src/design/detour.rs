//! The player's walk from the start to a cell with the box somewhere, from the walk
//! distances with no box (`plain`), repairing only what the box changes.
//!
//! The box at `b` lengthens the walk to exactly the cells all of whose shortest walks
//! pass `b`: those reached from `b` along steps that go one farther from the start,
//! every one of whose nearer neighbours is `b` or such a cell (taken level by level, a
//! cell's nearer neighbours are all decided before it). Every other cell keeps its
//! distance, so a walk to a cell of that set enters it from outside, at a cell's
//! distance plus one, and runs inside it: a breadth-first search over the set alone,
//! seeded from its border. In open floor the set is a thin wedge behind the box.

use crate::solver::board::Board;

use super::sides::UNREACHED;

/// Reusable buffers for repairs over one board.
pub struct Detours {
    /// Per cell, the repair that put it in the set (cells with a stale stamp are not).
    stamp: Vec<u32>,
    epoch: u32,
    /// Per cell of the set, its walk with the box.
    distance: Vec<u32>,
    set: Vec<usize>,
    seeds: Vec<(usize, u32)>,
    level: Vec<usize>,
    next: Vec<usize>,
}

impl Detours {
    pub fn new(cells: usize) -> Detours {
        Detours {
            stamp: vec![0; cells],
            epoch: 0,
            distance: vec![UNREACHED; cells],
            set: Vec::new(),
            seeds: Vec::new(),
            level: Vec::new(),
            next: Vec::new(),
        }
    }

    /// Prepares the walks with the box at `boxed`; then [`Detours::walk`] answers.
    pub fn repair(&mut self, board: &Board, plain: &[u32], boxed: usize) {
        self.epoch += 1;
        if self.epoch == u32::MAX {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        self.stamp[boxed] = epoch;
        self.set.clear();
        self.set.push(boxed);
        // The set, level by level (the box first, though it is no walk's end).
        let mut head = 0;
        while let Some(&cell) = self.set.get(head) {
            head += 1;
            let farther = plain[cell].saturating_add(1);
            for dir in 0..4 {
                let n = board.step(cell, dir);
                if !board.is_free(n) || plain[n] != farther || self.stamp[n] == epoch {
                    continue;
                }
                let cut_off = (0..4).all(|d| {
                    let m = board.step(n, d);
                    !board.is_free(m)
                        || plain[m].saturating_add(1) != farther
                        || self.stamp[m] == epoch
                });
                if cut_off {
                    self.stamp[n] = epoch;
                    self.set.push(n);
                }
            }
        }
        // Seeds: each cell of the set entered from outside it.
        self.seeds.clear();
        for &cell in &self.set[1..] {
            self.distance[cell] = UNREACHED;
            let entry = (0..4)
                .map(|d| board.step(cell, d))
                .filter(|&m| board.is_free(m) && self.stamp[m] != epoch && plain[m] != UNREACHED)
                .map(|m| plain[m] + 1)
                .min();
            if let Some(entry) = entry {
                self.seeds.push((cell, entry));
            }
        }
        self.seeds.sort_unstable_by_key(|&(_, d)| d);
        self.spread(board);
    }

    /// The breadth-first search inside the set from the seeds, each taken in at its level.
    fn spread(&mut self, board: &Board) {
        let epoch = self.epoch;
        self.level.clear();
        let Some(&(_, mut at)) = self.seeds.first() else {
            return;
        };
        let mut seed = 0;
        loop {
            while let Some(&(cell, _)) = self.seeds.get(seed).filter(|&&(_, d)| d == at) {
                seed += 1;
                if self.distance[cell] == UNREACHED {
                    self.distance[cell] = at;
                    self.level.push(cell);
                }
            }
            if self.level.is_empty() {
                match self.seeds.get(seed) {
                    Some(&(_, d)) => at = d,
                    None => return,
                }
                continue;
            }
            self.next.clear();
            for i in 0..self.level.len() {
                let cell = self.level[i];
                for dir in 0..4 {
                    let n = board.step(cell, dir);
                    // The box's own cell is in the set with a stamp but is never entered.
                    if n != self.set[0] && self.stamp[n] == epoch && self.distance[n] == UNREACHED {
                        self.distance[n] = at + 1;
                        self.next.push(n);
                    }
                }
            }
            std::mem::swap(&mut self.level, &mut self.next);
            at += 1;
        }
    }

    /// The walk from the start to `cell` with the box where the last repair put it.
    pub fn walk(&self, plain: &[u32], cell: usize) -> u32 {
        if self.stamp[cell] == self.epoch {
            self.distance[cell]
        } else {
            plain[cell]
        }
    }
}
