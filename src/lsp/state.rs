//! Everything the server holds, and the pipeline that keeps it current.
//!
//! One record per open URI ([`OpenDocument`]: the document, how many publications it
//! has had, the task waiting for its solves, two signals — `edited` on every change,
//! `settled` when a version's solves are in and published —, its last semantic-tokens
//! answer) in one map behind one `std::sync::Mutex`, never held across
//! an `.await`, and removed whole on close. Beside it: the solves, the settings, what
//! the client supports.
//!
//! The pipeline: a change is applied synchronously (before the handler's first
//! `.await`), then [`State::changed`] looks up or starts the solves its re-read mazes
//! need and publishes — at once when nothing is pending, else from the task that
//! waits for them ([`State::await_solves`]), which records each result in the document
//! if the maze is still the same, publishes with the document's version, marks the
//! version settled and asks the client to refresh what depends on solves.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::watch;
use tokio::task::AbortHandle;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    ConfigurationItem, MessageType, TextDocumentContentChangeEvent, Uri, WorkspaceEdit,
};
use tower_lsp_server::Client;

use super::capabilities::ClientSupport;
use super::config::Config;
use super::design::{self, Design};
use super::diagnostics;
use super::document::{Document, Unapplied};
use super::grid_key::GridKey;
use super::jobs::Update;
use super::level_solves::{LevelSolves, LevelTicket};
use super::position::{self, Encoding};
use super::progress::Progress;
use super::sections::{Made, SectionTokens};
use super::semantic_tokens::LastAnswer;
use super::solves::{Limits, Solves, Ticket};
use super::view::{Dead, View};
use crate::ide::{LevelStatus, MazeStatus};
use crate::level::Format;

#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    pub encoding: Encoding,
    pub config: Config,
    /// What `initializationOptions` set: the base a configuration section applies to.
    pub initial: Config,
    pub support: ClientSupport,
}

/// Everything the server holds for one open URI.
struct OpenDocument {
    document: Document,
    /// Diagnostics published since the document was opened (`boxls/settled` says).
    publications: u64,
    /// The task waiting for the current version's solves, if any are pending.
    awaiting: Option<AbortHandle>,
    /// The version after each change: wakes whoever waits for an edit (a maze watched,
    /// a request to drop), and only them; closing the document drops it.
    edited: watch::Sender<i32>,
    /// The latest version whose solves are done and whose diagnostics are published
    /// (`i32::MIN`: none since the last change): what `boxls/settled` waits on.
    settled: watch::Sender<i32>,
    /// The last whole-document semantic-tokens answer, for deltas.
    tokens: Option<LastAnswer>,
    /// The design searches its last code-action request started: they go on while
    /// the client decides, so that resolve (or the next request) finds them done,
    /// until the next such request or an edit that removes their maze.
    prefetched: Vec<design::Ticket>,
}

impl OpenDocument {
    fn new(document: Document) -> OpenDocument {
        let version = document.version;
        OpenDocument {
            document,
            publications: 0,
            awaiting: None,
            edited: watch::channel(version).0,
            settled: watch::channel(i32::MIN).0,
            tokens: None,
            prefetched: Vec::new(),
        }
    }
}

impl Drop for OpenDocument {
    /// Dropping the task's handle would leave it running: its tickets would keep
    /// solves alive that nobody wants.
    fn drop(&mut self) {
        if let Some(task) = self.awaiting.take() {
            task.abort();
        }
    }
}

pub struct State {
    client: Client,
    open: Mutex<HashMap<Uri, OpenDocument>>,
    solves: Arc<Solves>,
    /// The Sokoban levels' solves.
    levels: Arc<LevelSolves>,
    /// The hardest placements and difficulty maps, searched off the request loop.
    design: Arc<Design>,
    settings: Mutex<Settings>,
    /// Whether the configuration pulled after `initialized` has been applied.
    configured: watch::Sender<bool>,
    /// Serialises publishing so that an older version can never overtake a newer one.
    publishing: tokio::sync::Mutex<()>,
    /// Names semantic-tokens answers.
    next_tokens_id: AtomicU64,
    /// Test knob (`Options::panic_in_method`): every change panics once applied.
    panic_in_change: bool,
}

impl State {
    pub fn new(client: Client, options: super::Options) -> State {
        State {
            solves: Arc::new(Solves::new(Some(client.clone()), options)),
            levels: Arc::new(LevelSolves::new(Some(client.clone()), options)),
            design: Arc::new(Design::new(
                Some(client.clone()),
                options.stall_design_on_cells,
            )),
            client,
            open: Mutex::default(),
            settings: Mutex::default(),
            configured: watch::channel(false).0,
            publishing: tokio::sync::Mutex::new(()),
            next_tokens_id: AtomicU64::new(1),
            panic_in_change: options.panic_in_method == Some("textDocument/didChange"),
        }
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    // ---- The store ----

    fn lock_open(&self) -> MutexGuard<'_, HashMap<Uri, OpenDocument>> {
        // A panic elsewhere while holding the lock leaves consistent data (every update
        // replaces whole values), so a poisoned lock is still usable.
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `work` on an open document's record, under the lock (so without `.await`).
    fn with_open<T>(&self, uri: &Uri, work: impl FnOnce(&mut OpenDocument) -> T) -> Option<T> {
        self.lock_open().get_mut(uri).map(work)
    }

    fn document(&self, uri: &Uri) -> Option<Document> {
        self.with_open(uri, |open| open.document.clone())
    }

    fn lock_settings(&self) -> MutexGuard<'_, Settings> {
        self.settings
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn settings(&self) -> Settings {
        *self.lock_settings()
    }

    pub fn update_settings(&self, update: impl FnOnce(&mut Settings)) {
        update(&mut self.lock_settings());
    }

    /// Whether `uri` is open (at `version`, when one is given).
    pub fn is_open_at(&self, uri: &Uri, version: Option<i32>) -> bool {
        self.with_open(uri, |open| {
            version.is_none_or(|version| version == open.document.version)
        })
        .unwrap_or(false)
    }

    // ---- Document sync ----

    /// `didOpen`: a new record (replacing one left by an earlier open), then solves;
    /// `format` (from the language id or the name) says how the text is read.
    pub async fn opened(self: &Arc<Self>, uri: Uri, version: i32, text: &str, format: Format) {
        let record = OpenDocument::new(Document::new(version, text, format));
        self.lock_open().insert(uri.clone(), record);
        self.changed(&uri).await;
    }

    /// `didChange`, applied as one transaction: if applying it panics, the document is
    /// left as it was (rebuilt from its rope, which is cheap to keep) and marked out of
    /// sync — the client has applied the change, the server could not.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
    ) -> std::result::Result<(), Unapplied> {
        let encoding = self.settings().encoding;
        let mut open = self.lock_open();
        let Some(document) = open.get_mut(uri).map(|open| &mut open.document) else {
            return Err(Unapplied::NotOpen);
        };
        // Cloning a rope is O(1) (shared nodes); the text and parse are not kept, so
        // the edit below still changes them in place.
        let (old_rope, old_version) = (document.rope.clone(), document.version);
        let applied = catch_unwind(AssertUnwindSafe(|| {
            let applied = document.apply(version, changes, encoding);
            if self.panic_in_change {
                panic!("injected panic while applying an edit");
            }
            applied
        }));
        match applied {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(Unapplied::StillOutOfSync),
            Err(_) => {
                *document = Document::new(old_version, &old_rope.to_string(), document.format);
                let problem: Arc<str> = Arc::from("a change could not be applied (internal error)");
                document.mark_out_of_sync(version, problem.clone());
                Err(Unapplied::OutOfSync(problem))
            }
        }
    }

    /// Marks a document out of sync after a change that could not even be read;
    /// whether it is open.
    pub fn mark_out_of_sync(&self, uri: &Uri, version: Option<i32>, problem: Arc<str>) -> bool {
        self.with_open(uri, |open| {
            let version = version.unwrap_or(open.document.version);
            open.document.mark_out_of_sync(version, problem)
        })
        .is_some()
    }

    /// After a change the server could not apply: says so (an error in the log, and
    /// one diagnostic in place of the document's), and from now on answers requests
    /// for the document with an error, until the client sends its whole text again.
    pub async fn lost_sync(self: &Arc<Self>, uri: &Uri, problem: &str) {
        let message = format!(
            "{} is out of sync: {problem}; requests for it fail until it is re-opened or its whole text is sent",
            uri.as_str()
        );
        self.client.log_message(MessageType::ERROR, message).await;
        self.changed(uri).await;
    }

    /// `didClose`: the record goes, whole; the client's diagnostics are cleared.
    pub async fn closed(&self, uri: &Uri) {
        let (record, now_empty) = {
            let mut open = self.lock_open();
            (open.remove(uri), open.is_empty())
        };
        drop(record);
        self.publish_closed(uri).await;
        if now_empty {
            super::memory::release_free_memory();
        }
    }

    // ---- Views ----

    /// A view of an open document for a request, with the dead squares it draws
    /// computed first; `Ok(None)` when it is not open, an error naming the problem when
    /// the server's copy is out of sync. The view is of the document as it is when
    /// this is called (when the request is taken up), whatever is edited while its
    /// dead squares are computed: an answer is about the version it was asked about.
    pub async fn view(&self, uri: &Uri, dead: Dead) -> Result<Option<View>> {
        let Some(mut document) = self.document(uri) else {
            return Ok(None);
        };
        if let Some(problem) = &document.out_of_sync {
            return Err(out_of_sync(uri, problem));
        }
        self.compute_dead(uri, &mut document, dead).await;
        Ok(Some(self.view_of(document)))
    }

    fn view_of(&self, document: Document) -> View {
        let settings = self.settings();
        document.into_view(settings.encoding, settings.config, settings.support)
    }

    /// Computes the dead squares still unknown in the mazes `dead` names (of
    /// `document`, a snapshot of `uri`), when the client shows them: they are worked
    /// out only where they are drawn or asked for, and kept in the open document too.
    async fn compute_dead(&self, uri: &Uri, document: &mut Document, dead: Dead) {
        let settings = self.settings();
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
        self.with_open(uri, |open| {
            for (index, key, dead) in found {
                open.document.set_dead(index, &key, dead);
            }
        });
    }

    /// The server's copy of a document's text, once checked against its rope and a
    /// full parse (an internal error says which of them went astray).
    pub fn text(&self, uri: &Uri, check: bool) -> Result<String> {
        let document = self.document(uri).ok_or_else(not_open)?;
        if let Some(problem) = &document.out_of_sync {
            return Err(out_of_sync(uri, problem));
        }
        let checked = if check { document.check() } else { Ok(()) };
        checked.map_err(|problem| Error {
            code: ErrorCode::InternalError,
            message: problem.into(),
            data: None,
        })?;
        Ok(document.text.to_string())
    }

    pub fn design(&self) -> &Arc<Design> {
        &self.design
    }

    /// Wakes on every change of the document (not when a version settles); ends when
    /// the document is closed. `None` if it is not open.
    pub fn changes(&self, uri: &Uri) -> Option<watch::Receiver<i32>> {
        self.with_open(uri, |open| open.edited.subscribe())
    }

    /// A document's change feed and its view (dead squares skipped), subscribed before
    /// the look so that no change after it goes unseen; `invalid_params` when the
    /// document is not open.
    pub async fn changes_and_view(&self, uri: &Uri) -> Result<(watch::Receiver<i32>, View)> {
        let changes = self.changes(uri).ok_or_else(not_open)?;
        Ok((changes, self.open_view(uri).await?))
    }

    /// A document's view now (dead squares skipped); `invalid_params` when it is not
    /// open.
    pub async fn open_view(&self, uri: &Uri) -> Result<View> {
        self.view(uri, Dead::Skip).await?.ok_or_else(not_open)
    }

    /// Keeps `tickets` alive with the document in place of the previous ones (which
    /// are dropped after, so a search both want goes on).
    pub fn prefetch(&self, uri: &Uri, tickets: Vec<design::Ticket>) {
        let previous = self.with_open(uri, |open| std::mem::replace(&mut open.prefetched, tickets));
        drop(previous);
    }

    // ---- Semantic tokens kept ----

    /// A name for a new semantic-tokens answer.
    pub fn tokens_id(&self) -> String {
        self.next_tokens_id
            .fetch_add(1, Ordering::Relaxed)
            .to_string()
    }

    pub fn last_tokens(&self, uri: &Uri) -> Option<LastAnswer> {
        self.with_open(uri, |open| open.tokens.clone()).flatten()
    }

    /// After a whole-document tokens answer: keeps it for the next delta, and the
    /// maze sections encoded for it.
    pub fn tokens_sent(&self, uri: &Uri, answer: LastAnswer, made: Made<SectionTokens>) {
        self.with_open(uri, |open| {
            open.tokens = Some(answer);
            open.document.keep(made);
        });
    }

    // ---- Solves and publishing ----

    fn limits(config: &Config) -> Limits {
        Limits {
            max_cells: config.max_cells,
            timeout: Duration::from_millis(config.timeout_ms),
        }
    }

    /// Re-solves and republishes after a change; the synchronous part runs before the
    /// first `.await`.
    pub async fn changed(self: &Arc<Self>, uri: &Uri) {
        let Some((version, pending)) = self.start_solves(uri) else {
            return;
        };
        // With solves pending, their task publishes (once they are in, or soon).
        if !pending {
            self.publish(uri, Some(version)).await;
            self.mark_settled(uri, version);
        }
    }

    /// After a document changed (synchronously, before any `.await`): looks up the
    /// mazes it re-read (and any still unsolved), starts the solves they need and the
    /// task that records and publishes their results. Returns the document's version
    /// and whether solves are pending; if none are, its diagnostics are complete now.
    fn start_solves(self: &Arc<Self>, uri: &Uri) -> Option<(i32, bool)> {
        let settings = self.settings();
        let limits = Self::limits(&settings.config);
        let progress = || {
            settings
                .support
                .progress
                .then(|| Progress::new(self.client.clone()))
        };
        let mut open = self.lock_open();
        let record = open.get_mut(uri)?;
        let document = &mut record.document;
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
        let version = document.version;
        let pending = !found.pending.is_empty() || !levels.pending.is_empty();
        // The searches kept for grids no longer in the document are wanted no more.
        let keys = document.keys.clone();
        let (kept, moot): (Vec<_>, Vec<_>) = std::mem::take(&mut record.prefetched)
            .into_iter()
            .partition(|ticket| keys.iter().flatten().any(|key| *key == ticket.key().0));
        record.prefetched = kept;
        record.edited.send_replace(version);
        record.settled.send_replace(i32::MIN);
        let task = pending.then(|| {
            let (state, uri, tickets) = (self.clone(), uri.clone(), found.pending);
            let level_tickets = levels.pending;
            tokio::spawn(async move {
                state.await_solves(&uri, version, tickets).await;
                state.await_level_solves(&uri, version, level_tickets).await;
                state.publish(&uri, Some(version)).await;
                state.mark_settled(&uri, version);
                state.ask_client_to_refresh();
            })
            .abort_handle()
        });
        // Replacing the previous task drops its tickets, which cancels solves that
        // only the old version wanted.
        if let Some(previous) = std::mem::replace(&mut record.awaiting, task) {
            previous.abort();
        }
        drop(open);
        drop(moot);
        Some((version, pending))
    }

    /// Records each solve's result in the document as it arrives; publishes at
    /// [`FIRST_PUBLISH_WITHIN`] what is known by then if they are not all in (the
    /// caller publishes once they are), so that a quick re-solve publishes once and a
    /// slow one does not hold up the structural diagnostics.
    async fn await_solves(
        self: &Arc<Self>,
        uri: &Uri,
        version: i32,
        tickets: Vec<(usize, Ticket)>,
    ) {
        let first_publish = tokio::time::sleep(FIRST_PUBLISH_WITHIN);
        tokio::pin!(first_publish);
        let mut published = false;
        for (index, mut ticket) in tickets {
            let result = loop {
                tokio::select! {
                    result = ticket.wait() => break result,
                    () = &mut first_publish, if !published => {
                        published = true;
                        self.publish(uri, Some(version)).await;
                    }
                }
            };
            if let Some(status) = result {
                self.with_open(uri, |open| {
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
        self: &Arc<Self>,
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
                    self.with_open(uri, |open| {
                        open.document.record_level_progress(index, &key, status)
                    });
                    self.ask_client_to_refresh_hints();
                    continue;
                }
                () = &mut first_publish, if !published => {
                    published = true;
                    self.publish(uri, Some(version)).await;
                    continue;
                }
            };
            let Some(joined) = joined else { break };
            let Ok((index, ticket, Some(status))) = joined else {
                continue;
            };
            let proved = status == LevelStatus::Unsolvable;
            self.with_open(uri, |open| {
                open.document
                    .record_level_solve(index, ticket.key(), status)
            });
            drop(ticket);
            if proved && published {
                self.publish(uri, Some(version)).await;
            }
            if !waiting.is_empty() {
                self.ask_client_to_refresh();
            }
        }
    }

    /// The solve of maze `index` (0-based) of `uri`, whose grid is `key`: known, or
    /// waited for (joining the document's solve, or starting one; it ends at the
    /// configured time limit at the latest), and recorded in the document if the maze
    /// is still there. `None` if it was cancelled.
    pub async fn solve_of(&self, uri: &Uri, index: usize, key: &GridKey) -> Option<MazeStatus> {
        let limits = Self::limits(&self.settings().config);
        let mut found = self
            .solves
            .find_or_start(vec![(index, key.clone())], limits, || None);
        let status = match (found.ready.pop(), found.pending.pop()) {
            (Some((_, status)), _) => status,
            (None, Some((_, mut ticket))) => ticket.wait().await?,
            (None, None) => return None,
        };
        self.with_open(uri, |open| {
            open.document.record_solve(index, key, status.clone())
        });
        Some(status)
    }

    /// Returns once `uri` is no longer at `version` (edited, closed, or never open).
    pub async fn moved_on(&self, uri: &Uri, version: i32) {
        let Some(mut changes) = self.changes(uri) else {
            return;
        };
        while self.is_open_at(uri, Some(version)) {
            // Closing the document drops the sender: the wait ends.
            if changes.changed().await.is_err() {
                return;
            }
        }
    }

    /// Records that `version`'s solves are done and its diagnostics published.
    fn mark_settled(&self, uri: &Uri, version: i32) {
        self.with_open(uri, |open| open.settled.send_replace(version));
    }

    /// Records that the configuration pulled at start-up (if any) is in force.
    pub fn mark_configured(&self) {
        self.configured.send_replace(true);
    }

    /// Waits until the start-up configuration is in force and the document's current
    /// version is settled (solved and published); the version, or `None` once the
    /// document is closed (or was never opened: a client asking about 10,000 URIs it
    /// never opened leaves nothing behind).
    pub async fn settled(&self, uri: &Uri) -> Option<i32> {
        let mut configured = self.configured.subscribe();
        configured.wait_for(|&done| done).await.ok()?;
        let mut settled = self.with_open(uri, |open| open.settled.subscribe())?;
        loop {
            let version = self.with_open(uri, |open| open.document.version)?;
            if *settled.borrow_and_update() == version {
                return Some(version);
            }
            // Closing the document drops the sender: the wait ends.
            settled.changed().await.ok()?;
        }
    }

    /// How many times diagnostics were published for `uri` since it was opened.
    pub fn publications(&self, uri: &Uri) -> u64 {
        self.with_open(uri, |open| open.publications).unwrap_or(0)
    }

    /// Publishes the diagnostics of the document's current version, unless it is no
    /// longer `expected` (a newer version publishes for itself). Clients that pull
    /// diagnostics get nothing pushed.
    async fn publish(&self, uri: &Uri, expected: Option<i32>) {
        if self.settings().support.pull_diagnostics {
            return;
        }
        let _turn = self.publishing.lock().await;
        let Some(document) = self.document(uri) else {
            return;
        };
        let view = self.view_of(document);
        if expected.is_some_and(|version| version != view.version) {
            return;
        }
        let (diagnostics, made) = diagnostics::collect(&view);
        self.with_open(uri, |open| {
            open.document.keep(made);
            open.publications += 1;
        });
        self.client
            .publish_diagnostics(uri.clone(), diagnostics, Some(view.version))
            .await;
    }

    async fn publish_closed(&self, uri: &Uri) {
        if self.settings().support.pull_diagnostics {
            return;
        }
        let _turn = self.publishing.lock().await;
        self.client
            .publish_diagnostics(uri.clone(), Vec::new(), None)
            .await;
    }

    /// Asks the client to re-request what shows a running search's progress (hints and
    /// lenses; the diagnostics and colours wait for its result).
    pub fn ask_client_to_refresh_hints(&self) {
        self.refresh(false);
    }

    /// Asks the client to re-request what depends on solve results.
    pub fn ask_client_to_refresh(&self) {
        self.refresh(true);
    }

    /// The refresh requests, from a task of their own: nothing waits for the answers.
    fn refresh(&self, everything: bool) {
        let support = self.settings().support;
        let client = self.client.clone();
        tokio::spawn(async move {
            if support.inlay_hint_refresh {
                let _ = tokio::time::timeout(CLIENT_ANSWER_WAIT, client.inlay_hint_refresh()).await;
            }
            if support.code_lens_refresh {
                let _ = tokio::time::timeout(CLIENT_ANSWER_WAIT, client.code_lens_refresh()).await;
            }
            if !everything {
                return;
            }
            if support.semantic_tokens_refresh {
                let _ = tokio::time::timeout(CLIENT_ANSWER_WAIT, client.semantic_tokens_refresh())
                    .await;
            }
            if support.pull_diagnostics && support.diagnostic_refresh {
                let refresh = client.workspace_diagnostic_refresh();
                let _ = tokio::time::timeout(CLIENT_ANSWER_WAIT, refresh).await;
            }
        });
    }

    // ---- Configuration and edits ----

    /// The client's `boxls` section, if it actually supplies one.
    pub async fn pull_configuration(&self) -> Option<Value> {
        if !self.settings().support.configuration {
            return None;
        }
        let items = vec![ConfigurationItem {
            scope_uri: None,
            section: Some("boxls".to_string()),
        }];
        let answer = tokio::time::timeout(CLIENT_ANSWER_WAIT, self.client.configuration(items));
        let values = answer.await.ok()?.ok()?;
        values.into_iter().next().filter(Value::is_object)
    }

    /// Applies a configuration section over the `initializationOptions`; when that
    /// changes anything, every document is solved and published again.
    pub async fn reconfigure(self: &Arc<Self>, section: &Value) {
        let config = self.settings().initial.updated(section);
        if config == self.settings().config {
            return;
        }
        self.update_settings(|settings| settings.config = config);
        self.solves.forget_limited();
        self.levels.forget_limited();
        let uris: Vec<Uri> = {
            let mut open = self.lock_open();
            for record in open.values_mut() {
                record.document.forget_solves();
            }
            open.keys().cloned().collect()
        };
        for uri in uris {
            self.changed(&uri).await;
        }
        self.ask_client_to_refresh();
    }

    /// Sends `workspace/applyEdit`, within a bounded wait.
    pub async fn apply_edit(&self, edit: WorkspaceEdit) -> Result<()> {
        if !self.settings().support.apply_edit {
            return Err(Error::invalid_request());
        }
        let answer = tokio::time::timeout(CLIENT_ANSWER_WAIT, self.client.apply_edit(edit)).await;
        match answer {
            Ok(result) => result.map(|_| ()),
            Err(_) => Err(Error::internal_error()),
        }
    }
}

/// The answer to a request about a document whose copy is out of sync.
fn out_of_sync(uri: &Uri, problem: &str) -> Error {
    Error {
        code: ErrorCode::InvalidRequest,
        message: format!(
            "boxls's copy of {} is out of sync ({problem}): re-open the document",
            uri.as_str()
        )
        .into(),
        data: None,
    }
}

/// A document's diagnostics are published at the latest this long after a change,
/// with whatever solves have finished by then.
const FIRST_PUBLISH_WITHIN: Duration = Duration::from_millis(50);

/// How long the server waits for the client to answer one of its own requests.
const CLIENT_ANSWER_WAIT: Duration = Duration::from_secs(10);

fn not_open() -> Error {
    Error::invalid_params("document is not open")
}
