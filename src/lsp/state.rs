//! Server state shared by all handlers (documents, solves, settings, what the client
//! supports) and the change → solve → publish pipeline.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::AbortHandle;
use tower_lsp_server::ls_types::Uri;
use tower_lsp_server::Client;

use super::config::Config;
use super::diagnostics;
use super::document::{Document, Documents};
use super::position::Encoding;
use super::progress::Progress;
use super::solves::{Limits, Lookup, Solves, Ticket};
use super::view::View;
use crate::ide::{HoverFormat, MazeStatus};
use crate::maze::Grid;

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
    /// The grids each document's current version keeps in the solve cache.
    pins: Mutex<HashMap<Uri, Vec<Arc<Grid>>>>,
    /// Serialises publishing so that an older version can never overtake a newer one.
    publishing: tokio::sync::Mutex<()>,
}

impl State {
    pub fn new(client: Client, options: super::Options) -> State {
        State {
            documents: Documents::default(),
            solves: Arc::new(Solves::new(Some(client), options.panic_on_cells)),
            settings: Mutex::default(),
            waiters: Mutex::default(),
            settled: Mutex::default(),
            configured: watch::channel(false).0,
            publications: Mutex::default(),
            pins: Mutex::default(),
            publishing: tokio::sync::Mutex::new(()),
        }
    }

    fn lock_settings(&self) -> MutexGuard<'_, Settings> {
        self.settings
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lock_pins(&self) -> MutexGuard<'_, HashMap<Uri, Vec<Arc<Grid>>>> {
        self.pins
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records the grids `uri` has pinned in the solve cache now, and unpins those it
    /// pinned before.
    fn repin(&self, uri: &Uri, pins: Vec<Arc<Grid>>) {
        let previous = if pins.is_empty() {
            self.lock_pins().remove(uri)
        } else {
            self.lock_pins().insert(uri.clone(), pins)
        };
        for grid in previous.into_iter().flatten() {
            self.solves.unpin(&grid);
        }
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
        let limits = Self::limits(&settings.config);
        let statuses = document
            .parsed
            .mazes
            .iter()
            .map(|maze| match &maze.grid {
                None => MazeStatus::Invalid,
                Some(grid) => self
                    .solves
                    .peek(grid, limits)
                    .unwrap_or(MazeStatus::Solving),
            })
            .collect();
        View {
            version: document.version,
            rope: document.rope,
            text: document.text,
            parsed: document.parsed,
            statuses,
            encoding: settings.encoding,
            config: settings.config,
        }
    }

    /// After a document changed (synchronously, before any `.await`): starts the solves
    /// it needs and the task that publishes their results. Returns the view to publish
    /// structural diagnostics from right away.
    /// Whether solves are still pending comes with it.
    pub fn refresh(self: &Arc<Self>, client: &Client, uri: &Uri) -> Option<(View, bool)> {
        let document = self.documents.get(uri)?;
        let settings = self.settings();
        let limits = Self::limits(&settings.config);
        let mut pins = Vec::new();
        let tickets: Vec<Ticket> = document
            .parsed
            .mazes
            .iter()
            .filter_map(|maze| maze.grid.as_ref())
            .filter_map(|grid| {
                let progress = settings
                    .support
                    .progress
                    .then(|| Progress::new(client.clone()));
                let (lookup, pin) = self.solves.lookup(grid, limits, progress);
                pins.extend(pin);
                match lookup {
                    Lookup::Ready => None,
                    Lookup::Pending(ticket) => Some(ticket),
                }
            })
            .collect();
        self.repin(uri, pins);
        let pending = !tickets.is_empty();
        if let Some(settled) = self.lock_settled().get(uri) {
            settled.send_replace(i32::MIN);
        }
        let waiter = pending.then(|| {
            let (state, client, uri, version) =
                (self.clone(), client.clone(), uri.clone(), document.version);
            tokio::spawn(async move {
                for ticket in tickets {
                    ticket.wait().await;
                }
                state.publish(&client, &uri, Some(version)).await;
                state.mark_settled(&uri, version);
                state.refresh_client(&client);
            })
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
        Some((self.view_of(document), pending))
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
        self.repin(uri, Vec::new());
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
        let diagnostics = diagnostics::lsp_diagnostics(&view);
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

/// How long a refresh request may wait for its answer.
const REFRESH_WAIT: Duration = Duration::from_secs(10);
