//! Server state shared by all handlers (documents, solves, settings, what the client
//! supports) and the change → solve → publish pipeline.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::AbortHandle;
use tower_lsp_server::ls_types::{Range as LspRange, Uri};
use tower_lsp_server::Client;

use super::config::Config;
use super::diagnostics;
use super::document::{Document, Documents};
use super::position::{self, Encoding};
use super::progress::Progress;
use super::solves::{Limits, Solves, Ticket};
use super::view::View;
use crate::ide::HoverFormat;

/// What the client said it can do, as far as the server cares.
#[derive(Debug, Clone, Copy)]
pub struct ClientSupport {
    pub configuration: bool,
    pub progress: bool,
    pub inlay_hint_refresh: bool,
    pub code_lens_refresh: bool,
    pub semantic_tokens_refresh: bool,
    pub diagnostic_refresh: bool,
    /// `textDocument/diagnostic`: the client pulls, so nothing is pushed.
    pub pull_diagnostics: bool,
    pub hover_format: HoverFormat,
    pub hierarchical_symbols: bool,
    /// Code actions as `CodeAction` literals (else `Command`s).
    pub code_action_literals: bool,
    /// `codeAction/resolve` can fill in an action's edit.
    pub code_action_resolve: bool,
    pub apply_edit: bool,
}

impl Default for ClientSupport {
    /// What a client that declares nothing gets.
    fn default() -> ClientSupport {
        ClientSupport {
            configuration: false,
            progress: false,
            inlay_hint_refresh: false,
            code_lens_refresh: false,
            semantic_tokens_refresh: false,
            diagnostic_refresh: false,
            pull_diagnostics: false,
            hover_format: HoverFormat::PlainText,
            hierarchical_symbols: false,
            code_action_literals: false,
            code_action_resolve: false,
            apply_edit: false,
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    pub encoding: Encoding,
    pub config: Config,
    /// What `initializationOptions` set: the base a configuration section applies to.
    pub initial: Config,
    pub support: ClientSupport,
}

pub struct State {
    pub documents: Documents,
    pub solves: Arc<Solves>,
    settings: Mutex<Settings>,
    /// The task waiting to publish solver results for each document's latest version.
    waiters: Mutex<HashMap<Uri, AbortHandle>>,
    /// The latest version of each document whose solves are done and published.
    settled: Mutex<HashMap<Uri, watch::Sender<i32>>>,
    /// How many times diagnostics were published for each document (ever).
    publications: Mutex<HashMap<Uri, u64>>,
    /// Whether the configuration pulled after `initialized` has been applied.
    configured: watch::Sender<bool>,
    /// Serialises publishing so that an older version can never overtake a newer one.
    publishing: tokio::sync::Mutex<()>,
}

impl State {
    pub fn new(client: Client, options: super::Options) -> State {
        State {
            documents: Documents::new(options.panic_in_method == Some("textDocument/didChange")),
            solves: Arc::new(Solves::new(Some(client), options.panic_on_cells)),
            settings: Mutex::default(),
            waiters: Mutex::default(),
            settled: Mutex::default(),
            configured: watch::channel(false).0,
            publications: Mutex::default(),
            publishing: tokio::sync::Mutex::new(()),
        }
    }

    fn lock_settings(&self) -> MutexGuard<'_, Settings> {
        self.settings
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lock_waiters(&self) -> MutexGuard<'_, HashMap<Uri, AbortHandle>> {
        self.waiters
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn settings(&self) -> Settings {
        *self.lock_settings()
    }

    pub fn update_settings(&self, update: impl FnOnce(&mut Settings)) {
        update(&mut self.lock_settings());
    }

    fn limits(config: &Config) -> Limits {
        Limits {
            max_cells: config.max_cells,
            timeout: Duration::from_millis(config.timeout_ms),
        }
    }

    /// A view of a document with whatever solve results are known now.
    pub fn view(&self, uri: &Uri) -> Option<View> {
        let document = self.documents.get(uri)?;
        Some(self.view_of(document))
    }

    fn view_of(&self, document: Document) -> View {
        let settings = self.settings();
        View {
            version: document.version,
            rope: document.rope,
            text: document.text,
            parsed: document.parsed,
            statuses: document.statuses,
            kept: document.kept,
            out_of_sync: document.out_of_sync,
            encoding: settings.encoding,
            config: settings.config,
        }
    }

    /// After a document changed (synchronously, before any `.await`): looks up the
    /// mazes it re-read (and any still unsolved), starts the solves they need and the
    /// task that records and publishes their results. Returns the document's version
    /// and whether solves are pending; if none are, its diagnostics are complete now.
    pub fn refresh(self: &Arc<Self>, client: &Client, uri: &Uri) -> Option<(i32, bool)> {
        let settings = self.settings();
        let limits = Self::limits(&settings.config);
        let progress = || {
            settings
                .support
                .progress
                .then(|| Progress::new(client.clone()))
        };
        let (version, tickets) = self.documents.update(uri, |document| {
            let found = self.solves.lookup(document.unsettled(), limits, progress);
            for (index, status) in found.ready {
                if let Some(key) = document.keys[index].clone() {
                    document.settle(index, &key, status);
                }
            }
            (document.version, found.pending)
        })?;
        let pending = !tickets.is_empty();
        if let Some(settled) = self.lock_settled().get(uri) {
            settled.send_replace(i32::MIN);
        }
        let waiter = pending.then(|| {
            let (state, client, uri) = (self.clone(), client.clone(), uri.clone());
            tokio::spawn(async move { state.settle(&client, &uri, version, tickets).await })
                .abort_handle()
        });
        // Replacing the previous waiter drops its tickets, which cancels solves that
        // only the old version wanted.
        let previous = match waiter {
            Some(handle) => self.lock_waiters().insert(uri.clone(), handle),
            None => self.lock_waiters().remove(uri),
        };
        if let Some(previous) = previous {
            previous.abort();
        }
        Some((version, pending))
    }

    /// Records each solve's result in the document as it arrives; publishes once all
    /// are in, or at [`FIRST_PUBLISH_WITHIN`] what is known by then (and again at
    /// the end), so that a quick re-solve publishes once and a slow one does not hold
    /// up the structural diagnostics.
    async fn settle(
        self: Arc<Self>,
        client: &Client,
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
                        self.publish(client, uri, Some(version)).await;
                    }
                }
            };
            if let Some(status) = result {
                self.documents
                    .update(uri, |document| document.settle(index, ticket.key(), status));
            }
        }
        self.publish(client, uri, Some(version)).await;
        self.mark_settled(uri, version);
        self.refresh_client(client);
    }

    /// Computes the dead squares still unknown in the mazes whose lines overlap the
    /// LSP `range` (all of them for `None`), when the client shows them: they are
    /// worked out only where they are drawn or asked for.
    pub async fn ensure_dead(&self, uri: &Uri, range: Option<LspRange>) {
        let settings = self.settings();
        if !settings.config.dead_squares {
            return;
        }
        let lacking = self.documents.update(uri, |document| {
            let bytes = match range {
                Some(range) => position::byte_range(&document.rope, range, settings.encoding),
                None => 0..document.text.len(),
            };
            document.lacking_dead(bytes)
        });
        let Some(lacking) = lacking.filter(|lacking| !lacking.is_empty()) else {
            return;
        };
        let keys = lacking.iter().map(|(_, key)| key.clone()).collect();
        let computed = self.solves.dead_squares(keys).await;
        self.documents.update(uri, |document| {
            for ((index, key), dead) in lacking.iter().zip(computed) {
                if let Some(dead) = dead {
                    document.set_dead(*index, key, dead);
                }
            }
        });
    }

    fn lock_settled(&self) -> MutexGuard<'_, HashMap<Uri, watch::Sender<i32>>> {
        self.settled
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records that `version`'s solves are done and its diagnostics published.
    pub fn mark_settled(&self, uri: &Uri, version: i32) {
        self.lock_settled()
            .entry(uri.clone())
            .or_insert_with(|| watch::channel(version).0)
            .send_replace(version);
    }

    /// Records that the configuration pulled at start-up (if any) is in force.
    pub fn mark_configured(&self) {
        self.configured.send_replace(true);
    }

    /// Waits until the start-up configuration is in force and the document's current
    /// version is settled (solved and published); the version, or `None` once the
    /// document is closed.
    pub async fn settled(&self, uri: &Uri) -> Option<i32> {
        let mut configured = self.configured.subscribe();
        configured.wait_for(|&done| done).await.ok()?;
        let mut settled = self
            .lock_settled()
            .entry(uri.clone())
            .or_insert_with(|| watch::channel(i32::MIN).0)
            .subscribe();
        loop {
            let version = self.documents.get(uri)?.version;
            if *settled.borrow_and_update() == version {
                return Some(version);
            }
            settled.changed().await.ok()?;
        }
    }

    /// Stops waiting for a closed document's solves.
    pub fn forget(&self, uri: &Uri) {
        if let Some(waiter) = self.lock_waiters().remove(uri) {
            waiter.abort();
        }
        self.lock_settled().remove(uri);
    }

    /// Publishes the diagnostics of the document's current version, unless it is no
    /// longer `expected` (a newer version publishes for itself). Clients that pull
    /// diagnostics get nothing pushed.
    pub async fn publish(&self, client: &Client, uri: &Uri, expected: Option<i32>) {
        if self.settings().support.pull_diagnostics {
            return;
        }
        let _turn = self.publishing.lock().await;
        let Some(view) = self.view(uri) else { return };
        if expected.is_some_and(|version| version != view.version) {
            return;
        }
        let (diagnostics, fresh) = diagnostics::collect(&view);
        if !fresh.is_empty() {
            self.documents.update(uri, |document| {
                document.keep_converted(view.version, &view.statuses, fresh)
            });
        }
        self.count_publication(uri);
        client
            .publish_diagnostics(uri.clone(), diagnostics, Some(view.version))
            .await;
    }

    fn count_publication(&self, uri: &Uri) {
        let mut publications = self
            .publications
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *publications.entry(uri.clone()).or_default() += 1;
    }

    /// How many times diagnostics were published for `uri`, closing included.
    pub fn publications(&self, uri: &Uri) -> u64 {
        let publications = self
            .publications
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        publications.get(uri).copied().unwrap_or(0)
    }

    pub async fn publish_closed(&self, client: &Client, uri: &Uri) {
        if self.settings().support.pull_diagnostics {
            return;
        }
        let _turn = self.publishing.lock().await;
        self.count_publication(uri);
        client
            .publish_diagnostics(uri.clone(), Vec::new(), None)
            .await;
    }

    /// Asks the client to re-request what depends on solve results, from a task of
    /// its own: nothing waits for the answers.
    pub fn refresh_client(&self, client: &Client) {
        let support = self.settings().support;
        let client = client.clone();
        tokio::spawn(async move {
            if support.inlay_hint_refresh {
                let _ = tokio::time::timeout(REFRESH_WAIT, client.inlay_hint_refresh()).await;
            }
            if support.code_lens_refresh {
                let _ = tokio::time::timeout(REFRESH_WAIT, client.code_lens_refresh()).await;
            }
            if support.semantic_tokens_refresh {
                let _ = tokio::time::timeout(REFRESH_WAIT, client.semantic_tokens_refresh()).await;
            }
            if support.pull_diagnostics && support.diagnostic_refresh {
                let _ =
                    tokio::time::timeout(REFRESH_WAIT, client.workspace_diagnostic_refresh()).await;
            }
        });
    }
}

/// A document's diagnostics are published at the latest this long after a change,
/// with whatever solves have finished by then.
const FIRST_PUBLISH_WITHIN: Duration = Duration::from_millis(50);

/// How long a refresh request may wait for its answer.
const REFRESH_WAIT: Duration = Duration::from_secs(10);
