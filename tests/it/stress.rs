//! `boxls stress` end to end: the corpus of wrong solvers in `tests/stress/` (one per
//! classic mistake of SPEC §1, plus wrong letter case, a missing blank line, a crash
//! and an infinite loop) is each caught within a bounded number of tests for a fixed
//! seed, and shrunk to a maze that still fails that solver the same way; the failure
//! file is a `.box` file whose `; solution:` line `boxls check` flags. `boxls solve`
//! and the correct Python solver survive; runs are killed with their children at the
//! time limit and on Ctrl-C; a command that cannot run is exit 2.
//!
//! `BOXLS_STRESS_LONG=1` makes the survivors run 10,000 tests each (instead of 1,000
//! for `boxls solve` and 60 for `correct.py`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use boxls::maze::parse;
use boxls::solver::solve_path;
use boxls::stress::{classify, Ended};

fn boxls() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boxls"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("stress")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

struct Stressed {
    code: Option<i32>,
    json: serde_json::Value,
    stderr: String,
}

fn stress(args: &[&str], command: &[&str]) -> Stressed {
    let output = boxls()
        .arg("stress")
        .arg("--json")
        .args(args)
        .arg("--")
        .args(command)
        .stdin(Stdio::null())
        .output()
        .expect("boxls runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    Stressed {
        code: output.status.code(),
        json: serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn solver(name: &str) -> String {
    format!("tests/stress/{name}.py")
}

/// Runs a corpus solver on `input` as `boxls stress` would (without the runner), up
/// to `limit`; a run still going then is a time-limit failure.
fn run_solver(name: &str, input: &str, limit: Duration) -> (Ended, Vec<u8>) {
    use std::io::Write as _;
    use std::os::unix::process::ExitStatusExt as _;
    let mut child = Command::new("python3")
        .args(["-S", &solver(name)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the input");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > limit {
            child.kill().expect("kill");
            let _ = child.wait();
            return (Ended::TimedOut(limit.as_millis() as u64), Vec::new());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().expect("output");
    let ended = match output.status.code() {
        Some(code) => Ended::Exited(code),
        None => Ended::Signaled(output.status.signal().unwrap_or(0)),
    };
    (ended, output.stdout)
}

/// `name` is caught by test `within` at the latest, as `kind`, and shrunk to a maze
/// that still fails it that way. Python's start-up is most of a run's cost, so
/// many mazes go in each input (the shrinker first finds the one that fails alone).
fn caught(name: &str, kind: &str, timeout_ms: u64, within: u64, mazes: u64) -> serde_json::Value {
    let dir = scratch(name);
    let file = dir.join("failure.box");
    let tests = within.to_string();
    let timeout = timeout_ms.to_string();
    let mazes = mazes.to_string();
    let file_arg = file.to_string_lossy().into_owned();
    #[rustfmt::skip]
    let args = [
        "--seed", "1", "--tests", &tests, "--mazes-per-input", &mazes, "--max-rows", "8",
        "--max-cols", "8", "--jobs", "2", "--timeout-ms", &timeout, "-o", &file_arg,
    ];
    let run = stress(&args, &["python3", "-S", &solver(name)]);
    assert_eq!(run.code, Some(1), "{name}: {}\n{}", run.json, run.stderr);
    let failure = &run.json["failure"];
    assert_eq!(failure["kind"], kind, "{name}: {failure}");
    assert!(failure["test"].as_u64().expect("test") <= within);
    let shrink = &failure["shrink"];
    let (before, after) = (
        &shrink["before"]["freeCells"],
        &shrink["after"]["freeCells"],
    );
    assert!(after.as_u64() <= before.as_u64(), "{name}: {shrink}");

    // The failure file is a .box file holding the shrunk maze.
    let text = std::fs::read_to_string(&file).expect("the failure file");
    let parsed = parse(&text);
    assert!(
        parsed.diagnostics.is_empty(),
        "{name}: {:?}\n{text}",
        parsed.diagnostics
    );
    let [maze] = &parsed.mazes[..] else {
        panic!("{name}: one maze expected\n{text}");
    };
    let grid = maze.grid.clone().expect("a valid maze");
    assert_eq!(
        serde_json::json!([grid.to_rows()]),
        failure["maze"],
        "{name}"
    );
    assert!(text.contains(&format!("; kind: {kind}\n")), "{text}");

    // It still fails the solver the same way.
    let input = format!(
        "{} {}\n{}\n0 0\n",
        grid.rows,
        grid.cols,
        grid.to_rows().join("\n")
    );
    let (ended, stdout) = run_solver(name, &input, Duration::from_millis(timeout_ms));
    let optima = [solve_path(&grid)];
    let again = classify(std::slice::from_ref(&grid), &optima, ended, &stdout)
        .unwrap_or_else(|| panic!("{name}: the shrunk maze no longer fails\n{text}"));
    assert_eq!(again.kind.name(), kind, "{name}");

    // The answer is recorded for the editor when it is a move string; a wrong one is
    // flagged there.
    let answer = failure["answer"]
        .as_str()
        .filter(|a| boxls::stress::is_move_string(a));
    if let Some(answer) = answer.filter(|_| kind == "wrong-answer") {
        assert!(text.contains(&format!("; solution: {answer}\n")), "{text}");
        let check = boxls()
            .args(["check", &file_arg])
            .env("NO_COLOR", "1")
            .output()
            .expect("boxls check runs");
        let report = String::from_utf8_lossy(&check.stdout);
        assert!(
            report.contains("solution-illegal") || report.contains("solution-not-optimal"),
            "{name}: {report}"
        );
    }
    failure.clone()
}

macro_rules! corpus {
    ($($test:ident: $solver:literal, $kind:literal, $timeout:literal, $within:literal, $mazes:literal;)*) => {
        $(
            #[test]
            fn $test() {
                caught($solver, $kind, $timeout, $within, $mazes);
            }
        )*
    };
}

// The infinite loop gets one maze per input: every run on a looping maze costs the
// whole time limit, and finding the looping maze among many would cost more of them.
corpus! {
    visited_on_discovery_is_caught: "visited_on_discovery", "wrong-answer", 10000, 40, 20;
    fewest_moves_first_is_caught: "moves_first", "wrong-answer", 10000, 40, 20;
    nested_bfs_first_path_is_caught: "nested_first_path", "wrong-answer", 10000, 40, 20;
    bridges_for_articulation_points_is_caught: "bridges", "wrong-answer", 10000, 80, 20;
    wrong_letter_case_is_caught: "wrong_case", "wrong-answer", 10000, 10, 20;
    a_missing_blank_line_is_caught: "missing_blank_line", "malformed-output", 10000, 10, 20;
    a_crash_is_caught: "crash", "runtime-error", 10000, 80, 20;
    an_infinite_loop_is_caught: "infinite_loop", "time-limit", 1500, 40, 1;
}

/// How many tests the survivors get: `BOXLS_STRESS_LONG=1` gives both 10,000.
fn survival_tests(short: u64) -> u64 {
    if std::env::var_os("BOXLS_STRESS_LONG").is_some() {
        10_000
    } else {
        short
    }
}

/// `command` passes `tests` tests of `seed` up to 12×12: exit 0, every test run,
/// nothing written.
fn survives(name: &str, seed: u64, tests: u64, command: &[&str]) {
    let dir = scratch(name);
    let file = dir.join("failure.box").to_string_lossy().into_owned();
    let (seed, count) = (seed.to_string(), tests.to_string());
    #[rustfmt::skip]
    let args = ["--seed", &seed, "--tests", &count, "--max-rows", "12", "--max-cols", "12", "--timeout-ms", "20000", "-o", &file];
    let run = stress(&args, command);
    assert_eq!(run.code, Some(0), "{}\n{}", run.json, run.stderr);
    assert_eq!(run.json["tests"], tests);
    assert_eq!(run.json["failure"], serde_json::Value::Null);
    assert!(
        !Path::new(&file).exists(),
        "nothing written without a failure"
    );
}

#[test]
fn boxls_solve_survives() {
    let bin = env!("CARGO_BIN_EXE_boxls");
    survives("solve-survives", 11, survival_tests(1000), &[bin, "solve"]);
}

/// The independent reference: `correct.py`, plain Dijkstra sharing no code with boxls.
#[test]
fn the_correct_python_solver_survives() {
    let command = ["python3", "-S", &solver("correct")];
    survives("correct-survives", 1, survival_tests(60), &command);
}

/// Caught as the others (with `--jobs 2`), and again with `--jobs 1`: the same first
/// failure and the same shrunk maze.
#[test]
fn one_visit_per_box_cell_is_caught_the_same_whatever_the_jobs() {
    let two = caught("box_cell_once", "wrong-answer", 10000, 40, 20);
    let dir = scratch("box_cell_once-jobs-1");
    let file = dir.join("failure.box").to_string_lossy().into_owned();
    #[rustfmt::skip]
    let args = [
        "--seed", "1", "--tests", "40", "--mazes-per-input", "20", "--max-rows", "8",
        "--max-cols", "8", "--jobs", "1", "--timeout-ms", "10000", "-o", &file,
    ];
    let run = stress(&args, &["python3", "-S", &solver("box_cell_once")]);
    assert_eq!(run.code, Some(1), "{}\n{}", run.json, run.stderr);
    let one = &run.json["failure"];
    for field in ["test", "kind", "maze", "answer", "expected"] {
        assert_eq!(one[field], two[field], "{field}: {one}\n{two}");
    }
    assert_eq!(one["shrink"]["steps"], two["shrink"]["steps"]);
}

#[test]
fn a_command_that_cannot_run_is_exit_2() {
    let run = stress(&["--tests", "3"], &["/no/such/solver"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("boxls: cannot run `/no/such/solver`: "),
        "{}",
        run.stderr
    );
    let bad = stress(&["--max-cols", "2"], &["true"]);
    assert_eq!(bad.code, Some(2));
    assert!(
        bad.stderr.contains("--max-cols at least 5"),
        "{}",
        bad.stderr
    );
    let no_command = boxls()
        .args(["stress", "--tests", "1"])
        .output()
        .expect("runs");
    assert_eq!(no_command.status.code(), Some(2));
}

/// The pids a test's shell commands appended to `file`, one a line.
fn pids(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .collect()
}

/// Whether `pid` is gone (or a zombie waiting for its new parent to reap it).
fn ended(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Waits for the kills to land: SIGKILL is certain, its delivery only prompt.
fn assert_all_end(pids: &[i32]) {
    assert!(!pids.is_empty(), "the command started no process");
    let started = Instant::now();
    while !pids.iter().all(|&pid| ended(pid)) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "still running: {:?}",
            pids.iter().filter(|&&pid| !ended(pid)).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_time_limit_kills_the_whole_process_group_and_an_output_limit_stops_a_flood() {
    let dir = scratch("timeout");
    let list = dir.join("pids");
    let file = dir.join("failure.box").to_string_lossy().into_owned();
    let script = format!("sleep 1000 & echo $! >> '{}'; wait", list.display());
    let args = ["--tests", "1", "--timeout-ms", "200", "-o", &file];
    let run = stress(&args, &["sh", "-c", &script]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.json["failure"]["kind"], "time-limit");
    // The background `sleep` of every run (the test, then each shrinking candidate).
    assert_all_end(&pids(&list));
    let flood = stress(&["--tests", "1", "-o", &file], &["yes"]);
    assert_eq!(flood.code, Some(1), "{}", flood.stderr);
    assert_eq!(flood.json["failure"]["kind"], "output-limit");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        ["failure.box", "pids"],
        "nothing else is left behind"
    );
}

#[test]
fn ctrl_c_ends_every_run() {
    let dir = scratch("interrupt");
    let list = dir.join("pids");
    let file = dir.join("failure.box");
    let script = format!("echo $$ >> '{}'; exec sleep 1000", list.display());
    let child = boxls()
        .args([
            "stress",
            "--tests",
            "100",
            "--jobs",
            "2",
            "--timeout-ms",
            "600000",
            "-o",
        ])
        .arg(&file)
        .args(["--", "sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boxls runs");
    // Both jobs have started a run once two pids are written.
    let started = Instant::now();
    while pids(&list).len() < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no run started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let output = child.wait_with_output().expect("boxls ends");
    assert_eq!(output.status.code(), Some(130));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_all_end(&pids(&list));
    assert!(!file.exists(), "no failure file for an interrupted run");
}

#[test]
fn the_report_draws_the_maze_and_says_where_the_answer_parts() {
    let dir = scratch("report");
    let file = dir.join("failure.box").to_string_lossy().into_owned();
    let output = boxls()
        .args([
            "stress",
            "--seed",
            "1",
            "--tests",
            "100",
            "--max-rows",
            "8",
            "--max-cols",
            "8",
        ])
        .args([
            "--family",
            "traps",
            "--timeout-ms",
            "10000",
            "-o",
            &file,
            "--",
        ])
        .args(["python3", "-S", &solver("nested_first_path")])
        .stdin(Stdio::null())
        .output()
        .expect("boxls runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(" fails: wrong-answer "), "{stdout}");
    assert!(stdout.contains("\nexpected: "), "{stdout}");
    assert!(stdout.contains("\ngot:      "), "{stdout}");
    assert!(stdout.contains("\nwhere:    move "), "{stdout}");
    assert!(stdout.contains(&format!("written to {file}")), "{stdout}");
    let text = std::fs::read_to_string(&file).expect("failure file");
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && l.chars().all(|c| "#.SBT".contains(c)))
        .collect();
    assert!(!rows.is_empty(), "{text}");
    for row in &rows {
        assert!(
            stdout.contains(&format!("    {row}\n")),
            "{row} drawn\n{stdout}"
        );
    }
}
