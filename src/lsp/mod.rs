//! The language server: a thin LSP client of the core, on `tower-lsp-server` + `tokio`.
//!
//! One file per feature (`diagnostics`, `inlay_hints`, `code_actions`, `hover`,
//! `symbols`, `semantic_tokens`, `code_lens`), each an adapter: convert positions with
//! `position`, call the IDE layer (`crate::ide`), convert back. `state` holds the
//! document store and the change → solve → publish pipeline; `solves` runs solves off
//! the request loop.

mod code_actions;
mod code_lens;
mod config;
mod diagnostics;
mod document;
mod formatting;
mod hover;
mod inlay_hints;
mod lru;
mod memory;
pub mod position;
mod progress;
mod replay;
mod semantic_tokens;
mod server;
mod solves;
mod state;
mod symbols;
mod transport;
mod view;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::TextDocumentIdentifier;
use tower_lsp_server::{LspService, Server};

pub use server::Backend;

/// Knobs for tests.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Makes the solver panic on mazes of exactly this many cells.
    pub panic_on_cells: Option<usize>,
    /// Makes the handler of this method panic (`textDocument/didChange`: halfway
    /// through applying the edit).
    pub panic_in_method: Option<&'static str>,
}

/// `boxls/documentText`: the server's copy of a document, for debugging and tests.
pub const DOCUMENT_TEXT: &str = "boxls/documentText";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DocumentTextParams {
    text_document: TextDocumentIdentifier,
    /// Check the copy against its rope and a full parse first (the default).
    #[serde(default = "yes")]
    check: bool,
}

fn yes() -> bool {
    true
}

/// `boxls/settled`: waits until the document's current version is solved and its
/// diagnostics are published, then answers `{ version, published }`, `published`
/// counting every `publishDiagnostics` sent for the document so far (the answer may
/// overtake the last of them: a client waits until it has seen that many). Tests and
/// tools wait on this instead of a timer.
pub const SETTLED: &str = "boxls/settled";

impl Backend {
    async fn document_text(&self, params: DocumentTextParams) -> Result<String> {
        self.text(&params.text_document.uri, params.check)
    }

    async fn settled(&self, params: DocumentTextParams) -> Result<serde_json::Value> {
        let uri = &params.text_document.uri;
        let wait = self.state().settled(uri);
        let version = tokio::time::timeout(SETTLED_WAIT, wait)
            .await
            .map_err(|_| Error::internal_error())?;
        let published = self.state().publications(uri);
        Ok(serde_json::json!({ "version": version, "published": published }))
    }

    async fn replay(&self, params: replay::ReplayParams) -> Result<serde_json::Value> {
        let uri = &params.text_document.uri;
        let at = tower_lsp_server::ls_types::Range::new(params.position, params.position);
        self.state().ensure_dead(uri, Some(at)).await;
        let Some(view) = self.state().view(uri) else {
            return Ok(serde_json::Value::Null);
        };
        self.guarded(replay::METHOD, || replay::replay(&view, params.position))
    }
}

/// Serves LSP over any byte streams (stdio in production, pipes in tests) until the
/// client sends `exit` or closes the input. Returns whether `shutdown` came first
/// (LSP: the process then exits with 0, else with 1).
pub async fn serve<I, O>(input: I, output: O, options: Options) -> bool
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let shut_down = Arc::new(AtomicBool::new(false));
    let flag = shut_down.clone();
    let mut log_client = None;
    let (service, socket) = LspService::build(|client| {
        log_client = Some(client.clone());
        Backend::new(client, options, flag)
    })
    .custom_method(DOCUMENT_TEXT, Backend::document_text)
    .custom_method(replay::METHOD, Backend::replay)
    .custom_method(SETTLED, Backend::settled)
    .finish();
    let service = transport::AnswerInvalid {
        inner: service,
        client: log_client,
    };
    // Every message goes through `transport::pump` first, which stops after `exit`
    // (or the end of the input, which it passes on as `exit`).
    let (framed, pipe) = tokio::io::duplex(PIPE_BUFFER);
    let server = Server::new(framed, output, socket).serve(service);
    tokio::pin!(server);
    let exiting = tokio::select! {
        () = &mut server => false,
        () = transport::pump(input, pipe) => true,
    };
    if exiting {
        // tower-lsp-server waits for every handler, and one may be waiting for an
        // answer from a client that is gone: give them a moment, no more.
        let _ = tokio::time::timeout(EXIT_GRACE, server).await;
    }
    shut_down.load(Ordering::Relaxed)
}

const PIPE_BUFFER: usize = 1 << 16;
/// The longest `boxls/settled` waits (a solve has its own, configurable limit).
const SETTLED_WAIT: std::time::Duration = std::time::Duration::from_secs(120);
const EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// `boxls lsp`: serves on stdin/stdout until the client exits; whether it shut down
/// first.
pub fn run_stdio() -> std::io::Result<bool> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let shut_down = runtime.block_on(serve(
        tokio::io::stdin(),
        tokio::io::stdout(),
        Options::default(),
    ));
    // Neither a read of a stdin the client keeps open nor a solve still running may
    // hold up the exit.
    runtime.shutdown_background();
    Ok(shut_down)
}
