//! The work done for the open documents off the request loop: the mazes' solves
//! ([`Solves`], and the dead squares on demand), the Sokoban levels' solves
//! ([`LevelSolves`]) and the design searches ([`Design`]); starting them after a change,
//! waiting for them, recording their results in the documents and publishing.
//!
//! The pipeline: a change is applied synchronously (before the handler's first
//! `.await`, see `documents.rs`), then [`Background::changed`] looks up or starts the
//! solves its re-read mazes need — still before the first `.await` — and publishes: at
//! once when nothing is pending, else from the task that waits for them
//! ([`Background::await_solves`]), which records each result in the document,
//! publishes with the document's version, marks the version settled and asks the
//! client to refresh what depends on solves.
//!
//! Invariant kept here: results are dropped when the document moved on. A result is
//! recorded only if its maze (or level) still has the key it was solved for; the task
//! awaiting a version's solves is aborted by the next change (dropping its tickets
//! cancels the solves only that version wanted); and publishing skips a version that
//! is no longer current.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::AbortHandle;
use tower_lsp_server::ls_types::Uri;

use super::config::Config;
use super::design::Design;
use super::document::Document;
use super::documents::Documents;
use super::grid_key::GridKey;
use super::jobs::Update;
use super::level_solves::{LevelSolves, LevelTicket};
use super::position;
use super::progress::Progress;
use super::session::{Session, Settings};
use super::solves::{Limits, Solves, Ticket};
use super::view::Dead;
use crate::ide::{LevelStatus, MazeStatus};

pub struct Background {
    solves: Arc<Solves>,
    /// The Sokoban levels' solves.
    levels: Arc<LevelSolves>,
    /// The hardest placements and difficulty maps, searched off the request loop.
    design: Arc<Design>,
    /// Where results are recorded.
    documents: Arc<Documents>,
    /// Where they are published, and the limits they run under.
    session: Arc<Session>,
}

impl Background {
    pub fn new(
        options: super::Options,
        documents: Arc<Documents>,
        session: Arc<Session>,
    ) -> Background {
        let client = session.client();
        Background {
            solves: Arc::new(Solves::new(Some(client.clone()), options)),
            levels: Arc::new(LevelSolves::new(Some(client.clone()), options)),
            design: Arc::new(Design::new(
                Some(client.clone()),
                options.stall_design_on_cells,
            )),
            documents,
            session,
        }
    }

    pub fn design(&self) -> &Arc<Design> {
        &self.design
    }

    /// Forgets the solve results that depend on the limits (after a configuration
    /// change).
    pub fn forget_limited(&self) {
        self.solves.forget_limited();
        self.levels.forget_limited();
    }

    // ---- After a change ----

    /// Re-solves and republishes after a change; the synchronous part runs before the
    /// first `.await`.
    pub async fn changed(self: &Arc<Self>, uri: &Uri) {
        let Some((version, pending)) = self.start_solves(uri) else {
            return;
        };
        // With solves pending, their task publishes (once they are in, or soon).
        if !pending {
            self.session
                .publish(&self.documents, uri, Some(version))
                .await;
            self.documents.mark_settled(uri, version);
        }
    }

    /// After a document changed (synchronously, before any `.await`): looks up the
    /// mazes it re-read (and any still unsolved), starts the solves they need and the
    /// task that records and publishes their results. Returns the document's version
    /// and whether solves are pending; if none are, its diagnostics are complete now.
    fn start_solves(self: &Arc<Self>, uri: &Uri) -> Option<(i32, bool)> {
        let settings = self.session.settings();
        let (version, pending, moot) = self.documents.with_open(uri, |record| {
            let waiting = self.find_or_start(&mut record.document, &settings);
            let version = record.document.version;
            let pending = !waiting.mazes.is_empty() || !waiting.levels.is_empty();
            let moot = record.start_version();
            let task = pending.then(|| self.spawn_awaiting(uri, version, waiting));
            record.set_awaiting(task);
            (version, pending, moot)
        })?;
        drop(moot);
        Some((version, pending))
    }

    /// The solves `document` awaits (mazes, then levels), each found or started; the
    /// results already known are recorded in it, the tickets of the others returned.
    fn find_or_start(&self, document: &mut Document, settings: &Settings) -> Waiting {
        let progress = || {
            settings
                .support
                .progress
                .then(|| Progress::new(self.session.client().clone()))
        };
        let limits = limits(&settings.config);
        let found = self
            .solves
            .find_or_start(document.awaiting_solve(), limits, progress);
        for (index, status) in found.ready {
            if let Some(key) = document.keys[index].clone() {
                document.record_solve(index, &key, status);
            }
        }
        let level_limit = Duration::from_secs(settings.config.sokoban_time_limit_s);
        let levels =
            self.levels
                .find_or_start(document.awaiting_level_solve(), level_limit, progress);
        for (index, status) in levels.ready {
            if let Some(key) = document.level_keys[index].clone() {
                document.record_level_solve(index, &key, status);
            }
        }
        Waiting {
            mazes: found.pending,
            levels: levels.pending,
        }
    }

    /// The task that waits for a version's solves, records them, publishes, marks the
    /// version settled and asks the client to refresh.
    fn spawn_awaiting(self: &Arc<Self>, uri: &Uri, version: i32, waiting: Waiting) -> AbortHandle {
        let (work, uri) = (self.clone(), uri.clone());
        tokio::spawn(async move {
            work.await_solves(&uri, version, waiting.mazes).await;
            work.await_level_solves(&uri, version, waiting.levels).await;
            work.session
                .publish(&work.documents, &uri, Some(version))
                .await;
            work.documents.mark_settled(&uri, version);
            work.session.ask_client_to_refresh();
        })
        .abort_handle()
    }

    /// Records each solve's result in the document as it arrives; publishes at
    /// [`FIRST_PUBLISH_WITHIN`] what is known by then if they are not all in (the
    /// caller publishes once they are), so that a quick re-solve publishes once and a
    /// slow one does not hold up the structural diagnostics.
    async fn await_solves(&self, uri: &Uri, version: i32, tickets: Vec<(usize, Ticket)>) {
        let first_publish = tokio::time::sleep(FIRST_PUBLISH_WITHIN);
        tokio::pin!(first_publish);
        let mut published = false;
        for (index, mut ticket) in tickets {
            let result = loop {
                tokio::select! {
                    result = ticket.wait() => break result,
                    () = &mut first_publish, if !published => {
                        published = true;
                        self.session.publish(&self.documents, uri, Some(version)).await;
                    }
                }
            };
            if let Some(status) = result {
                self.documents.with_open(uri, |open| {
                    open.document.record_solve(index, ticket.key(), status)
                });
            }
        }
    }

    /// Records each level solve's result in the document as it arrives (in whatever
    /// order they end), and what a running search has found so far (its best
    /// solution, its position count), asking the client to refresh its hints each
    /// time (and publishing again for a level proved unsolvable); publishes what is
    /// known at [`FIRST_PUBLISH_WITHIN`] if they are not all in by then. Aborting the
    /// task that runs this drops the tickets, cancelling the solves only this version
    /// wanted.
    async fn await_level_solves(
        &self,
        uri: &Uri,
        version: i32,
        tickets: Vec<(usize, LevelTicket)>,
    ) {
        if tickets.is_empty() {
            return;
        }
        let (interim_sender, mut interim) = tokio::sync::mpsc::unbounded_channel();
        let mut waiting = tokio::task::JoinSet::new();
        for (index, mut ticket) in tickets {
            let interim_sender = interim_sender.clone();
            waiting.spawn(async move {
                loop {
                    match ticket.next().await {
                        Update::Interim(status) => {
                            let _ = interim_sender.send((index, ticket.key().clone(), status));
                        }
                        Update::Done(status) => return (index, ticket, status),
                    }
                }
            });
        }
        drop(interim_sender);
        let first_publish = tokio::time::sleep(FIRST_PUBLISH_WITHIN);
        tokio::pin!(first_publish);
        let mut published = false;
        loop {
            let joined = tokio::select! {
                joined = waiting.join_next() => joined,
                Some((index, key, status)) = interim.recv() => {
                    let recorded = self.documents.with_open(uri, |open| {
                        open.document.record_level_progress(index, &key, status)
                    });
                    // A report that came after its result, or for a level since edited,
                    // changed nothing shown.
                    if recorded == Some(true) {
                        self.session.ask_client_to_refresh_hints();
                    }
                    continue;
                }
                () = &mut first_publish, if !published => {
                    published = true;
                    self.session.publish(&self.documents, uri, Some(version)).await;
                    continue;
                }
            };
            let Some(joined) = joined else { break };
            let Ok((index, ticket, Some(status))) = joined else {
                continue;
            };
            let proved = status == LevelStatus::Unsolvable;
            self.documents.with_open(uri, |open| {
                open.document
                    .record_level_solve(index, ticket.key(), status)
            });
            drop(ticket);
            if proved && published {
                self.session
                    .publish(&self.documents, uri, Some(version))
                    .await;
            }
            if !waiting.is_empty() {
                self.session.ask_client_to_refresh();
            }
        }
    }

    // ---- For requests ----

    /// The solve of maze `index` (0-based) of `uri`, whose grid is `key`: known, or
    /// waited for (joining the document's solve, or starting one; it ends at the
    /// configured time limit at the latest), and recorded in the document if the maze
    /// is still there. `None` if it was cancelled.
    pub async fn solve_of(&self, uri: &Uri, index: usize, key: &GridKey) -> Option<MazeStatus> {
        let limits = limits(&self.session.settings().config);
        let mut found = self
            .solves
            .find_or_start(vec![(index, key.clone())], limits, || None);
        let status = match (found.ready.pop(), found.pending.pop()) {
            (Some((_, status)), _) => status,
            (None, Some((_, mut ticket))) => ticket.wait().await?,
            (None, None) => return None,
        };
        self.documents.with_open(uri, |open| {
            open.document.record_solve(index, key, status.clone())
        });
        Some(status)
    }

    /// Waits until the start-up configuration is in force and the document's current
    /// version is settled (solved and published); the version, or `None` once the
    /// document is closed (or was never opened: a client asking about 10,000 URIs it
    /// never opened leaves nothing behind).
    pub async fn settled(&self, uri: &Uri) -> Option<i32> {
        self.session.configured().await?;
        let mut settled = self.documents.settled_feed(uri)?;
        loop {
            let version = self.documents.version(uri)?;
            if *settled.borrow_and_update() == version {
                return Some(version);
            }
            // Closing the document drops the sender: the wait ends.
            settled.changed().await.ok()?;
        }
    }

    /// Computes the dead squares still unknown in the mazes `dead` names (of
    /// `document`, a snapshot of `uri`), when the client shows them: they are worked
    /// out only where they are drawn or asked for, and kept in the open document too.
    pub async fn compute_dead(&self, uri: &Uri, document: &mut Document, dead: Dead) {
        let settings = self.session.settings();
        if !settings.config.dead_squares {
            return;
        }
        let bytes = match dead {
            Dead::Skip => return,
            Dead::At(at) => {
                let offset = position::offset(&document.rope, at, settings.encoding);
                offset..offset
            }
            Dead::In(range) => position::byte_range(&document.rope, range, settings.encoding),
            Dead::All => 0..document.text.len(),
        };
        let lacking = document.lacking_dead(bytes);
        if lacking.is_empty() {
            return;
        }
        let keys = lacking.iter().map(|(_, key)| key.clone()).collect();
        let computed = self.solves.dead_squares(keys).await;
        let found: Vec<_> = lacking
            .into_iter()
            .zip(computed)
            .filter_map(|((index, key), dead)| Some((index, key, dead?)))
            .collect();
        for (index, key, dead) in &found {
            document.set_dead(*index, key, dead.clone());
        }
        // `set_dead` checks the key: a maze edited meanwhile keeps what it has.
        self.documents.with_open(uri, |open| {
            for (index, key, dead) in found {
                open.document.set_dead(index, &key, dead);
            }
        });
    }
}

/// The tickets of the solves a version waits for.
struct Waiting {
    mazes: Vec<(usize, Ticket)>,
    levels: Vec<(usize, LevelTicket)>,
}

fn limits(config: &Config) -> Limits {
    Limits {
        max_cells: config.max_cells,
        timeout: Duration::from_millis(config.timeout_ms),
    }
}

/// A document's diagnostics are published at the latest this long after a change,
/// with whatever solves have finished by then.
const FIRST_PUBLISH_WITHIN: Duration = Duration::from_millis(50);
