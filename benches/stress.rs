//! `boxls stress` measured: its tests/s against running the same program on the same
//! inputs in a plain loop (the overhead of generating, judging and the runner; goal
//! ≥ 0.9×; `-- overhead` runs that part only), and for each wrong solver of `tests/stress/` the tests until it is caught
//! (goal ≤ 2,000), the shrunk maze's free cells (goal: median ≤ 20) and the runs spent
//! shrinking (goal: median ≤ 300; `-- corpus` runs that part only).
//!
//! ```sh
//! cargo bench --bench stress
//! ```
//!
//! Without cargo's `--bench` flag (as under `cargo test --benches`) it does nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Instant;

use boxls::stress::input_text;
use boxls::stress::inputs::{Inputs, Options};

const BOXLS: &str = env!("CARGO_BIN_EXE_boxls");
const SEED: u64 = 1;
/// Rounds of each side of the overhead measurement.
const ROUNDS: usize = 3;

/// The wrong solvers, in the order the README lists them.
const CORPUS: [&str; 9] = [
    "visited_on_discovery",
    "box_cell_once",
    "moves_first",
    "nested_first_path",
    "bridges",
    "wrong_case",
    "missing_blank_line",
    "crash",
    "infinite_loop",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|arg| arg == "--bench") {
        println!("stress bench: skipped (run it with `cargo bench --bench stress`)");
        return;
    }
    // `cargo bench --bench stress -- overhead` (or `corpus`) runs that part only.
    let only = |part: &str| {
        !args.iter().any(|a| a == "overhead" || a == "corpus") || args.iter().any(|a| a == part)
    };
    if only("overhead") {
        overheads();
    }
    if only("corpus") {
        corpus();
    }
}

fn overheads() {
    println!("overhead: boxls stress --jobs 1 vs the same runs in a plain loop");
    overhead("boxls solve", &[BOXLS, "solve"], 1000);
    overhead(
        "python3 correct.py",
        &["python3", "-S", "tests/stress/correct.py"],
        40,
    );
    println!();
}

fn corpus() {
    println!(
        "corpus: seed {SEED}, default options (mix of gen's families incl. traps, up to 10×10)"
    );
    println!(
        "{:<22} {:>8} {:>7} {:>11} {:>6}",
        "solver", "caught", "kind", "free cells", "runs"
    );
    let (mut free, mut runs) = (Vec::new(), Vec::new());
    for name in CORPUS {
        let timeout = if name == "infinite_loop" {
            "1000"
        } else {
            "10000"
        };
        let json = stress(
            &["--tests", "2000", "--timeout-ms", timeout],
            &["python3", "-S", &format!("tests/stress/{name}.py")],
        );
        let failure = &json["failure"];
        if failure.is_null() {
            println!("{name:<22} {:>8}", "NOT CAUGHT in 2000");
            continue;
        }
        let shrink = &failure["shrink"];
        let after = shrink["after"]["freeCells"].as_u64().unwrap_or(0);
        let before = shrink["before"]["freeCells"].as_u64().unwrap_or(0);
        let spent = shrink["runs"].as_u64().unwrap_or(0);
        println!(
            "{name:<22} {:>8} {:>7} {:>5} → {:<3} {:>6}",
            failure["test"],
            failure["kind"]
                .as_str()
                .unwrap_or("?")
                .split('-')
                .next()
                .unwrap_or("?"),
            before,
            after,
            spent
        );
        free.push(after);
        runs.push(spent);
    }
    println!(
        "shrunk free cells: median {} (goal ≤ 20), max {}; runs: median {} (goal ≤ 300), max {}",
        median(&mut free),
        free.iter().max().unwrap_or(&0),
        median(&mut runs),
        runs.iter().max().unwrap_or(&0)
    );
}

fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

fn stress(args: &[&str], command: &[&str]) -> serde_json::Value {
    let output = Command::new(BOXLS)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["stress", "--json", "--seed", &SEED.to_string(), "-o"])
        .arg(std::env::temp_dir().join("boxls-bench-stress.box"))
        .args(args)
        .arg("--")
        .args(command)
        .stdin(Stdio::null())
        .output()
        .expect("boxls runs");
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// Tests/s of `boxls stress --jobs 1` against a plain loop running `command` on the
/// same inputs, one after the other, in the same run.
fn overhead(name: &str, command: &[&str], tests: u64) {
    let options = Options {
        seed: SEED,
        max_rows: 10,
        max_cols: 10,
        family: None,
        mazes_per_input: 1,
    };
    let pool = Inputs::new(options);
    let making = Instant::now();
    let inputs: Vec<String> = (0..tests)
        .map(|i| input_text(&pool.test(i).grids))
        .collect();
    let made = making.elapsed().as_secs_f64() * 1e6 / tests as f64;
    println!("{name:<20} making a test (generate, solve): {made:.0} µs on one thread");
    // Alternating rounds, the best of each: the machine's load changes from second to
    // second, and the best round is the one least disturbed.
    let (mut plain, mut stressed) = (0.0f64, 0.0f64);
    for _ in 0..ROUNDS {
        plain = plain.max(plain_loop(command, &inputs));
        let tests = tests.to_string();
        let json = stress(
            &["--jobs", "1", "--timeout-ms", "60000", "--tests", &tests],
            command,
        );
        assert!(json["failure"].is_null(), "{json}");
        stressed = stressed.max(json["testsPerSecond"].as_f64().unwrap_or(0.0));
    }
    println!(
        "{name:<20} plain loop {plain:>7.1} tests/s, boxls stress {stressed:>7.1} tests/s: {:.2}× (goal ≥ 0.9×; best of {ROUNDS} rounds each)",
        stressed / plain
    );
}

/// Tests/s of running `command` on each input in turn.
fn plain_loop(command: &[&str], inputs: &[String]) -> f64 {
    let started = Instant::now();
    for input in inputs {
        let mut child = Command::new(command[0])
            .args(&command[1..])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the program runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        let output = child.wait_with_output().expect("wait");
        assert!(output.status.success());
    }
    inputs.len() as f64 / started.elapsed().as_secs_f64()
}
