//! Solving Sokoban levels off the request loop: a job kind of the job table (`jobs.rs`)
//! keyed by the level's position (its board, not its title or notes), so an edit
//! elsewhere in the file re-solves nothing, one job per level however many documents
//! want it, cancelled once none does. Each runs the multi-box solver in fast mode on
//! the blocking pool, within `boxls.sokoban.timeLimit` (the solver stops itself), with
//! `$/progress` when slow; a panic is kept as a failure and logged once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;

use super::jobs::{self, Jobs, Kind, Lookup};
use super::progress::Progress;
use super::solves::report_progress;
use crate::ide::{solve_level, LevelStatus, Searching};
use crate::level::Position;

/// A level as the table knows it: its position (walls, goals, boxes, player).
pub type LevelKey = Arc<Position>;

/// An interest in a running level solve; dropping the last one cancels it.
pub type LevelTicket = jobs::Ticket<LevelKey, LevelStatus>;

/// At most this many levels' results are kept ...
const CACHE_ENTRIES: usize = 20_000;
/// ... holding at most this many bytes (see [`cost`]).
const CACHE_BYTES: usize = 64 << 20;
/// What an entry costs besides its position: map slot, `Arc`s, headers.
const ENTRY_OVERHEAD: usize = 256;

pub struct LevelSolves {
    jobs: Arc<Jobs<LevelKey, LevelStatus>>,
    /// Where the test hook's lines go.
    client: Option<Client>,
    /// A test hook: each level solve logs `level solve started (W×H, N boxes)`.
    log_starts: bool,
    /// A test hook: levels of exactly this many boxes search until the time limit.
    stall_boxes: Option<usize>,
}

/// What [`LevelSolves::find_or_start`] found, by the caller's index.
#[derive(Default)]
pub struct FoundLevels {
    pub ready: Vec<(usize, LevelStatus)>,
    pub pending: Vec<(usize, LevelTicket)>,
}

fn level_kind(workers: usize) -> Kind<LevelKey, LevelStatus> {
    Kind {
        max_bytes: CACHE_BYTES,
        max_entries: CACHE_ENTRIES,
        permits: workers,
        cost,
        failed: LevelStatus::Failed,
        failure_line: |key, message| {
            format!(
                "the Sokoban solver failed on a {}×{} level with {} boxes: {message}; please report this level",
                key.width,
                key.height,
                key.boxes.len()
            )
        },
    }
}

fn cost(key: &LevelKey, status: &LevelStatus) -> usize {
    let held = match status {
        LevelStatus::Failed(message) => message.len(),
        LevelStatus::Solved { lurd, .. } => lurd.len(),
        _ => 0,
    };
    2 * key.walls.len() + 8 * key.boxes.len() + held + ENTRY_OVERHEAD
}

impl LevelSolves {
    pub fn new(client: Option<Client>, options: super::Options) -> LevelSolves {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let log = client.clone().map(jobs::errors_to);
        LevelSolves {
            jobs: Arc::new(Jobs::new(level_kind(workers), log)),
            client,
            log_starts: options.log_level_solves,
            stall_boxes: options.stall_levels_with_boxes,
        }
    }

    /// For each `(index, level)`: its result if known, else a ticket for its solve,
    /// started (or joined) now.
    pub fn find_or_start(
        self: &Arc<Self>,
        wanted: Vec<(usize, LevelKey)>,
        limit: Duration,
        progress: impl Fn() -> Option<Progress>,
    ) -> FoundLevels {
        let mut found = FoundLevels::default();
        for (index, key) in wanted {
            let mut started = None;
            match self.jobs.lookup(key, |job| started = Some(job)) {
                Lookup::Ready(status) => found.ready.push((index, status)),
                Lookup::Pending(ticket) => found.pending.push((index, ticket)),
            }
            if let Some(job) = started {
                tokio::spawn(self.clone().run(job, limit, progress()));
            }
        }
        found
    }

    /// One level's solve: a permit, the test hook's line, progress when slow, the
    /// solver on the blocking pool.
    async fn run(
        self: Arc<Self>,
        job: jobs::Job<LevelKey, LevelStatus>,
        limit: Duration,
        progress: Option<Progress>,
    ) {
        let Some(_permit) = self.jobs.permit().await else {
            return;
        };
        if job.is_cancelled() {
            return;
        }
        let key = job.key().clone();
        if let (true, Some(client)) = (self.log_starts, &self.client) {
            let line = format!(
                "level solve started ({}×{}, {} boxes)",
                key.width,
                key.height,
                key.boxes.len()
            );
            client.log_message(MessageType::INFO, line).await;
        }
        let (finished, finished_watch) = watch::channel(false);
        if let Some(progress) = progress {
            let title = format!(
                "Solving a {}×{} level ({} boxes)",
                key.width,
                key.height,
                key.boxes.len()
            );
            tokio::spawn(report_progress(progress, title, finished_watch));
        }
        let stall = self.stall_boxes == Some(key.boxes.len());
        let interim = job.interim();
        job.run_blocking(move |position, cancel| {
            let mut report = |searching| interim.send(LevelStatus::Solving(searching));
            if stall {
                return stalled(position, limit, cancel, &mut report);
            }
            solve_level(position, limit, cancel, &mut report)
        })
        .await;
        let _ = finished.send(true);
    }

    /// Forgets results that depend on the time limit (after a configuration change).
    pub fn forget_limited(&self) {
        self.jobs
            .retain(|status| !matches!(status, LevelStatus::Unknown { .. }));
    }
}

/// The test hook [`super::Options::stall_levels_with_boxes`]: a search that finds
/// what the solver finds and proves nothing — its solution, if any, reported as the
/// best so far — and goes on until the time limit (unless cancelled first): a level
/// certain to be still solving, with or without a solution to offer, then solved
/// without proof or unknown.
fn stalled(
    position: &Position,
    limit: Duration,
    cancel: &AtomicBool,
    report: &mut dyn FnMut(Searching),
) -> Option<LevelStatus> {
    let started = Instant::now();
    let best = solve_level(position, limit, cancel, &mut |_| {})?.best();
    if best.is_some() {
        report(Searching {
            positions: 1,
            best: best.clone(),
        });
    }
    while started.elapsed() < limit {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let limit_ms = limit.as_millis() as u64;
    Some(match best {
        Some(best) => LevelStatus::Solved {
            pushes: best.pushes,
            moves: best.moves,
            optimal: false,
            lurd: best.lurd,
        },
        None => LevelStatus::Unknown { limit_ms },
    })
}
