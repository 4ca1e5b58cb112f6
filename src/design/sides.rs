//! Walk distances between the sides of a box, for every box cell: the one piece of the
//! player's geometry the reverse searches need, shared by every target.
//!
//! Which sides connect comes from the biconnected blocks (articulation points, not
//! bridges); how far apart they are from a detour within the ring of eight cells when
//! that is provably optimal, and from one walk round the box otherwise.

use std::sync::atomic::AtomicBool;

use crate::solver::blocks::Blocks;
use crate::solver::board::{corner_bit, sides_in, sides_where, Board, EAST, NORTH, SOUTH, WEST};
use crate::solver::search::local_detour;
use crate::solver::walk::Walker;
use crate::solver::Cancelled;

/// No walk between the two sides.
pub const UNREACHED: u32 = u32::MAX;

/// `between(cell, a, b)`: the walk from side `a` to side `b` of a box at `cell`.
pub struct SideDistances {
    /// Per board cell, `[a * 4 + b]`; [`UNREACHED`] for rock sides and no way round.
    table: Vec<[u32; 16]>,
}

impl SideDistances {
    pub fn new(board: &Board, blocks: &Blocks, cancel: &AtomicBool) -> Result<Self, Cancelled> {
        let mut walker = Walker::new(board.len());
        let mut table = vec![[UNREACHED; 16]; board.len()];
        for (cell, row) in table.iter_mut().enumerate() {
            if cell % 4096 == 0 && cancel.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(Cancelled);
            }
            if board.is_free(cell) {
                *row = distances_round(board, blocks, &mut walker, cell);
            }
        }
        Ok(SideDistances { table })
    }

    #[inline]
    pub fn between(&self, cell: usize, a: usize, b: usize) -> u32 {
        self.table[cell][a * 4 + b]
    }

    /// All of `cell`'s walks, `[a * 4 + b]`: one cache line.
    #[inline]
    pub fn row(&self, cell: usize) -> &[u32; 16] {
        &self.table[cell]
    }
}

/// The free sides of `cell` as a 4-bit mask.
pub fn free_sides(board: &Board, cell: usize) -> u8 {
    sides_where(|side| board.is_free(board.step(cell, side)))
}

fn distances_round(board: &Board, blocks: &Blocks, walker: &mut Walker, cell: usize) -> [u32; 16] {
    let mut row = [UNREACHED; 16];
    let free = free_sides(board, cell);
    let ring = ring(board, cell);
    for a in sides_in(free) {
        row[a * 4 + a] = 0;
        let mut walk_to: Vec<(usize, usize)> = Vec::new();
        for b in sides_in(free).filter(|&b| b > a) {
            if !blocks.connected_around(cell, a, b) {
                continue;
            }
            match local_detour(ring, a, b) {
                Some(distance) => {
                    row[a * 4 + b] = distance;
                    row[b * 4 + a] = distance;
                }
                None => walk_to.push((b, board.step(cell, b))),
            }
        }
        if walk_to.is_empty() {
            continue;
        }
        let targets: Vec<usize> = walk_to.iter().map(|&(_, at)| at).collect();
        walker.search(board, board.step(cell, a), cell, &targets, usize::MAX);
        for (b, at) in walk_to {
            let distance = walker.distance(at).unwrap_or(UNREACHED);
            row[a * 4 + b] = distance;
            row[b * 4 + a] = distance;
        }
    }
    row
}

/// The eight cells round `cell` as the solver's ring mask (set bits are free).
fn ring(board: &Board, cell: usize) -> u8 {
    let width = board.width;
    let (above, below) = (cell - width, cell + width);
    let bit = |at: usize, shift: usize| u8::from(board.is_free(at)) << shift;
    bit(above, NORTH)
        | bit(below, SOUTH)
        | bit(cell - 1, WEST)
        | bit(cell + 1, EAST)
        | bit(above - 1, corner_bit(NORTH, WEST))
        | bit(above + 1, corner_bit(NORTH, EAST))
        | bit(below - 1, corner_bit(SOUTH, WEST))
        | bit(below + 1, corner_bit(SOUTH, EAST))
}
