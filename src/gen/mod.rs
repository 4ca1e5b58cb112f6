//! The maze generator, pure and deterministic: the same seed and options give the same
//! maze for a given boxls version (its own PRNG, no floating point).
//!
//! A maze is a family's wall layout (every free cell connected) with S, B and T either
//! placed at random until solvable or, with `hardest`, at the exact hardest placement
//! ([`crate::design::hardest`]). `Traps` makes small mazes that defeat one classic
//! wrong algorithm each (SPEC §1), impossible ones included.

mod anneal;
mod layout;
pub mod rng;
mod traps;

use std::fmt;

use crate::design::{self, Metrics};
use crate::maze::Grid;
use crate::solver::{solve_path, Solution};
use rng::Rng;

pub use traps::Trap;

/// The kind of wall layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Open floor with scattered pillars.
    Open,
    /// Rooms joined by one-cell doors.
    Rooms,
    /// Smooth irregular caves.
    Caves,
    /// One-cell corridors with a few loops.
    Corridors,
    /// Small mazes that separate the classic wrong algorithms.
    Traps,
}

impl Family {
    pub const ALL: [Family; 5] = [
        Family::Open,
        Family::Rooms,
        Family::Caves,
        Family::Corridors,
        Family::Traps,
    ];

    /// The name `--family` takes.
    pub fn name(self) -> &'static str {
        match self {
            Family::Open => "open",
            Family::Rooms => "rooms",
            Family::Caves => "caves",
            Family::Corridors => "corridors",
            Family::Traps => "traps",
        }
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A family picked by `seed`, for callers that want a mix.
    pub fn mixed(seed: u64) -> Family {
        Family::ALL[Rng::new(seed ^ 0x6d69_7865_6420_6661).below(Family::ALL.len())]
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to generate. Sizes include the border of rock; they are raised to 3 rows and
/// 5 columns at least, and `hardest` falls back to a random placement above
/// [`design::MAX_CELLS`] cells.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GenOptions {
    pub rows: usize,
    pub cols: usize,
    pub family: Family,
    /// Rock density in percent for the family's random part (pillars, cave fill, loops
    /// knocked out); the family's default when `None`.
    pub walls: Option<u32>,
    /// Try new layouts until the optimum has this many pushes (the best of
    /// [`MAX_ATTEMPTS`] is returned otherwise; see [`Generated::attempts`]).
    pub min_pushes: u64,
    /// Place S, B and T at the exact hardest placement.
    pub hardest: bool,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            rows: 12,
            cols: 12,
            family: Family::Rooms,
            walls: None,
            min_pushes: 0,
            hardest: false,
        }
    }
}

/// Layouts tried for one maze at most.
pub const MAX_ATTEMPTS: u32 = 200;

/// One generated maze.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    pub seed: u64,
    pub family: Family,
    pub grid: Grid,
    /// The optimal solution; `None` when the maze is impossible (only traps are).
    pub solution: Option<Solution>,
    pub metrics: Option<Metrics>,
    /// For the `Traps` family: the wrong algorithm this maze defeats.
    pub trap: Option<Trap>,
    /// Layouts tried (more than one when a layout had no solvable placement or too few
    /// pushes).
    pub attempts: u32,
}

impl Generated {
    pub fn pushes(&self) -> u64 {
        self.solution.as_ref().map_or(0, |s| s.pushes)
    }
}

/// The seed of maze `index` (0-based) of a run started with `seed`.
pub fn maze_seed(seed: u64, index: u64) -> u64 {
    seed.wrapping_add(index)
}

/// Generates one maze from `seed`.
pub fn generate(seed: u64, options: &GenOptions) -> Generated {
    let rows = options.rows.max(3);
    let cols = options.cols.max(5);
    if options.family == Family::Traps {
        return traps::generate(seed, rows, cols);
    }
    let percent = options
        .walls
        .unwrap_or_else(|| layout::default_percent(options.family))
        .min(100);
    let mut rng = Rng::new(seed);
    let mut best: Option<Generated> = None;
    for attempt in 1..=MAX_ATTEMPTS {
        let walls = layout::layout(&mut rng, options.family, rows, cols, percent);
        let Some(grid) = place(&mut rng, walls, rows, cols, options.hardest) else {
            continue;
        };
        let candidate = finish(seed, options.family, grid, None, attempt);
        if best
            .as_ref()
            .is_none_or(|b| candidate.pushes() > b.pushes())
        {
            best = Some(candidate);
        }
        if best
            .as_ref()
            .is_some_and(|b| b.pushes() >= options.min_pushes.max(1))
        {
            break;
        }
    }
    if let Some(mut best) = best {
        best.attempts = best.attempts.max(1);
        return best;
    }
    // No layout of this size had a solvable placement (a tiny or nearly solid maze):
    // an open floor of the same size always has one once it has room.
    let walls = layout::layout(&mut rng, Family::Open, rows, cols, 0);
    let grid = place(&mut rng, walls.clone(), rows, cols, true)
        .unwrap_or_else(|| any_placement(walls, rows, cols));
    finish(seed, Family::Open, grid, None, MAX_ATTEMPTS)
}

/// `generated` with its walls annealed while `keep_going(steps so far)` says so (walls
/// flipped one at a time, free cells kept connected), at its hardest placement, never
/// worse than it was. A time bound makes the result depend on the machine; a step
/// bound keeps it reproducible.
pub fn anneal(generated: &Generated, keep_going: &mut dyn FnMut(u64) -> bool) -> Generated {
    let grid = anneal::anneal(&generated.grid, generated.seed, keep_going);
    let annealed = finish(
        generated.seed,
        generated.family,
        grid,
        generated.trap,
        generated.attempts,
    );
    let score = |g: &Generated| g.solution.as_ref().map(|s| (s.pushes, s.moves));
    if score(&annealed) >= score(generated) {
        annealed
    } else {
        generated.clone()
    }
}

fn finish(seed: u64, family: Family, grid: Grid, trap: Option<Trap>, attempts: u32) -> Generated {
    let solution = solve_path(&grid);
    let metrics = solution.as_ref().map(|s| design::metrics(&s.path));
    Generated {
        seed,
        family,
        grid,
        solution,
        metrics,
        trap,
        attempts,
    }
}

/// S, B and T on the layout: the hardest placement, or random ones until one is
/// solvable (a few tries); `None` when none was found.
fn place(rng: &mut Rng, walls: Vec<bool>, rows: usize, cols: usize, hardest: bool) -> Option<Grid> {
    let free: Vec<usize> = (0..walls.len()).filter(|&c| !walls[c]).collect();
    if free.len() < 3 {
        return None;
    }
    let grid = Grid {
        rows,
        cols,
        walls,
        player: free[0],
        boxed: free[1],
        target: free[2],
    };
    if hardest && grid.cell_count() <= design::MAX_CELLS {
        return design::hardest(&grid, false)
            .ok()
            .flatten()
            .map(|placement| placement.apply(&grid));
    }
    for _ in 0..32 {
        let target = free[rng.below(free.len())];
        let boxed = free[rng.below(free.len())];
        let player = free[rng.below(free.len())];
        if target == boxed || player == boxed || player == target {
            continue;
        }
        let placed = Grid {
            player,
            boxed,
            target,
            ..grid.clone()
        };
        if solve_path(&placed).is_some() {
            return Some(placed);
        }
    }
    None
}

/// The first three free cells (or, for a layout without three, the first cells made free).
fn any_placement(mut walls: Vec<bool>, rows: usize, cols: usize) -> Grid {
    let mut free: Vec<usize> = (0..walls.len()).filter(|&c| !walls[c]).collect();
    for cell in cols + 1.. {
        if free.len() >= 3 || cell >= walls.len() {
            break;
        }
        if walls[cell] && cell % cols != 0 && cell % cols != cols - 1 {
            walls[cell] = false;
            free.push(cell);
        }
    }
    free.sort_unstable();
    Grid {
        rows,
        cols,
        walls,
        player: free.first().copied().unwrap_or(0),
        boxed: free.get(1).copied().unwrap_or(0),
        target: free.get(2).copied().unwrap_or(0),
    }
}
