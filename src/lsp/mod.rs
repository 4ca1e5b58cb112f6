//! The language server: a thin LSP client of the core, on `tower-lsp-server` + `tokio`.
//!
//! One file per feature (`diagnostics`, `inlay_hints`, `code_actions`, `hover`,
//! `symbols`, `semantic_tokens`, `code_lens`), each an adapter: convert positions with
//! `position`, call the core, convert back. `state` holds the document store and the
//! change → solve → publish pipeline; `solves` runs solves off the request loop.

mod code_actions;
mod code_lens;
mod config;
mod diagnostics;
mod document;
mod hover;
mod inlay_hints;
pub mod position;
mod progress;
mod semantic_tokens;
mod server;
mod solves;
mod state;
mod symbols;

use serde::Deserialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::TextDocumentIdentifier;
use tower_lsp_server::{LspService, Server};

pub use server::Backend;

/// Knobs for tests.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Makes the solver panic on mazes of exactly this many cells.
    pub panic_on_cells: Option<usize>,
}

/// `boxls/documentText`: the server's copy of a document, for debugging and tests.
pub const DOCUMENT_TEXT: &str = "boxls/documentText";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DocumentTextParams {
    text_document: TextDocumentIdentifier,
}

impl Backend {
    async fn document_text(&self, params: DocumentTextParams) -> Result<String> {
        self.text(&params.text_document.uri)
    }
}

/// Serves LSP over any byte streams (stdio in production, pipes in tests).
pub async fn serve<I, O>(input: I, output: O, options: Options)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let (service, socket) =
        LspService::build(|client| Backend::new(client, options.panic_on_cells))
            .custom_method(DOCUMENT_TEXT, Backend::document_text)
            .finish();
    Server::new(input, output, socket).serve(service).await;
}

/// `boxls lsp`: serves on stdin/stdout until the client exits.
pub fn run_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(
        tokio::io::stdin(),
        tokio::io::stdout(),
        Options::default(),
    ));
    Ok(())
}
