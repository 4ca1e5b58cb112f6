//! Breadth-first walks of the player with the box as an obstacle.
//!
//! Visited marks are generation stamps, so starting a new walk costs O(1) instead of
//! clearing an array the size of the maze; walks stop as soon as their targets are found
//! (or, for bounded walks, after a given number of cells).

use super::board::{opposite, Board, WALK_LETTERS};

/// How a [`Walker::search`] ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Walk {
    /// Every target was reached.
    Reached,
    /// Some target is unreachable: everything reachable was visited.
    Exhausted,
    /// The cell limit was hit first: unvisited targets may or may not be reachable.
    Stopped,
}

pub struct Walker {
    stamp: Vec<u32>,
    dist: Vec<u32>,
    generation: u32,
    /// Every cell a walk visits, in order; `head` is the next to expand.
    queue: Vec<u32>,
}

impl Walker {
    pub fn new(cells: usize) -> Walker {
        Walker {
            stamp: vec![0; cells],
            dist: vec![0; cells],
            generation: 0,
            queue: Vec::new(),
        }
    }

    /// Breadth-first search from `from` avoiding rock and `obstacle`, stopping once every
    /// cell in `targets` is reached, everything reachable is exhausted, or `limit` cells
    /// were visited. Afterwards [`Walker::distance`] answers (exactly) for visited cells.
    pub fn search(
        &mut self,
        board: &Board,
        from: usize,
        obstacle: usize,
        targets: &[usize],
        limit: usize,
    ) -> Walk {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.queue.clear();
        self.visit(from, 0);
        let mut remaining = targets.iter().filter(|&&t| t != from).count();
        let mut head = 0;
        while remaining > 0 && head < self.queue.len() && self.queue.len() < limit {
            let cell = self.queue[head] as usize;
            head += 1;
            let next = self.dist[cell] + 1;
            for dir in 0..4 {
                let n = board.step(cell, dir);
                if board.is_free(n) && n != obstacle && self.stamp[n] != self.generation {
                    self.visit(n, next);
                    if targets.contains(&n) {
                        remaining -= 1;
                    }
                }
            }
        }
        if remaining == 0 {
            Walk::Reached
        } else if head == self.queue.len() {
            Walk::Exhausted
        } else {
            Walk::Stopped
        }
    }

    fn visit(&mut self, cell: usize, dist: u32) {
        self.stamp[cell] = self.generation;
        self.dist[cell] = dist;
        self.queue.push(cell as u32);
    }

    /// How many cells the last search visited.
    pub fn visited(&self) -> usize {
        self.queue.len()
    }

    /// Distance found by the last search, if `cell` was reached.
    pub fn distance(&self, cell: usize) -> Option<u32> {
        (self.stamp[cell] == self.generation).then(|| self.dist[cell])
    }

    /// A shortest walk from `from` to `to` around `obstacle`, as `nsew` letters.
    /// Deterministic: backtracks from `to`, preferring directions in `nswe` order.
    pub fn path(
        &mut self,
        board: &Board,
        from: usize,
        to: usize,
        obstacle: usize,
    ) -> Option<Vec<u8>> {
        self.search(board, from, obstacle, &[to], usize::MAX);
        let mut at = to;
        let mut left = self.distance(to)?;
        let mut letters = Vec::with_capacity(left as usize);
        while left > 0 {
            let dir = (0..4).find(|&dir| {
                let prev = board.step(at, dir);
                board.is_free(prev) && prev != obstacle && self.distance(prev) == Some(left - 1)
            })?;
            letters.push(WALK_LETTERS[opposite(dir)]);
            at = board.step(at, dir);
            left -= 1;
        }
        letters.reverse();
        Some(letters)
    }
}
