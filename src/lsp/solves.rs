//! Solving off the request loop: results cached by maze content (so an edit re-solves
//! only the maze it touched), one shared job per maze however many documents want it,
//! cancelled as soon as nobody does, stopped at the configured time limit, and
//! reported with `$/progress` when slow.
//!
//! The cache keeps every result an open document uses (its mazes are *pinned*) and,
//! beyond those, at most [`CACHE_BYTES`] and [`CACHE_ENTRIES`] of the most recently
//! used others.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{watch, Semaphore};
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;

use super::progress::Progress;
use crate::maze::Grid;
use crate::solver::{self, Analysis, Outcome};

/// What became of a maze's solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveResult {
    Done(Analysis),
    TooLarge { cells: usize, limit: usize },
    TimedOut { ms: u64 },
    Failed(String),
}

pub type Shared = Arc<SolveResult>;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_cells: usize,
    pub timeout: Duration,
}

/// Shown as progress once a solve has run this long.
const PROGRESS_AFTER: Duration = Duration::from_millis(200);
const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// The cache holds at most this many bytes of mazes and results (see [`cost`]) ...
const CACHE_BYTES: usize = 128 << 20;
/// ... in at most this many entries.
const CACHE_ENTRIES: usize = 20_000;
/// What an entry costs besides its grid and result: map slot, `Arc`s, headers.
const ENTRY_OVERHEAD: usize = 256;

pub struct Solves {
    inner: Mutex<Inner>,
    permits: Semaphore,
    /// Where a failed solve is logged (`window/logMessage`).
    log: Option<Client>,
    /// A test hook: mazes of exactly this many cells panic inside the solve.
    panic_on_cells: Option<usize>,
}

#[derive(Default)]
struct Inner {
    cache: HashMap<Arc<Grid>, Cached>,
    /// The sum of the entries' `cost`.
    cached_bytes: usize,
    clock: u64,
    running: HashMap<Arc<Grid>, Running>,
    next_id: u64,
    /// How many open document versions use each grid; pinned results are never evicted.
    pins: HashMap<Arc<Grid>, usize>,
}

struct Cached {
    result: Shared,
    used: u64,
    cost: usize,
    pinned: bool,
}

struct Running {
    id: u64,
    cancel: Arc<AtomicBool>,
    interest: usize,
    done: watch::Receiver<Option<Shared>>,
}

/// The answer to "what about this maze?".
pub enum Lookup {
    Ready,
    Pending(Ticket),
}

/// An interest in a running solve; dropping the last one cancels it.
pub struct Ticket {
    solves: Arc<Solves>,
    grid: Arc<Grid>,
    id: u64,
    done: watch::Receiver<Option<Shared>>,
}

impl Ticket {
    /// Waits for the solve; `None` if it was cancelled.
    pub async fn wait(mut self) -> Option<Shared> {
        let result = self.done.wait_for(Option::is_some).await.ok()?.clone();
        result
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut inner = self.solves.lock();
        if let Some(running) = inner.running.get_mut(&*self.grid) {
            if running.id == self.id {
                running.interest -= 1;
                if running.interest == 0 {
                    running.cancel.store(true, Ordering::Relaxed);
                }
            }
        }
    }
}

impl Solves {
    pub fn new(log: Option<Client>, panic_on_cells: Option<usize>) -> Solves {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        Solves {
            inner: Mutex::default(),
            permits: Semaphore::new(workers),
            log,
            panic_on_cells,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The known result for a maze, without starting anything.
    pub fn peek(&self, grid: &Grid, limits: Limits) -> Option<Shared> {
        if let Some(too_large) = too_large(grid, limits) {
            return Some(too_large);
        }
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let cached = inner.cache.get_mut(grid)?;
        cached.used = clock;
        Some(cached.result.clone())
    }

    /// The result for a maze, or a ticket for a solve started (or joined) now.
    /// Either way the maze is pinned, atomically with the lookup (so no eviction comes
    /// in between), until [`Solves::unpin`] with the returned key.
    pub fn lookup(
        self: &Arc<Self>,
        grid: &Grid,
        limits: Limits,
        progress: Option<Progress>,
    ) -> (Lookup, Option<Arc<Grid>>) {
        if too_large(grid, limits).is_some() {
            return (Lookup::Ready, None);
        }
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        if let Some(cached) = inner.cache.get_mut(grid) {
            cached.used = clock;
            return (Lookup::Ready, inner.pin(grid));
        }
        if let Some(running) = inner.running.get_mut(grid) {
            if !running.cancel.load(Ordering::Relaxed) {
                running.interest += 1;
                let ticket = Ticket {
                    solves: self.clone(),
                    grid: Arc::new(grid.clone()),
                    id: running.id,
                    done: running.done.clone(),
                };
                return (Lookup::Pending(ticket), inner.pin(grid));
            }
        }
        let grid = Arc::new(grid.clone());
        let id = inner.next_id;
        inner.next_id += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let (sender, done) = watch::channel(None);
        inner.running.insert(
            grid.clone(),
            Running {
                id,
                cancel: cancel.clone(),
                interest: 1,
                done: done.clone(),
            },
        );
        let key = inner.pin(&grid);
        drop(inner);
        let job = Job {
            solves: self.clone(),
            grid: grid.clone(),
            id,
            cancel,
            limits,
            progress,
        };
        tokio::spawn(job.run(sender));
        let ticket = Ticket {
            solves: self.clone(),
            grid,
            id,
            done,
        };
        (Lookup::Pending(ticket), key)
    }

    /// Forgets results that depend on limits (after a configuration change).
    pub fn forget_limited(&self) {
        let mut inner = self.lock();
        inner
            .cache
            .retain(|_, cached| !matches!(*cached.result, SolveResult::TimedOut { .. }));
        inner.cached_bytes = inner.cache.values().map(|cached| cached.cost).sum();
    }

    fn finish(&self, grid: &Arc<Grid>, id: u64, result: Option<Shared>) {
        let mut inner = self.lock();
        if inner
            .running
            .get(&**grid)
            .is_some_and(|running| running.id == id)
        {
            inner.running.remove(&**grid);
        }
        if let Some(result) = result {
            inner.clock += 1;
            let used = inner.clock;
            let cost = cost(grid, &result);
            let pinned = inner.pins.contains_key(&**grid);
            let cached = Cached {
                result,
                used,
                cost,
                pinned,
            };
            inner.cached_bytes += cost;
            if let Some(replaced) = inner.cache.insert(grid.clone(), cached) {
                inner.cached_bytes -= replaced.cost;
            }
            evict(&mut inner);
        }
    }

    pub fn unpin(&self, grid: &Arc<Grid>) {
        let mut inner = self.lock();
        let Some(pins) = inner.pins.get_mut(&**grid) else {
            return;
        };
        *pins -= 1;
        if *pins == 0 {
            inner.pins.remove(&**grid);
            if let Some(cached) = inner.cache.get_mut(&**grid) {
                cached.pinned = false;
            }
            evict(&mut inner);
        }
    }

    /// Logs a failed solve once, where it happened.
    async fn log_failure(&self, grid: &Grid, message: &str) {
        if let Some(client) = &self.log {
            let text = format!(
                "the solver failed on a {}×{} maze: {message}; please report this maze",
                grid.rows, grid.cols
            );
            client.log_message(MessageType::ERROR, text).await;
        }
    }

    #[cfg(test)]
    fn running(&self) -> usize {
        self.lock().running.len()
    }

    #[cfg(test)]
    fn cache_size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.cache.len(), inner.cached_bytes)
    }
}

impl Inner {
    /// Keeps a grid's result (cached, or to come from its running solve) from eviction
    /// until [`Solves::unpin`]; the key to unpin with, `None` if there is nothing to keep.
    fn pin(&mut self, grid: &Grid) -> Option<Arc<Grid>> {
        let key = match self.cache.get_key_value(grid) {
            Some((key, _)) => key.clone(),
            None => self.running.get_key_value(grid)?.0.clone(),
        };
        *self.pins.entry(key.clone()).or_default() += 1;
        if let Some(cached) = self.cache.get_mut(grid) {
            cached.pinned = true;
        }
        Some(key)
    }
}

/// Approximate heap bytes a cache entry holds: its own copy of the grid, the dead
/// squares and the move string (which can be longer than the maze has cells).
fn cost(grid: &Grid, result: &SolveResult) -> usize {
    let held = match result {
        SolveResult::Done(analysis) => {
            let path = match &analysis.outcome {
                Outcome::Solved(solution) => solution.path.len(),
                Outcome::Unsolvable(_) => 0,
            };
            analysis.dead.len() + path
        }
        SolveResult::Failed(message) => message.len(),
        SolveResult::TooLarge { .. } | SolveResult::TimedOut { .. } => 0,
    };
    grid.walls.len() + held + ENTRY_OVERHEAD
}

/// Drops least recently used unpinned results until the cache fits its bounds (or
/// only pinned ones are left).
fn evict(inner: &mut Inner) {
    while inner.cached_bytes > CACHE_BYTES || inner.cache.len() > CACHE_ENTRIES {
        let Some(oldest) = inner
            .cache
            .iter()
            .filter(|(_, c)| !c.pinned)
            .min_by_key(|(_, c)| c.used)
            .map(|(grid, _)| grid.clone())
        else {
            break;
        };
        if let Some(evicted) = inner.cache.remove(&oldest) {
            inner.cached_bytes -= evicted.cost;
        }
    }
}

fn too_large(grid: &Grid, limits: Limits) -> Option<Shared> {
    let cells = grid.cell_count();
    (cells > limits.max_cells).then(|| {
        Arc::new(SolveResult::TooLarge {
            cells,
            limit: limits.max_cells,
        })
    })
}

/// One solve on the blocking pool, watched by a task that handles time limit and progress.
struct Job {
    solves: Arc<Solves>,
    grid: Arc<Grid>,
    id: u64,
    cancel: Arc<AtomicBool>,
    limits: Limits,
    progress: Option<Progress>,
}

impl Job {
    async fn run(self, sender: watch::Sender<Option<Shared>>) {
        let result = self.solve().await;
        self.solves.finish(&self.grid, self.id, result.clone());
        if let Some(SolveResult::Failed(message)) = result.as_deref() {
            self.solves.log_failure(&self.grid, message).await;
        }
        if result.is_some() {
            // Nobody listening is fine: the result is cached.
            let _ = sender.send(result);
        }
        // A cancelled solve just drops `sender`, which wakes any waiter with `None`.
    }

    async fn solve(&self) -> Option<Shared> {
        let _permit = self.solves.permits.acquire().await.ok()?;
        if self.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let started = Instant::now();
        let timed_out = Arc::new(AtomicBool::new(false));
        let mut solve = tokio::task::spawn_blocking({
            let grid = self.grid.clone();
            let cancel = self.cancel.clone();
            let panic_on = self.solves.panic_on_cells;
            move || {
                catch_unwind(AssertUnwindSafe(|| {
                    if panic_on == Some(grid.cell_count()) {
                        panic!("injected solver panic");
                    }
                    solver::analyze(&grid, &cancel)
                }))
            }
        });
        let deadline = tokio::time::sleep(self.limits.timeout);
        tokio::pin!(deadline);
        let mut ticks =
            tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_AFTER, PROGRESS_EVERY);
        let mut reported: Option<Progress> = None;
        let outcome = loop {
            tokio::select! {
                outcome = &mut solve => break outcome,
                () = &mut deadline, if !timed_out.load(Ordering::Relaxed) => {
                    timed_out.store(true, Ordering::Relaxed);
                    self.cancel.store(true, Ordering::Relaxed);
                }
                _ = ticks.tick() => self.report(&mut reported, started).await,
            }
        };
        if let Some(progress) = reported {
            progress.end("done").await;
        }
        match outcome {
            Ok(Ok(Ok(analysis))) => Some(Arc::new(SolveResult::Done(analysis))),
            Ok(Ok(Err(solver::Cancelled))) if timed_out.load(Ordering::Relaxed) => {
                Some(Arc::new(SolveResult::TimedOut {
                    ms: self.limits.timeout.as_millis() as u64,
                }))
            }
            Ok(Ok(Err(solver::Cancelled))) => None,
            Ok(Err(panic)) => Some(Arc::new(SolveResult::Failed(panic_message(&panic)))),
            Err(join) => Some(Arc::new(SolveResult::Failed(join.to_string()))),
        }
    }

    async fn report(&self, reported: &mut Option<Progress>, started: Instant) {
        let Some(progress) = &self.progress else {
            return;
        };
        let elapsed = format!("{:.1} s", started.elapsed().as_secs_f64());
        match reported {
            Some(active) => active.report(&elapsed).await,
            None => {
                let title = format!("Solving a {}×{} maze", self.grid.rows, self.grid.cols);
                *reported = progress.clone().begin(title, elapsed).await;
            }
        }
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            max_cells: 1_000_000,
            timeout: Duration::from_secs(30),
        }
    }

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows).expect("valid grid")
    }

    #[tokio::test]
    async fn solves_once_and_caches_by_content() {
        let solves = Arc::new(Solves::new(None, None));
        let maze = grid(&["SB....T"]);
        let (Lookup::Pending(ticket), Some(_)) = solves.lookup(&maze, limits(), None) else {
            panic!("first lookup must start a solve");
        };
        let result = ticket.wait().await.expect("solved");
        assert!(matches!(&*result, SolveResult::Done(_)));
        assert!(matches!(
            solves.lookup(&maze, limits(), None),
            (Lookup::Ready, Some(_))
        ));
        assert_eq!(solves.running(), 0);
    }

    #[tokio::test]
    async fn too_large_is_answered_without_solving() {
        let solves = Arc::new(Solves::new(None, None));
        let small = Limits {
            max_cells: 3,
            ..limits()
        };
        assert!(matches!(
            solves.lookup(&grid(&["SB....T"]), small, None),
            (Lookup::Ready, None)
        ));
        let result = solves
            .peek(&grid(&["SB....T"]), small)
            .expect("known at once");
        assert_eq!(*result, SolveResult::TooLarge { cells: 7, limit: 3 });
    }

    #[tokio::test]
    async fn an_injected_panic_becomes_a_failure() {
        let solves = Arc::new(Solves::new(None, Some(7)));
        let (Lookup::Pending(ticket), _) = solves.lookup(&grid(&["SB....T"]), limits(), None)
        else {
            panic!("must start a solve");
        };
        let result = ticket.wait().await.expect("finished");
        assert_eq!(*result, SolveResult::Failed("injected solver panic".into()));
    }

    fn fake(cells: usize, seed: usize) -> (Arc<Grid>, Shared) {
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
        let analysis = Analysis {
            outcome: Outcome::Unsolvable(solver::Reason::TargetUnreachable),
            dead: vec![false; cells],
        };
        (Arc::new(grid), Arc::new(SolveResult::Done(analysis)))
    }

    #[test]
    fn the_cache_is_bounded_in_entries_and_bytes() {
        let solves = Solves::new(None, None);
        for seed in 0..CACHE_ENTRIES + 500 {
            let (grid, result) = fake(64 + seed / 64, seed);
            solves.finish(&grid, 0, Some(result));
        }
        let (entries, bytes) = solves.cache_size();
        assert_eq!(entries, CACHE_ENTRIES);
        assert!(bytes <= CACHE_BYTES);
        for seed in 0..20 {
            let (grid, result) = fake(16 << 20, seed);
            solves.finish(&grid, 0, Some(result));
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
        solves.finish(&grid, 0, Some(result.clone()));
        solves.finish(&grid, 0, Some(result));
        assert!(
            solves.cache_size().1 <= CACHE_BYTES,
            "a re-solve is not counted twice"
        );
    }

    #[test]
    fn pinned_results_are_never_evicted() {
        let solves = Solves::new(None, None);
        let (kept, result) = fake(64, 7);
        solves.finish(&kept, 0, Some(result));
        let key = solves.lock().pin(&kept).expect("cached, so pinnable");
        for seed in 0..CACHE_ENTRIES + 10 {
            let (grid, result) = fake(65 + seed / 64, seed);
            solves.finish(&grid, 0, Some(result));
        }
        // (Looked at without `peek`, which would make it the most recently used.)
        assert!(
            solves.lock().cache.contains_key(&*kept),
            "pinned: still cached"
        );
        assert_eq!(solves.cache_size().0, CACHE_ENTRIES);
        solves.unpin(&key);
        // Once unpinned it is an ordinary entry, the least recently used one.
        let (grid, result) = fake(64, 8);
        solves.finish(&grid, 0, Some(result));
        assert_eq!(solves.cache_size().0, CACHE_ENTRIES);
        assert!(
            solves.peek(&kept, limits()).is_none(),
            "unpinned and oldest: evicted"
        );
        assert!(solves.lock().pin(&kept).is_none(), "nothing left to pin");
    }
}
