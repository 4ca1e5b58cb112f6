//! The reverse search from one target: for every (box cell, player side) state, the
//! optimal (pushes, moves) still to go, in one pass over all states.
//!
//! `togo(b, s)`: the player stands on side `s` of the box at `b` and may walk first.
//! `first_push(b, s)`: the same, but the next move is the push from side `s`, which
//! takes the box to `b' = b - s` and leaves the player on side `s` of `b'`, so
//! `first_push(b, s) = (1, 1) + togo(b', s)` (just `(1, 1)` when `b'` is the target), and
//! `togo(b, s) = min over sides s2 connected to s round b of (0, walk(s, s2)) +
//! first_push(b, s2)`. Every solution of the forward puzzle splits into walks with the
//! box still and pushes, and a walk between two cells costs its shortest length, so
//! these equations are the forward optimum read backwards; all costs are positive, so
//! they have one solution, which the layers below compute.
//!
//! Pushes come in layers, exactly as in the forward solver: a state first given a
//! `togo` in layer k has k pushes to go, and its moves are the minimum over the layer's
//! first pushes into it of walk + moves. A state given a value in an earlier layer is
//! never reopened: any side it connects to got its value in that layer too.

use super::sides::{free_sides, SideDistances, UNREACHED};
use crate::solver::board::{opposite, sides_in, Board};

/// (pushes, moves) to go, `moves` in the low 32 bits: compares lexicographically.
pub type Cost = u64;

/// No way to bring the box to the target from this state.
pub const NEVER: Cost = u64::MAX;

pub fn cost(pushes: u32, moves: u32) -> Cost {
    u64::from(pushes) << 32 | u64::from(moves)
}

pub fn pushes(cost: Cost) -> u32 {
    (cost >> 32) as u32
}

pub fn moves(cost: Cost) -> u32 {
    cost as u32
}

/// Reusable buffers for reverse searches over one board.
pub struct Reverse {
    /// `togo` per state `cell * 4 + side`.
    togo: Vec<Cost>,
    /// First pushes of the layer being built, per state; reset after use.
    pending: Vec<Cost>,
    /// Cells with pending first pushes.
    touched: Vec<usize>,
    target: usize,
}

impl Reverse {
    pub fn new(board: &Board) -> Reverse {
        Reverse {
            togo: vec![NEVER; board.len() * 4],
            pending: vec![NEVER; board.len() * 4],
            touched: Vec::new(),
            target: usize::MAX,
        }
    }

    /// Runs the search for `target`, replacing the previous one.
    pub fn run(&mut self, board: &Board, sides: &SideDistances, target: usize) {
        self.togo.fill(NEVER);
        self.target = target;
        let mut layer: Vec<usize> = Vec::new();
        for side in sides_in(free_sides(board, target)) {
            self.togo[target * 4 + side] = 0;
            layer.push(target * 4 + side);
        }
        let mut next = Vec::new();
        while !layer.is_empty() {
            self.expand(board, sides, &layer, &mut next);
            std::mem::swap(&mut layer, &mut next);
            next.clear();
        }
    }

    /// From the states of one layer, the first pushes into them, then the next layer.
    fn expand(
        &mut self,
        board: &Board,
        sides: &SideDistances,
        layer: &[usize],
        next: &mut Vec<usize>,
    ) {
        for &state in layer {
            let (after, side) = (state / 4, state % 4);
            // Before the push the box was on side `side` of `after`, the player one beyond.
            let before = board.step(after, side);
            if before == self.target
                || !board.is_free(before)
                || !board.is_free(board.step(before, side))
            {
                continue;
            }
            // Each first push has exactly one state after it: it is set once per layer.
            let first = self.togo[state] + cost(1, 1);
            if self.pending[before * 4..before * 4 + 4]
                .iter()
                .all(|&c| c == NEVER)
            {
                self.touched.push(before);
            }
            self.pending[before * 4 + side] = first;
        }
        self.touched.sort_unstable();
        for i in 0..self.touched.len() {
            let cell = self.touched[i];
            self.settle(board, sides, cell, next);
            self.pending[cell * 4..cell * 4 + 4].fill(NEVER);
        }
        self.touched.clear();
    }

    /// Gives every still open side of `cell` its `togo` from the cell's pending first pushes.
    fn settle(&mut self, board: &Board, sides: &SideDistances, cell: usize, next: &mut Vec<usize>) {
        for side in sides_in(free_sides(board, cell)) {
            if self.togo[cell * 4 + side] != NEVER {
                continue;
            }
            let mut best = NEVER;
            for from in 0..4 {
                let first = self.pending[cell * 4 + from];
                let walk = sides.between(cell, side, from);
                if first != NEVER && walk != UNREACHED {
                    best = best.min(first + u64::from(walk));
                }
            }
            if best != NEVER {
                self.togo[cell * 4 + side] = best;
                next.push(cell * 4 + side);
            }
        }
    }

    /// The optimum to go when the next move is the push from side `side` of the box at
    /// `cell` (the player standing there), [`NEVER`] when that push is impossible or
    /// leads nowhere.
    pub fn first_push(&self, board: &Board, cell: usize, side: usize) -> Cost {
        let after = board.step(cell, opposite(side));
        if !board.is_free(after) || !board.is_free(board.step(cell, side)) {
            return NEVER;
        }
        if after == self.target {
            return cost(1, 1);
        }
        match self.togo[after * 4 + side] {
            NEVER => NEVER,
            togo => togo + cost(1, 1),
        }
    }
}
