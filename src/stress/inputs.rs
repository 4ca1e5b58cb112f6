//! The inputs `boxls stress` runs a program on, made by `gen`: test `i` of a seed is
//! always the same mazes. Sizes grow from the smallest `gen` makes (3×5, the border
//! included) to the maximum over the first tests, so the first failures found are
//! small; the default family is `gen`'s mix, traps included.
//!
//! A trap maze costs `gen` thousands of layouts, far more than running a program once,
//! so trap mazes come from a pool of at most [`TRAP_SLOTS`] (of the maximum size),
//! each made once per run (by whichever thread needs it first) and shown in one of its
//! eight mirror images and rotations: a trap stays a trap in each, since `gen` keeps a
//! trap maze only when every order of the four directions falls into it. While sizes
//! still grow, a test whose trap does not fit gets an ordinary maze instead. Which
//! slot and which image a test gets depends on the seed and the test only, never on
//! which thread made what first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::gen::{self, Family, GenOptions};
use crate::maze::Grid;
use crate::solver::{self, Solution};

/// What the inputs look like.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub seed: u64,
    pub max_rows: usize,
    pub max_cols: usize,
    /// `None`: each maze's family picked by its seed (every family, traps included).
    pub family: Option<Family>,
    pub mazes_per_input: usize,
}

/// The smallest maze `gen` makes.
pub const MIN_ROWS: usize = 3;
pub const MIN_COLS: usize = 5;

/// How many tests it takes for sizes to reach the maximum.
const RAMP: u64 = 25;

/// Trap mazes made at most per run (`gen` cycles through its traps by seed, so every
/// trap has the same share of them): one of each trap at first, one more every
/// `TESTS_PER_NEW_SLOT` tests, so making them costs a small share of the runs
/// (about 30 ms each against 128 runs of a 2 ms program) and long runs see more.
pub const TRAP_SLOTS: u64 = 48;
const FIRST_TRAP_SLOTS: u64 = 6;
const TESTS_PER_NEW_SLOT: u64 = 128;

/// One test's mazes and their optima (what judging an answer needs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub grids: Vec<Grid>,
    pub optima: Vec<Option<Solution>>,
}

/// The inputs of one run, with the trap mazes made so far. Shared by the threads
/// making tests ahead.
pub struct Inputs {
    options: Options,
    traps: Mutex<HashMap<u64, Arc<OnceLock<Grid>>>>,
}

impl Inputs {
    pub fn new(options: Options) -> Inputs {
        Inputs {
            options,
            traps: Mutex::new(HashMap::new()),
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The mazes of test `index` (0-based), with their optima.
    pub fn test(&self, index: u64) -> Input {
        let count = self.options.mazes_per_input.max(1) as u64;
        let (grids, optima) = (0..count)
            .map(|j| self.maze(index, gen::maze_seed(self.options.seed, index * count + j)))
            .unzip();
        Input { grids, optima }
    }

    fn maze(&self, index: u64, seed: u64) -> (Grid, Option<Solution>) {
        let options = &self.options;
        let mut rng = seed ^ 0x5354_5245_5353_u64;
        let reach = |min: usize, max: usize| {
            let max = max.max(min);
            min + ((max - min) as u64 * index.min(RAMP) / RAMP) as usize
        };
        let (reach_rows, reach_cols) = (
            reach(MIN_ROWS, options.max_rows),
            reach(MIN_COLS, options.max_cols),
        );
        let rows = MIN_ROWS + (splitmix(&mut rng) % (reach_rows - MIN_ROWS + 1) as u64) as usize;
        let cols = MIN_COLS + (splitmix(&mut rng) % (reach_cols - MIN_COLS + 1) as u64) as usize;
        let mut family = options.family.unwrap_or_else(|| Family::mixed(seed));
        if family == Family::Traps {
            let slots = TRAP_SLOTS.min(FIRST_TRAP_SLOTS + index / TESTS_PER_NEW_SLOT);
            let slot = splitmix(&mut rng) % slots;
            let image = splitmix(&mut rng) % 8;
            let pooled = self.trap(slot);
            let grid = mirrored(&pooled, image, reach_rows, reach_cols);
            if grid.rows <= reach_rows && grid.cols <= reach_cols {
                let optimum = solver::solve_path(&grid);
                return (grid, optimum);
            }
            // Still too small for this trap: an ordinary maze of the test's size.
            family = Family::ALL[(seed % 4) as usize];
        }
        let generated = gen::generate(
            seed,
            &GenOptions {
                rows,
                cols,
                family,
                ..GenOptions::default()
            },
        );
        (generated.grid, generated.solution)
    }

    /// The trap maze of `slot` (within the maximum size), made on first use (a thread
    /// asking while another makes it waits for that one).
    fn trap(&self, slot: u64) -> Grid {
        let cell = match self.traps.lock() {
            Ok(mut traps) => Arc::clone(traps.entry(slot).or_default()),
            // A thread panicked holding the lock: make the maze without the pool.
            Err(_) => Arc::new(OnceLock::new()),
        };
        let seed = gen::maze_seed(self.options.seed ^ 0x7472_6170_u64, slot);
        cell.get_or_init(|| {
            gen::generate(
                seed,
                &GenOptions {
                    rows: self.options.max_rows,
                    cols: self.options.max_cols,
                    family: Family::Traps,
                    ..GenOptions::default()
                },
            )
            .grid
        })
        .clone()
    }
}

/// The mazes of test `index` (0-based), without a pool (every trap maze made anew).
pub fn test_input(options: &Options, index: u64) -> Vec<Grid> {
    Inputs::new(*options).test(index).grids
}

/// `grid` in image `image` of 8: bit 0 flips the rows, bit 1 the columns, bit 2
/// transposes (skipped when only the maze as it is fits `max_rows × max_cols`).
fn mirrored(grid: &Grid, image: u64, max_rows: usize, max_cols: usize) -> Grid {
    let fits = |rows: usize, cols: usize| rows <= max_rows && cols <= max_cols;
    let transpose = image & 4 != 0 && (fits(grid.cols, grid.rows) || !fits(grid.rows, grid.cols));
    let (rows, cols) = if transpose {
        (grid.cols, grid.rows)
    } else {
        (grid.rows, grid.cols)
    };
    // Where cell `cell` of `grid` goes.
    let place = |cell: usize| {
        let (mut r, mut c) = grid.coords(cell);
        if image & 1 != 0 {
            r = grid.rows - 1 - r;
        }
        if image & 2 != 0 {
            c = grid.cols - 1 - c;
        }
        if transpose {
            (r, c) = (c, r);
        }
        r * cols + c
    };
    let mut walls = vec![true; rows * cols];
    for (cell, &wall) in grid.walls.iter().enumerate() {
        walls[place(cell)] = wall;
    }
    Grid {
        rows,
        cols,
        walls,
        player: place(grid.player),
        boxed: place(grid.boxed),
        target: place(grid.target),
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(family: Option<Family>) -> Options {
        Options {
            seed: 7,
            max_rows: 12,
            max_cols: 9,
            family,
            mazes_per_input: 2,
        }
    }

    #[test]
    fn a_seed_and_index_name_the_same_mazes_and_sizes_grow() {
        let options = options(None);
        let inputs = Inputs::new(options);
        for index in [0, 5, 300] {
            assert_eq!(test_input(&options, index), test_input(&options, index));
            assert_eq!(inputs.test(index).grids, test_input(&options, index));
        }
        let first = (0..5)
            .flat_map(|i| test_input(&options, i))
            .map(|grid| grid.cell_count())
            .max()
            .unwrap_or(0);
        assert!(first <= 4 * 6, "early tests are tiny: {first}");
        for index in 0..200 {
            let input = inputs.test(index);
            for (grid, optimum) in input.grids.iter().zip(&input.optima) {
                assert!(
                    grid.rows <= 12 && grid.cols <= 9,
                    "{}×{}",
                    grid.rows,
                    grid.cols
                );
                let rows = grid.to_rows();
                assert_eq!(
                    Grid::from_rows(&rows).as_ref(),
                    Some(grid),
                    "valid: {rows:?}"
                );
                assert_eq!(optimum, &solver::solve_path(grid), "{rows:?}");
            }
        }
    }

    #[test]
    fn trap_mazes_come_from_the_pool_in_every_image_and_the_order_of_making_does_not_matter() {
        let options = options(Some(Family::Traps));
        let forward = Inputs::new(options);
        let backward = Inputs::new(options);
        let tests: Vec<Input> = (0..120).map(|i| forward.test(i)).collect();
        for index in (0..120).rev() {
            assert_eq!(backward.test(index), tests[index as usize], "test {index}");
        }
        let made = forward.traps.lock().map(|pool| pool.len()).unwrap_or(0) as u64;
        assert_eq!(made, FIRST_TRAP_SLOTS, "the first slots only, so early");
        let distinct: std::collections::HashSet<&Grid> =
            tests.iter().flat_map(|t| &t.grids).collect();
        assert!(
            distinct.len() as u64 > made,
            "images add variety: {}",
            distinct.len()
        );
    }

    #[test]
    fn a_mirror_image_keeps_the_optimal_counts() {
        let grid =
            Grid::from_rows(&["######", "#S.#.#", "#.B..#", "#...T#", "######"]).expect("valid");
        let counts = |g: &Grid| solver::solve_path(g).map(|s| (s.pushes, s.moves));
        let mut images = std::collections::HashSet::new();
        for image in 0..8 {
            let mirrored = mirrored(&grid, image, 6, 6);
            assert_eq!(counts(&mirrored), counts(&grid), "image {image}");
            assert_eq!(
                mirrored.walls.iter().filter(|&&w| !w).count(),
                grid.walls.iter().filter(|&&w| !w).count()
            );
            images.insert(mirrored.to_rows());
        }
        assert_eq!(images.len(), 8, "eight different images");
        // Transposing a 5×6 maze into 6 rows does not fit 5 rows: four images only.
        let narrow: std::collections::HashSet<_> =
            (0..8).map(|i| mirrored(&grid, i, 5, 6).to_rows()).collect();
        assert_eq!(narrow.len(), 4);
    }
}
