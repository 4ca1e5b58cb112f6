//! The inputs `boxls stress` runs a program on, made by `gen`: test `i` of a seed is
//! always the same mazes. Sizes grow from the smallest `gen` makes (3×5, the border
//! included) to the maximum over the first tests, so the first failures found are
//! small; the default family is `gen`'s mix, traps included.

use crate::gen::{self, Family, GenOptions};
use crate::maze::Grid;

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

/// The mazes of test `index` (0-based).
pub fn test_input(options: &Options, index: u64) -> Vec<Grid> {
    let count = options.mazes_per_input.max(1) as u64;
    (0..count)
        .map(|j| {
            maze(
                options,
                index,
                gen::maze_seed(options.seed, index * count + j),
            )
        })
        .collect()
}

fn maze(options: &Options, index: u64, seed: u64) -> Grid {
    let mut rng = seed ^ 0x5354_5245_5353_u64;
    let mut grow = |min: usize, max: usize| {
        let max = max.max(min);
        let reach = min + ((max - min) as u64 * index.min(RAMP) / RAMP) as usize;
        min + (splitmix(&mut rng) % (reach - min + 1) as u64) as usize
    };
    let rows = grow(MIN_ROWS, options.max_rows);
    let cols = grow(MIN_COLS, options.max_cols);
    let family = options.family.unwrap_or_else(|| Family::mixed(seed));
    let generated = gen::generate(
        seed,
        &GenOptions {
            rows,
            cols,
            family,
            ..GenOptions::default()
        },
    );
    generated.grid
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

    #[test]
    fn a_seed_and_index_name_the_same_mazes_and_sizes_grow() {
        let options = Options {
            seed: 7,
            max_rows: 12,
            max_cols: 9,
            family: None,
            mazes_per_input: 2,
        };
        for index in [0, 5, 300] {
            assert_eq!(test_input(&options, index), test_input(&options, index));
        }
        let first = (0..5)
            .flat_map(|i| test_input(&options, i))
            .map(|grid| grid.cell_count())
            .max()
            .unwrap_or(0);
        assert!(first <= 4 * 6, "early tests are tiny: {first}");
        for index in 0..200 {
            for grid in test_input(&options, index) {
                assert!(
                    grid.rows <= 12 && grid.cols <= 9,
                    "{}×{}",
                    grid.rows,
                    grid.cols
                );
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
