//! Solving off the request loop: results cached by maze content (so an edit re-solves
//! only the maze it touched), one shared job per maze however many documents want it,
//! cancelled as soon as nobody does, stopped at the configured time limit, and
//! reported with `$/progress` when slow.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{watch, Semaphore};

use super::progress::Progress;
use crate::maze::Grid;
use crate::solver::{self, Analysis};

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
/// The cache holds at most this many cells' worth of mazes.
const CACHE_CELLS: usize = 64 << 20;
const CACHE_ENTRIES: usize = 20_000;

pub struct Solves {
    inner: Mutex<Inner>,
    permits: Semaphore,
    /// A test hook: mazes of exactly this many cells panic inside the solve.
    panic_on_cells: Option<usize>,
}

#[derive(Default)]
struct Inner {
    cache: HashMap<Arc<Grid>, Cached>,
    cached_cells: usize,
    clock: u64,
    running: HashMap<Arc<Grid>, Running>,
    next_id: u64,
}

struct Cached {
    result: Shared,
    used: u64,
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
    pub fn new(panic_on_cells: Option<usize>) -> Solves {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        Solves {
            inner: Mutex::default(),
            permits: Semaphore::new(workers),
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
    pub fn lookup(
        self: &Arc<Self>,
        grid: &Grid,
        limits: Limits,
        progress: Option<Progress>,
    ) -> Lookup {
        if self.peek(grid, limits).is_some() {
            return Lookup::Ready;
        }
        let mut inner = self.lock();
        if let Some(running) = inner.running.get_mut(grid) {
            if !running.cancel.load(Ordering::Relaxed) {
                running.interest += 1;
                let ticket = Ticket {
                    solves: self.clone(),
                    grid: Arc::new(grid.clone()),
                    id: running.id,
                    done: running.done.clone(),
                };
                return Lookup::Pending(ticket);
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
        Lookup::Pending(Ticket {
            solves: self.clone(),
            grid,
            id,
            done,
        })
    }

    /// Forgets results that depend on limits (after a configuration change).
    pub fn forget_limited(&self) {
        let mut inner = self.lock();
        inner
            .cache
            .retain(|_, cached| !matches!(*cached.result, SolveResult::TimedOut { .. }));
        inner.cached_cells = inner.cache.keys().map(|grid| grid.cell_count()).sum();
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
            inner.cached_cells += grid.cell_count();
            inner.cache.insert(grid.clone(), Cached { result, used });
            evict(&mut inner);
        }
    }

    #[cfg(test)]
    fn running(&self) -> usize {
        self.lock().running.len()
    }
}

/// Drops least recently used results until the cache fits its bounds.
fn evict(inner: &mut Inner) {
    while inner.cache.len() > 1
        && (inner.cached_cells > CACHE_CELLS || inner.cache.len() > CACHE_ENTRIES)
    {
        let Some(oldest) = inner
            .cache
            .iter()
            .min_by_key(|(_, c)| c.used)
            .map(|(grid, _)| grid.clone())
        else {
            break;
        };
        inner.cache.remove(&oldest);
        inner.cached_cells -= oldest.cell_count();
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
        let solves = Arc::new(Solves::new(None));
        let maze = grid(&["SB....T"]);
        let Lookup::Pending(ticket) = solves.lookup(&maze, limits(), None) else {
            panic!("first lookup must start a solve");
        };
        let result = ticket.wait().await.expect("solved");
        assert!(matches!(&*result, SolveResult::Done(_)));
        assert!(matches!(
            solves.lookup(&maze, limits(), None),
            Lookup::Ready
        ));
        assert_eq!(solves.running(), 0);
    }

    #[tokio::test]
    async fn too_large_is_answered_without_solving() {
        let solves = Arc::new(Solves::new(None));
        let small = Limits {
            max_cells: 3,
            ..limits()
        };
        assert!(matches!(
            solves.lookup(&grid(&["SB....T"]), small, None),
            Lookup::Ready
        ));
        let result = solves
            .peek(&grid(&["SB....T"]), small)
            .expect("known at once");
        assert_eq!(*result, SolveResult::TooLarge { cells: 7, limit: 3 });
    }

    #[tokio::test]
    async fn an_injected_panic_becomes_a_failure() {
        let solves = Arc::new(Solves::new(Some(7)));
        let Lookup::Pending(ticket) = solves.lookup(&grid(&["SB....T"]), limits(), None) else {
            panic!("must start a solve");
        };
        let result = ticket.wait().await.expect("finished");
        assert_eq!(*result, SolveResult::Failed("injected solver panic".into()));
    }
}
