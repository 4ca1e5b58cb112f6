//! `boxls stress`: runs a program on generated inputs, judges each answer, shrinks the
//! first failure to a small maze that fails the same way and writes it as a `.box`
//! file an editor checks. The meaning of a run and the shrinker are pure
//! (`crate::stress`); this module runs processes, in parallel, and reports.

mod contain;
mod run;

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{self, IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
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
accepted). COMMAND runs without a shell, in its own process group (and cgroup, where
cgroup v2 is writable); at its exit, the time limit or above 16 MiB of output every
process it started is killed, daemons included, and on Ctrl-C, SIGTERM or SIGHUP all
of them. The first failure (wrong answer, malformed output, runtime error, time or
output limit) is shrunk to a small maze that fails the same way and written to FILE
with the program's answer as `; solution:` (or why it failed as `; failure:`), so
`boxls check` and an editor show where it goes wrong.

Examples:
  boxls stress -- ./my-solver
  boxls stress --seed 7 --tests 5000 --max-rows 8 --max-cols 8 -- python3 sol.py
  boxls stress --time 60 --jobs 4 -o bug.box -- ./a.out

Exit codes: 0 no failure found, 1 a failure found (and written to FILE, or printed
when FILE cannot be written after all), 2 bad arguments, FILE not writable, or
COMMAND cannot be run at all.")]
pub struct StressArgs {
    /// Seed of the generated inputs: the same seed gives the same tests.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many tests to run [default: 1000].
    #[arg(long, value_name = "K", conflicts_with = "time", value_parser = clap::value_parser!(u64).range(1..))]
    tests: Option<u64>,
    /// Run tests for this many seconds instead (at most a week, 604800).
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds(false, MAX_SECONDS))]
    time: Option<f64>,
    /// Runs side by side, 1 to 64 [default: the number of cores, 64 at most].
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u64).range(1..=MAX_JOBS))]
    jobs: Option<u64>,
    /// Time limit of one run, in milliseconds (1 to 3600000, an hour).
    #[arg(long, value_name = "T", default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=MAX_TIMEOUT_MS))]
    timeout_ms: u64,
    /// Largest number of rows of a generated maze, its border of rock included (3 to 2000).
    #[arg(long, value_name = "R", default_value_t = 10, value_parser = clap::value_parser!(u64).range(inputs::MIN_ROWS as u64..=2000))]
    max_rows: u64,
    /// Largest number of columns, the border included (5 to 2000).
    #[arg(long, value_name = "C", default_value_t = 10, value_parser = clap::value_parser!(u64).range(inputs::MIN_COLS as u64..=2000))]
    max_cols: u64,
    /// `gen`'s family of the mazes: open, rooms, caves, corridors, traps, or mix (each
    /// maze's family picked by its seed).
    #[arg(long, value_name = "F", default_value = "mix", value_parser = ["mix", "open", "rooms", "caves", "corridors", "traps"])]
    family: String,
    /// Mazes per input, 1 to 1000; a failing input is first reduced to its failing maze.
    #[arg(long, value_name = "M", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_MAZES_PER_INPUT))]
    mazes_per_input: u64,
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

/// The most runs side by side (`--jobs`): each is a thread and a process.
const MAX_JOBS: u64 = 64;
/// The longest `--time`, in seconds: a week.
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;
/// The longest `--timeout-ms`: an hour.
const MAX_TIMEOUT_MS: u64 = 3_600_000;
/// The most mazes in one input (`--mazes-per-input`).
const MAX_MAZES_PER_INPUT: u64 = 1000;

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
    /// The first failing test (in test order), its run [`Ran::kept`].
    found: Option<Found>,
    /// How many tests failed.
    failures: u64,
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
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            |jobs| jobs as usize,
        )
        .min(MAX_JOBS as usize);
    interrupt_ends_every_run()?;
    contain::init()
        .map_err(|e| CliFailure::Message(format!("cannot make boxls a child subreaper: {e}")))?;
    // Whatever way this function returns, nothing the runs started is left.
    let _ends_all = EndsAll;
    let timeout = Duration::from_millis(args.timeout_ms);
    writable(&args.output).map_err(|e| {
        CliFailure::Message(format!(
            "cannot write the failure file `{}` (-o): {e}",
            args.output.display()
        ))
    })?;
    let search = search(&args, &Inputs::new(options), &program, jobs, timeout);
    // After a signal the runs fail because they were killed: the signal's thread is
    // ending boxls (128 + the signal), nothing of this is reported.
    run::wait_if_interrupted();
    let search = search?;
    let Some(first) = &search.found else {
        report_pass(&args, &search)?;
        return Ok(ExitCode::SUCCESS);
    };
    let outcome = reduce_and_shrink(first, &program, jobs, timeout);
    run::wait_if_interrupted();
    let text = failure_file(&args, &shown, first, &outcome);
    // The failure is never lost: when the file cannot be written after all, the
    // report carries its text.
    let unwritten = std::fs::write(&args.output, &text).err().map(|e| {
        let why = format!("cannot write `{}`: {e}", args.output.display());
        eprintln!("boxls: {why}; the failure file is printed on standard output instead");
        Unwritten { why, text }
    });
    report_failure(&args, &search, first, &outcome, unwritten.as_ref())?;
    Ok(ExitCode::FAILURE)
}

/// The failure file's text when it could not be written, and why.
struct Unwritten {
    why: String,
    text: String,
}

/// Whether `path` can be written, checked without changing it: an existing file is
/// opened for appending (nothing appended), a missing one made and removed again.
fn writable(path: &std::path::Path) -> io::Result<()> {
    let mut open = std::fs::OpenOptions::new();
    if path.exists() {
        open.append(true).open(path).map(drop)
    } else {
        open.write(true).create_new(true).open(path)?;
        std::fs::remove_file(path)
    }
}

/// Dropped when `stress` returns: kills and reaps every descendant, removes the cgroups.
struct EndsAll;

impl Drop for EndsAll {
    fn drop(&mut self) {
        contain::end_of_all();
    }
}

fn options(args: &StressArgs) -> Result<Options, CliFailure> {
    // Each range is clap's; only the product is checked here.
    if args.max_rows * args.max_cols > 10_000 {
        return Err(CliFailure::Message(
            "--max-rows × --max-cols is at most 10000 (each test is solved to judge it)"
                .to_string(),
        ));
    }
    Ok(Options {
        seed: args.seed,
        max_rows: args.max_rows as usize,
        max_cols: args.max_cols as usize,
        family: Family::from_name(&args.family),
        mazes_per_input: args.mazes_per_input as usize,
    })
}

/// The command as a shell would show it, on one line: arguments with spaces or
/// quotes quoted, those with control characters (a line break) in `$'…'` with the
/// characters escaped, so the failure file's `; command:` stays one comment line.
fn shown_command(command: &[OsString]) -> String {
    command
        .iter()
        .map(|arg| shell_word(&arg.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_word(arg: &str) -> String {
    if arg.contains(char::is_control) {
        let escaped: String = arg
            .chars()
            .map(|c| match c {
                '\\' => "\\\\".to_string(),
                '\'' => "\\'".to_string(),
                '\n' => "\\n".to_string(),
                '\t' => "\\t".to_string(),
                '\r' => "\\r".to_string(),
                c if u32::from(c) < 0x80 && c.is_control() => format!("\\x{:02x}", u32::from(c)),
                c if c.is_control() => format!("\\u{:04x}", u32::from(c)),
                c => c.to_string(),
            })
            .collect();
        format!("$'{escaped}'")
    } else if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || "'\"$\\".contains(c)) {
        format!("'{}'", arg.replace('\'', "'\\''"))
    } else {
        arg.to_string()
    }
}

/// Ctrl-C (and SIGTERM, SIGHUP) kill every running test's process group, then exit 130.
fn interrupt_ends_every_run() -> Result<(), CliFailure> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| CliFailure::Message(format!("cannot handle Ctrl-C: {e}")))?;
    std::thread::Builder::new()
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                run::kill_all();
                eprintln!("\nboxls: interrupted; every run of the program was ended");
                std::process::exit(128 + signal);
            }
        })
        .map_err(|e| CliFailure::Message(format!("cannot start a thread: {e}")))?;
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
) -> Result<Search, CliFailure> {
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
    let found: Mutex<Option<Found>> = Mutex::new(None);
    let cannot_run = Mutex::new(None);
    let mut spawn_error = None;
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
            // Without its thread there is no progress line, nothing else lost.
            let _ = thread::Builder::new().spawn_scoped(scope, move || loop {
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
        let mut makers_started = 0;
        for _ in 0..makers(jobs) {
            let ahead = ahead.clone();
            let (next, stop_at, quit) = (&next, &stop_at, &quit);
            let spawned = thread::Builder::new().spawn_scoped(scope, move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let stopped = !args.keep_going && index > stop_at.load(Ordering::Relaxed);
                if index >= limit || late() || quit.load(Ordering::Relaxed) || stopped {
                    return;
                }
                if ahead.send(Test::new(index, inputs.test(index))).is_err() {
                    return;
                }
            });
            match spawned {
                Ok(_) => makers_started += 1,
                Err(error) => {
                    spawn_error.get_or_insert(error);
                    break;
                }
            }
        }
        drop(ahead);
        let mut workers = Vec::new();
        // Without a maker no test comes: no runner is started.
        let runners = if makers_started > 0 { jobs } else { 0 };
        for _ in 0..runners {
            let made = Arc::clone(&made);
            let (stop_at, quit, done, failures) = (&stop_at, &quit, &done, &failures);
            let (found, cannot_run) = (&found, &cannot_run);
            let spawned = thread::Builder::new().spawn_scoped(scope, move || loop {
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
                            // Only the first failure in test order is kept, and of its
                            // run only what the report needs.
                            if let Ok(mut found) = found.lock() {
                                if found.as_ref().is_none_or(|f| f.test.index > test.index) {
                                    let ran = ran.kept();
                                    *found = Some(Found { test, ran, failure });
                                }
                            }
                        }
                    }
                }
            });
            match spawned {
                Ok(worker) => workers.push(worker),
                Err(error) => {
                    spawn_error.get_or_insert(error);
                    break;
                }
            }
        }
        drop(made);
        if workers.is_empty() {
            quit.store(true, Ordering::Relaxed);
        }
        for worker in workers {
            let _ = worker.join();
        }
        drop(finished);
    });
    if let Some(error) = cannot_run.into_inner().ok().flatten() {
        let shown = shown_command(&args.command);
        return Err(CliFailure::Message(format!(
            "cannot run `{shown}`: {error}"
        )));
    }
    if let Some(error) = spawn_error {
        let message = format!("cannot start a thread for every one of --jobs {jobs}: {error}");
        if done.load(Ordering::Relaxed) == 0 {
            return Err(CliFailure::Message(message));
        }
        eprintln!("boxls: warning: {message}; fewer runs went side by side");
    }
    Ok(Search {
        tests: done.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
        found: found.into_inner().ok().flatten(),
        failures: failures.load(Ordering::Relaxed),
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
    (failure.kind == kind).then(|| (ran.kept(), failure))
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
    // The latest failing runs of single mazes, so the result's answer needs no run of
    // its own: the shrunk maze is a failing candidate of the last batch that had one,
    // and a batch is at most `jobs` candidates, so the newest `jobs` runs hold it
    // (keeping every failing run would hold up to 64 KiB of output each).
    let failed: Mutex<VecDeque<(Grid, Ran, Failure)>> = Mutex::new(VecDeque::new());
    let remember = |grid: &Grid, ran: &Ran, failure: &Failure| {
        if let Ok(mut failed) = failed.lock() {
            if failed.len() > jobs {
                failed.pop_front();
            }
            failed.push_back((grid.clone(), ran.clone(), failure.clone()));
        }
    };
    if let [grid] = first.test.grids.as_slice() {
        remember(grid, &first.ran, &first.failure);
    }
    let fails = |grids: &[Grid]| {
        let run = fails_on(program, timeout, kind, grids);
        if let (Some((ran, failure)), [grid]) = (&run, grids) {
            remember(grid, ran, failure);
        }
        run.is_some()
    };
    let Some(start) = failing_maze(&first.test.grids, fails) else {
        return whole();
    };
    let shrunk = shrink(start.clone(), jobs, |candidates: &[Grid]| {
        std::thread::scope(|scope| {
            // A candidate whose thread cannot start is run on this one.
            let runs: Vec<_> = candidates
                .iter()
                .map(|grid| {
                    thread::Builder::new()
                        .spawn_scoped(scope, move || fails(std::slice::from_ref(grid)))
                        .map_err(|_| grid)
                })
                .collect();
            runs.into_iter()
                .map(|run| match run {
                    Ok(run) => run.join().unwrap_or(false),
                    Err(grid) => fails(std::slice::from_ref(grid)),
                })
                .collect()
        })
    });
    let known = failed.lock().ok().and_then(|failed| {
        failed
            .iter()
            .rev()
            .find(|(grid, _, _)| *grid == shrunk.grid)
            .map(|(_, ran, failure)| (ran.clone(), failure.clone()))
    });
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

/// How much of the program's answer a report line shows (the failure file's
/// `; solution:` line holds all of it).
const SHOWN_ANSWER: usize = 200;

/// The program's answer to the (first) maze, when it printed one and its whole
/// output was kept ([`run::KEPT_STDOUT`]).
fn answer(outcome: &Outcome) -> Option<String> {
    (matches!(outcome.failure.kind, Kind::WrongAnswer | Kind::Malformed)
        && outcome.ran.whole_stdout())
    .then(|| core::answer_of(&outcome.ran.stdout, 1))
    .flatten()
}

/// What the program answered, as the report and the file say it.
fn got(outcome: &Outcome) -> String {
    let ran = &outcome.ran;
    match outcome.failure.kind {
        Kind::WrongAnswer | Kind::Malformed if !ran.whole_stdout() => {
            let start: String = String::from_utf8_lossy(&ran.stdout)
                .chars()
                .take(80)
                .collect();
            format!(
                "{} bytes of output, too many to record; it starts `{}`…",
                ran.stdout_len,
                start.escape_debug()
            )
        }
        Kind::WrongAnswer | Kind::Malformed => match (answer(outcome), outcome.grids.first()) {
            (Some(moves), Some(grid)) if core::is_move_string(&moves) => {
                let shown = core::bounded(&moves, SHOWN_ANSWER);
                match solver::replay(grid, &moves) {
                    Ok(replayed) => format!(
                        "{} ({shown})",
                        core::counts(replayed.pushes, replayed.moves)
                    ),
                    Err(_) => format!("{shown} (illegal)"),
                }
            }
            (Some(line), _) => {
                let line = line.escape_debug().to_string();
                format!("`{}`", core::bounded(&line, SHOWN_ANSWER))
            }
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
    unwritten: Option<&Unwritten>,
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
            "failures": search.failures,
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
                "file": unwritten.is_none().then(|| args.output.display().to_string()),
                "fileError": unwritten.map(|u| &u.why),
                "fileText": unwritten.map(|u| &u.text),
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
        search.failures
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
    // What the program wrote reaches the terminal escaped: no ESC, CR or other
    // control byte of its own.
    let shown = |text: &str| core::bounded(&core::printable(text), core::MAX_COMMENT);
    writeln!(out, "got:      {}", shown(&got(outcome)))?;
    writeln!(out, "where:    {}", shown(&parting(outcome)))?;
    let stderr = run::tail_lines(&outcome.ran.stderr_tail, 5);
    for line in stderr.lines() {
        writeln!(out, "stderr:   {}", shown(line))?;
    }
    match unwritten {
        None => writeln!(
            out,
            "written to {} (open it in an editor to step through the answer)",
            args.output.display()
        )?,
        Some(unwritten) => {
            writeln!(out, "not written: {}; here it is:", unwritten.why)?;
            out.write_all(unwritten.text.as_bytes())?;
        }
    }
    Ok(())
}
