//! Design tools: the exact hardest placement (free and keeping the target) and the
//! difficulty map on rooms and caves of 12², 20², 50² and 100², each against one
//! `solve` of the same maze (at that hardest placement) measured in the same run; brute force (one solve per
//! placement) where it is feasible; and `gen --hardest` of a 12×12 maze against one
//! Taylor–Parberry generation of that size (`baseline/taylor_parberry.rs`), with the
//! pushes its start gets against the exact hardest placement on 40 of its levels.
//!
//! ```sh
//! cargo bench --bench design
//! cargo bench --bench design -- caves 100   # the rows naming every word given
//! cargo bench --bench design -- taylor      # only gen --hardest and Taylor–Parberry
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

#[path = "baseline/taylor_parberry.rs"]
mod taylor_parberry;

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

/// The median times of `base` and `f`, run in turn until about `budget` is filled (at
/// least 3 runs each), so that both see the same load on a shared machine: their
/// ratio is what the goals are about, and apart they drift with whatever else runs.
fn paired<A, B>(
    budget: Duration,
    mut base: impl FnMut() -> A,
    mut f: impl FnMut() -> B,
) -> (Duration, Duration) {
    let (mut bases, mut times) = (Vec::new(), Vec::new());
    let started = Instant::now();
    while times.len() < 3 || (started.elapsed() < budget && times.len() < 1000) {
        let t = Instant::now();
        black_box(base());
        bases.push(t.elapsed());
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
    }
    bases.sort();
    times.sort();
    (bases[bases.len() / 2], times[times.len() / 2])
}

/// A ratio with a decimal while it is small: a goal of 3× is not met by 3.4×.
fn times(ratio: f64) -> String {
    if ratio < 10.0 {
        format!("{ratio:.1}×")
    } else {
        format!("{ratio:.0}×")
    }
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
            // Each against the solve timed in turn with it; the column shows the map's.
            let solve = || solve_path(&grid);
            let ratio =
                |(base, d): (Duration, Duration)| (d, times(d.as_secs_f64() / base.as_secs_f64()));
            let (full, full_ratio) =
                ratio(paired(budget, solve, || hardest(&grid, false).unwrap()));
            let (keep, keep_ratio) = ratio(paired(budget, solve, || hardest(&grid, true).unwrap()));
            let (solve, map) = paired(budget, solve, || difficulty_map(&grid).unwrap());
            let map_ratio = times(map.as_secs_f64() / solve.as_secs_f64());
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
                full_ratio,
                ms(keep),
                keep_ratio,
                ms(map),
                map_ratio,
            );
        }
    }
    if !only.is_empty() && !only.iter().any(|word| word == "gen" || word == "taylor") {
        return;
    }
    // `gen --hardest` of a 12×12 maze: the layout, the exact placement, the solve; and
    // of a 14×14 one, the outer size of a Taylor–Parberry level of 4×4 blocks.
    println!();
    let gen_hardest = |size: usize| {
        let options = GenOptions {
            rows: size,
            cols: size,
            hardest: true,
            ..GenOptions::default()
        };
        let mut seed = 0;
        let per_maze = timed(Duration::from_secs(2), || {
            seed += 1;
            generate(seed, &options)
        });
        println!(
            "gen --hardest, {size}×{size} rooms: {} per maze (median of {seed} seeds' runs)",
            ms(per_maze),
        );
        per_maze
    };
    let gen_12 = gen_hardest(12);
    let gen_14 = gen_hardest(14);
    taylor_parberry_section(gen_12, gen_14);
}

/// One Taylor–Parberry generation of a 12×12 room (4×4 blocks; 14×14 with its wall)
/// against `gen --hardest` measured just before, and the pushes its farthest-state
/// start gets on 40 of its levels against the exact hardest placement of each.
fn taylor_parberry_section(gen_12: Duration, gen_14: Duration) {
    let mut seed = 0;
    let per_level = timed(Duration::from_secs(2), || {
        seed += 1;
        taylor_parberry::generate(seed)
    });
    let side = taylor_parberry::SIDE;
    println!(
        "Taylor–Parberry, one box, {0}×{0} blocks ({1}×{1} room, {2}×{2} with its wall): {3} per level (median of {seed} seeds' runs)",
        taylor_parberry::BLOCKS,
        taylor_parberry::BLOCKS * 3,
        side,
        ms(per_level),
    );
    let times = |d: Duration| per_level.as_secs_f64() / d.as_secs_f64();
    println!(
        "one Taylor–Parberry level takes {:.1}× gen --hardest 12×12 and {:.1}× gen --hardest 14×14",
        times(gen_12),
        times(gen_14),
    );
    taylor_parberry_levels();
}

/// 40 Taylor–Parberry levels, each checked: its start's pushes against boxls's exact
/// hardest placement of the same walls (keeping its target, and free), and the searches
/// alone timed on those walls.
fn taylor_parberry_levels() {
    const LEVELS: u64 = 40;
    let mut pushes = Vec::new();
    let mut rejected = 0;
    let mut searches: [Vec<Duration>; 3] = Default::default();
    for seed in 1..=LEVELS {
        let level = taylor_parberry::generate(seed);
        check_level(&level.grid);
        rejected += level.rejected_rooms;
        let start = solve_path(&level.grid).expect("the farthest state is solvable");
        // The search's depth is the start's fewest pushes: pulls undo pushes one for one.
        assert_eq!(start.pushes, level.depth, "seed {seed}");
        assert!((1..=level.depth).contains(&level.box_lines), "seed {seed}");
        let keep = hardest(&level.grid, true).unwrap().unwrap().pushes;
        let free = hardest(&level.grid, false).unwrap().unwrap().pushes;
        // The start is one placement with that target, so the exact ones are at least it.
        assert!(keep >= start.pushes && free >= keep, "seed {seed}");
        // Its layers are the pushes of every start with that goal: the deepest is the
        // most, which the score passes over when it prefers box lines.
        assert_eq!(level.deepest, keep, "seed {seed}");
        pushes.push((start.pushes, keep, free));
        // The searches alone on the same walls: the farthest state, boxls's two.
        let floor: Vec<bool> = level.grid.walls.iter().map(|w| !w).collect();
        let budget = Duration::from_millis(50);
        let target = level.grid.target;
        searches[0].push(timed(budget, || {
            taylor_parberry::farthest_state(&floor, target)
        }));
        searches[1].push(timed(budget, || hardest(&level.grid, true).unwrap()));
        searches[2].push(timed(budget, || hardest(&level.grid, false).unwrap()));
    }
    for times in &mut searches {
        times.sort();
    }
    let reach = |f: fn(&(u64, u64, u64)) -> bool| pushes.iter().filter(|p| f(p)).count();
    let median = |f: fn(&(u64, u64, u64)) -> u64| {
        let mut v: Vec<u64> = pushes.iter().map(f).collect();
        v.sort_unstable();
        (v[v.len() / 2 - 1] + v[v.len() / 2]) as f64 / 2.0
    };
    println!(
        "on {LEVELS} Taylor–Parberry levels (seeds 1–{LEVELS}; {:.1} rooms rejected per level): its start has the most pushes for its target on {} ({} with the target free too); median pushes {} (start), {} (hardest keeping T), {} (hardest)",
        f64::from(rejected) / LEVELS as f64,
        reach(|p| p.0 == p.1),
        reach(|p| p.0 == p.2),
        median(|p| p.0),
        median(|p| p.1),
        median(|p| p.2),
    );
    println!(
        "the searches alone on those levels' walls (medians): the farthest state {}, boxls's hardest keeping T {}, hardest {}",
        ms(searches[0][LEVELS as usize / 2]),
        ms(searches[1][LEVELS as usize / 2]),
        ms(searches[2][LEVELS as usize / 2]),
    );
    let listed: Vec<String> = pushes
        .iter()
        .map(|(start, keep, free)| format!("{start}→{keep}→{free}"))
        .collect();
    println!(
        "pushes, start → keeping T → free, by seed: {}",
        listed.join(" ")
    );
    println!("seed 1's level:");
    for row in taylor_parberry::generate(1).grid.to_rows() {
        println!("    {row}");
    }
}

/// A Taylor–Parberry level is a maze boxls takes: walled in, its free cells one
/// region, S, B and T on three distinct free cells.
fn check_level(grid: &Grid) {
    let (rows, cols) = (grid.rows, grid.cols);
    for cell in 0..grid.cell_count() {
        let (r, c) = grid.coords(cell);
        if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
            assert!(grid.walls[cell], "not walled in at {r},{c}");
        }
    }
    let placed = [grid.player, grid.boxed, grid.target];
    assert!(placed.iter().all(|&c| !grid.walls[c]));
    assert!(grid.player != grid.boxed && grid.boxed != grid.target && grid.player != grid.target);
    let mut seen = vec![false; grid.cell_count()];
    let mut stack = vec![grid.player];
    seen[grid.player] = true;
    while let Some(cell) = stack.pop() {
        for next in [cell - cols, cell + 1, cell + cols, cell - 1] {
            if !grid.walls[next] && !seen[next] {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    assert!(
        (0..grid.cell_count()).all(|c| grid.walls[c] || seen[c]),
        "free cells not connected"
    );
}
