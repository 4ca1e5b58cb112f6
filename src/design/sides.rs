//! Walk distances between the sides of a box: the one piece of the player's geometry
//! the reverse searches need. [`SideDistances`] has them for every box cell, shared by
//! every target of a hardest-placement search; [`LazySides`] works them out only for
//! the cells one search reaches, as the forward solver does.
//!
//! In the table, which sides connect comes from the biconnected blocks (articulation
//! points, not bridges); how far apart they are from a detour within the ring of eight
//! cells when that is provably optimal, and from one walk round the box otherwise.

use std::convert::Infallible;
use std::sync::atomic::AtomicBool;

use crate::solver::blocks::Blocks;
use crate::solver::board::{corner_bit, sides_in, sides_where, Board, EAST, NORTH, SOUTH, WEST};
use crate::solver::round::{local_detour, Round};
use crate::solver::walk::Walker;
use crate::solver::Cancelled;

/// No walk between the two sides.
pub const UNREACHED: u32 = u32::MAX;

/// Where a reverse search reads the walks between a box's sides.
pub trait SideWalks {
    /// Why a row could not be worked out ([`Infallible`] for a table).
    type Error;

    /// All of `cell`'s walks, `[a * 4 + b]` from side `a` to side `b` ([`UNREACHED`]
    /// for rock sides and no way round).
    fn row(&mut self, cell: usize) -> Result<[u32; 16], Self::Error>;
}

impl SideWalks for &SideDistances {
    type Error = Infallible;

    #[inline]
    fn row(&mut self, cell: usize) -> Result<[u32; 16], Infallible> {
        Ok(self.table[cell])
    }
}

/// The walks round the box on the cells a search asks about, each worked out once
/// ([`Round`]: ring detours, the window, bounded walks, the blocks only when needed).
pub struct LazySides<'a> {
    board: &'a Board,
    round: Round<'a>,
    /// Per board cell, one more than its row's index in `rows`; 0 until it is asked.
    slot: Vec<u32>,
    /// Rows in the order first asked, [`u16::MAX`] for [`UNREACHED`]: a walk round the
    /// box passes each of the other free cells at most once, and design searches take
    /// at most 2¹⁶ cells (`MAX_CELLS`), so every walk fits.
    rows: Vec<[u16; 16]>,
}

impl<'a> LazySides<'a> {
    pub fn new(board: &'a Board, cancel: &'a AtomicBool) -> LazySides<'a> {
        LazySides {
            board,
            round: Round::new(board, cancel),
            slot: vec![0; board.len()],
            rows: Vec::new(),
        }
    }

    /// The walk from side `a` to side `b` of a box at `cell`.
    pub fn between(&mut self, cell: usize, a: usize, b: usize) -> Result<u32, Cancelled> {
        Ok(self.row(cell)?[a * 4 + b])
    }

    fn compute(&mut self, cell: usize) -> Result<[u16; 16], Cancelled> {
        let mut row = [u16::MAX; 16];
        let free = free_sides(self.board, cell);
        let ring = ring(self.board, cell);
        for a in sides_in(free) {
            row[a * 4 + a] = 0;
            // The sides after `a`: each pair once, the walks being symmetric.
            let wanted = free & !((2u8 << a) - 1);
            if wanted == 0 {
                continue;
            }
            let distances = self.round.distances(cell, a, ring, wanted)?;
            for b in sides_in(wanted) {
                let walk = u16::try_from(distances[b]).unwrap_or(u16::MAX);
                row[a * 4 + b] = walk;
                row[b * 4 + a] = walk;
            }
        }
        Ok(row)
    }
}

impl SideWalks for LazySides<'_> {
    type Error = Cancelled;

    fn row(&mut self, cell: usize) -> Result<[u32; 16], Cancelled> {
        let slot = match self.slot[cell] {
            0 => {
                let row = self.compute(cell)?;
                self.rows.push(row);
                // At most one row per board cell: the count fits (board cells < 2³²).
                self.slot[cell] = self.rows.len() as u32;
                self.rows.len() - 1
            }
            slot => slot as usize - 1,
        };
        Ok(self.rows[slot].map(|walk| match walk {
            u16::MAX => UNREACHED,
            walk => u32::from(walk),
        }))
    }
}

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
