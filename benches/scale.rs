//! Scale: boxls's exact solver against the floor no exact solver can beat — one plain
//! breadth-first search over the same grid — on (a) 2,000 mazes up to 20×20 (also
//! against the reference solver of the tests), (b) open rooms with sparse pillars and
//! (c) corridor mazes with loops at 500², 1000² and 2000²; peak heap per cell; what the
//! server runs per maze (the solve plus dead squares) at the largest size; and how fast
//! a superseded 2000×2000 solve stops.
//!
//! ```sh
//! cargo bench --bench scale            # everything (a few minutes)
//! cargo bench --bench scale -- quick   # sizes up to 1000² only
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

#[allow(dead_code)]
#[path = "../tests/it/generate.rs"]
mod generate;
#[allow(dead_code)]
#[path = "../tests/it/reference.rs"]
mod reference;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::VecDeque;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use boxls::maze::Grid;
use boxls::solver::{analyze, solve, solve_path, Outcome};
use generate::Rng;

/// Counts live heap bytes and their peak, so each solve's peak can be measured.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

#[allow(unsafe_code)] // The bench's counting allocator; `src` has one `unsafe` only (malloc_trim).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result, its time and the heap it added at its peak.
fn measured<T>(f: impl FnOnce() -> T) -> (T, Duration, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let start = Instant::now();
    let out = f();
    let time = start.elapsed();
    (out, time, PEAK.load(Ordering::Relaxed) - base)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|arg| arg == "--bench") {
        println!("scale bench: skipped (run it with `cargo bench --bench scale`)");
        return;
    }
    let sizes: &[usize] = if args.iter().any(|a| a == "quick") {
        &[500, 1000]
    } else {
        &[500, 1000, 2000]
    };
    println!(
        "{:<28} {:>10} {:>10} {:>8} {:>9}  result",
        "maze", "boxls", "BFS", "ratio", "B/cell"
    );
    small_mazes();
    for &size in sizes {
        row(
            &format!("(b) room {size}×{size}"),
            &room(size, 0xB0 + size as u64),
        );
    }
    for &size in sizes {
        row(
            &format!("(c) corridors {size}×{size}"),
            &corridors(size, 0xC0 + size as u64),
        );
    }
    let largest = sizes.iter().copied().max().unwrap_or(500);
    analysis_row(
        &format!("(b) + dead squares {largest}²"),
        &room(largest, 0xB0 + largest as u64),
    );
    analysis_row(
        &format!("(c) + dead squares {largest}²"),
        &corridors(largest, 0xC0 + largest as u64),
    );
    if sizes.contains(&2000) {
        superseded(&room(2000, 0xD0));
    }
}

/// (a): 2,000 mazes of sizes up to 20×20, against BFS and the reference solver. Both
/// answer what `boxls solve` prints (the optimum or "impossible", not why).
fn small_mazes() {
    let mut rng = Rng::new(0xA0);
    let grids: Vec<Grid> = (0..2000)
        .map(|_| {
            let size = generate::size(&mut rng, 20);
            generate::mixed(&mut rng, size)
        })
        .collect();
    let solve_all = || grids.iter().filter(|g| solve_path(g).is_some()).count();
    let (solved, _, peak) = measured(solve_all);
    let time = best_of(3, || {
        let start = Instant::now();
        black_box(solve_all());
        start.elapsed()
    });
    let bfs = best_of(3, || {
        let start = Instant::now();
        for grid in &grids {
            black_box(bfs(grid));
        }
        start.elapsed()
    });
    let start = Instant::now();
    let reference_solved = grids
        .iter()
        .filter(|g| reference::solve(g).is_some())
        .count();
    let reference = start.elapsed();
    assert_eq!(
        solved, reference_solved,
        "the solvers disagree: run the tests"
    );
    let cells = grids.iter().map(Grid::cell_count).max().unwrap_or(1);
    print_row(
        "(a) 2,000 up to 20×20",
        time,
        bfs,
        peak / cells,
        &format!("{solved} solvable"),
    );
    println!(
        "{:<28} {:>10.1?} {:>10} {:>7.1}x  boxls is {:.1}x faster",
        "    reference solver",
        reference,
        "",
        reference.as_secs_f64() / bfs.as_secs_f64(),
        reference.as_secs_f64() / time.as_secs_f64()
    );
}

/// One row of the table: `run` on `grid` against one BFS over it, `describe` says what
/// `run` answered. Both are timed as the best of three runs; the first run of `run` also
/// measures the peak heap.
fn timed_row<T>(name: &str, grid: &Grid, run: impl Fn() -> T, describe: impl Fn(T) -> String) {
    let (out, first, peak) = measured(&run);
    let time = best_of(2, || {
        let start = Instant::now();
        black_box(run());
        start.elapsed()
    })
    .min(first);
    let bfs = best_of(3, || {
        let start = Instant::now();
        black_box(bfs(grid));
        start.elapsed()
    });
    print_row(name, time, bfs, peak / grid.cell_count(), &describe(out));
}

fn row(name: &str, grid: &Grid) {
    timed_row(
        name,
        grid,
        || solve(grid),
        |outcome| match outcome {
            Outcome::Solved(s) => format!("{} pushes, {} moves", s.pushes, s.moves),
            Outcome::Unsolvable(reason) => format!("unsolvable: {reason}"),
        },
    );
}

/// What the server runs per maze: the solve and the dead squares.
fn analysis_row(name: &str, grid: &Grid) {
    let never = AtomicBool::new(false);
    timed_row(
        name,
        grid,
        || analyze(grid, &never),
        |analysis| {
            let dead = analysis.map_or(0, |a| a.dead.iter().filter(|&&d| d).count());
            format!("{dead} dead squares")
        },
    );
}

fn print_row(name: &str, time: Duration, bfs: Duration, bytes_per_cell: usize, result: &str) {
    println!(
        "{name:<28} {time:>10.1?} {bfs:>10.1?} {:>7.1}x {bytes_per_cell:>9}  {result}",
        time.as_secs_f64() / bfs.as_secs_f64()
    );
}

fn best_of(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    (0..runs).map(|_| f()).min().unwrap_or_default()
}

/// The floor: one textbook BFS from the player over the free cells.
fn bfs(grid: &Grid) -> usize {
    let mut dist = vec![u32::MAX; grid.cell_count()];
    let mut queue = VecDeque::new();
    dist[grid.player] = 0;
    queue.push_back(grid.player);
    let mut seen = 1;
    while let Some(cell) = queue.pop_front() {
        let (r, c) = (cell / grid.cols, cell % grid.cols);
        let neighbours = [
            (r > 0).then(|| cell - grid.cols),
            (r + 1 < grid.rows).then(|| cell + grid.cols),
            (c > 0).then(|| cell - 1),
            (c + 1 < grid.cols).then(|| cell + 1),
        ];
        for n in neighbours.into_iter().flatten() {
            if !grid.walls[n] && dist[n] == u32::MAX {
                dist[n] = dist[cell] + 1;
                queue.push_back(n);
                seen += 1;
            }
        }
    }
    seen
}

/// An open room with 2% pillars; S near one corner, B in the middle, T near the other.
fn room(size: usize, seed: u64) -> Grid {
    let mut rng = Rng::new(seed);
    let mut walls: Vec<bool> = (0..size * size)
        .map(|cell| {
            let (r, c) = (cell / size, cell % size);
            r == 0 || c == 0 || r == size - 1 || c == size - 1 || rng.chance(0.02)
        })
        .collect();
    let player = 2 * size + 2;
    let boxed = size / 2 * size + size / 2;
    let target = (size - 4) * size + size - 5;
    for centre in [player, boxed, target] {
        clear_around(&mut walls, size, centre);
    }
    Grid {
        rows: size,
        cols: size,
        walls,
        player,
        boxed,
        target,
    }
}

fn clear_around(walls: &mut [bool], size: usize, centre: usize) {
    let (r, c) = (centre / size, centre % size);
    for rr in r - 1..=r + 1 {
        for cc in c - 1..=c + 1 {
            walls[rr * size + cc] = false;
        }
    }
}

/// A perfect maze with 10% of its inner walls knocked through (loops), drawn at double
/// scale so corridors are two cells wide and the box can turn corners; the box a
/// quarter of the way in, the target three quarters.
fn corridors(size: usize, seed: u64) -> Grid {
    let mut rng = Rng::new(seed);
    let half = size / 2;
    let style = generate::Style::Corridors { loops: 0 };
    let mut small =
        generate::generate(&mut rng, style, generate::Placement::Anywhere, (half, half)).walls;
    let knockable: Vec<usize> = (0..small.len())
        .filter(|&cell| {
            let (r, c) = (cell / half, cell % half);
            small[cell]
                && r > 0
                && c > 0
                && r + 1 < half
                && c + 1 < half
                && ((!small[cell - 1] && !small[cell + 1])
                    || (!small[cell - half] && !small[cell + half]))
        })
        .collect();
    for &cell in &knockable {
        if rng.chance(0.1) {
            small[cell] = false;
        }
    }
    let walls: Vec<bool> = (0..size * size)
        .map(|cell| small[(cell / size / 2).min(half - 1) * half + (cell % size / 2).min(half - 1)])
        .collect();
    let free_near = |r: usize, c: usize| {
        (0..walls.len())
            .map(|i| (r * size + c + i) % walls.len())
            .find(|&cell| !walls[cell])
            .unwrap_or(0)
    };
    let boxed = free_near(size / 4, size / 4);
    let target = free_near(size * 3 / 4, size * 3 / 4);
    let player = free_near(boxed / size + 1, boxed % size + 1);
    Grid {
        rows: size,
        cols: size,
        walls,
        player,
        boxed,
        target,
    }
}

/// A solve whose maze changes under it halfway through: how long after the flag until
/// it returns.
fn superseded(grid: &Grid) {
    let start = Instant::now();
    black_box(analyze(grid, &AtomicBool::new(false)).is_ok());
    let halfway = start.elapsed() / 2;
    let cancel = Arc::new(AtomicBool::new(false));
    let worker = {
        let (grid, cancel) = (grid.clone(), cancel.clone());
        std::thread::spawn(move || analyze(&grid, &cancel).is_err())
    };
    std::thread::sleep(halfway);
    let flagged = Instant::now();
    cancel.store(true, Ordering::Relaxed);
    let stopped = worker.join().unwrap_or(false);
    println!(
        "superseded 2000×2000 solve: {} {:.1?} after the flag ({halfway:.0?} in)",
        if stopped {
            "stopped"
        } else {
            "had already finished"
        },
        flagged.elapsed()
    );
}
