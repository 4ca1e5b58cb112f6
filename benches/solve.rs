//! Solver throughput: `boxls::solver::solve_path` (what `boxls solve` runs) against the reference solver of the
//! differential tests, on 2,000 generated 20×20 mazes (fixed seed, mostly solvable).
//!
//! ```sh
//! cargo bench --bench solve                          # both times and the ratio
//! cargo bench --bench solve -- --write mazes.box     # also write the mazes as a .box file
//! BOXLS_BENCH_WRITE=mazes.box cargo bench --bench solve
//! time ./target/release/boxls solve mazes.box > /dev/null
//! ```
//!
//! Without cargo's `--bench` flag (as under `cargo test --benches`) it does nothing,
//! so test runs stay fast.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

#[allow(dead_code)]
#[path = "../tests/it/generate.rs"]
mod generate;
#[allow(dead_code)]
#[path = "../tests/it/reference.rs"]
mod reference;

use std::hint::black_box;
use std::time::{Duration, Instant};

use boxls::maze::Grid;
use boxls::solver::solve_path;
use generate::{Placement, Rng};

const MAZES: usize = 2_000;
const SIZE: (usize, usize) = (20, 20);
const SEED: u64 = 0x50_1BE5_2000;
/// Timed runs of the (fast) solver; the best one is reported.
const SOLVER_RUNS: usize = 5;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|arg| arg == "--bench") {
        println!("solve bench: skipped (run it with `cargo bench --bench solve`)");
        return;
    }
    let grids = mazes();
    if let Some(path) = write_path(&args) {
        std::fs::write(&path, generate::render_file(&grids))
            .unwrap_or_else(|error| panic!("cannot write {path}: {error}"));
        println!("wrote {} mazes to {path}", grids.len());
    }
    let (solver_time, solved) = best_of(SOLVER_RUNS, || time_solver(&grids));
    let (reference_time, reference_solved) = time_reference(&grids);
    assert_eq!(
        solved, reference_solved,
        "the solvers disagree: run the tests"
    );
    println!(
        "{} mazes of {}x{}, {solved} solvable",
        grids.len(),
        SIZE.0,
        SIZE.1
    );
    println!("boxls::solver::solve_path {solver_time:>10.1?}  (best of {SOLVER_RUNS})");
    println!("reference (Dijkstra)  {reference_time:>10.1?}");
    println!(
        "ratio                 {:>9.1}x faster",
        reference_time.as_secs_f64() / solver_time.as_secs_f64()
    );
}

/// The bench's mazes: random styles, the box mostly pulled away from the target.
fn mazes() -> Vec<Grid> {
    let mut rng = Rng::new(SEED);
    (0..MAZES)
        .map(|_| {
            let style = generate::STYLES[rng.below(generate::STYLES.len())];
            let placement = if rng.below(5) == 0 {
                Placement::Region
            } else {
                Placement::Pulled
            };
            generate::generate(&mut rng, style, placement, SIZE)
        })
        .collect()
}

/// `--write PATH` among the arguments, else `BOXLS_BENCH_WRITE`.
fn write_path(args: &[String]) -> Option<String> {
    args.iter()
        .position(|arg| arg == "--write")
        .and_then(|at| args.get(at + 1).cloned())
        .or_else(|| std::env::var("BOXLS_BENCH_WRITE").ok())
}

fn best_of(runs: usize, mut run: impl FnMut() -> (Duration, usize)) -> (Duration, usize) {
    (0..runs)
        .map(|_| run())
        .min_by_key(|&(time, _)| time)
        .expect("at least one run")
}

/// Time to solve every maze, and how many were solvable.
fn time_solver(grids: &[Grid]) -> (Duration, usize) {
    let start = Instant::now();
    let solved = grids
        .iter()
        .filter(|grid| solve_path(black_box(grid)).is_some())
        .count();
    (start.elapsed(), solved)
}

fn time_reference(grids: &[Grid]) -> (Duration, usize) {
    let start = Instant::now();
    let solved = grids
        .iter()
        .filter(|grid| reference::solve(black_box(grid)).is_some())
        .count();
    (start.elapsed(), solved)
}
