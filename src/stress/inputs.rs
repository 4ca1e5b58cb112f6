//! The inputs `boxls stress` runs a program on: test `i` of a seed is always the same
//! mazes. Sizes grow from tiny to the maximum over the first tests, so the first
//! failures found are small ones; the rock is laid out by one of a few families.

use crate::maze::Grid;

/// How the rock of a generated maze is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Rock scattered at random, no border.
    Open,
    /// A rock border and scattered pillars.
    Rooms,
    /// A perfect maze of one-cell corridors with a few loops knocked in.
    Corridors,
    /// Each test picks one of the others.
    Mix,
}

impl Family {
    pub const NAMES: [&'static str; 4] = ["open", "rooms", "corridors", "mix"];

    pub fn from_name(name: &str) -> Option<Family> {
        Some(match name {
            "open" => Family::Open,
            "rooms" => Family::Rooms,
            "corridors" => Family::Corridors,
            "mix" => Family::Mix,
            _ => return None,
        })
    }
}

/// What the inputs look like.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub seed: u64,
    pub max_rows: usize,
    pub max_cols: usize,
    pub family: Family,
    pub mazes_per_input: usize,
}

/// How many tests it takes for sizes to reach the maximum.
const RAMP: u64 = 200;

/// The mazes of test `index` (0-based).
pub fn test_input(options: &Options, index: u64) -> Vec<Grid> {
    let mut rng = Rng::new(options.seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
    (0..options.mazes_per_input.max(1))
        .map(|_| maze(options, index, &mut rng))
        .collect()
}

fn maze(options: &Options, index: u64, rng: &mut Rng) -> Grid {
    let mut grow = |max: usize| {
        let max = max.max(1);
        let reach = 3 + (max.saturating_sub(3) as u64 * index.min(RAMP) / RAMP) as usize;
        rng_between(rng, 1, reach.min(max))
    };
    let rows = grow(options.max_rows);
    let cols = grow(options.max_cols);
    let (rows, cols) = if rows * cols < 3 {
        (options.max_rows.clamp(1, 3), 3usize)
    } else {
        (rows, cols)
    };
    let family = match options.family {
        Family::Mix => [Family::Open, Family::Rooms, Family::Corridors][rng.below(3)],
        family => family,
    };
    let mut walls = match family {
        Family::Corridors if rows >= 3 && cols >= 3 => corridors(rng, rows, cols),
        Family::Rooms if rows >= 4 && cols >= 4 => rooms(rng, rows, cols),
        _ => scatter(rng, rows, cols),
    };
    place(rng, rows, cols, &mut walls)
}

fn rng_between(rng: &mut Rng, low: usize, high: usize) -> usize {
    low + rng.below(high - low + 1)
}

fn scatter(rng: &mut Rng, rows: usize, cols: usize) -> Vec<bool> {
    let density = [0.0, 0.1, 0.2, 0.3][rng.below(4)];
    (0..rows * cols).map(|_| rng.chance(density)).collect()
}

fn rooms(rng: &mut Rng, rows: usize, cols: usize) -> Vec<bool> {
    let density = [0.05, 0.12, 0.2][rng.below(3)];
    (0..rows * cols)
        .map(|cell| {
            let (r, c) = (cell / cols, cell % cols);
            r == 0 || c == 0 || r == rows - 1 || c == cols - 1 || rng.chance(density)
        })
        .collect()
}

/// A recursive-backtracker maze on the odd cells, then some walls knocked out.
fn corridors(rng: &mut Rng, rows: usize, cols: usize) -> Vec<bool> {
    let mut walls = vec![true; rows * cols];
    let mut stack = vec![(1usize.min(rows - 1), 1usize.min(cols - 1))];
    walls[stack[0].0 * cols + stack[0].1] = false;
    while let Some(&(r, c)) = stack.last() {
        let mut next = Vec::new();
        for (dr, dc) in [(-2isize, 0isize), (2, 0), (0, -2), (0, 2)] {
            let (Some(nr), Some(nc)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) else {
                continue;
            };
            if nr < rows && nc < cols && walls[nr * cols + nc] {
                next.push((nr, nc));
            }
        }
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nr, nc) = next[rng.below(next.len())];
        walls[((r + nr) / 2) * cols + (c + nc) / 2] = false;
        walls[nr * cols + nc] = false;
        stack.push((nr, nc));
    }
    for _ in 0..(rows * cols / 12).max(1) {
        let cell = rng.below(rows * cols);
        walls[cell] = false;
    }
    walls
}

/// S, B and T on three distinct free cells (freeing cells if there are too few).
fn place(rng: &mut Rng, rows: usize, cols: usize, walls: &mut [bool]) -> Grid {
    let mut free: Vec<usize> = (0..walls.len()).filter(|&cell| !walls[cell]).collect();
    while free.len() < 3 {
        let cell = rng.below(walls.len());
        if walls[cell] {
            walls[cell] = false;
            free.push(cell);
        }
    }
    let mut pick = || free.swap_remove(rng.below(free.len()));
    let (player, boxed, target) = (pick(), pick(), pick());
    let grid = Grid {
        rows,
        cols,
        walls: walls.to_vec(),
        player,
        boxed,
        target,
    };
    // Most mazes start from a box pulled away from T (solvable, with many pushes and
    // turns, where wrong searches part from right ones); the rest stay at random,
    // which brings the impossible ones.
    if rng.chance(0.8) {
        pulled(rng, grid)
    } else {
        grid
    }
}

/// The box put on T with the player beside it, then pulled about at random (the
/// reverse of pushing), with random walks in between: a maze solvable by construction.
fn pulled(rng: &mut Rng, mut grid: Grid) -> Grid {
    let free = |grid: &Grid, cell: Option<usize>| cell.filter(|&c| !grid.walls[c]);
    let beside: Vec<usize> = (0..4)
        .filter_map(|d| free(&grid, neighbour(&grid, grid.target, d)))
        .collect();
    if beside.is_empty() {
        return grid;
    }
    let (start_box, start_player) = (grid.boxed, grid.player);
    grid.boxed = grid.target;
    grid.player = beside[rng.below(beside.len())];
    for _ in 0..grid.cell_count() * 3 {
        let d = rng.below(4);
        let Some(to) = free(&grid, neighbour(&grid, grid.player, d)) else {
            continue;
        };
        if to == grid.boxed {
            continue;
        }
        // Stepping straight away from the box drags it along (a pull), half the time.
        let away = neighbour(&grid, grid.boxed, d) == Some(grid.player);
        if away && rng.chance(0.5) {
            grid.boxed = grid.player;
        }
        grid.player = to;
    }
    if grid.boxed == grid.target || grid.player == grid.target {
        grid.boxed = start_box;
        grid.player = start_player;
    }
    grid
}

/// The cell one step from `cell` in direction `d` (north, south, west, east).
fn neighbour(grid: &Grid, cell: usize, d: usize) -> Option<usize> {
    let (r, c) = grid.coords(cell);
    let (r, c) = match d {
        0 => (r.checked_sub(1)?, c),
        1 => (r + 1, c),
        2 => (r, c.checked_sub(1)?),
        _ => (r, c + 1),
    };
    (r < grid.rows && c < grid.cols).then_some(r * grid.cols + c)
}

/// splitmix64: a seed names a test forever.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_and_index_name_the_same_mazes_and_sizes_grow() {
        let options = Options {
            seed: 7,
            max_rows: 12,
            max_cols: 9,
            family: Family::Mix,
            mazes_per_input: 2,
        };
        for index in [0, 5, 300] {
            assert_eq!(test_input(&options, index), test_input(&options, index));
        }
        let first: usize = (0..20)
            .map(|i| test_input(&options, i)[0].cell_count())
            .max()
            .unwrap_or(0);
        assert!(first <= 16, "early tests are tiny: {first}");
        for index in 0..500 {
            for grid in test_input(&options, index) {
                assert!(grid.rows <= 12 && grid.cols <= 9 && grid.cell_count() >= 3);
                let rows = grid.to_rows();
                assert_eq!(
                    Grid::from_rows(&rows).as_ref(),
                    Some(&grid),
                    "valid: {rows:?}"
                );
            }
        }
    }
}
