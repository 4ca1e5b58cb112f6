//! The session with the client: the handle to it, the settings (the position encoding
//! negotiated, what it supports, the configuration in force and the
//! `initializationOptions` it applies over), whether the configuration pulled at
//! start-up is in force, and everything the server sends the client of its own accord —
//! diagnostics, refresh requests, the configuration pull, `workspace/applyEdit`.
//!
//! Invariants kept here:
//!
//! - The settings are behind a `std::sync::Mutex` never held across an `.await`: they
//!   are read as a copy ([`Session::settings`]).
//! - Publishing is serialised and re-checks the document's version under its turn, and
//!   sends the diagnostics with that version: an older version can never overtake a
//!   newer one, and a stale result is never sent ([`Session::publish`]).
//! - No wait for the client is unbounded: refreshes are fire-and-forget, the
//!   configuration and `applyEdit` answers time out.

use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::watch;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{ConfigurationItem, Uri, WorkspaceEdit};
use tower_lsp_server::Client;

use super::capabilities::ClientSupport;
use super::config::Config;
use super::diagnostics;
use super::document::Document;
use super::documents::Documents;
use super::position::Encoding;
use super::view::View;

#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    pub encoding: Encoding,
    pub config: Config,
    /// What `initializationOptions` set: the base a configuration section applies to.
    pub initial: Config,
    pub support: ClientSupport,
}

pub struct Session {
    client: Client,
    settings: Mutex<Settings>,
    /// Whether the configuration pulled after `initialized` has been applied.
    configured: watch::Sender<bool>,
    /// Serialises publishing so that an older version can never overtake a newer one.
    publishing: tokio::sync::Mutex<()>,
}

impl Session {
    pub fn new(client: Client) -> Session {
        Session {
            client,
            settings: Mutex::default(),
            configured: watch::channel(false).0,
            publishing: tokio::sync::Mutex::new(()),
        }
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    // ---- Settings ----

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

    /// What a request reads: `document` with the settings it is answered under.
    pub fn view_of(&self, document: Document) -> View {
        let settings = self.settings();
        document.into_view(settings.encoding, settings.config, settings.support)
    }

    /// Records that the configuration pulled at start-up (if any) is in force.
    pub fn mark_configured(&self) {
        self.configured.send_replace(true);
    }

    /// Returns once the configuration pulled at start-up (if any) is in force.
    pub async fn configured(&self) -> Option<()> {
        let mut configured = self.configured.subscribe();
        configured.wait_for(|&done| done).await.ok()?;
        Some(())
    }

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

    // ---- Publishing ----

    /// Publishes the diagnostics of the document's current version, unless it is no
    /// longer `expected` (a newer version publishes for itself). Clients that pull
    /// diagnostics get nothing pushed.
    pub async fn publish(&self, documents: &Documents, uri: &Uri, expected: Option<i32>) {
        if self.settings().support.pull_diagnostics {
            return;
        }
        let _turn = self.publishing.lock().await;
        let Some(document) = documents.document(uri) else {
            return;
        };
        let view = self.view_of(document);
        if expected.is_some_and(|version| version != view.version) {
            return;
        }
        let (diagnostics, made) = diagnostics::collect(&view);
        documents.published(uri, made);
        self.client
            .publish_diagnostics(uri.clone(), diagnostics, Some(view.version))
            .await;
    }

    /// Clears a closed document's diagnostics.
    pub async fn publish_closed(&self, uri: &Uri) {
        if self.settings().support.pull_diagnostics {
            return;
        }
        let _turn = self.publishing.lock().await;
        self.client
            .publish_diagnostics(uri.clone(), Vec::new(), None)
            .await;
    }

    // ---- Requests to the client ----

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

/// How long the server waits for the client to answer one of its own requests.
const CLIENT_ANSWER_WAIT: Duration = Duration::from_secs(10);
