//! Solving off the request loop — the policy; the job table (`jobs.rs`) does the
//! rest: results cached by maze content (so an edit re-solves only the maze it
//! touched), one shared job per maze however many documents want it, cancelled as
//! soon as nobody wants it, a panic kept as a failure and logged once. Here: small
//! mazes solved in batches (one blocking task for many, not one each), solves stopped
//! at the configured time limit, and reported with `$/progress` when slow — from a
//! task of its own, so a client that never answers can hold up nothing.
//!
//! A maze is known by its [`GridKey`], hashed once when the maze is parsed. Open
//! documents keep the results of their own mazes (see `document.rs`); the table's
//! cache is an LRU of at most [`CACHE_BYTES`] and [`CACHE_ENTRIES`] for re-use (undo,
//! the same maze in two documents, re-opening), every operation O(1).
//!
//! Dead squares are not part of a solve: they are computed when something draws them
//! ([`Solves::dead_squares`]), a job of their own kind in the job table:
//! once per maze however many requests want them at the same time, cancelled when
//! none does, with their own permits (a hover's dead squares never wait behind a long
//! solve); a computation that fails is remembered (and logged once), not retried.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tower_lsp_server::Client;

pub use super::grid_key::GridKey;
use super::jobs::{self, Jobs, Kind, Lookup};
use super::progress::Progress;
use crate::ide::{DeadSquares, MazeStatus};
use crate::maze::Grid;
use crate::solver;

/// A settled status (never `Invalid` or `Solving`).
pub type Shared = MazeStatus;

/// An interest in a running solve; dropping the last one cancels it.
pub type Ticket = jobs::Ticket<GridKey, Shared>;

/// One maze's solve, started: computed by a [`Batch`].
type SolveJob = jobs::Job<GridKey, Shared>;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_cells: usize,
    pub timeout: Duration,
}

/// Shown as progress once a solve has run this long.
const PROGRESS_AFTER: Duration = Duration::from_millis(200);
const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// How long the progress task waits for the client to create its token.
const PROGRESS_CREATE_WAIT: Duration = Duration::from_secs(5);
/// The LRU holds at most this many bytes of mazes and results (see [`cost`]) ...
const CACHE_BYTES: usize = 128 << 20;
/// ... in at most this many entries.
const CACHE_ENTRIES: usize = 20_000;
/// At most this many mazes' dead squares (or failures to compute them) are kept ...
const DEAD_ENTRIES: usize = 1_000;
/// ... holding at most this many bytes (see [`dead_cost`]).
const DEAD_BYTES: usize = 32 << 20;
/// What an entry costs besides its grid and result: map slot, `Arc`s, headers.
const ENTRY_OVERHEAD: usize = 256;
/// Mazes of at most this many cells are solved in batches: each takes well under a
/// millisecond, less than a blocking task of its own costs to start and wait for.
const BATCH_MAZE_CELLS: usize = 10_000;
/// A batch holds mazes of at most this many cells in all (a few milliseconds' work),
/// so that both workers share a document's batches and cancelling one is prompt.
const BATCH_CELLS: usize = 100_000;

pub struct Solves {
    /// The solves, running and done (failures included).
    jobs: Arc<Jobs<GridKey, Shared>>,
    /// The dead-square computations, running and done (failures included).
    dead: Arc<Jobs<GridKey, DeadResult>>,
    /// A test hook: mazes of exactly this many cells panic inside the solve.
    panic_on_cells: Option<usize>,
    /// A test hook: mazes of exactly this many cells solve until cancelled.
    stall_on_cells: Option<usize>,
    /// A test hook: mazes of exactly this many cells panic computing dead squares.
    dead_panic_on_cells: Option<usize>,
    /// A test hook: solves of mazes of the gate's size wait until it is opened.
    gate: Option<&'static super::SolveGate>,
    /// How many dead-square computations ran (each maze's once, however many asked).
    dead_computed: AtomicUsize,
}

/// The solves' kind of job.
fn solve_kind(workers: usize) -> Kind<GridKey, Shared> {
    Kind {
        max_bytes: CACHE_BYTES,
        max_entries: CACHE_ENTRIES,
        permits: workers,
        cost: |key, result| cost(key.grid(), result),
        failed: MazeStatus::Failed,
        failure_line: |key, message| failure_line("the solver", key.grid(), message),
    }
}

/// A maze's dead squares, or why they could not be computed.
type DeadResult = Result<DeadSquares, Arc<str>>;

/// The dead-square computations' kind of job.
fn dead_kind(workers: usize) -> Kind<GridKey, DeadResult> {
    Kind {
        max_bytes: DEAD_BYTES,
        max_entries: DEAD_ENTRIES,
        permits: workers,
        cost: dead_cost,
        failed: Err,
        failure_line: |key, message| failure_line("the dead-square analysis", key.grid(), message),
    }
}

fn dead_cost(key: &GridKey, dead: &DeadResult) -> usize {
    let held = match dead {
        Ok(dead) => dead.len(),
        Err(message) => message.len(),
    };
    key.grid().walls.len() + held + ENTRY_OVERHEAD
}

/// The log line for a failure: `what` failed on `grid`.
fn failure_line(what: &str, grid: &Grid, message: &str) -> String {
    format!(
        "{what} failed on a {}×{} maze: {message}; please report this maze",
        grid.rows, grid.cols
    )
}

/// What [`Solves::find_or_start`] found for each maze asked about, by the caller's
/// index.
#[derive(Default)]
pub struct Found {
    pub ready: Vec<(usize, Shared)>,
    pub pending: Vec<(usize, Ticket)>,
}

impl Solves {
    /// The solves of one server; failures are logged to `log`.
    pub fn new(log: Option<Client>, options: super::Options) -> Solves {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let log = log.map(jobs::errors_to);
        Solves {
            jobs: Arc::new(Jobs::new(solve_kind(workers), log.clone())),
            dead: Arc::new(Jobs::new(dead_kind(workers), log)),
            panic_on_cells: options.panic_on_cells,
            stall_on_cells: options.stall_on_cells,
            dead_panic_on_cells: options.dead_squares_panic_on_cells,
            gate: options.hold_solves,
            dead_computed: AtomicUsize::new(0),
        }
    }

    /// The cached result for a maze, without starting anything.
    #[cfg(test)]
    fn peek(&self, key: &GridKey, limits: Limits) -> Option<Shared> {
        if let Some(too_large) = too_large(key.grid(), limits) {
            return Some(too_large);
        }
        self.jobs.cached(key)
    }

    /// For each `(index, key)`: the result if it is known, else a ticket for a solve
    /// started (or joined) now. New small mazes are solved in batches, in order.
    pub fn find_or_start(
        self: &Arc<Self>,
        wanted: Vec<(usize, GridKey)>,
        limits: Limits,
        progress: impl Fn() -> Option<Progress>,
    ) -> Found {
        let mut found = Found::default();
        let mut batch = Vec::new();
        let mut batch_cells = 0;
        for (index, key) in wanted {
            if let Some(too_large) = too_large(key.grid(), limits) {
                found.ready.push((index, too_large));
                continue;
            }
            let mut started = None;
            match self.jobs.lookup(key, |job| started = Some(job)) {
                Lookup::Ready(result) => found.ready.push((index, result)),
                Lookup::Pending(ticket) => found.pending.push((index, ticket)),
            }
            let Some(job) = started else { continue };
            let cells = job.key().grid().cell_count();
            if cells > BATCH_MAZE_CELLS {
                self.spawn(vec![job], limits, progress());
                continue;
            }
            if batch_cells + cells > BATCH_CELLS && !batch.is_empty() {
                self.spawn(std::mem::take(&mut batch), limits, progress());
                batch_cells = 0;
            }
            batch_cells += cells;
            batch.push(job);
        }
        if !batch.is_empty() {
            self.spawn(batch, limits, progress());
        }
        found
    }

    fn spawn(self: &Arc<Self>, jobs: Vec<SolveJob>, limits: Limits, progress: Option<Progress>) {
        let batch = Batch {
            solves: self.clone(),
            jobs,
            limits,
            progress,
        };
        tokio::spawn(batch.run());
    }

    /// The dead squares of finished solves, computed on the blocking pool (and kept
    /// with the cached results); `None` where that failed. A maze already being
    /// computed for another request is waited for, not computed again; one that
    /// failed before is not tried again.
    pub async fn dead_squares(self: &Arc<Self>, keys: Vec<GridKey>) -> Vec<Option<DeadSquares>> {
        let mut computing = Vec::new();
        let found: Vec<_> = keys
            .into_iter()
            .map(|key| self.dead.lookup(key, |job| computing.push(job)))
            .collect();
        if !computing.is_empty() {
            // A task of its own: the computation goes on while any request wants it,
            // whichever of them started it.
            tokio::spawn(self.clone().compute_dead(computing));
        }
        let mut dead = Vec::with_capacity(found.len());
        for lookup in found {
            let result = match lookup {
                Lookup::Ready(result) => Some(result),
                Lookup::Pending(mut ticket) => ticket.wait().await,
            };
            dead.push(result.and_then(Result::ok));
        }
        dead
    }

    /// Computes the dead squares of each job nobody has given up, on the blocking
    /// pool, one after another; each sent as soon as it is known (and kept with the
    /// cached result), a failure logged before it is sent.
    async fn compute_dead(self: Arc<Self>, computing: Vec<jobs::Job<GridKey, DeadResult>>) {
        let Some(_permit) = self.dead.permit().await else {
            return;
        };
        let solves = self.clone();
        let failures = tokio::task::spawn_blocking(move || {
            let mut failures = Vec::new();
            for job in computing {
                let computed = solves.dead_squares_of(&job);
                if let Ok(Some(Ok(dead))) = &computed {
                    solves
                        .jobs
                        .update(job.key(), |status| status.set_dead(dead.clone()));
                }
                failures.extend(job.end(computed));
            }
            failures
        });
        for failure in failures.await.unwrap_or_default() {
            failure.report().await;
        }
    }

    /// The blocking part: one maze's dead squares, unless its job is cancelled first.
    fn dead_squares_of(&self, job: &jobs::Job<GridKey, DeadResult>) -> jobs::Computed<DeadResult> {
        if job.is_cancelled() {
            return Ok(None);
        }
        self.dead_computed.fetch_add(1, Ordering::Relaxed);
        job.compute(|key, cancel| {
            let grid = key.grid();
            if self.dead_panic_on_cells == Some(grid.cell_count()) {
                panic!("injected dead-square panic");
            }
            let dead = solver::dead_squares(grid, cancel).ok()?;
            Some(Ok(Arc::from(dead)))
        })
    }

    /// Forgets results that depend on limits (after a configuration change).
    pub fn forget_limited(&self) {
        self.jobs
            .retain(|result| !matches!(result, MazeStatus::TimedOut { .. }));
    }

    #[cfg(test)]
    fn running(&self) -> usize {
        self.jobs.running()
    }

    /// Entries and bytes of the LRU.
    #[cfg(test)]
    fn cache_size(&self) -> (usize, usize) {
        self.jobs.cache_size()
    }
}

/// Approximate heap bytes a cache entry holds: its own copy of the grid, the dead
/// squares and the move string (which can be longer than the maze has cells).
fn cost(grid: &Grid, result: &Shared) -> usize {
    let held = match result {
        MazeStatus::Solved { solution, dead } => {
            solution.path.len() + dead.as_ref().map_or(0, |dead| dead.len())
        }
        MazeStatus::Unsolvable { dead, .. } => dead.as_ref().map_or(0, |dead| dead.len()),
        MazeStatus::Failed(message) => message.len(),
        _ => 0,
    };
    grid.walls.len() + held + ENTRY_OVERHEAD
}

fn too_large(grid: &Grid, limits: Limits) -> Option<Shared> {
    let cells = grid.cell_count();
    (cells > limits.max_cells).then_some(MazeStatus::TooLarge {
        cells,
        limit: limits.max_cells,
    })
}

/// Solves on the blocking pool, one maze after another, each result sent as soon as
/// it is known; a task watches a lone (large) maze's time limit.
struct Batch {
    solves: Arc<Solves>,
    jobs: Vec<SolveJob>,
    limits: Limits,
    progress: Option<Progress>,
}

impl Batch {
    async fn run(self) {
        let solves = self.solves.clone();
        let Some(_permit) = solves.jobs.permit().await else {
            return;
        };
        let (finished, finished_watch) = watch::channel(false);
        if let Some(progress) = self.progress.clone() {
            tokio::spawn(report_progress(progress, self.title(), finished_watch));
        }
        // Only a lone maze can run long enough to need stopping at the limit; a batch's
        // mazes are checked against it once solved.
        let watched = match &self.jobs[..] {
            [job] => Some(job.cancel_flag().clone()),
            _ => None,
        };
        let timed_out = Arc::new(AtomicBool::new(false));
        let Batch { jobs, limits, .. } = self;
        let mut work = tokio::task::spawn_blocking({
            let (solves, timed_out) = (solves.clone(), timed_out.clone());
            move || solve_jobs(&solves, jobs, limits.timeout, &timed_out)
        });
        let deadline = tokio::time::sleep(limits.timeout);
        tokio::pin!(deadline);
        let failures = loop {
            tokio::select! {
                failures = &mut work => break failures.unwrap_or_default(),
                () = &mut deadline, if watched.is_some() && !timed_out.load(Ordering::Relaxed) => {
                    timed_out.store(true, Ordering::Relaxed);
                    if let Some(cancel) = &watched {
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        let _ = finished.send(true);
        // A failure is logged before its result goes out, so that whoever sees the
        // result can also see the log.
        for failure in failures {
            failure.report().await;
        }
    }

    fn title(&self) -> String {
        match &self.jobs[..] {
            [job] => format!(
                "Solving a {}×{} maze",
                job.key().grid().rows,
                job.key().grid().cols
            ),
            jobs => format!("Solving {} mazes", jobs.len()),
        }
    }
}

/// The blocking part of a batch: solves each maze not cancelled, records and sends
/// its result. Returns the failures, to log before their results are sent.
fn solve_jobs(
    solves: &Solves,
    jobs: Vec<SolveJob>,
    timeout: Duration,
    timed_out: &AtomicBool,
) -> Vec<jobs::Failure<GridKey, Shared>> {
    let mut failures = Vec::new();
    for job in jobs {
        let computed = if job.is_cancelled() {
            // Stopped before it started: by the time limit (its thread was slow to
            // start), or because nobody wants it any more.
            Ok(timed_out
                .load(Ordering::Relaxed)
                .then_some(MazeStatus::TimedOut {
                    ms: timeout.as_millis() as u64,
                }))
        } else {
            job.compute(|key, cancel| solve_one(solves, key.grid(), cancel, timeout, timed_out))
        };
        failures.extend(job.end(computed));
    }
    failures
}

/// One maze's solve (the test hooks first); `None` once cancelled, unless by the time
/// limit.
fn solve_one(
    solves: &Solves,
    grid: &Grid,
    cancel: &AtomicBool,
    timeout: Duration,
    timed_out: &AtomicBool,
) -> Option<Shared> {
    let started = Instant::now();
    if solves.panic_on_cells == Some(grid.cell_count()) {
        panic!("injected solver panic");
    }
    let outcome = if solves.stall_on_cells == Some(grid.cell_count()) {
        while !cancel.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        Err(solver::Cancelled)
    } else {
        held_at_the_gate(solves, grid, cancel)
            .and_then(|()| solver::solve_cancellable(grid, cancel))
    };
    let over_time = || MazeStatus::TimedOut {
        ms: timeout.as_millis() as u64,
    };
    match outcome {
        Ok(_) if started.elapsed() > timeout => Some(over_time()),
        Ok(outcome) => Some(MazeStatus::from_outcome(outcome)),
        Err(solver::Cancelled) if timed_out.load(Ordering::Relaxed) => Some(over_time()),
        Err(solver::Cancelled) => None,
    }
}

/// The test hook [`super::Options::hold_solves`]: waits while the gate holds mazes of
/// this size; `Err` once cancelled.
fn held_at_the_gate(
    solves: &Solves,
    grid: &Grid,
    cancel: &AtomicBool,
) -> Result<(), solver::Cancelled> {
    while solves
        .gate
        .is_some_and(|gate| gate.holds(grid.cell_count()))
    {
        if cancel.load(Ordering::Relaxed) {
            return Err(solver::Cancelled);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(())
}

/// Reports a solve as `$/progress` once it has run [`PROGRESS_AFTER`], until
/// `finished`. Every wait for the client is bounded, and nothing waits for this task.
pub(super) async fn report_progress(
    progress: Progress,
    title: String,
    mut finished: watch::Receiver<bool>,
) {
    let started = Instant::now();
    let elapsed = || format!("{:.1} s", started.elapsed().as_secs_f64());
    // `wait_for` also returns (with an error) when the job is gone.
    if tokio::time::timeout(PROGRESS_AFTER, finished.wait_for(|&done| done))
        .await
        .is_ok()
    {
        return;
    }
    let begun = tokio::time::timeout(PROGRESS_CREATE_WAIT, progress.begin(title, elapsed())).await;
    let Ok(Some(active)) = begun else { return };
    while tokio::time::timeout(PROGRESS_EVERY, finished.wait_for(|&done| done))
        .await
        .is_err()
    {
        active.report(&elapsed()).await;
    }
    active.end("done").await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::Options;

    fn limits() -> Limits {
        Limits {
            max_cells: 1_000_000,
            timeout: Duration::from_secs(30),
        }
    }

    fn key(rows: &[&str]) -> GridKey {
        GridKey::new(&Arc::new(Grid::from_rows(rows).expect("valid grid")))
    }

    fn none() -> Option<Progress> {
        None
    }

    #[tokio::test]
    async fn solves_once_and_caches_by_content() {
        let solves = Arc::new(Solves::new(None, Options::default()));
        let maze = key(&["SB....T"]);
        let mut found = solves.find_or_start(vec![(7, maze.clone())], limits(), none);
        let Some((7, mut ticket)) = found.pending.pop() else {
            panic!("the first lookup starts a solve");
        };
        let result = ticket.wait().await.expect("solved");
        assert!(matches!(result, MazeStatus::Solved { dead: None, .. }));
        drop(ticket);
        let again = solves.find_or_start(vec![(3, key(&["SB....T"]))], limits(), none);
        assert!(again.pending.is_empty());
        assert_eq!(again.ready, vec![(3, result)]);
        assert_eq!(solves.running(), 0);
        assert_eq!(solves.cache_size().0, 1);
        assert!(solves.peek(&maze, limits()).is_some());
    }

    #[tokio::test]
    async fn many_small_mazes_are_solved_in_batches_each_result_its_own() {
        let solves = Arc::new(Solves::new(None, Options::default()));
        let wanted: Vec<(usize, GridKey)> = (1..=300)
            .map(|gap| {
                let row = format!("SB{}T", ".".repeat(gap));
                (gap, key(&[row.as_str()]))
            })
            .collect();
        let found = solves.find_or_start(wanted, limits(), none);
        assert_eq!(found.pending.len(), 300);
        for (gap, mut ticket) in found.pending {
            let result = ticket.wait().await.expect("solved");
            let solution = result.solution().expect("solvable");
            assert_eq!(solution.pushes, gap as u64 + 1, "the result of maze {gap}");
        }
        assert_eq!(solves.running(), 0);
    }

    #[tokio::test]
    async fn dead_squares_are_computed_on_demand_and_cached() {
        let solves = Arc::new(Solves::new(None, Options::default()));
        let maze = key(&["#####", "#S..#", "#.B.#", "#..T#", "#####"]);
        let mut found = solves.find_or_start(vec![(0, maze.clone())], limits(), none);
        let (_, mut ticket) = found.pending.pop().expect("started");
        ticket.wait().await.expect("solved");
        let dead = solves.dead_squares(vec![maze.clone()]).await;
        let dead = dead[0].clone().expect("computed");
        // The corners of the room are dead, its middle is not.
        assert!(dead[6] && !dead[12]);
        let cached = solves.peek(&maze, limits()).expect("cached");
        assert_eq!(cached.dead(), Some(&dead[..]));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_dead_square_requests_share_one_computation() {
        let solves = Arc::new(Solves::new(None, Options::default()));
        let rooms: Vec<GridKey> = (5..15)
            .map(|side| {
                let mut rows = vec!["#".repeat(side)];
                rows.push(format!("#S{}#", ".".repeat(side - 3)));
                rows.push(format!("#.B{}#", ".".repeat(side - 4)));
                for _ in 3..side - 2 {
                    rows.push(format!("#{}#", ".".repeat(side - 2)));
                }
                rows.push(format!("#{}T#", ".".repeat(side - 3)));
                rows.push("#".repeat(side));
                let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
                key(&rows)
            })
            .collect();
        let askers: Vec<_> = (0..8)
            .map(|_| {
                let (solves, rooms) = (solves.clone(), rooms.clone());
                tokio::spawn(async move { solves.dead_squares(rooms).await })
            })
            .collect();
        let mut answers = Vec::new();
        for asker in askers {
            answers.push(asker.await.expect("no panic"));
        }
        assert!(answers.iter().all(|answer| answer == &answers[0]));
        assert!(answers[0].iter().all(Option::is_some));
        assert_eq!(solves.dead_computed.load(Ordering::Relaxed), rooms.len());
        assert_eq!(solves.dead.running(), 0);
    }

    #[tokio::test]
    async fn a_failed_dead_square_computation_is_remembered() {
        let options = Options {
            dead_squares_panic_on_cells: Some(7),
            ..Options::default()
        };
        let solves = Arc::new(Solves::new(None, options));
        let maze = key(&["SB....T"]);
        for _ in 0..3 {
            assert_eq!(solves.dead_squares(vec![maze.clone()]).await, vec![None]);
        }
        assert_eq!(solves.dead_computed.load(Ordering::Relaxed), 1);
    }

    #[tokio::test]
    async fn a_solve_the_time_limit_stopped_before_it_started_timed_out() {
        let solves = Arc::new(Solves::new(None, Options::default()));
        let mut started = None;
        let Lookup::Pending(mut ticket) = solves.jobs.lookup(key(&["SB.T"]), |job| {
            started = Some(job);
        }) else {
            panic!("nothing is known yet");
        };
        let job = started.expect("started");
        // The limit passed before the blocking thread got to the maze.
        let timed_out = AtomicBool::new(true);
        job.cancel_flag().store(true, Ordering::Relaxed);
        let timeout = Duration::from_millis(1);
        assert!(solve_jobs(&solves, vec![job], timeout, &timed_out).is_empty());
        assert_eq!(ticket.wait().await, Some(MazeStatus::TimedOut { ms: 1 }));
    }

    #[tokio::test]
    async fn too_large_is_answered_without_solving() {
        let solves = Arc::new(Solves::new(None, Options::default()));
        let small = Limits {
            max_cells: 3,
            ..limits()
        };
        let found = solves.find_or_start(vec![(0, key(&["SB....T"]))], small, none);
        assert!(found.pending.is_empty());
        assert_eq!(
            found.ready,
            vec![(0, MazeStatus::TooLarge { cells: 7, limit: 3 })]
        );
    }

    #[tokio::test]
    async fn an_injected_panic_becomes_a_failure() {
        let solves = Arc::new(Solves::new(
            None,
            Options {
                panic_on_cells: Some(7),
                ..Options::default()
            },
        ));
        let mut found = solves.find_or_start(vec![(0, key(&["SB....T"]))], limits(), none);
        let (_, mut ticket) = found.pending.pop().expect("started");
        let result = ticket.wait().await.expect("finished");
        assert_eq!(result, MazeStatus::Failed("injected solver panic".into()));
    }

    #[test]
    fn keys_are_equal_exactly_when_the_grids_are() {
        let a = key(&["SB.T", "...."]);
        assert_eq!(a, key(&["SB.T", "...."]));
        assert_eq!(a, a.clone());
        assert_ne!(a, key(&["SB.T", "..#."]));
        assert_ne!(a, key(&["SB.T...."]));
    }

    fn fake(cells: usize, seed: usize) -> (GridKey, Shared) {
        let mut walls = vec![false; cells];
        walls[seed % cells] = true;
        let grid = Grid {
            rows: 1,
            cols: cells,
            walls,
            player: 0,
            boxed: 1,
            target: 2,
        };
        let status = MazeStatus::Unsolvable {
            reason: solver::Reason::TargetUnreachable,
            dead: Some(Arc::from(vec![false; cells])),
        };
        (GridKey::new(&Arc::new(grid)), status)
    }

    #[test]
    fn the_cache_is_bounded_in_entries_and_bytes() {
        let solves = Solves::new(None, Options::default());
        for seed in 0..CACHE_ENTRIES + 500 {
            let (grid, result) = fake(64 + seed / 64, seed);
            solves.jobs.keep(&grid, result);
        }
        let (entries, bytes) = solves.cache_size();
        assert_eq!(entries, CACHE_ENTRIES);
        assert!(bytes <= CACHE_BYTES);
        for seed in 0..20 {
            let (grid, result) = fake(16 << 20, seed);
            solves.jobs.keep(&grid, result);
            let (_, bytes) = solves.cache_size();
            assert!(
                bytes <= CACHE_BYTES,
                "{bytes} bytes after {seed} large mazes"
            );
        }
        let (entries, bytes) = solves.cache_size();
        assert!(
            entries >= 1 && bytes > 32 << 20,
            "{entries} entries, {bytes} bytes"
        );
        let (grid, result) = fake(16 << 20, 0);
        solves.jobs.keep(&grid, result.clone());
        solves.jobs.keep(&grid, result);
        assert!(
            solves.cache_size().1 <= CACHE_BYTES,
            "a re-solve is not counted twice"
        );
    }
}
