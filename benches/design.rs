//! Design tools: the exact hardest placement (free and keeping the target) and the
//! difficulty map on rooms and caves of 12², 20², 50² and 100², each against one
//! `solve` of the same maze (at that hardest placement) measured in the same run; brute force (one solve per
//! placement) where it is feasible; and `gen --hardest` of a 12×12 maze.
//!
//! ```sh
//! cargo bench --bench design
//! cargo bench --bench design -- caves 100   # the rows naming every word given
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

use std::hint::black_box;
use std::time::{Duration, Instant};

use boxls::design::{difficulty_map, hardest};
use boxls::gen::{generate, Family, GenOptions};
use boxls::maze::Grid;
use boxls::solver::solve_path;

/// The median time of `f` over enough runs to fill about `budget` (at least 3 runs).
fn timed<T>(budget: Duration, mut f: impl FnMut() -> T) -> Duration {
    let mut times = Vec::new();
    let started = Instant::now();
    while times.len() < 3 || (started.elapsed() < budget && times.len() < 1000) {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// Every (S, B) with the target kept, one solve each: the brute force of keep-target.
fn brute_keep_target(grid: &Grid) -> (u64, u64) {
    let free: Vec<usize> = (0..grid.cell_count()).filter(|&c| !grid.walls[c]).collect();
    let mut best = (0, 0);
    for &b in free.iter().filter(|&&b| b != grid.target) {
        for &s in free.iter().filter(|&&s| s != grid.target && s != b) {
            let placed = Grid {
                player: s,
                boxed: b,
                ..grid.clone()
            };
            if let Some(sol) = solve_path(&placed) {
                best = best.max((sol.pushes, sol.moves));
            }
        }
    }
    best
}

/// Every (T, B, S), one solve each.
fn brute_full(grid: &Grid) -> (u64, u64) {
    let free: Vec<usize> = (0..grid.cell_count()).filter(|&c| !grid.walls[c]).collect();
    free.iter()
        .map(|&t| {
            brute_keep_target(&Grid {
                target: t,
                player: usize::MAX,
                boxed: usize::MAX,
                ..grid.clone()
            })
        })
        .max()
        .unwrap_or((0, 0))
}

fn main() {
    // `cargo bench --bench design -- caves 100` runs the rows naming all of those words.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!("| maze | free cells | one solve | hardest | ratio | keeping T | ratio | map | ratio | brute force |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for size in [12, 20, 50, 100] {
        for family in [Family::Rooms, Family::Caves] {
            let name = format!("{family} {size}");
            if !only.iter().all(|word| name.split(' ').any(|w| w == word)) {
                continue;
            }
            let options = GenOptions {
                rows: size,
                cols: size,
                family,
                ..GenOptions::default()
            };
            // At its hardest placement: the baseline solve and the map are then those of
            // the maze a designer ends with (a random placement often solves in a push).
            let layout = generate(7, &options).grid;
            let grid = hardest(&layout, false).unwrap().unwrap().apply(&layout);
            let free = grid.walls.iter().filter(|w| !**w).count();
            let budget = Duration::from_millis(if size >= 100 { 3000 } else { 600 });
            let solve = timed(budget, || solve_path(&grid));
            let full = timed(budget, || hardest(&grid, false).unwrap());
            let keep = timed(budget, || hardest(&grid, true).unwrap());
            let map = timed(budget, || difficulty_map(&grid).unwrap());
            let ratio = |d: Duration| format!("{:.0}×", d.as_secs_f64() / solve.as_secs_f64());
            let brute = if size <= 12 {
                let t = Instant::now();
                let expected = brute_full(&grid);
                let found = hardest(&grid, false).unwrap().map(|p| (p.pushes, p.moves));
                assert_eq!(found, Some(expected));
                format!("{} (all T, B, S)", ms(t.elapsed()))
            } else if size <= 20 {
                let t = Instant::now();
                let expected = brute_keep_target(&grid);
                let found = hardest(&grid, true).unwrap().map(|p| (p.pushes, p.moves));
                assert_eq!(found, Some(expected));
                format!("{} (keeping T)", ms(t.elapsed()))
            } else {
                "—".to_string()
            };
            println!(
                "| {family} {size}×{size} | {free} | {} | {} | {} | {} | {} | {} | {} | {brute} |",
                ms(solve),
                ms(full),
                ratio(full),
                ms(keep),
                ratio(keep),
                ms(map),
                ratio(map),
            );
        }
    }
    if !only.is_empty() && !only.iter().any(|word| word == "gen") {
        return;
    }
    // `gen --hardest` of a 12×12 maze: the layout, the exact placement, the solve.
    let options = GenOptions {
        hardest: true,
        ..GenOptions::default()
    };
    let mut seed = 0;
    let per_maze = timed(Duration::from_secs(2), || {
        seed += 1;
        generate(seed, &options)
    });
    println!();
    println!(
        "gen --hardest, 12×12 rooms: {} per maze (median of {} seeds' runs)",
        ms(per_maze),
        seed
    );
}
