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
    // The shrinker's order: fewer cells first, then fewer free cells (a step that turns
    // rock into floor is kept when the maze then gets smaller, so free cells alone can
    // grow: seen once at load 10, where a time limit took a different path).
    let size = |side: &serde_json::Value| {
        let cells = side["rows"]
            .as_u64()
            .zip(side["cols"].as_u64())
            .map(|(r, c)| r * c);
        (cells, side["freeCells"].as_u64())
    };
    assert!(
        size(&shrink["after"]) <= size(&shrink["before"]),
        "{name}: {shrink}"
    );

    // The failure file is a .box file holding the shrunk maze.
    let text = std::fs::read_to_string(&file).expect("the failure file");
    // Only the `; failure:` line of a failure with no answer to check is flagged.
    let parsed = parse(&text);
    let codes: Vec<&str> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
    let flagged: &[&str] = if kind == "wrong-answer" {
        &[]
    } else {
        &["recorded-failure"]
    };
    assert_eq!(codes, flagged, "{name}\n{text}");
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
        bad.stderr
            .contains("'--max-cols <C>': 2 is not in 5..=2000"),
        "{}",
        bad.stderr
    );
    let no_command = boxls()
        .args(["stress", "--tests", "1"])
        .output()
        .expect("runs");
    assert_eq!(no_command.status.code(), Some(2));
}

/// Starts `boxls` with no input and its output piped.
fn spawn_piped(boxls: &mut Command) -> std::process::Child {
    boxls
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boxls runs")
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
    let mut command = boxls();
    command
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
        .args(["--", "sh", "-c", &script]);
    let child = spawn_piped(&mut command);
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

/// The two daemon-leaving contestants of `tests/stress/` (a double fork with setsid()
/// in Python, setsid(1) in a background subshell), the pid list as first argument.
fn daemon_contestants(list: &Path) -> [Vec<String>; 2] {
    let list = list.to_string_lossy().into_owned();
    [
        vec![
            "python3".into(),
            "-S".into(),
            solver("daemon"),
            list.clone(),
        ],
        vec!["sh".into(), "tests/stress/daemon.sh".into(), list],
    ]
}

/// Both ways of containing runs: each in its own cgroup (where cgroup v2 is writable,
/// as here when the tests run as root) and the subreaper's sweep alone.
const CONTAINMENTS: [Option<&str>; 2] = [None, Some("1")];

/// How long a `stress` of a few daemon-leaving runs may take before it counts as hung:
/// far more than it takes on any machine, far less than the daemons' `sleep 1000`.
const WATCHDOG: Duration = Duration::from_secs(120);

/// `ps`'s lines for `pid` and its descendants (for a hang's report).
fn descendants(pid: u32) -> String {
    let ps = Command::new("ps")
        .args(["-e", "-o", "pid=,ppid=,pgid=,sid=,stat=,wchan:24=,args="])
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_default();
    let parse = |line: &str| -> Option<(u32, u32)> {
        let mut fields = line.split_whitespace();
        Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
    };
    let mut tree = vec![pid];
    let mut lines = Vec::new();
    // `ps` lists parents before children unless a pid wrapped around: good enough here.
    for line in ps.lines() {
        if let Some((p, parent)) = parse(line) {
            if p == pid || tree.contains(&parent) {
                tree.push(p);
                lines.push(line);
            }
        }
    }
    lines.join("\n")
}

/// `stress` under the given containment with its drain bound an hour (the knob
/// `BOXLS_STRESS_DRAIN_MS`): a run waiting for pipes that a process of it left alive
/// holds open is a hang, which the watchdog ends (SIGTERM) and reports.
fn stress_with(containment: Option<&str>, args: &[&str], command: &[String]) -> Stressed {
    let mut boxls = boxls();
    boxls
        .arg("stress")
        .arg("--json")
        .args(args)
        .arg("--")
        .args(command)
        .env("BOXLS_STRESS_DRAIN_MS", "3600000");
    if let Some(value) = containment {
        boxls.env("BOXLS_STRESS_NO_CGROUP", value);
    }
    let mut child = spawn_piped(&mut boxls);
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > WATCHDOG {
            let tree = descendants(child.id());
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let output = child.wait_with_output().expect("boxls ends");
            panic!(
                "{command:?} (cgroups {}): still running after {WATCHDOG:?}, a run waiting \
                 for pipes held open by a process it started\n{tree}\n{}",
                if containment.is_some() { "off" } else { "on" },
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("boxls ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    Stressed {
        code: output.status.code(),
        json: serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A daemon that left its session and its parent does not outlive a passing `stress`,
/// and holding the program's stdout and stderr it does not hold up a run: each run ends
/// once its program has exited and the daemon is killed (`stress_with`'s watchdog).
#[test]
fn daemons_of_a_passing_program_end_with_stress() {
    let bin = env!("CARGO_BIN_EXE_boxls");
    for (mode, containment) in CONTAINMENTS.iter().enumerate() {
        for which in 0..2 {
            let dir = scratch(&format!("daemon-pass-{mode}-{which}"));
            let list = dir.join("pids");
            let mut command = daemon_contestants(&list)[which].clone();
            command.extend([bin.to_string(), "solve".to_string()]);
            let file = dir.join("failure.box").to_string_lossy().into_owned();
            // Without cgroups the end of a run kills every orphan that left its group,
            // another run's too (the manual says so): the shell contestant, whose
            // daemon would be killed before it says it started, would wait for it
            // until the time limit. One run at a time there.
            let jobs = if containment.is_some() { "1" } else { "2" };
            let args = [
                "--tests",
                "4",
                "--jobs",
                jobs,
                "--timeout-ms",
                "600000",
                "-o",
                &file,
            ];
            let run = stress_with(*containment, &args, &command);
            assert_eq!(
                run.code,
                Some(0),
                "{:?}: {}\n{}",
                command,
                run.json,
                run.stderr
            );
            assert_eq!(run.json["tests"], 4);
            assert_all_end(&pids(&list));
        }
    }
}

/// The same for a program whose runs all reach the time limit (the test's run, then
/// each shrinking candidate's), no run waiting for the daemon's pipes either. The shell contestant only: it starts fast enough to
/// leave its daemon within the limit on a loaded machine (Python may not).
#[test]
fn daemons_of_a_program_past_the_time_limit_end_with_stress() {
    for (mode, containment) in CONTAINMENTS.iter().enumerate() {
        {
            let dir = scratch(&format!("daemon-timeout-{mode}"));
            let list = dir.join("pids");
            let [_, command] = &daemon_contestants(&list);
            let file = dir.join("failure.box").to_string_lossy().into_owned();
            let args = ["--tests", "1", "--timeout-ms", "1000", "-o", &file];
            let run = stress_with(*containment, &args, command);
            assert_eq!(
                run.code,
                Some(1),
                "{:?}: {}\n{}",
                command,
                run.json,
                run.stderr
            );
            assert_eq!(run.json["failure"]["kind"], "time-limit");
            assert_all_end(&pids(&list));
        }
    }
}

/// SIGTERM, SIGINT and SIGHUP to boxls while two runs, each with its daemon, are
/// going: boxls exits 128 + the signal, and neither the runs nor the daemons survive.
#[test]
fn a_signal_to_stress_ends_every_daemon() {
    for (mode, containment) in CONTAINMENTS.iter().enumerate() {
        for (signal, number) in [("TERM", 15), ("INT", 2), ("HUP", 1)] {
            let dir = scratch(&format!("daemon-signal-{mode}-{signal}"));
            let list = dir.join("pids");
            let [python, _] = daemon_contestants(&list);
            let mut boxls = boxls();
            boxls
                .args(["stress", "--tests", "100", "--jobs", "2"])
                .args(["--timeout-ms", "600000", "-o"])
                .arg(dir.join("failure.box"))
                .arg("--")
                .args(&python);
            if let Some(value) = containment {
                boxls.env("BOXLS_STRESS_NO_CGROUP", value);
            }
            let child = spawn_piped(&mut boxls);
            let started = Instant::now();
            while pids(&list).len() < 2 {
                assert!(started.elapsed() < Duration::from_secs(60), "no daemon");
                std::thread::sleep(Duration::from_millis(20));
            }
            let sent = Command::new("kill")
                .args([&format!("-{signal}"), &child.id().to_string()])
                .status()
                .expect("kill runs");
            assert!(sent.success());
            let output = child.wait_with_output().expect("boxls ends");
            assert_eq!(output.status.code(), Some(128 + number), "SIG{signal}");
            assert_all_end(&pids(&list));
        }
    }
}

/// Shrinking an output-limit failure of a large maze takes many failing runs, each
/// past the 16 MiB limit; with its data segment capped at 400 MB boxls still finishes
/// (exit 1) and writes the failure file: it keeps a bounded prefix of each run's
/// output, not all of it. (Peak memory: README, `boxls stress`.)
#[test]
fn shrinking_an_output_flood_keeps_memory_bounded() {
    let dir = scratch("flood-memory");
    let count = dir.join("runs").to_string_lossy().into_owned();
    let file = dir.join("failure.box");
    #[rustfmt::skip]
    let output = Command::new("sh")
        .args(["-c", "ulimit -d 400000 && exec \"$@\"", "sh", env!("CARGO_BIN_EXE_boxls")])
        .args(["stress", "--json", "--tests", "80", "--jobs", "1", "--max-rows", "14", "--max-cols", "14"])
        .args(["--timeout-ms", "600000", "-o"])
        .arg(&file)
        .args(["--", "sh", "tests/stress/flood_later.sh", &count, env!("CARGO_BIN_EXE_boxls")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).expect("json");
    assert_eq!(json["failure"]["kind"], "output-limit", "{json}");
    let runs = json["failure"]["shrink"]["runs"].as_u64().expect("runs");
    assert!(runs >= 20, "shrinking made {runs} runs only: {json}");
    let text = std::fs::read_to_string(&file).expect("the failure file");
    assert!(text.contains("; failure: output-limit: "), "{text}");
}

/// `-o` that cannot be written is exit 2 before any run; one that becomes unwritable
/// while the tests run (here the program itself puts a directory there) does not lose
/// the failure: the report prints the file's text instead.
#[test]
fn an_unwritable_failure_file_is_refused_first_or_printed() {
    let dir = scratch("unwritable");
    let ran = dir.join("ran");
    let marker = format!("touch '{}'; cat >/dev/null", ran.display());
    let missing = dir.join("no/such/dir/failure.box");
    let missing = missing.to_string_lossy();
    let run = stress(&["--tests", "3", "-o", &missing], &["sh", "-c", &marker]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("boxls: cannot write the failure file ")
            && run.stderr.contains("(-o)"),
        "{}",
        run.stderr
    );
    assert!(!ran.exists(), "the program ran before -o was checked");

    let file = dir.join("failure.box");
    let script = format!(
        "rm -f '{0}'; mkdir -p '{0}'; cat >/dev/null; printf 'Maze #1\\nImpossible.\\n\\n'",
        file.display()
    );
    let file_arg = file.to_string_lossy().into_owned();
    let output = boxls()
        .args([
            "stress", "--tests", "3", "-o", &file_arg, "--", "sh", "-c", &script,
        ])
        .stdin(Stdio::null())
        .output()
        .expect("boxls runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(file.is_dir());
    assert!(stderr.contains("cannot write"), "{stderr}");
    let (_, printed) = stdout
        .split_once("; here it is:\n")
        .unwrap_or_else(|| panic!("the file's text is printed\n{stdout}"));
    let parsed = parse(printed);
    assert_eq!(parsed.mazes.len(), 1, "{printed}");
    assert!(printed.contains("; solution: Impossible.\n"), "{printed}");

    std::fs::remove_dir(&file).expect("the program's directory");
    let json = stress(&["--tests", "3", "-o", &file_arg], &["sh", "-c", &script]);
    assert_eq!(json.code, Some(1), "{}", json.stderr);
    assert_eq!(json.json["failure"]["file"], serde_json::Value::Null);
    let text = json.json["failure"]["fileText"].as_str().expect("fileText");
    assert_eq!(parse(text).mazes.len(), 1, "{text}");
}

/// Every numeric argument out of its range is exit 2 with a message naming it, never
/// a panic (101) or an abort.
#[test]
fn numeric_arguments_out_of_range_are_usage_errors() {
    let max = u64::MAX.to_string();
    let cases: &[(&[&str], &str)] = &[
        (&["stress", "--time", "1e20"], "--time"),
        (&["stress", "--time", "0"], "--time"),
        (&["stress", "--time", "NaN"], "--time"),
        (&["stress", "--time", "inf"], "--time"),
        (&["stress", "--jobs", "4096"], "--jobs"),
        (&["stress", "--jobs", "0"], "--jobs"),
        (&["stress", "--jobs", &max], "--jobs"),
        (&["stress", "--mazes-per-input", &max], "--mazes-per-input"),
        (&["stress", "--mazes-per-input", "0"], "--mazes-per-input"),
        (&["stress", "--timeout-ms", "0"], "--timeout-ms"),
        (&["stress", "--timeout-ms", &max], "--timeout-ms"),
        (&["stress", "--max-rows", &max], "--max-rows"),
        (&["stress", "--max-cols", &max], "--max-cols"),
        (
            &["stress", "--max-rows", "2000", "--max-cols", "2000"],
            "--max-rows",
        ),
        (&["stress", "--tests", "0"], "--tests"),
        (&["gen", "--anneal", "1e20"], "--anneal"),
        (&["gen", "--anneal=-1"], "--anneal"),
        (&["gen", "--anneal", "NaN"], "--anneal"),
    ];
    for (args, flag) in cases {
        let mut command = boxls();
        command.args(*args);
        if args[0] == "stress" {
            command.args(["--", "true"]);
        }
        let output = command.stdin(Stdio::null()).output().expect("boxls runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// What the program controls reaches the failure file and the terminal escaped and
/// bounded: a COMMAND argument with line breaks stays inside `; command:` (the file
/// still holds exactly one maze), stderr's ESC, CR and BEL are escaped in the report,
/// and a 15 MB answer makes a small file that says it was not recorded.
#[test]
fn what_the_program_controls_is_escaped_and_bounded() {
    let dir = scratch("escaped");
    let file = dir.join("failure.box");
    let file_arg = file.to_string_lossy().into_owned();
    let injected = "x\n3 3\nSBT\n; solution: E\n0 0\n";
    let script = "cat >/dev/null; printf 'boom \\033[2J\\rover\\007\\n' >&2; exit 3";
    let output = boxls()
        .args(["stress", "--tests", "2", "-o", &file_arg, "--"])
        .args(["sh", "-c", script, injected])
        .stdin(Stdio::null())
        .output()
        .expect("boxls runs");
    assert_eq!(output.status.code(), Some(1));
    let stdout = &output.stdout;
    for byte in [0x1b, b'\r', 0x07] {
        assert!(
            !stdout.contains(&byte),
            "byte {byte:#x} reached the terminal"
        );
    }
    let report = String::from_utf8_lossy(stdout);
    assert!(
        report.contains("stderr:   boom \\u{1b}[2J\\rover\\u{7}"),
        "{report}"
    );
    let text = std::fs::read_to_string(&file).expect("failure file");
    let parsed = parse(&text);
    assert_eq!(parsed.mazes.len(), 1, "{text}");
    assert!(
        text.contains("; command: sh -c 'cat >/dev/null; "),
        "{text}"
    );
    assert!(
        text.contains(" $'x\\n3 3\\nSBT\\n; solution: E\\n0 0\\n'\n"),
        "{text}"
    );
    assert!(!text.bytes().any(|b| b == 0x1b || b == b'\r'), "{text}");

    let big = "cat >/dev/null; printf 'Maze #1\\n'; head -c 15000000 /dev/zero | tr '\\0' n; printf '\\n\\n'";
    let run = stress(&["--tests", "2", "-o", &file_arg], &["sh", "-c", big]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.json["failure"]["kind"], "wrong-answer");
    let size = std::fs::metadata(&file).expect("failure file").len();
    assert!(size < 20_000, "a {size}-byte failure file");
    let text = std::fs::read_to_string(&file).expect("failure file");
    assert_eq!(parse(&text).mazes.len(), 1, "{text}");
    assert!(
        text.contains("; got: 15000010 bytes of output, too many to record"),
        "{text}"
    );
}

/// `boxls check` on the failure file of each kind of failure exits 1 and says why the
/// program failed: a wrong `Impossible.` (recorded as the `; solution:` line), and for
/// malformed output, a crash, the time and the output limit the `; failure:` line.
#[test]
fn check_on_each_kind_of_failure_file_names_the_reason() {
    let answer = |text: &str| format!("cat >/dev/null; printf '{text}'");
    let cases = [
        (
            answer("Maze #1\\nImpossible.\\n\\n"),
            "wrong-answer",
            "solution-illegal",
            "`Impossible.` is wrong: this maze is solved in",
        ),
        (
            answer("maze #1\\nW\\n\\n"),
            "malformed-output",
            "recorded-failure",
            "(malformed-output: Maze #1",
        ),
        (
            "cat >/dev/null; exit 7".to_string(),
            "runtime-error",
            "recorded-failure",
            "(runtime-error: exit code 7)",
        ),
        (
            "cat >/dev/null; exec sleep 1000".to_string(),
            "time-limit",
            "recorded-failure",
            "(time-limit: still running after 300 ms)",
        ),
        (
            "cat >/dev/null; exec yes".to_string(),
            "output-limit",
            "recorded-failure",
            "(output-limit: wrote more than",
        ),
    ];
    for (script, kind, code, reason) in cases {
        let dir = scratch(&format!("check-{kind}"));
        let file = dir.join("failure.box").to_string_lossy().into_owned();
        let args = ["--tests", "2", "--timeout-ms", "300", "-o", &file];
        let run = stress(&args, &["sh", "-c", &script]);
        assert_eq!(run.code, Some(1), "{kind}: {}", run.stderr);
        assert_eq!(run.json["failure"]["kind"], kind);
        let check = boxls()
            .args(["check", &file])
            .env("NO_COLOR", "1")
            .output()
            .expect("boxls check runs");
        let report = String::from_utf8_lossy(&check.stdout);
        assert_eq!(check.status.code(), Some(1), "{kind}: {report}");
        assert!(
            report.contains(&format!("error[{code}]")),
            "{kind}: {report}"
        );
        assert!(report.contains(reason), "{kind}: {report}");
    }
}
