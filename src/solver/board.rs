//! The solver's view of a grid: padded with rock so neighbours never leave the array.

use crate::maze::Grid;

/// Directions in the order the solver tries them; `d ^ 1` is the opposite of `d`.
pub const NORTH: usize = 0;
pub const SOUTH: usize = 1;
pub const WEST: usize = 2;
pub const EAST: usize = 3;

pub const WALK_LETTERS: [u8; 4] = *b"nswe";
pub const PUSH_LETTERS: [u8; 4] = *b"NSWE";

pub fn opposite(dir: usize) -> usize {
    dir ^ 1
}

/// A grid with a one-cell rock border; cells are indices into `free`.
pub struct Board {
    pub width: usize,
    pub free: Vec<bool>,
    pub player: usize,
    pub boxed: usize,
    pub target: usize,
    cols: usize,
}

impl Board {
    pub fn new(grid: &Grid) -> Board {
        let width = grid.cols + 2;
        let mut free = vec![false; width * (grid.rows + 2)];
        for (cell, &wall) in grid.walls.iter().enumerate() {
            free[Self::pad(width, grid.cols, cell)] = !wall;
        }
        Board {
            width,
            free,
            player: Self::pad(width, grid.cols, grid.player),
            boxed: Self::pad(width, grid.cols, grid.boxed),
            target: Self::pad(width, grid.cols, grid.target),
            cols: grid.cols,
        }
    }

    fn pad(width: usize, cols: usize, cell: usize) -> usize {
        (cell / cols + 1) * width + cell % cols + 1
    }

    /// The board cell of a grid cell index.
    pub fn padded(&self, cell: usize) -> usize {
        Self::pad(self.width, self.cols, cell)
    }

    pub fn len(&self) -> usize {
        self.free.len()
    }

    /// The neighbour of `cell` in direction `dir`; always in bounds for interior cells.
    #[inline]
    pub fn step(&self, cell: usize, dir: usize) -> usize {
        match dir {
            NORTH => cell - self.width,
            SOUTH => cell + self.width,
            WEST => cell - 1,
            _ => cell + 1,
        }
    }

    #[inline]
    pub fn is_free(&self, cell: usize) -> bool {
        self.free[cell]
    }
}

/// The sides set in a 4-bit mask, in direction order.
pub fn sides_in(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |&side| mask & (1 << side) != 0)
}

/// The 4-bit mask of the sides for which `keep` holds.
pub fn sides_where(keep: impl Fn(usize) -> bool) -> u8 {
    (0..4)
        .filter(|&side| keep(side))
        .fold(0, |mask, side| mask | 1 << side)
}

/// The bit of a ring of eight cells (see `search.rs`) for the corner between two perpendicular directions.
pub const fn corner_bit(a: usize, b: usize) -> usize {
    let (vertical, horizontal) = if a < 2 { (a, b) } else { (b, a) };
    4 + vertical * 2 + (horizontal - WEST)
}

/// The eight cells round an interior `cell` of a board `width` wide as a ring: the four
/// sides at their direction's bit, the corners at [`corner_bit`]; set bits are the
/// cells for which `free` holds (the solver reads its own cell flags, design the board).
#[inline]
pub fn ring(width: usize, cell: usize, free: impl Fn(usize) -> bool) -> u8 {
    let (above, below) = (cell - width, cell + width);
    let bit = |at: usize, shift: usize| u8::from(free(at)) << shift;
    bit(above, NORTH)
        | bit(below, SOUTH)
        | bit(cell - 1, WEST)
        | bit(cell + 1, EAST)
        | bit(above - 1, corner_bit(NORTH, WEST))
        | bit(above + 1, corner_bit(NORTH, EAST))
        | bit(below - 1, corner_bit(SOUTH, WEST))
        | bit(below + 1, corner_bit(SOUTH, EAST))
}

/// Random boards for the solver's unit tests: `count` grids of up to `max_side` + 2
/// columns and `max_side` rows, each with its own rock density below `max_density`%;
/// the first three cells (S, B and T) are free.
#[cfg(test)]
pub fn random_grids(seed: u64, count: usize, max_side: u64, max_density: u64) -> Vec<Grid> {
    let mut seed = seed;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..count)
        .map(|_| {
            let rows = 1 + (next() % max_side) as usize;
            let cols = 3 + (next() % max_side) as usize;
            let density = next() % max_density;
            let mut walls: Vec<bool> = (0..rows * cols).map(|_| next() % 100 < density).collect();
            walls[..3].fill(false);
            Grid {
                rows,
                cols,
                walls,
                player: 0,
                boxed: 1,
                target: 2,
            }
        })
        .collect()
}
