//! Pushes only: the reverse breadth-first search from one target over (box cell, side
//! group) pairs, for the most pushes any placement with that target needs. It needs no
//! walk lengths, so it is several times cheaper than the full search with moves
//! ([`super::reverse`]), which the hardest placement then runs only for the targets
//! that reach the most pushes of all.
//!
//! A side group is the sides of a box cell the player can walk between (the component
//! round the box); every state of a group needs the same pushes, the fewest any of its
//! sides' first pushes needs. A group first reached in layer k needs k pushes: the
//! layers are those of the full search.

use super::sides::{free_sides, SideDistances, UNREACHED};
use crate::solver::board::{sides_in, Board};

/// Reusable buffers for pushes-only reverse searches over one board.
pub struct PushLayers {
    /// Per cell, its free sides (0 for rock).
    open: Vec<u8>,
    /// Per cell and side, the sides connected to it round a box on the cell.
    group: Vec<[u8; 4]>,
    /// Per cell, the sides reached so far.
    reached: Vec<u8>,
    /// Every group reached, as `cell * 4 + side` for one of its sides, layer by layer;
    /// layer k is `order[starts[k]..starts[k + 1]]`.
    order: Vec<u32>,
    starts: Vec<usize>,
}

impl PushLayers {
    pub fn new(board: &Board, sides: &SideDistances) -> PushLayers {
        let open: Vec<u8> = (0..board.len())
            .map(|cell| {
                if board.is_free(cell) {
                    free_sides(board, cell)
                } else {
                    0
                }
            })
            .collect();
        let group = open
            .iter()
            .enumerate()
            .map(|(cell, &free)| {
                let mut row = [0u8; 4];
                for a in sides_in(free) {
                    row[a] = sides_in(free)
                        .filter(|&b| sides.between(cell, a, b) != UNREACHED)
                        .fold(0, |mask, b| mask | 1 << b);
                }
                row
            })
            .collect();
        PushLayers {
            reached: vec![0; open.len()],
            open,
            group,
            order: Vec::new(),
            starts: Vec::new(),
        }
    }

    /// Runs the search for `target`, replacing the previous one.
    pub fn run(&mut self, board: &Board, target: usize) {
        for &entry in &self.order {
            self.reached[entry as usize / 4] = 0;
        }
        self.order.clear();
        self.starts.clear();
        self.starts.push(0);
        let mut left = self.open[target];
        while let Some(side) = sides_in(left).next() {
            left &= !self.group[target][side];
            self.order.push((target * 4 + side) as u32);
        }
        self.reached[target] = self.open[target];
        self.starts.push(self.order.len());
        let mut layer = 0;
        while self.starts[layer] < self.starts[layer + 1] {
            for i in self.starts[layer]..self.starts[layer + 1] {
                let entry = self.order[i] as usize;
                let after = entry / 4;
                // The player, after the push into `after`, stood on a side of this group;
                // the box came from that side's cell, the player one beyond.
                for side in sides_in(self.group[after][entry % 4]) {
                    let before = board.step(after, side);
                    if before == target || self.open[before] & (1 << side) == 0 {
                        continue;
                    }
                    let group = self.group[before][side];
                    if self.reached[before] & group == 0 {
                        self.reached[before] |= group;
                        self.order.push((before * 4 + side) as u32);
                    }
                }
            }
            self.starts.push(self.order.len());
            layer += 1;
        }
        // The last layer is empty: drop its bound.
        self.starts.pop();
    }

    /// The number of layers: the most pushes any state needs, plus one.
    pub fn layers(&self) -> usize {
        self.starts.len() - 1
    }

    /// One side of each group reached in layer `layer`, as (cell, side).
    pub fn layer(&self, layer: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.order[self.starts[layer]..self.starts[layer + 1]]
            .iter()
            .map(|&entry| (entry as usize / 4, entry as usize % 4))
    }
}
