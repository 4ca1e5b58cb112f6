//! `boxls stress`: runs a program on generated inputs, judges each answer, shrinks the
//! first failure to a small maze that fails the same way and writes it as a `.box`
//! file an editor checks. The meaning of a run and the shrinker are pure
//! (`crate::stress`); this module runs processes, in parallel, and reports.

mod run;

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{self, IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use super::Failure as CliFailure;
use crate::gen::Family;
use crate::maze::Grid;
use crate::solver::{self, Solution};
use crate::stress::inputs::{self, Inputs, Options};
use crate::stress::shrink::{shrink, Shrunk};
use crate::stress::{self as core, Failure, Kind};
use run::{Program, Ran};

#[derive(clap::Args)]
#[command(after_help = "\
Each test is a generated POJ 1475 input (sizes growing from tiny to the maximum) on
COMMAND's stdin; its stdout is judged like `boxls judge` (any optimal answer is
accepted). COMMAND runs without a shell, in its own process group, killed with its
children at the time limit, above 16 MiB of output, or on Ctrl-C. The first failure
(wrong answer, malformed output, runtime error, time or output limit) is shrunk to a
small maze that fails the same way and written to FILE with the program's answer as
`; solution:`, so an editor shows where it goes wrong.

Examples:
  boxls stress -- ./my-solver
  boxls stress --seed 7 --tests 5000 --max-rows 8 --max-cols 8 -- python3 sol.py
  boxls stress --time 60 --jobs 4 -o bug.box -- ./a.out

Exit codes: 0 no failure found, 1 a failure found (and written to FILE), 2 bad
arguments or COMMAND cannot be run at all.")]
pub struct StressArgs {
    /// Seed of the generated inputs: the same seed gives the same tests.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many tests to run [default: 1000].
    #[arg(long, value_name = "K", conflicts_with = "time")]
    tests: Option<u64>,
    /// Run tests for this many seconds instead.
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Runs side by side [default: the number of cores].
    #[arg(long, value_name = "J")]
    jobs: Option<usize>,
    /// Time limit of one run, in milliseconds.
    #[arg(long, value_name = "T", default_value_t = 2000)]
    timeout_ms: u64,
    /// Largest number of rows of a generated maze, its border of rock included (3 at least).
    #[arg(long, value_name = "R", default_value_t = 10)]
    max_rows: usize,
    /// Largest number of columns, the border included (5 at least).
    #[arg(long, value_name = "C", default_value_t = 10)]
    max_cols: usize,
    /// `gen`'s family of the mazes: open, rooms, caves, corridors, traps, or mix (each
    /// maze's family picked by its seed).
    #[arg(long, value_name = "F", default_value = "mix", value_parser = ["mix", "open", "rooms", "caves", "corridors", "traps"])]
    family: String,
    /// Mazes per input; a failing input is first reduced to its failing maze.
    #[arg(long, value_name = "M", default_value_t = 1)]
    mazes_per_input: usize,
    /// Run every test even after a failure (the first is still the one shrunk).
    #[arg(long)]
    keep_going: bool,
    /// Print the result as one JSON object instead of a report.
    #[arg(long)]
    json: bool,
    /// Where the shrunk failure is written.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        default_value = "stress-failure.box"
    )]
    output: PathBuf,
    /// The program to test and its arguments (after `--`).
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<OsString>,
}

/// One test's input and what judging it needs, made ahead of its run.
struct Test {
    index: u64,
    grids: Vec<Grid>,
    optima: Vec<Option<Solution>>,
    /// The input as the program reads it.
    text: String,
}

impl Test {
    fn new(index: u64, input: inputs::Input) -> Test {
        Test {
            index,
            text: core::input_text(&input.grids),
            grids: input.grids,
            optima: input.optima,
        }
    }
}

/// A failing test, with the run that failed.
struct Found {
    test: Test,
    ran: Ran,
    failure: Failure,
}

/// What running the tests gave.
struct Search {
    tests: u64,
    seconds: f64,
    /// In test order.
    found: Vec<Found>,
}

pub fn stress(args: StressArgs) -> Result<ExitCode, CliFailure> {
    let options = options(&args)?;
    let (program, rest) = args
        .command
        .split_first()
        .ok_or_else(|| CliFailure::Message("no COMMAND given after `--`".to_string()))?;
    let program = Program {
        program: program.clone(),
        args: rest.to_vec(),
    };
    let shown = shown_command(&args.command);
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    interrupt_ends_every_run()?;
    let timeout = Duration::from_millis(args.timeout_ms.max(1));
    let search = search(&args, &Inputs::new(options), &program, jobs, timeout)
        .map_err(|e| CliFailure::Message(format!("cannot run `{shown}`: {e}")))?;
    let Some(first) = search.found.first() else {
        report_pass(&args, &search)?;
        return Ok(ExitCode::SUCCESS);
    };
    let outcome = reduce_and_shrink(first, &program, jobs, timeout);
    let text = failure_file(&args, &shown, first, &outcome);
    std::fs::write(&args.output, &text).map_err(|e| {
        CliFailure::Message(format!("cannot write `{}`: {e}", args.output.display()))
    })?;
    report_failure(&args, &search, first, &outcome)?;
    Ok(ExitCode::FAILURE)
}

fn options(args: &StressArgs) -> Result<Options, CliFailure> {
    let bad = |message: &str| Err(CliFailure::Message(message.to_string()));
    if args.max_rows < inputs::MIN_ROWS || args.max_cols < inputs::MIN_COLS {
        return bad("--max-rows is at least 3 and --max-cols at least 5 (gen's smallest maze, its border included)");
    }
    if args.max_rows * args.max_cols > 10_000 {
        return bad("--max-rows × --max-cols is at most 10000 (each test is solved to judge it)");
    }
    if args.mazes_per_input == 0 {
        return bad("--mazes-per-input must be at least 1");
    }
    if args.time.is_some_and(|s| !(s > 0.0 && s.is_finite())) {
        return bad("--time must be a positive number of seconds");
    }
    Ok(Options {
        seed: args.seed,
        max_rows: args.max_rows,
        max_cols: args.max_cols,
        family: Family::from_name(&args.family),
        mazes_per_input: args.mazes_per_input,
    })
}

/// The command as a shell would show it (arguments with spaces quoted).
fn shown_command(command: &[OsString]) -> String {
    command
        .iter()
        .map(|arg| {
            let arg = arg.to_string_lossy();
            if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || "'\"$\\".contains(c)) {
                format!("'{}'", arg.replace('\'', "'\\''"))
            } else {
                arg.into_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Ctrl-C (and SIGTERM, SIGHUP) kill every running test's process group, then exit 130.
fn interrupt_ends_every_run() -> Result<(), CliFailure> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| CliFailure::Message(format!("cannot handle Ctrl-C: {e}")))?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            run::kill_all();
            eprintln!("\nboxls: interrupted; every run of the program was ended");
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Runs the tests on `jobs` threads, while other threads make the tests ahead of
/// them (generating and solving a test costs as much as running a fast program, so it
/// is kept off the runs' path). Without `--keep-going` it stops at the first failure
/// in test order (tests before it all run, so which one is first does not depend on
/// the jobs). An error: COMMAND could not be started.
fn search(
    args: &StressArgs,
    inputs: &Inputs,
    program: &Program,
    jobs: usize,
    timeout: Duration,
) -> io::Result<Search> {
    let started = Instant::now();
    let limit = match (args.tests, args.time) {
        (Some(tests), _) => tests,
        (None, Some(_)) => u64::MAX,
        (None, None) => 1000,
    };
    let deadline = args.time.map(|s| started + Duration::from_secs_f64(s));
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let next = AtomicU64::new(0);
    let stop_at = AtomicU64::new(u64::MAX);
    let done = AtomicU64::new(0);
    let failures = AtomicU64::new(0);
    let found = Mutex::new(Vec::new());
    let cannot_run = Mutex::new(None);
    let quit = AtomicBool::new(false);
    let progress = std::io::stderr().is_terminal() && !args.json;
    // Tests made and not yet run; the receiving end goes when the last runner ends,
    // which ends the makers too.
    let (ahead, made) = mpsc::sync_channel::<Test>((4 * jobs).max(16));
    let made = Arc::new(Mutex::new(made));
    std::thread::scope(|scope| {
        let (finished, finish) = mpsc::channel::<()>();
        if progress {
            let (done, failures) = (&done, &failures);
            scope.spawn(move || loop {
                let stop = !matches!(
                    finish.recv_timeout(Duration::from_millis(200)),
                    Err(mpsc::RecvTimeoutError::Timeout)
                );
                let n = done.load(Ordering::Relaxed);
                let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-9);
                let f = failures.load(Ordering::Relaxed);
                eprint!("\r\x1b[K{n} tests · {rate:.0} tests/s · {f} failing");
                if stop {
                    eprintln!();
                    return;
                }
            });
        }
        for _ in 0..makers(jobs) {
            let ahead = ahead.clone();
            let (next, stop_at, quit) = (&next, &stop_at, &quit);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let stopped = !args.keep_going && index > stop_at.load(Ordering::Relaxed);
                if index >= limit || late() || quit.load(Ordering::Relaxed) || stopped {
                    return;
                }
                if ahead.send(Test::new(index, inputs.test(index))).is_err() {
                    return;
                }
            });
        }
        drop(ahead);
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                let made = Arc::clone(&made);
                let (stop_at, quit, done, failures) = (&stop_at, &quit, &done, &failures);
                let (found, cannot_run) = (&found, &cannot_run);
                scope.spawn(move || loop {
                    let Ok(test) = made
                        .lock()
                        .map_err(drop)
                        .and_then(|m| m.recv().map_err(drop))
                    else {
                        return;
                    };
                    if late() || quit.load(Ordering::Relaxed) {
                        return;
                    }
                    if !args.keep_going && test.index > stop_at.load(Ordering::Relaxed) {
                        continue;
                    }
                    match run::run(program, test.text.as_bytes(), timeout) {
                        Err(error) => {
                            if let Ok(mut slot) = cannot_run.lock() {
                                slot.get_or_insert(error);
                            }
                            quit.store(true, Ordering::Relaxed);
                            return;
                        }
                        Ok(ran) => {
                            done.fetch_add(1, Ordering::Relaxed);
                            let failure =
                                core::classify(&test.grids, &test.optima, ran.ended, &ran.stdout);
                            if let Some(failure) = failure {
                                failures.fetch_add(1, Ordering::Relaxed);
                                stop_at.fetch_min(test.index, Ordering::Relaxed);
                                if let Ok(mut found) = found.lock() {
                                    found.push(Found { test, ran, failure });
                                }
                            }
                        }
                    }
                })
            })
            .collect();
        drop(made);
        for worker in workers {
            let _ = worker.join();
        }
        drop(finished);
    });
    if let Some(error) = cannot_run.into_inner().ok().flatten() {
        return Err(error);
    }
    let mut found = found.into_inner().unwrap_or_default();
    found.sort_by_key(|f| f.test.index);
    Ok(Search {
        tests: done.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
        found,
    })
}

/// Threads making tests: the cores the runs leave free, one at least.
fn makers(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores.saturating_sub(jobs).max(1)
}

/// The failure after reduction to one maze and shrinking.
struct Outcome {
    /// The maze written (the whole input when no single maze fails alone).
    grids: Vec<Grid>,
    optima: Vec<Option<Solution>>,
    ran: Ran,
    failure: Failure,
    shrunk: Option<Shrunk>,
    before: Vec<Grid>,
}

/// Whether `program` still fails on `grid` the way `kind` says.
fn fails_as(
    program: &Program,
    timeout: Duration,
    kind: Kind,
    grid: &Grid,
) -> Option<(Ran, Failure)> {
    fails_on(program, timeout, kind, std::slice::from_ref(grid))
}

/// Whether `program` still fails on the input of `grids` the way `kind` says.
fn fails_on(
    program: &Program,
    timeout: Duration,
    kind: Kind,
    grids: &[Grid],
) -> Option<(Ran, Failure)> {
    let optima: Vec<_> = grids.iter().map(solver::solve_path).collect();
    let ran = run::run(program, core::input_text(grids).as_bytes(), timeout).ok()?;
    let failure = core::classify(grids, &optima, ran.ended, &ran.stdout)?;
    (failure.kind == kind).then_some((ran, failure))
}

/// The one maze of a failing input that fails alone: halves first (a few runs for
/// many mazes), then maze by maze when neither half fails by itself.
fn failing_maze(grids: &[Grid], fails: impl Fn(&[Grid]) -> bool) -> Option<Grid> {
    let mut part = grids;
    while part.len() > 1 {
        let (first, second) = part.split_at(part.len() / 2);
        if fails(first) {
            part = first;
        } else if fails(second) {
            part = second;
        } else {
            return part
                .iter()
                .find(|grid| fails(std::slice::from_ref(*grid)))
                .cloned();
        }
    }
    part.first().cloned()
}

fn reduce_and_shrink(first: &Found, program: &Program, jobs: usize, timeout: Duration) -> Outcome {
    let kind = first.failure.kind;
    let whole = || Outcome {
        grids: first.test.grids.clone(),
        optima: first.test.optima.clone(),
        ran: first.ran.clone(),
        failure: first.failure.clone(),
        shrunk: None,
        before: first.test.grids.clone(),
    };
    // The failing runs of single mazes, so the result's answer needs no run of its own.
    let failed: Mutex<HashMap<Grid, (Ran, Failure)>> = Mutex::new(HashMap::new());
    if let [grid] = first.test.grids.as_slice() {
        let run = (first.ran.clone(), first.failure.clone());
        if let Ok(mut failed) = failed.lock() {
            failed.insert(grid.clone(), run);
        }
    }
    let fails = |grids: &[Grid]| {
        let run = fails_on(program, timeout, kind, grids);
        if let (Some(run), [grid]) = (&run, grids) {
            if let Ok(mut failed) = failed.lock() {
                failed.insert(grid.clone(), run.clone());
            }
        }
        run.is_some()
    };
    let Some(start) = failing_maze(&first.test.grids, fails) else {
        return whole();
    };
    let shrunk = shrink(start.clone(), jobs, |candidates: &[Grid]| {
        std::thread::scope(|scope| {
            let runs: Vec<_> = candidates
                .iter()
                .map(|grid| scope.spawn(move || fails(std::slice::from_ref(grid))))
                .collect();
            runs.into_iter()
                .map(|run| run.join().unwrap_or(false))
                .collect()
        })
    });
    let known = failed
        .lock()
        .ok()
        .and_then(|failed| failed.get(&shrunk.grid).cloned());
    // The program is assumed deterministic; if it is not, the original failure is
    // reported unshrunk.
    match known.or_else(|| fails_as(program, timeout, kind, &shrunk.grid)) {
        Some((ran, failure)) => Outcome {
            optima: vec![solver::solve_path(&shrunk.grid)],
            grids: vec![shrunk.grid.clone()],
            ran,
            failure,
            shrunk: Some(shrunk),
            before: vec![start],
        },
        None => whole(),
    }
}

/// `6×7 (23 free cells)`.
fn size(grids: &[Grid]) -> String {
    let free: usize = grids.iter().map(core::free_cells).sum();
    match grids {
        [grid] => format!("{}×{} ({free} free cells)", grid.rows, grid.cols),
        _ => format!("{} mazes ({free} free cells)", grids.len()),
    }
}

fn shrink_summary(outcome: &Outcome) -> String {
    match &outcome.shrunk {
        Some(shrunk) => format!(
            "{} → {} in {} and {}",
            size(&outcome.before),
            size(&outcome.grids),
            crate::maze::plural(shrunk.steps as u64, "step", "steps"),
            crate::maze::plural(shrunk.runs as u64, "run", "runs"),
        ),
        None => format!(
            "not shrunk: no single maze of the input fails alone ({})",
            size(&outcome.grids)
        ),
    }
}

/// The program's answer to the (first) maze, when it printed one.
fn answer(outcome: &Outcome) -> Option<String> {
    matches!(outcome.failure.kind, Kind::WrongAnswer | Kind::Malformed)
        .then(|| core::answer_of(&outcome.ran.stdout, 1))
        .flatten()
}

/// What the program answered, as the report and the file say it.
fn got(outcome: &Outcome) -> String {
    match outcome.failure.kind {
        Kind::WrongAnswer | Kind::Malformed => match (answer(outcome), outcome.grids.first()) {
            (Some(moves), Some(grid)) if core::is_move_string(&moves) => {
                match solver::replay(grid, &moves) {
                    Ok(replayed) => format!(
                        "{} ({moves})",
                        core::counts(replayed.pushes, replayed.moves)
                    ),
                    Err(_) => format!("{moves} (illegal)"),
                }
            }
            (Some(line), _) => format!("`{}`", line.escape_debug()),
            (None, _) => "no answer for Maze #1".to_string(),
        },
        _ => outcome.failure.detail.join("; "),
    }
}

/// Where the answer goes wrong: the judge's reason, or for a legal but worse answer,
/// the first move after which the optimum is out of reach.
fn parting(outcome: &Outcome) -> String {
    let judged = outcome.failure.detail.first().cloned().unwrap_or_default();
    let (Some(grid), Some(Some(best)), Some(moves)) = (
        outcome.grids.first(),
        outcome.optima.first(),
        answer(outcome),
    ) else {
        return judged;
    };
    match core::parting(grid, best, &moves) {
        Some(k) => {
            let letter = moves.chars().nth(k - 1).unwrap_or('?');
            if k == 1 {
                format!("move 1 (`{letter}`): no optimal solution starts this way")
            } else {
                format!(
                    "move {k} (`{letter}`): up to move {} an optimal finish was still \
                     possible, after it none is",
                    k - 1
                )
            }
        }
        None => judged,
    }
}

fn failure_file(args: &StressArgs, shown: &str, first: &Found, outcome: &Outcome) -> String {
    let note = core::FailureNote {
        command: shown,
        seed: args.seed,
        test: first.test.index + 1,
        failure: &outcome.failure,
        expected: core::expected(outcome.optima.first().and_then(Option::as_ref)),
        got: got(outcome),
        stderr_tail: &run::tail_lines(&outcome.ran.stderr_tail, 5),
        shrunk: shrink_summary(outcome),
    };
    match outcome.grids.as_slice() {
        [grid] => core::failure_file(grid, &note, answer(outcome).as_deref()),
        grids => {
            // Unshrunk, several mazes: the comment block, then the input itself.
            let one = core::failure_file(&grids[0], &note, None);
            let comments: String = one
                .lines()
                .take_while(|l| l.starts_with(';'))
                .map(|l| format!("{l}\n"))
                .collect();
            comments + &core::input_text(grids)
        }
    }
}

fn rate(search: &Search) -> f64 {
    search.tests as f64 / search.seconds.max(1e-9)
}

fn report_pass(args: &StressArgs, search: &Search) -> Result<(), CliFailure> {
    let mut out = io::stdout().lock();
    if args.json {
        let value = json!({
            "tests": search.tests,
            "seconds": search.seconds,
            "testsPerSecond": rate(search),
            "failures": 0,
            "failure": null,
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(
            out,
            "no failure in {} (seed {}, {:.0} tests/s)",
            crate::maze::plural(search.tests, "test", "tests"),
            args.seed,
            rate(search)
        )?;
    }
    Ok(())
}

fn report_failure(
    args: &StressArgs,
    search: &Search,
    first: &Found,
    outcome: &Outcome,
) -> Result<(), CliFailure> {
    let expected = core::expected(outcome.optima.first().and_then(Option::as_ref));
    let mut out = io::stdout().lock();
    if args.json {
        let shrunk = outcome.shrunk.as_ref().map(|s| {
            let dims = |grids: &[Grid]| {
                json!({
                    "rows": grids.first().map_or(0, |g| g.rows),
                    "cols": grids.first().map_or(0, |g| g.cols),
                    "freeCells": grids.iter().map(core::free_cells).sum::<usize>(),
                })
            };
            json!({ "steps": s.steps, "runs": s.runs, "before": dims(&outcome.before), "after": dims(&outcome.grids) })
        });
        let value = json!({
            "tests": search.tests,
            "seconds": search.seconds,
            "testsPerSecond": rate(search),
            "failures": search.found.len(),
            "failure": {
                "test": first.test.index + 1,
                "seed": args.seed,
                "kind": outcome.failure.kind.name(),
                "detail": outcome.failure.detail,
                "expected": expected,
                "got": got(outcome),
                "answer": answer(outcome),
                "parting": parting(outcome),
                "maze": outcome.grids.iter().map(Grid::to_rows).collect::<Vec<_>>(),
                "shrink": shrunk,
                "file": args.output.display().to_string(),
            },
        });
        writeln!(out, "{value}")?;
        return Ok(());
    }
    writeln!(
        out,
        "test {} of seed {} fails: {} (after {}, {:.0} tests/s; {} failing)",
        first.test.index + 1,
        args.seed,
        first.failure.kind,
        crate::maze::plural(search.tests, "test", "tests"),
        rate(search),
        search.found.len()
    )?;
    writeln!(out, "shrunk: {}", shrink_summary(outcome))?;
    writeln!(out)?;
    for grid in &outcome.grids {
        for row in grid.to_rows() {
            writeln!(out, "    {row}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "expected: {expected}")?;
    writeln!(out, "got:      {}", got(outcome))?;
    writeln!(out, "where:    {}", parting(outcome))?;
    let stderr = run::tail_lines(&outcome.ran.stderr_tail, 5);
    for line in stderr.lines() {
        writeln!(out, "stderr:   {line}")?;
    }
    writeln!(
        out,
        "written to {} (open it in an editor to step through the answer)",
        args.output.display()
    )?;
    Ok(())
}
