//! Solving off the request loop: results cached by maze content (so an edit re-solves
//! only the maze it touched), one shared job per maze however many documents want it,
//! cancelled as soon as nobody does, stopped at the configured time limit, and
//! reported with `$/progress` when slow — from a task of its own, so a client that
//! never answers can hold up nothing.
//!
//! Results an open document uses are *pinned*: kept in a map of their own, never
//! evicted. The others live in an LRU of at most [`CACHE_BYTES`] and
//! [`CACHE_ENTRIES`]; every operation on either is O(1).

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{watch, Semaphore};
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;

use super::lru::Lru;
use super::progress::Progress;
use crate::ide::MazeStatus;
use crate::maze::Grid;
use crate::solver;

/// A settled status (never `Invalid` or `Solving`).
pub type Shared = MazeStatus;

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
    /// Results no open document uses.
    cache: Lru<Arc<Grid>, Cached>,
    /// The sum of the LRU entries' `cost`.
    cached_bytes: usize,
    /// Grids open document versions use: how many, and the result once known.
    pinned: HashMap<Arc<Grid>, Pinned>,
    running: HashMap<Arc<Grid>, Running>,
    next_id: u64,
}

struct Cached {
    result: Shared,
    cost: usize,
}

struct Pinned {
    count: usize,
    result: Option<Shared>,
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
        if let Some(pinned) = inner.pinned.get(grid) {
            return pinned.result.clone();
        }
        inner.cache.get(grid).map(|cached| cached.result.clone())
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
        let key = inner.pin(grid);
        if inner.pinned.get(grid).is_some_and(|p| p.result.is_some()) {
            return (Lookup::Ready, Some(key));
        }
        if let Some(running) = inner.running.get_mut(grid) {
            if !running.cancel.load(Ordering::Relaxed) {
                running.interest += 1;
                let ticket = Ticket {
                    solves: self.clone(),
                    grid: key.clone(),
                    id: running.id,
                    done: running.done.clone(),
                };
                return (Lookup::Pending(ticket), Some(key));
            }
        }
        let id = inner.next_id;
        inner.next_id += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let (sender, done) = watch::channel(None);
        inner.running.insert(
            key.clone(),
            Running {
                id,
                cancel: cancel.clone(),
                interest: 1,
                done: done.clone(),
            },
        );
        drop(inner);
        let job = Job {
            solves: self.clone(),
            grid: key.clone(),
            id,
            cancel,
            limits,
            progress,
        };
        tokio::spawn(job.run(sender));
        let ticket = Ticket {
            solves: self.clone(),
            grid: key.clone(),
            id,
            done,
        };
        (Lookup::Pending(ticket), Some(key))
    }

    /// Forgets results that depend on limits (after a configuration change).
    pub fn forget_limited(&self) {
        let limited = |result: &Shared| matches!(result, MazeStatus::TimedOut { .. });
        let mut inner = self.lock();
        let mut freed = 0;
        inner.cache.retain(|cached| {
            let keep = !limited(&cached.result);
            if !keep {
                freed += cached.cost;
            }
            keep
        });
        inner.cached_bytes -= freed;
        for pinned in inner.pinned.values_mut() {
            if pinned.result.as_ref().is_some_and(limited) {
                pinned.result = None;
            }
        }
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
        let Some(result) = result else { return };
        match inner.pinned.get_mut(&**grid) {
            Some(pinned) => pinned.result = Some(result),
            None => inner.cache_result(grid.clone(), result),
        }
    }

    pub fn unpin(&self, grid: &Arc<Grid>) {
        let mut inner = self.lock();
        let Some(pinned) = inner.pinned.get_mut(&**grid) else {
            return;
        };
        pinned.count -= 1;
        if pinned.count == 0 {
            if let Some((key, pinned)) = inner.pinned.remove_entry(&**grid) {
                if let Some(result) = pinned.result {
                    inner.cache_result(key, result);
                }
            }
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

    /// Entries and bytes of the LRU (pinned results are outside it).
    #[cfg(test)]
    fn cache_size(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.cache.len(), inner.cached_bytes)
    }
}

impl Inner {
    /// Pins a grid (moving its result out of the LRU): the key to unpin with.
    fn pin(&mut self, grid: &Grid) -> Arc<Grid> {
        if let Some((key, _)) = self.pinned.get_key_value(grid) {
            let key = key.clone();
            if let Some(pinned) = self.pinned.get_mut(grid) {
                pinned.count += 1;
            }
            return key;
        }
        let key = match self.running.get_key_value(grid) {
            Some((key, _)) => key.clone(),
            None => Arc::new(grid.clone()),
        };
        let result = self.cache.remove(grid).map(|cached| {
            self.cached_bytes -= cached.cost;
            cached.result
        });
        self.pinned.insert(key.clone(), Pinned { count: 1, result });
        key
    }

    /// Puts an unpinned result in the LRU and evicts down to the bounds.
    fn cache_result(&mut self, grid: Arc<Grid>, result: Shared) {
        let cost = cost(&grid, &result);
        self.cached_bytes += cost;
        if let Some(replaced) = self.cache.insert(grid, Cached { result, cost }) {
            self.cached_bytes -= replaced.cost;
        }
        while self.cached_bytes > CACHE_BYTES || self.cache.len() > CACHE_ENTRIES {
            match self.cache.pop_oldest() {
                Some((_, evicted)) => self.cached_bytes -= evicted.cost,
                None => break,
            }
        }
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

/// One solve on the blocking pool, watched by a task that handles the time limit.
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
        if let Some(MazeStatus::Failed(message)) = &result {
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
        let (finished, finished_watch) = watch::channel(false);
        if let Some(progress) = self.progress.clone() {
            let title = format!("Solving a {}×{} maze", self.grid.rows, self.grid.cols);
            tokio::spawn(report_progress(progress, title, finished_watch));
        }
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
        let outcome = loop {
            tokio::select! {
                outcome = &mut solve => break outcome,
                () = &mut deadline, if !timed_out.load(Ordering::Relaxed) => {
                    timed_out.store(true, Ordering::Relaxed);
                    self.cancel.store(true, Ordering::Relaxed);
                }
            }
        };
        let _ = finished.send(true);
        match outcome {
            Ok(Ok(Ok(analysis))) => Some(MazeStatus::from_analysis(analysis)),
            Ok(Ok(Err(solver::Cancelled))) if timed_out.load(Ordering::Relaxed) => {
                Some(MazeStatus::TimedOut {
                    ms: self.limits.timeout.as_millis() as u64,
                })
            }
            Ok(Ok(Err(solver::Cancelled))) => None,
            Ok(Err(panic)) => Some(MazeStatus::Failed(panic_message(&panic).into())),
            Err(join) => Some(MazeStatus::Failed(join.to_string().into())),
        }
    }
}

/// Reports a solve as `$/progress` once it has run [`PROGRESS_AFTER`], until
/// `finished`. Every wait for the client is bounded, and nothing waits for this task.
async fn report_progress(progress: Progress, title: String, mut finished: watch::Receiver<bool>) {
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

/// The message a panic carried.
pub(super) fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
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
        let (Lookup::Pending(ticket), Some(key)) = solves.lookup(&maze, limits(), None) else {
            panic!("first lookup must start a solve");
        };
        let result = ticket.wait().await.expect("solved");
        assert!(matches!(result, MazeStatus::Solved { .. }));
        assert!(matches!(
            solves.lookup(&maze, limits(), None),
            (Lookup::Ready, Some(_))
        ));
        assert_eq!(solves.running(), 0);
        solves.unpin(&key);
        solves.unpin(&key);
        assert_eq!(solves.cache_size().0, 1, "unpinned: in the LRU");
        assert!(solves.peek(&maze, limits()).is_some());
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
        assert_eq!(result, MazeStatus::TooLarge { cells: 7, limit: 3 });
    }

    #[tokio::test]
    async fn an_injected_panic_becomes_a_failure() {
        let solves = Arc::new(Solves::new(None, Some(7)));
        let (Lookup::Pending(ticket), _) = solves.lookup(&grid(&["SB....T"]), limits(), None)
        else {
            panic!("must start a solve");
        };
        let result = ticket.wait().await.expect("finished");
        assert_eq!(result, MazeStatus::Failed("injected solver panic".into()));
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
        let status = MazeStatus::Unsolvable {
            reason: solver::Reason::TargetUnreachable,
            dead: Some(Arc::from(vec![false; cells])),
        };
        (Arc::new(grid), status)
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
        let key = solves.lock().pin(&kept);
        for seed in 0..CACHE_ENTRIES + 10 {
            let (grid, result) = fake(65 + seed / 64, seed);
            solves.finish(&grid, 0, Some(result));
        }
        assert!(
            solves.peek(&kept, limits()).is_some(),
            "pinned: still known"
        );
        assert_eq!(solves.cache_size().0, CACHE_ENTRIES);
        solves.unpin(&key);
        // Once unpinned it is an ordinary entry, the most recently used one; the
        // oldest other entry made room for it.
        assert_eq!(solves.cache_size().0, CACHE_ENTRIES);
        let (oldest, _) = fake(65, 0);
        assert!(solves.peek(&oldest, limits()).is_none(), "evicted");
        for seed in 0..CACHE_ENTRIES {
            let (grid, result) = fake(1000 + seed / 64, seed);
            solves.finish(&grid, 0, Some(result));
        }
        assert!(
            solves.peek(&kept, limits()).is_none(),
            "unpinned and oldest: evicted"
        );
    }

    #[test]
    fn more_pinned_results_than_the_bound_cost_no_scans() {
        let solves = Solves::new(None, None);
        let keys: Vec<_> = (0..CACHE_ENTRIES + 100)
            .map(|seed| {
                let (grid, result) = fake(64 + seed / 64, seed);
                let key = solves.lock().pin(&grid);
                solves.finish(&grid, 0, Some(result));
                key
            })
            .collect();
        assert_eq!(solves.cache_size(), (0, 0), "all pinned: the LRU is empty");
        for key in &keys {
            solves.unpin(key);
        }
        assert_eq!(solves.cache_size().0, CACHE_ENTRIES);
    }
}
