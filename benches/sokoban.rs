//! `cargo bench --bench sokoban`: the multi-box solver against the `soukoban` crate's
//! (0.1.5) on the standard collections, in the same run with the same limits — our fast
//! mode against its `Strategy::Quick`, our optimal mode against its
//! `Strategy::PushOptimal`. Per collection, mode and solver: levels solved within 1 s
//! and within the limit, total time, peak resident memory of one search.
//!
//! Environment: `BOXLS_SOKOBAN_BENCH=microban,sasquatch,xsokoban` (collections, default
//! all), `BOXLS_SOKOBAN_MODES=fast,optimal`, `BOXLS_SOKOBAN_LIMIT=10` (seconds per
//! level), `BOXLS_SOKOBAN_PEER=0` (skip soukoban), `BOXLS_SOKOBAN_LEVELS=1-20,25` (ranges
//! and levels, 1-based), `BOXLS_SOKOBAN_XSOKOBAN_60=1` (also XSokoban, fast mode, 60 s, both
//! solvers). One search at a time on one core; the machine is shared, so times are noisy.
//! Each level's line and each table also give the positions our search stored, as last
//! reported by its progress events (every 32,768 expansions): a count that does not
//! depend on the clock, for comparing techniques on the levels both variants solve.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/it/xsb_board.rs"]
mod xsb_board;

use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use boxls::sokoban::{self, Event, Limits, Mode, Outcome, Puzzle};

const COLLECTIONS: [(&str, &str); 3] = [
    ("microban", include_str!("../tests/levels/Microban_155.xsb")),
    (
        "sasquatch",
        include_str!("../tests/levels/Sasquatch_50.xsb"),
    ),
    ("xsokoban", include_str!("../tests/levels/XSokoban_90.xsb")),
];

/// One solver's result on one level.
struct Run {
    /// Seconds to a result that counts (solved; proved optimal in optimal mode).
    solved_in: Option<f64>,
    seconds: f64,
    peak_rss: u64,
    /// Pushes, when the solver claims push-optimality.
    optimal_pushes: Option<u32>,
    /// The moves of that solution (soukoban's push-optimal strategy does not minimise
    /// them; ours must be no more whenever the pushes are equal).
    moves: u32,
    /// Positions searched as last reported (every 32,768 expansions; ours only).
    positions: u64,
    /// Seconds of processor time the search thread used (ours only): steadier than the
    /// clock on a shared machine.
    cpu: f64,
}

#[derive(Default)]
struct Tally {
    within_1s: usize,
    within_limit: usize,
    seconds: f64,
    peak_rss: u64,
    positions: u64,
    cpu: f64,
}

impl Tally {
    fn add(&mut self, run: &Run) {
        if let Some(t) = run.solved_in {
            self.within_limit += 1;
            if t <= 1.0 {
                self.within_1s += 1;
            }
        }
        self.seconds += run.seconds;
        self.peak_rss = self.peak_rss.max(run.peak_rss);
        self.positions += run.positions;
        self.cpu += run.cpu;
    }
}

/// Processor seconds this thread has used (Linux; 0 elsewhere), in clock ticks of 10 ms.
fn thread_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // The fields after the command name (which may hold spaces) end with `)`.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (tick(11) + tick(12)) / 100.0
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Resets the kernel's peak-RSS counter of this process (Linux), so the next read is
/// the peak of one search.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Our solver; in fast mode the clock stops at the first solution (what soukoban's
/// `Quick` returns) and the search is cancelled there, unless
/// `BOXLS_SOKOBAN_IMPROVE=1` lets it improve until the limit.
fn ours(puzzle: &Puzzle, mode: Mode, limit: Duration) -> Run {
    let limits = Limits {
        time: limit,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let improve = env("BOXLS_SOKOBAN_IMPROVE").is_some();
    reset_peak();
    let start = Instant::now();
    let cpu_start = thread_cpu();
    let mut first: Option<f64> = None;
    let mut positions = 0;
    let (outcome, _) = sokoban::solve_measured(puzzle, mode, &limits, &stop, &mut |event| {
        if let Event::Progress(p) = event {
            positions = positions.max(p.positions);
        }
        if let Event::Improved(_) = event {
            first.get_or_insert(start.elapsed().as_secs_f64());
            if mode == Mode::Fast && !improve {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let cpu = thread_cpu() - cpu_start;
    let found = match &outcome {
        Outcome::Solved(s) => Some(s),
        Outcome::Unknown { best, .. } => best.as_ref(),
        Outcome::Unsolvable => panic!("every level of the collections is solvable"),
    };
    let Some(s) = found else {
        return Run {
            solved_in: None,
            seconds,
            peak_rss: peak_rss(),
            optimal_pushes: None,
            moves: 0,
            positions,
            cpu,
        };
    };
    let replay = sokoban::replay(puzzle, &s.lurd);
    assert_eq!(
        replay,
        Ok((s.pushes, s.moves, true)),
        "our solution does not replay"
    );
    let solved_in = match mode {
        Mode::Fast => first,
        Mode::Optimal => s.optimal.then_some(seconds),
    };
    Run {
        solved_in,
        seconds,
        peak_rss: peak_rss(),
        optimal_pushes: s.optimal.then_some(s.pushes),
        moves: s.moves,
        positions,
        cpu,
    }
}

fn xsb(puzzle: &Puzzle) -> String {
    let mut text = String::new();
    for row in 0..puzzle.height {
        for col in 0..puzzle.width {
            let cell = row * puzzle.width + col;
            let boxed = puzzle.boxes.contains(&cell);
            text.push(
                match (
                    puzzle.walls[cell],
                    boxed,
                    cell == puzzle.player,
                    puzzle.goals[cell],
                ) {
                    (true, ..) => '#',
                    (_, true, _, true) => '*',
                    (_, true, _, false) => '$',
                    (_, _, true, true) => '+',
                    (_, _, true, false) => '@',
                    (_, _, _, true) => '.',
                    _ => '-',
                },
            );
        }
        text.push('\n');
    }
    text
}

fn peer(puzzle: &Puzzle, mode: Mode, limit: Duration) -> Run {
    use soukoban::solver::{Algorithm, Solver, Strategy};
    let strategy = match mode {
        Mode::Fast => Strategy::Quick,
        Mode::Optimal => Strategy::PushOptimal,
    };
    let map = soukoban::map::Map::from_str(&xsb(puzzle)).expect("soukoban reads the level");
    reset_peak();
    let start = Instant::now();
    let solver = Solver::new(map, strategy);
    let searcher = solver.clone();
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = tx.send(searcher.search(Algorithm::AStar).map(|a| a.to_string()));
    });
    let result = rx.recv_timeout(limit.saturating_sub(start.elapsed()));
    let seconds = start.elapsed().as_secs_f64();
    if result.is_err() {
        // `search` clears the flag when it starts: keep asking until it has stopped.
        while !worker.is_finished() {
            solver.request_stop();
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let _ = worker.join();
    let peak = peak_rss();
    match result {
        Ok(Ok(lurd)) => {
            let replay = sokoban::replay(puzzle, &lurd);
            let Ok((pushes, moves, true)) = replay else {
                panic!("soukoban's solution does not replay: {replay:?}");
            };
            let optimal = (mode == Mode::Optimal).then_some(pushes);
            Run {
                solved_in: Some(seconds),
                seconds,
                peak_rss: peak,
                optimal_pushes: optimal,
                moves,
                positions: 0,
                cpu: 0.0,
            }
        }
        _ => Run {
            solved_in: None,
            seconds: seconds.min(limit.as_secs_f64()),
            peak_rss: peak,
            optimal_pushes: None,
            moves: 0,
            positions: 0,
            cpu: 0.0,
        },
    }
}

/// The levels chosen by `BOXLS_SOKOBAN_LEVELS` (0-based): ranges `first-last` or single
/// levels, 1-based, separated by commas; all when unset.
fn chosen_levels(count: usize) -> Vec<usize> {
    let Some(spec) = env("BOXLS_SOKOBAN_LEVELS") else {
        return (0..count).collect();
    };
    let mut chosen = Vec::new();
    for part in spec.split(',') {
        let (low, high) = part.split_once('-').unwrap_or((part, part));
        let low: usize = low.parse().expect("BOXLS_SOKOBAN_LEVELS: first-last,level");
        let high: usize = high
            .parse()
            .expect("BOXLS_SOKOBAN_LEVELS: first-last,level");
        chosen.extend(low.max(1) - 1..high.min(count));
    }
    chosen
}

fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / (1 << 20) as f64)
}

fn compare(name: &str, levels: &[Puzzle], mode: Mode, limit: Duration, with_peer: bool) {
    let (mut mine, mut theirs) = (Tally::default(), Tally::default());
    let (mut both_optimal, mut equal_pushes) = (0, 0);
    let (mut moves_no_more, mut fewer_moves) = (0, 0);
    for index in chosen_levels(levels.len()) {
        let puzzle = &levels[index];
        let a = ours(puzzle, mode, limit);
        mine.add(&a);
        let mut line = format!(
            "  {name} {mode:?} level {}: boxls {} ({}k positions, cpu {:.2}s)",
            index + 1,
            a.solved_in.map_or("-".to_string(), |t| format!("{t:.2}s")),
            a.positions / 1000,
            a.cpu
        );
        if with_peer {
            let b = peer(puzzle, mode, limit);
            theirs.add(&b);
            if let (Some(p), Some(q)) = (a.optimal_pushes, b.optimal_pushes) {
                both_optimal += 1;
                if p == q {
                    equal_pushes += 1;
                    if a.moves <= b.moves {
                        moves_no_more += 1;
                    } else {
                        line.push_str(&format!(" MORE MOVES {} vs {}", a.moves, b.moves));
                    }
                    fewer_moves += usize::from(a.moves < b.moves);
                } else {
                    line.push_str(&format!(" PUSHES DIFFER {p} vs {q}"));
                }
            }
            line.push_str(&format!(
                ", soukoban {}",
                b.solved_in.map_or("-".to_string(), |t| format!("{t:.2}s"))
            ));
        }
        eprintln!("{line}");
    }
    let limit_s = limit.as_secs();
    let row = |who: &str, t: &Tally| {
        println!(
            "| {name} | {mode:?} | {who} | {} | {} | {:.1} s | {} |",
            t.within_1s,
            t.within_limit,
            t.seconds,
            mib(t.peak_rss)
        );
    };
    println!("| collection | mode | solver | solved ≤ 1 s | solved ≤ {limit_s} s | total time | peak RSS |");
    println!("|---|---|---|---|---|---|---|");
    row("boxls", &mine);
    println!(
        "boxls positions searched (as last reported, 32,768 at a time): {}k in {:.1} s ({:.1} s of processor time)",
        mine.positions / 1000,
        mine.seconds,
        mine.cpu
    );
    if with_peer {
        row("soukoban 0.1.5", &theirs);
        println!(
            "ratio solved ≤ {limit_s} s boxls/soukoban: {}/{}; both claim push-optimal on {both_optimal}, equal pushes on {equal_pushes}; of those, boxls's moves no more on {moves_no_more}, fewer on {fewer_moves}",
            mine.within_limit, theirs.within_limit
        );
    }
    println!();
}

fn main() {
    let chosen = env("BOXLS_SOKOBAN_BENCH");
    let modes = env("BOXLS_SOKOBAN_MODES").unwrap_or_else(|| "fast,optimal".to_string());
    let limit = Duration::from_secs_f64(
        env("BOXLS_SOKOBAN_LIMIT").map_or(10.0, |v| v.parse().expect("seconds")),
    );
    let with_peer = env("BOXLS_SOKOBAN_PEER").is_none_or(|v| v != "0");
    for (name, text) in COLLECTIONS {
        if chosen
            .as_ref()
            .is_some_and(|c| !c.split(',').any(|x| x == name))
        {
            continue;
        }
        let levels = xsb_board::levels(text);
        for mode in [Mode::Fast, Mode::Optimal] {
            if modes
                .split(',')
                .any(|m| m.eq_ignore_ascii_case(&format!("{mode:?}")))
            {
                compare(name, &levels, mode, limit, with_peer);
            }
        }
    }
    if env("BOXLS_SOKOBAN_XSOKOBAN_60").is_some() {
        let levels = xsb_board::levels(COLLECTIONS[2].1);
        compare(
            "xsokoban (60 s)",
            &levels,
            Mode::Fast,
            Duration::from_secs(60),
            with_peer,
        );
    }
}
