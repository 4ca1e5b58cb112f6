//! Short walks round the box, exactly, by a bit-parallel breadth-first search in the
//! 11×11 window centred on it.
//!
//! A walk between two sides of the box that leaves the window passes a cell six rows
//! (or columns) from the box. At most one of the two sides is in the row (column) next
//! to it, so the walk takes at least 5 steps to get there and 6 to come back, and walks
//! between sides have even length: at least 12. So a walk of at most 12 steps found
//! inside the window is a shortest walk, and when the cells reached inside never touch
//! the window's edge, nothing else is reachable at all. Anything else is left to the
//! ordinary walks.

use super::board::Board;

/// Cells from the box to the window's edge.
const RADIUS: usize = 5;
const SIDE: usize = 2 * RADIUS + 1;
/// Longest walk the window answers exactly (see above).
const EXACT: u32 = 2 * RADIUS as u32 + 2;
/// Bit `row * SIDE + col` of a window, for `row, col < SIDE`.
type Window = u128;
const ALL: Window = (1 << (SIDE * SIDE)) - 1;

/// The free cells of a board, one bit each, with enough rock around to cut a window
/// round any cell: rows of `stride` words, the board's row `r` at row `r + RADIUS`, its
/// column `c` at bit `c + 64`.
pub struct BitBoard {
    words: Vec<u64>,
    stride: usize,
    width: usize,
}

impl BitBoard {
    pub fn new(board: &Board) -> BitBoard {
        let width = board.width;
        let rows = board.len() / width;
        let stride = (64 + width + RADIUS).div_ceil(64);
        // One more word, so reading two words of the last row stays in bounds.
        let mut words = vec![0u64; (rows + 2 * RADIUS) * stride + 1];
        for (row, cells) in board.free.chunks(width).enumerate() {
            let first = (row + RADIUS) * stride * 64 + 64;
            for (col, _) in cells.iter().enumerate().filter(|&(_, &free)| free) {
                let bit = first + col;
                words[bit / 64] |= 1 << (bit % 64);
            }
        }
        BitBoard {
            words,
            stride,
            width,
        }
    }

    /// The window's free cells round `cell`, without `cell` itself.
    fn window(&self, cell: usize) -> Window {
        let (row, col) = (cell / self.width, cell % self.width);
        let mut window: Window = 0;
        for i in 0..SIDE {
            // Board row `row + i - RADIUS` sits at padded row `row + i`.
            let start = (row + i) * self.stride * 64 + 64 + col - RADIUS;
            let (word, shift) = (start / 64, start % 64);
            let mut bits = self.words[word] >> shift;
            if shift > 0 {
                bits |= self.words[word + 1] << (64 - shift);
            }
            window |= Window::from(bits & ((1 << SIDE) - 1)) << (i * SIDE);
        }
        window & !centre_bit(0, 0)
    }

    /// Exact walk distances from side `from` of the box at `cell` to the sides in
    /// `wanted` (a mask of directions): `Some(Some(d))` a shortest walk, `Some(None)` no
    /// walk at all, `None` when the window cannot tell.
    pub fn distances(&self, cell: usize, from: usize, wanted: u8) -> [Option<Option<u32>>; 4] {
        let free = self.window(cell);
        let mut answers = [None; 4];
        let mut reached = side_bit(from);
        let mut frontier = reached;
        let mut missing = wanted;
        for distance in 1..=EXACT {
            frontier = spread(frontier) & free & !reached;
            if frontier == 0 {
                break;
            }
            reached |= frontier;
            for (side, answer) in answers.iter_mut().enumerate() {
                if missing & (1 << side) != 0 && frontier & side_bit(side) != 0 {
                    *answer = Some(Some(distance));
                    missing &= !(1 << side);
                }
            }
            if missing == 0 {
                return answers;
            }
        }
        if frontier == 0 && reached & EDGE == 0 {
            for (side, answer) in answers.iter_mut().enumerate() {
                if missing & (1 << side) != 0 {
                    *answer = Some(None);
                }
            }
        }
        answers
    }
}

/// Every cell one step from a cell of `cells`, kept inside the window's rows.
fn spread(cells: Window) -> Window {
    let (north, south) = (cells >> SIDE, cells << SIDE);
    let (west, east) = ((cells >> 1) & !column(SIDE - 1), (cells << 1) & !column(0));
    (north | south | west | east) & ALL
}

/// The bit of the cell `(dr, dc)` away from the window's centre.
const fn centre_bit(dr: isize, dc: isize) -> Window {
    let row = (RADIUS as isize + dr) as usize;
    let col = (RADIUS as isize + dc) as usize;
    1 << (row * SIDE + col)
}

/// The bit of the box's neighbour in direction `side` (north, south, west, east).
fn side_bit(side: usize) -> Window {
    const SIDES: [Window; 4] = [
        centre_bit(-1, 0),
        centre_bit(1, 0),
        centre_bit(0, -1),
        centre_bit(0, 1),
    ];
    SIDES[side]
}

/// Every cell of one column of the window.
const fn column(col: usize) -> Window {
    let mut bits = 0;
    let mut row = 0;
    while row < SIDE {
        bits |= 1 << (row * SIDE + col);
        row += 1;
    }
    bits
}

/// The window's outermost ring of cells.
const EDGE: Window = ALL & !inner();

const fn inner() -> Window {
    let mut bits = 0;
    let mut row = 1;
    while row < SIDE - 1 {
        let mut col = 1;
        while col < SIDE - 1 {
            bits |= 1 << (row * SIDE + col);
            col += 1;
        }
        row += 1;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::board::{random_grids, sides_in, sides_where};
    use crate::solver::walk::{Walk, Walker};

    /// Every answer the window gives agrees with an unbounded walk, on random grids
    /// large and small (so windows overlap the border), and it answers most queries.
    #[test]
    fn window_answers_agree_with_walks() {
        let (mut answered, mut asked) = (0, 0);
        for grid in random_grids(0x9E37_79B9_7F4A_7C15, 300, 30, 40) {
            let board = Board::new(&grid);
            let bits = BitBoard::new(&board);
            let mut walker = Walker::new(board.len());
            for cell in (0..board.len()).filter(|&c| board.is_free(c)) {
                let free = sides_where(|side| board.is_free(board.step(cell, side)));
                for from in sides_in(free) {
                    let wanted = free & !(1 << from);
                    let answers = bits.distances(cell, from, wanted);
                    for to in sides_in(wanted) {
                        let start = board.step(cell, from);
                        let goal = board.step(cell, to);
                        let walk = walker.search(&board, start, cell, &[goal], usize::MAX);
                        let truth = (walk == Walk::Reached).then(|| walker.distance(goal));
                        asked += 1;
                        if let Some(answer) = answers[to] {
                            answered += 1;
                            assert_eq!(answer, truth.flatten(), "{:?}", grid.to_rows());
                        }
                    }
                }
            }
        }
        assert!(answered * 10 > asked * 9, "{answered} of {asked}");
    }
}
