//! The `LanguageServer` implementation: each method reads its params, gets a view of
//! the document from `state.rs` (with the dead squares it draws), and calls its
//! feature module — every request's work under a panic guard, so a bug answers one
//! request with an error instead of ending the server. No logic of its own: the
//! store is `documents.rs`'s, the pipeline `background.rs`'s, settings and what is
//! sent to the client `session.rs`'s, negotiation `capabilities.rs`'s, commands
//! `commands.rs`'s, the `boxls/*` requests `protocol.rs`'s.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::capabilities::{server_capabilities, ClientSupport};
use super::code_actions::Unresolved;
use super::commands::{self, Command};
use super::config::Config;
use super::document::{format_of, Unapplied};
use super::panics::panic_message;
use super::position::Encoding;
use super::state::State;
use super::view::{Dead, View};
use super::{code_actions, code_lens, diagnostics, formatting, inlay_hints};
use super::{hardest, semantic_tokens, symbols, Options};

pub struct Backend {
    state: State,
    options: Options,
    /// Set by `shutdown`: whether `exit` is a clean one.
    shut_down: Arc<AtomicBool>,
}

impl Backend {
    pub fn new(client: Client, options: Options, shut_down: Arc<AtomicBool>) -> Backend {
        Backend {
            state: State::new(client, options),
            options,
            shut_down,
        }
    }

    pub(super) fn state(&self) -> &State {
        &self.state
    }

    /// A `window/logMessage` to the client.
    pub(super) async fn log(&self, kind: MessageType, message: String) {
        self.state
            .session()
            .client()
            .log_message(kind, message)
            .await;
    }

    /// Runs one request's work; a panic becomes an internal error answer and one log
    /// message, and the server goes on.
    pub(super) fn guarded<T>(&self, method: &str, work: impl FnOnce() -> T) -> Result<T> {
        let injected = self.options.panic_in_method == Some(method);
        catch_unwind(AssertUnwindSafe(|| {
            if injected {
                panic!("injected panic in {method}");
            }
            work()
        }))
        .map_err(|panic| {
            let message = format!("internal error in {method}: {}", panic_message(&panic));
            let client = self.state.session().client().clone();
            let logged = message.clone();
            tokio::spawn(async move { client.log_message(MessageType::ERROR, logged).await });
            Error {
                code: ErrorCode::InternalError,
                message: message.into(),
                data: None,
            }
        })
    }

    /// A view of the document (with the dead squares `dead` names) and the work on
    /// it, guarded; `Ok(None)` for a document that is not open.
    pub(super) async fn with_view<T>(
        &self,
        method: &str,
        uri: &Uri,
        dead: Dead,
        work: impl FnOnce(&View) -> T,
    ) -> Result<Option<T>> {
        let Some(view) = self.state.view(uri, dead).await? else {
            return Ok(None);
        };
        self.guarded(method, || work(&view)).map(Some)
    }

    /// A whole-document tokens answer (`full`, or `full/delta` from `previous`), kept
    /// with the sections encoded for it.
    async fn document_tokens<T>(
        &self,
        method: &str,
        uri: &Uri,
        answer: impl FnOnce(Vec<semantic_tokens::Piece>, String) -> (T, semantic_tokens::LastAnswer),
    ) -> Result<Option<T>> {
        let id = self.state.documents().tokens_id();
        let made = self
            .with_view(method, uri, Dead::All, |view| {
                let (pieces, made) = semantic_tokens::document_tokens(view);
                let (result, last) = answer(pieces, id);
                (result, last, made)
            })
            .await?;
        Ok(made.map(|(result, last, made)| {
            self.state.documents().tokens_sent(uri, last, made);
            result
        }))
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_deref());
        let encoding = Encoding::negotiate(offered);
        let support = ClientSupport::of(&params.capabilities);
        let config = params
            .initialization_options
            .as_ref()
            .map_or_else(Config::default, Config::from_json);
        self.state.session().update_settings(|settings| {
            settings.encoding = encoding;
            settings.support = support;
            settings.config = config;
            settings.initial = config;
        });
        Ok(InitializeResult {
            capabilities: server_capabilities(encoding, support),
            server_info: Some(ServerInfo {
                name: "boxls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if let Some(section) = self.state.session().pull_configuration().await {
            self.state.reconfigure(&section).await;
        }
        self.state.session().mark_configured();
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::Relaxed);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let format = format_of(&document.language_id, document.uri.as_str());
        self.state
            .opened(document.uri, document.version, &document.text, format)
            .await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        match self.state.change(&uri, version, &params.content_changes) {
            Ok(()) => self.state.background().changed(&uri).await,
            Err(Unapplied::NotOpen) => {
                let message = format!(
                    "didChange for a document that is not open: {}",
                    uri.as_str()
                );
                self.log(MessageType::WARNING, message).await;
            }
            Err(Unapplied::OutOfSync(problem)) => self.state.lost_sync(&uri, &problem).await,
            // Said once, when it happened; the document waits for its whole text.
            Err(Unapplied::StillOutOfSync) => {}
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.state.closed(&params.text_document.uri).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let pushed = params
            .settings
            .get("boxls")
            .filter(|v| v.is_object())
            .cloned();
        let section = match pushed {
            Some(section) => Some(section),
            None => self.state.session().pull_configuration().await,
        };
        if let Some(section) = section {
            self.state.reconfigure(&section).await;
        }
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let uri = &params.text_document.uri;
        self.with_view("textDocument/inlayHint", uri, Dead::Skip, |view| {
            inlay_hints::inlay_hints(view, params.range)
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let only = params.context.only.as_deref();
        let waited_at = self.solved_first(&uri, params.range, only).await?;
        let answer = self
            .with_view("textDocument/codeAction", &uri, Dead::Skip, |view| {
                // Moved on since the wait: the request's range is about the old text.
                if waited_at.is_some_and(|version| version != view.version) {
                    return Err(Error::new(ErrorCode::ContentModified));
                }
                let range = view.byte_range(params.range);
                let mut actions = code_actions::code_actions(view, &uri, range.clone(), only);
                let (design, documents) =
                    (self.state.background().design(), self.state.documents());
                actions.extend(hardest::code_actions(
                    design, documents, view, &uri, range, only,
                ));
                Ok(actions)
            })
            .await?;
        answer.transpose()
    }

    async fn code_action_resolve(&self, action: CodeAction) -> Result<CodeAction> {
        // Without data there is nothing to fill in.
        let Some(data) = action.data.clone() else {
            return Ok(action);
        };
        match code_actions::unresolved(data)? {
            Unresolved::Hardest(request) => {
                // An action offered with its edit carries its data only to say what it is.
                if action.edit.is_some() {
                    return Ok(action);
                }
                self.resolve_hardest(request, action).await
            }
            Unresolved::InsertSolution(request) => {
                self.resolve_insert_solution(request, action).await
            }
            Unresolved::Convert(request) => {
                let uri = request.uri()?;
                self.with_view("codeAction/resolve", &uri, Dead::Skip, |view| {
                    code_actions::resolve_conversion(view, &uri, &request, action.clone())
                })
                .await?
                .unwrap_or_else(|| {
                    Err(Error::invalid_params(
                        "codeAction/resolve: the document is not open",
                    ))
                })
            }
            Unresolved::InsertAll { uri } => {
                let resolved = self
                    .with_view("codeAction/resolve", &uri, Dead::Skip, |view| {
                        code_actions::resolve(view, &uri, action.clone())
                    })
                    .await?;
                Ok(resolved.unwrap_or(action))
            }
        }
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        const METHOD: &str = "workspace/executeCommand";
        let command = Command::parse(&params.command, &params.arguments)?;
        let edit = match command {
            Command::ApplyEdit(edit) => commands::checked_edit(edit, |uri, version| {
                self.state.documents().is_open_at(uri, version)
            })?,
            Command::MakeHardest(request) => self.make_hardest(request).await?,
            Command::Write(write) => {
                let made = self
                    .with_view(METHOD, write.uri(), Dead::Skip, |view| {
                        code_actions::written(&write, view)
                    })
                    .await?;
                match made {
                    None => return Err(Error::invalid_params("document is not open")),
                    Some(Err(why)) => {
                        self.state
                            .session()
                            .client()
                            .show_message(MessageType::INFO, why)
                            .await;
                        return Ok(None);
                    }
                    Some(Ok(edit)) => edit,
                }
            }
        };
        self.state.session().apply_edit(edit).await?;
        Ok(None)
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        self.hover_with_difficulty(&at.text_document.uri, at.position)
            .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        self.with_view("textDocument/documentSymbol", &uri, Dead::Skip, |view| {
            symbols::document_symbols(view, &uri)
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let uri = &params.text_document.uri;
        self.with_view(
            "textDocument/foldingRange",
            uri,
            Dead::Skip,
            symbols::folding_ranges,
        )
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = &params.text_document.uri;
        let answer = self
            .document_tokens(
                "textDocument/semanticTokens/full",
                uri,
                semantic_tokens::full,
            )
            .await?;
        Ok(answer.map(SemanticTokensResult::Tokens))
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = &params.text_document.uri;
        let last = self.state.documents().last_tokens(uri);
        let previous = params.previous_result_id;
        self.document_tokens(
            "textDocument/semanticTokens/full/delta",
            uri,
            |pieces, id| semantic_tokens::delta(last.as_ref(), &previous, pieces, id),
        )
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let uri = &params.text_document.uri;
        let dead = Dead::In(params.range);
        self.with_view("textDocument/semanticTokens/range", uri, dead, |view| {
            let bytes = view.byte_range(params.range);
            SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data: semantic_tokens::tokens_in(view, bytes),
            })
        })
        .await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let uri = &params.text_document.uri;
        self.with_view(
            "textDocument/formatting",
            uri,
            Dead::Skip,
            formatting::formatting,
        )
        .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        self.with_view("textDocument/codeLens", &uri, Dead::Skip, |view| {
            code_lens::code_lenses(view, &uri)
        })
        .await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let uri = &params.text_document.uri;
        let items = self
            .with_view("textDocument/diagnostic", uri, Dead::Skip, |view| {
                diagnostics::collect(view).0
            })
            .await?
            .unwrap_or_default();
        Ok(DocumentDiagnosticReportResult::Report(
            DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: None,
                    items,
                },
            }),
        ))
    }
}
