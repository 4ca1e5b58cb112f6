//! The design searches off the request loop: the hardest placement (both modes) and
//! the difficulty map of a maze, each computed on tokio's blocking pool, keyed by the
//! maze's grid content, shared by every request that wants it while it runs,
//! cancelled once nobody wants it, and kept in a small LRU — failures and panics
//! included, so a maze that breaks a search is not searched again per request.
//!
//! `hardest.rs` (code actions, resolve, the command) and `difficulty.rs` (hover,
//! `boxls/difficulty`) ask here and await a [`Ticket`].

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{watch, Semaphore};
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;

use super::grid_key::GridKey;
use super::lru::Lru;
use super::panics::panic_message;
use crate::design::{self, DesignError, Difficulty, Placement};
use crate::maze::Grid;
use crate::solver::{self, Cancelled, Outcome};

/// What is asked about a grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Question {
    Hardest { keep_target: bool },
    Map,
}

/// The hardest placement with what the action needs besides: the optimal move string
/// of the new placement and the maze's pushes now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hardest {
    pub placement: Placement,
    pub path: String,
    /// `None`: the maze as it is is unsolvable.
    pub before: Option<u64>,
}

/// A finished search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// `None`: no placement is solvable.
    Hardest(Option<Arc<Hardest>>),
    Map(Arc<Vec<Difficulty>>),
    /// The search failed (a panic, or a limit); the message says why.
    Failed(Arc<str>),
}

type Key = (GridKey, Question);

/// At most this many answers are kept ...
const CACHE_ENTRIES: usize = 64;
/// ... holding at most this many bytes (see [`cost`]).
const CACHE_BYTES: usize = 64 << 20;

/// The shared searches of one server.
pub struct Design {
    inner: Mutex<Inner>,
    /// Hardest-placement searches running at once (each is one blocking thread) ...
    permits: Semaphore,
    /// ... and difficulty maps, apart: a map (about one solve) never waits behind a
    /// hardest placement (up to seconds), so a hover answers promptly.
    map_permits: Semaphore,
    /// A test hook (`Options::stall_design_on_cells`): searches of mazes of exactly
    /// this many cells run until cancelled, saying so in the log when they start and
    /// stop.
    stall_on_cells: Option<usize>,
    log: Option<Client>,
}

#[derive(Default)]
struct Inner {
    cache: Lru<Key, Cached>,
    cached_bytes: usize,
    running: HashMap<Key, Running>,
    next_id: u64,
}

struct Cached {
    answer: Answer,
    cost: usize,
}

struct Running {
    id: u64,
    cancel: Arc<AtomicBool>,
    interest: usize,
    done: watch::Receiver<Option<Answer>>,
}

/// What [`Design::lookup`] found.
pub enum Lookup {
    Ready(Answer),
    Pending(Ticket),
}

/// An interest in a running search; dropping the last one cancels it.
pub struct Ticket {
    design: Arc<Design>,
    key: Key,
    id: u64,
    done: watch::Receiver<Option<Answer>>,
}

impl Ticket {
    /// The grid searched.
    pub fn grid(&self) -> &GridKey {
        &self.key.0
    }

    /// Waits for the search; `None` if it was cancelled (or the server is going away).
    pub async fn wait(&mut self) -> Option<Answer> {
        let answer = self.done.wait_for(Option::is_some).await.ok()?.clone();
        answer
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut inner = self.design.lock();
        if let Some(running) = inner.running.get_mut(&self.key) {
            if running.id == self.id {
                running.interest -= 1;
                if running.interest == 0 {
                    running.cancel.store(true, Ordering::Relaxed);
                }
            }
        }
    }
}

impl Default for Design {
    fn default() -> Design {
        Design::new(None, None)
    }
}

impl Design {
    /// The searches of one server; `log` is where the test hook `stall_on_cells`
    /// reports.
    pub fn new(log: Option<Client>, stall_on_cells: Option<usize>) -> Design {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        Design {
            inner: Mutex::default(),
            permits: Semaphore::new(workers),
            map_permits: Semaphore::new(workers),
            stall_on_cells,
            log,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The answer if it is known, else a ticket for the search started (or joined) now.
    pub fn lookup(self: &Arc<Self>, grid: &GridKey, question: Question) -> Lookup {
        let key = (grid.clone(), question);
        let mut inner = self.lock();
        if let Some(cached) = inner.cache.get(&key) {
            return Lookup::Ready(cached.answer.clone());
        }
        if let Some(running) = inner.running.get_mut(&key) {
            if !running.cancel.load(Ordering::Relaxed) {
                running.interest += 1;
                return Lookup::Pending(Ticket {
                    design: self.clone(),
                    id: running.id,
                    done: running.done.clone(),
                    key,
                });
            }
        }
        let id = inner.next_id;
        inner.next_id += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let (sender, done) = watch::channel(None);
        let running = Running {
            id,
            cancel: cancel.clone(),
            interest: 1,
            done: done.clone(),
        };
        inner.running.insert(key.clone(), running);
        drop(inner);
        tokio::spawn(self.clone().run(key.clone(), id, cancel, sender));
        Lookup::Pending(Ticket {
            design: self.clone(),
            key,
            id,
            done,
        })
    }

    /// The answer, waiting for the search if need be; `None` if it was cancelled.
    pub async fn answer(self: &Arc<Self>, grid: &GridKey, question: Question) -> Option<Answer> {
        match self.lookup(grid, question) {
            Lookup::Ready(answer) => Some(answer),
            Lookup::Pending(mut ticket) => ticket.wait().await,
        }
    }

    /// Runs one search on the blocking pool and records how it ended.
    async fn run(
        self: Arc<Self>,
        key: Key,
        id: u64,
        cancel: Arc<AtomicBool>,
        sender: watch::Sender<Option<Answer>>,
    ) {
        let permits = match key.1 {
            Question::Map => &self.map_permits,
            Question::Hardest { .. } => &self.permits,
        };
        let stalled = self.stall_on_cells == Some(key.0.grid().cell_count());
        let mut started = false;
        let answer = match permits.acquire().await {
            Ok(_permit) if !cancel.load(Ordering::Relaxed) => {
                let (grid, question) = (key.0.clone(), key.1);
                let flag = cancel.clone();
                if stalled {
                    started = true;
                    self.say_stalled(question, "started").await;
                }
                let work = tokio::task::spawn_blocking(move || {
                    if stalled {
                        return stall(&flag);
                    }
                    catch_unwind(AssertUnwindSafe(|| search(grid.grid(), question, &flag)))
                        .unwrap_or_else(|panic| {
                            Ok(Answer::Failed(
                                format!("the design search panicked: {}", panic_message(&panic))
                                    .into(),
                            ))
                        })
                });
                match work.await {
                    Ok(Ok(answer)) => Some(answer),
                    Ok(Err(Cancelled)) => None,
                    Err(error) => Some(Answer::Failed(error.to_string().into())),
                }
            }
            _ => None,
        };
        self.finish(&key, id, answer.clone());
        if started {
            self.say_stalled(key.1, "stopped").await;
        }
        // A cancelled search drops `sender`, which wakes any waiter with `None`.
        if let Some(answer) = answer {
            let _ = sender.send(Some(answer));
        }
    }

    /// The test hook's log line: `stalled design search (hardest placement) started`.
    async fn say_stalled(&self, question: Question, what: &str) {
        let searched = match question {
            Question::Hardest { keep_target: false } => "hardest placement",
            Question::Hardest { keep_target: true } => "hardest placement keeping the target",
            Question::Map => "difficulty map",
        };
        if let Some(log) = &self.log {
            let message = format!("stalled design search ({searched}) {what}");
            log.log_message(MessageType::INFO, message).await;
        }
    }

    /// Records how a search ended: no longer running, and the answer cached.
    fn finish(&self, key: &Key, id: u64, answer: Option<Answer>) {
        let mut inner = self.lock();
        if inner
            .running
            .get(key)
            .is_some_and(|running| running.id == id)
        {
            inner.running.remove(key);
        }
        let Some(answer) = answer else { return };
        let cost = cost(key.0.grid(), &answer);
        inner.cached_bytes += cost;
        if let Some(replaced) = inner.cache.insert(key.clone(), Cached { answer, cost }) {
            inner.cached_bytes -= replaced.cost;
        }
        while inner.cached_bytes > CACHE_BYTES || inner.cache.len() > CACHE_ENTRIES {
            match inner.cache.pop_oldest() {
                Some((_, evicted)) => inner.cached_bytes -= evicted.cost,
                None => break,
            }
        }
    }

    /// Searches running now (tests).
    #[cfg(test)]
    fn running(&self) -> usize {
        self.lock().running.len()
    }
}

/// Approximate heap bytes of a cached answer with its key's grid.
fn cost(grid: &Grid, answer: &Answer) -> usize {
    let held = match answer {
        Answer::Hardest(hardest) => hardest.as_ref().map_or(0, |h| h.path.len()),
        Answer::Map(map) => map.len() * std::mem::size_of::<Difficulty>(),
        Answer::Failed(message) => message.len(),
    };
    grid.walls.len() + held + 256
}

/// The test hook's search: blocks its thread until cancelled.
fn stall(cancel: &AtomicBool) -> Result<Answer, Cancelled> {
    while !cancel.load(Ordering::Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    Err(Cancelled)
}

/// The blocking part: one search, `Err` once cancelled.
fn search(grid: &Grid, question: Question, cancel: &AtomicBool) -> Result<Answer, Cancelled> {
    let failed = |error: DesignError| match error {
        DesignError::Cancelled => Err(Cancelled),
        other => Ok(Answer::Failed(other.to_string().into())),
    };
    match question {
        Question::Map => match design::difficulty_map_cancellable(grid, cancel) {
            Ok(map) => Ok(Answer::Map(Arc::new(map))),
            Err(error) => failed(error),
        },
        Question::Hardest { keep_target } => {
            let before = match solver::solve_cancellable(grid, cancel)? {
                Outcome::Solved(solution) => Some(solution.pushes),
                Outcome::Unsolvable(_) => None,
            };
            let placement = match design::hardest_cancellable(grid, keep_target, cancel) {
                Ok(Some(placement)) => placement,
                Ok(None) => return Ok(Answer::Hardest(None)),
                Err(error) => return failed(error),
            };
            match solver::solve_cancellable(&placement.apply(grid), cancel)? {
                Outcome::Solved(after) => Ok(Answer::Hardest(Some(Arc::new(Hardest {
                    placement,
                    path: after.path,
                    before,
                })))),
                Outcome::Unsolvable(_) => Ok(Answer::Failed(
                    "the hardest placement did not solve (a boxls bug)".into(),
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(rows: &[&str]) -> GridKey {
        GridKey::new(&Arc::new(Grid::from_rows(rows).expect("valid grid")))
    }

    const ROOM: [&str; 5] = ["######", "#S..##", "#.B..#", "#..T.#", "######"];

    #[tokio::test]
    async fn concurrent_requests_share_one_search_and_the_answer_is_cached() {
        let design = Arc::new(Design::default());
        let question = Question::Hardest { keep_target: false };
        let (Lookup::Pending(mut first), Lookup::Pending(mut second)) = (
            design.lookup(&key(&ROOM), question),
            design.lookup(&key(&ROOM), question),
        ) else {
            panic!("nothing is known before the first search");
        };
        assert_eq!(first.id, second.id, "the second request joins the first");
        let (a, b) = (first.wait().await, second.wait().await);
        assert_eq!(a, b);
        let Some(Answer::Hardest(Some(hardest))) = a else {
            panic!("a placement: {a:?}");
        };
        let grid = key(&ROOM);
        let expected = design::hardest(grid.grid(), false).expect("small");
        assert_eq!(Some(hardest.placement), expected);
        assert!(matches!(
            design.lookup(&grid, question),
            Lookup::Ready(Answer::Hardest(Some(_)))
        ));
        assert_eq!(design.running(), 0);
    }

    #[tokio::test]
    async fn a_search_nobody_wants_is_cancelled_and_not_cached() {
        let design = Arc::new(Design::default());
        let grid = key(&ROOM);
        // Every map permit taken: the search waits, and is dropped before it starts.
        let permits = &design.map_permits;
        let held = permits.acquire_many(permits.available_permits() as u32);
        let held = held.await.expect("permits");
        let Lookup::Pending(ticket) = design.lookup(&grid, Question::Map) else {
            panic!("not known yet");
        };
        drop(ticket);
        drop(held);
        while design.running() > 0 {
            tokio::task::yield_now().await;
        }
        assert!(matches!(
            design.lookup(&grid, Question::Map),
            Lookup::Pending(_)
        ));
    }

    #[tokio::test]
    async fn a_map_does_not_wait_behind_hardest_placements() {
        let design = Arc::new(Design::default());
        let permits = &design.permits;
        let _held = permits
            .acquire_many(permits.available_permits() as u32)
            .await;
        let grid = key(&ROOM);
        let map = design.answer(&grid, Question::Map).await;
        let expected = design::difficulty_map(grid.grid()).expect("small");
        assert_eq!(map, Some(Answer::Map(Arc::new(expected))));
    }

    #[tokio::test]
    async fn a_failure_is_remembered() {
        let design = Arc::new(Design::default());
        // Over the design limit: answered as a failure once, then from the cache.
        let cols = design::MAX_CELLS + 1;
        let mut row = vec![b'.'; cols];
        row[..3].copy_from_slice(b"SBT");
        let row = String::from_utf8(row).expect("ascii");
        let grid = key(&[row.as_str()]);
        let answer = design.answer(&grid, Question::Map).await;
        assert!(
            matches!(&answer, Some(Answer::Failed(message)) if message.contains("65536")),
            "{answer:?}"
        );
        assert!(matches!(
            design.lookup(&grid, Question::Map),
            Lookup::Ready(Answer::Failed(_))
        ));
    }
}
