//! The design searches off the request loop: the hardest placement (both modes) and
//! the difficulty map of a maze, each computed on tokio's blocking pool, as jobs of
//! the job table (`jobs.rs`): keyed by the maze's grid content, shared by every
//! request that wants it while it runs, cancelled once nobody wants it, and kept in a
//! small LRU — failures and panics included, so a maze that breaks a search is not
//! searched again per request. Hardest placements and maps are two kinds, each with
//! its own permits and cache: a map (about one solve) never waits behind a hardest
//! placement (up to seconds), so a hover answers promptly.
//!
//! `hardest.rs` (code actions, resolve, the command) and `difficulty.rs` (hover,
//! `boxls/difficulty`) ask here and await a [`Ticket`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;

use super::grid_key::GridKey;
use super::jobs::{self, Jobs, Kind};
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

/// What [`Design::lookup`] found.
pub type Lookup = jobs::Lookup<Key, Answer>;

/// An interest in a running search; dropping the last one cancels it.
pub type Ticket = jobs::Ticket<Key, Answer>;

/// At most this many answers of each kind are kept ...
const CACHE_ENTRIES: usize = 32;
/// ... holding at most this many bytes (see [`cost`]).
const CACHE_BYTES: usize = 32 << 20;

/// The shared searches of one server.
pub struct Design {
    /// Hardest-placement searches (each is one blocking thread while it runs) ...
    hardest: Arc<Jobs<Key, Answer>>,
    /// ... and difficulty maps, apart.
    maps: Arc<Jobs<Key, Answer>>,
    /// A test hook (`Options::stall_design_on_cells`): searches of mazes of exactly
    /// this many cells run until cancelled, saying so in the log when they start and
    /// stop.
    stall_on_cells: Option<usize>,
    log: Option<Client>,
}

/// A design search's kind of job.
fn kind(workers: usize) -> Kind<Key, Answer> {
    Kind {
        max_bytes: CACHE_BYTES,
        max_entries: CACHE_ENTRIES,
        permits: workers,
        cost: |key, answer| cost(key.0.grid(), answer),
        failed: |message| Answer::Failed(format!("the design search panicked: {message}").into()),
        failure_line: |key, message| {
            let grid = key.0.grid();
            format!(
                "the design search failed on a {}×{} maze: {message}; please report this maze",
                grid.rows, grid.cols
            )
        },
    }
}

impl Default for Design {
    fn default() -> Design {
        Design::new(None, None)
    }
}

impl Design {
    /// The searches of one server; `log` is where a panic and the test hook
    /// `stall_on_cells` report.
    pub fn new(log: Option<Client>, stall_on_cells: Option<usize>) -> Design {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let errors = log.clone().map(jobs::errors_to);
        Design {
            hardest: Arc::new(Jobs::new(kind(workers), errors.clone())),
            maps: Arc::new(Jobs::new(kind(workers), errors)),
            stall_on_cells,
            log,
        }
    }

    fn jobs(&self, question: Question) -> &Arc<Jobs<Key, Answer>> {
        match question {
            Question::Map => &self.maps,
            Question::Hardest { .. } => &self.hardest,
        }
    }

    /// The answer if it is known, else a ticket for the search started (or joined) now.
    pub fn lookup(self: &Arc<Self>, grid: &GridKey, question: Question) -> Lookup {
        self.jobs(question).lookup((grid.clone(), question), |job| {
            tokio::spawn(self.clone().run(job));
        })
    }

    /// The answer, waiting for the search if need be; `None` if it was cancelled.
    pub async fn answer(self: &Arc<Self>, grid: &GridKey, question: Question) -> Option<Answer> {
        match self.lookup(grid, question) {
            Lookup::Ready(answer) => Some(answer),
            Lookup::Pending(mut ticket) => ticket.wait().await,
        }
    }

    /// Runs one search on the blocking pool, once a permit of its kind is free and
    /// unless nobody wants it by then.
    async fn run(self: Arc<Self>, job: jobs::Job<Key, Answer>) {
        let question = job.key().1;
        let Some(_permit) = self.jobs(question).permit().await else {
            return;
        };
        if job.is_cancelled() {
            return;
        }
        let stalled = self.stall_on_cells == Some(job.key().0.grid().cell_count());
        if stalled {
            self.say_stalled(question, "started").await;
        }
        job.run_blocking(move |(grid, question), cancel| {
            let answer = if stalled {
                stall(cancel)
            } else {
                search(grid.grid(), *question, cancel)
            };
            answer.ok()
        })
        .await;
        if stalled {
            self.say_stalled(question, "stopped").await;
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

    /// Searches running now (tests).
    #[cfg(test)]
    fn running(&self) -> usize {
        self.hardest.running() + self.maps.running()
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
        assert!(
            first.same_job(&second),
            "the second request joins the first"
        );
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
        let permits = design.maps.permits();
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
        let permits = design.hardest.permits();
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
