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
use crate::solver::board::{self, sides_in, sides_where, Board};
use crate::solver::round::{local_detour, Round};
use crate::solver::walk::Walker;
use crate::solver::Cancelled;

/// No walk between the two sides.
pub const UNREACHED: u32 = u32::MAX;

/// Where a reverse search reads the walks between a box's sides.
pub trait SideWalks {
    /// Why a walk could not be worked out ([`Infallible`] for a table).
    type Error;

    /// The walks from side `from` of a box at `cell` to the sides in the mask `to`
    /// (indexed by side; [`UNREACHED`] for no way round; the others unspecified).
    fn walks_from(&mut self, cell: usize, from: usize, to: u8) -> Result<[u32; 4], Self::Error>;
}

impl SideWalks for &SideDistances {
    type Error = Infallible;

    #[inline]
    fn walks_from(&mut self, cell: usize, from: usize, _: u8) -> Result<[u32; 4], Infallible> {
        let row = &self.table[cell];
        Ok([
            row[from * 4],
            row[from * 4 + 1],
            row[from * 4 + 2],
            row[from * 4 + 3],
        ])
    }
}

/// The walks round the box that a search asks for, each pair of sides worked out once
/// and only when asked ([`Round`]: ring detours, the window, bounded walks, the blocks
/// only when those cannot tell), as the forward solver does.
pub struct LazySides<'a> {
    board: &'a Board,
    round: Round<'a>,
    /// Per board cell, one more than its row's index in `rows`; 0 until it is asked.
    slot: Vec<u32>,
    /// Rows in the order first asked.
    rows: Vec<Row>,
}

/// One box cell's walks between its sides: 14 bytes, so the rows of a large board
/// stay in the caches the searches run from.
#[derive(Clone, Copy)]
struct Row {
    /// Per pair of distinct sides ([`PAIRS`]), [`u16::MAX`] for [`UNREACHED`]: a walk
    /// round the box passes each of the other free cells at most once, and design
    /// searches take at most 2¹⁶ cells (`MAX_CELLS`), so every walk fits.
    walks: [u16; 6],
    /// Bit `a * 4 + b` once the walk between `a` and `b` is known.
    known: u16,
}

/// `PAIRS[a][b]`: the index of the pair of distinct sides `a`, `b` in [`Row::walks`].
const PAIRS: [[usize; 4]; 4] = [[0, 0, 1, 2], [0, 0, 3, 4], [1, 3, 0, 5], [2, 4, 5, 0]];

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
        Ok(self.walks_from(cell, a, 1 << b)?[b])
    }

    /// The index in `rows` of `cell`'s row, made empty the first time.
    #[inline]
    fn slot(&mut self, cell: usize) -> usize {
        match self.slot[cell] {
            0 => {
                self.rows.push(Row::empty(free_sides(self.board, cell)));
                // At most one row per board cell: the count fits (board cells < 2³²).
                self.slot[cell] = self.rows.len() as u32;
                self.rows.len() - 1
            }
            slot => slot as usize - 1,
        }
    }
}

impl Row {
    /// The row of a cell with these free sides before any walk is worked out: a side
    /// is no walk from itself, and a rock side none from anywhere.
    fn empty(free: u8) -> Row {
        let mut known = 0x8421u16;
        for side in 0..4 {
            if free & 1 << side == 0 {
                known |= 0xF << (side * 4) | 0x1111 << side;
            }
        }
        Row {
            walks: [u16::MAX; 6],
            known,
        }
    }
}

impl SideWalks for LazySides<'_> {
    type Error = Cancelled;

    fn walks_from(&mut self, cell: usize, from: usize, to: u8) -> Result<[u32; 4], Cancelled> {
        let slot = self.slot(cell);
        let missing = to & !((self.rows[slot].known >> (from * 4)) as u8 & 0xF);
        if missing != 0 {
            let ring = ring(self.board, cell);
            let distances = self.round.distances(cell, from, ring, missing)?;
            let row = &mut self.rows[slot];
            for b in sides_in(missing) {
                row.walks[PAIRS[from][b]] = u16::try_from(distances[b]).unwrap_or(u16::MAX);
                row.known |= 1 << (from * 4 + b) | 1 << (b * 4 + from);
            }
        }
        let walks = &self.rows[slot].walks;
        Ok(std::array::from_fn(|b| match walks[PAIRS[from][b]] {
            _ if b == from => 0,
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
    board::ring(board.width, cell, |at| board.is_free(at))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{generate, Family, GenOptions};
    use crate::maze::Grid;

    /// A one-cell ring road round a block of rock, with spurs: every detour round a
    /// box on the road is the long way round, past the window and past the bounded
    /// walks, so the lazy walks fall back to the blocks.
    fn ring_road(size: usize) -> Grid {
        let mut rows: Vec<Vec<u8>> = vec![vec![b'#'; size]; size];
        for i in 1..size - 1 {
            for (r, c) in [(1, i), (size - 2, i), (i, 1), (i, size - 2)] {
                rows[r][c] = b'.';
            }
        }
        for i in (4..size - 4).step_by(7) {
            rows[2][i] = b'.';
            rows[i][size - 3] = b'.';
        }
        rows[1][3] = b'S';
        rows[1][6] = b'B';
        rows[size - 2][size / 2] = b'T';
        let rows: Vec<String> = rows
            .into_iter()
            .map(|r| String::from_utf8(r).unwrap())
            .collect();
        Grid::from_rows(&rows).unwrap()
    }

    #[test]
    fn lazy_walks_equal_the_table_from_the_blocks() {
        let mut grids = vec![ring_road(40), ring_road(90)];
        for (seed, family) in [
            Family::Caves,
            Family::Corridors,
            Family::Rooms,
            Family::Open,
        ]
        .into_iter()
        .enumerate()
        {
            for size in [24, 64] {
                let options = GenOptions {
                    rows: size,
                    cols: size,
                    family,
                    ..GenOptions::default()
                };
                grids.push(generate(seed as u64, &options).grid);
            }
        }
        let never = AtomicBool::new(false);
        for grid in grids {
            let board = Board::new(&grid);
            let blocks = Blocks::new(&board, &never).unwrap();
            let table = SideDistances::new(&board, &blocks, &never).unwrap();
            let mut lazy = LazySides::new(&board, &never);
            // Cells in a scattered order, pairs asked one at a time and in masks, as the
            // searches do.
            let cells: Vec<usize> = (0..board.len())
                .map(|i| i * 7919 % board.len())
                .filter(|&c| board.is_free(c))
                .collect();
            for &cell in &cells {
                for a in 0..4 {
                    let walks = lazy.walks_from(cell, a, 0xF).unwrap();
                    for b in sides_in(free_sides(&board, cell)) {
                        let expected = table.between(cell, a, b);
                        if board.is_free(board.step(cell, a)) {
                            assert_eq!(walks[b], expected, "cell {cell}, sides {a} {b}");
                        }
                        assert_eq!(lazy.between(cell, b, a).unwrap(), table.between(cell, b, a));
                    }
                }
            }
        }
    }
}
