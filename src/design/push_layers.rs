//! Pushes only: reverse breadth-first searches over (box cell, side group) nodes, 64
//! targets at once, for the most pushes any placement with each target needs. They need
//! no walk lengths, and one pass serves 64 targets (a node holds a bit per target), so
//! they are many times cheaper than one full search with moves per target
//! ([`super::reverse`]), which the hardest placement then runs only for the targets
//! that reach the most pushes of all.
//!
//! A side group is the sides of a box cell the player can walk between (the component
//! round the box): every state of a group needs the same pushes, the fewest any of its
//! sides' first pushes needs. A node first reached in layer k for a target needs k
//! pushes to it: the layers are those of the full search. Neighbouring targets in
//! row-major order have nearly the same wave fronts, so the 64 searches touch not many
//! more nodes per layer than one does.

use super::sides::{free_sides, SideDistances, UNREACHED};
use crate::solver::board::{sides_in, Board};

/// Targets per pass: one bit each.
pub const BATCH: usize = 64;

const NO_NODE: u32 = u32::MAX;
const NO_CELL: u32 = u32::MAX;

/// The node graph of one board, shared by every pass (and thread).
pub struct PushGraph {
    /// Per state `cell * 4 + side`, its node ([`NO_NODE`] for rock sides).
    node_of: Vec<u32>,
    /// Per node, the nodes one push before it: `before[first[n]..first[n + 1]]`.
    first: Vec<u32>,
    before: Vec<u32>,
    /// Per node whose group is one side whose cell has no other free neighbour: that
    /// cell ([`NO_CELL`] for others): the player could only start there, so the node
    /// is no start when that cell is the target.
    alone: Vec<u32>,
}

impl PushGraph {
    pub fn new(board: &Board, sides: &SideDistances) -> PushGraph {
        let open = |cell: usize| {
            if board.is_free(cell) {
                free_sides(board, cell)
            } else {
                0
            }
        };
        let mut node_of = vec![NO_NODE; board.len() * 4];
        let mut groups: Vec<(usize, u8)> = Vec::new();
        for cell in (0..board.len()).filter(|&c| board.is_free(c)) {
            let free = open(cell);
            let mut left = free;
            while let Some(side) = sides_in(left).next() {
                let group = sides_in(free)
                    .filter(|&b| sides.between(cell, side, b) != UNREACHED)
                    .fold(0u8, |mask, b| mask | 1 << b);
                left &= !group;
                for member in sides_in(group) {
                    node_of[cell * 4 + member] = groups.len() as u32;
                }
                groups.push((cell, group));
            }
        }
        let mut first = Vec::with_capacity(groups.len() + 1);
        let mut before = Vec::new();
        let mut alone = Vec::with_capacity(groups.len());
        for &(after, group) in &groups {
            first.push(before.len() as u32);
            // After the push into `after` the player stood on a side of this group; the
            // box came from that side's cell, the player one beyond.
            for side in sides_in(group) {
                let from = board.step(after, side);
                if open(from) & (1 << side) != 0 {
                    before.push(node_of[from * 4 + side]);
                }
            }
            let lone = match sides_in(group).collect::<Vec<_>>()[..] {
                [side] => Some(board.step(after, side)),
                _ => None,
            }
            .filter(|&cell| open(cell).count_ones() == 1);
            alone.push(lone.map_or(NO_CELL, |cell| cell as u32));
        }
        first.push(before.len() as u32);
        PushGraph {
            node_of,
            first,
            before,
            alone,
        }
    }

    fn nodes(&self) -> usize {
        self.alone.len()
    }
}

/// Reusable buffers for passes over one [`PushGraph`].
pub struct PushLayers {
    /// Per node, the targets (bits) that reached it.
    reached: Vec<u64>,
    /// Per node of the front, the targets that reached it in the last layer.
    last: Vec<u64>,
    /// Per node, the targets reaching it in the layer being built.
    fresh: Vec<u64>,
    /// Per board cell, its target's bit in this pass (0 for none).
    bit_of: Vec<u64>,
    front: Vec<u32>,
    next: Vec<u32>,
    /// Every node reached in this pass, to reset.
    touched: Vec<u32>,
}

impl PushLayers {
    pub fn new(graph: &PushGraph, cells: usize) -> PushLayers {
        PushLayers {
            reached: vec![0; graph.nodes()],
            last: vec![0; graph.nodes()],
            fresh: vec![0; graph.nodes()],
            bit_of: vec![0; cells],
            front: Vec::new(),
            next: Vec::new(),
            touched: Vec::new(),
        }
    }

    /// For each of `targets` (at most [`BATCH`]), the most pushes of a placement with
    /// it, `None` when none is solvable.
    pub fn most_pushes(&mut self, graph: &PushGraph, targets: &[usize]) -> Vec<Option<u32>> {
        let targets = &targets[..targets.len().min(BATCH)];
        for (i, &target) in targets.iter().enumerate() {
            self.bit_of[target] = 1 << i;
            for side in 0..4 {
                let node = graph.node_of[target * 4 + side];
                if node != NO_NODE {
                    self.reach(node, 1 << i);
                }
            }
        }
        let mut most = vec![None; targets.len()];
        let mut layer = 0;
        loop {
            self.advance();
            if self.front.is_empty() {
                break;
            }
            if layer > 0 {
                // The targets with a start in this layer (not the target alone).
                let mut starts = 0u64;
                for &node in &self.front {
                    let lone = graph.alone[node as usize];
                    let alone_bit = if lone == NO_CELL {
                        0
                    } else {
                        self.bit_of[lone as usize]
                    };
                    starts |= self.last[node as usize] & !alone_bit;
                }
                while starts != 0 {
                    most[starts.trailing_zeros() as usize] = Some(layer);
                    starts &= starts - 1;
                }
            }
            layer += 1;
            for i in 0..self.front.len() {
                let node = self.front[i] as usize;
                let bits = std::mem::take(&mut self.last[node]);
                let span = graph.first[node] as usize..graph.first[node + 1] as usize;
                for &before in &graph.before[span] {
                    let new = bits & !self.reached[before as usize];
                    if new != 0 {
                        self.reach(before, new);
                    }
                }
            }
        }
        for &target in targets {
            self.bit_of[target] = 0;
        }
        for &node in &self.touched {
            self.reached[node as usize] = 0;
        }
        self.touched.clear();
        most
    }

    /// Marks `node` reached by `bits` in the layer being built.
    fn reach(&mut self, node: u32, bits: u64) {
        let at = node as usize;
        if self.reached[at] == 0 {
            self.touched.push(node);
        }
        if self.fresh[at] == 0 {
            self.next.push(node);
        }
        self.reached[at] |= bits;
        self.fresh[at] |= bits;
    }

    /// The layer built becomes the front.
    fn advance(&mut self) {
        std::mem::swap(&mut self.front, &mut self.next);
        self.next.clear();
        for &node in &self.front {
            self.last[node as usize] = std::mem::take(&mut self.fresh[node as usize]);
        }
    }
}
