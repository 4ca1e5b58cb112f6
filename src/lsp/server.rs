//! The `LanguageServer` implementation: lifecycle, document sync, configuration, what
//! the client can do, and dispatch of each request to its feature module — every
//! request's work under a panic guard, so a bug answers one request with an error
//! instead of ending the server.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::code_actions;
use super::commands::{self, Command, COMMANDS, INSERT_ALL_KIND};
use super::config::Config;
use super::document::{Document, Unapplied};
use super::position::Encoding;
use super::semantic_tokens::{self, Previous};
use super::solves::panic_message;
use super::state::{ClientSupport, State};
use super::view::View;
use super::{code_lens, diagnostics, formatting, hover, inlay_hints, symbols, Options};
use super::{design::Design, difficulty, hardest};
use crate::ide::{self, HoverFormat};

/// How long the server waits for the client to answer one of its own requests.
const CLIENT_ANSWER_WAIT: Duration = Duration::from_secs(10);

pub struct Backend {
    client: Client,
    state: Arc<State>,
    tokens: Previous,
    options: Options,
    /// Set by `shutdown`: whether `exit` is a clean one.
    shut_down: Arc<AtomicBool>,
    pub(super) design: Arc<Design>,
}

impl Backend {
    pub fn new(client: Client, options: Options, shut_down: Arc<AtomicBool>) -> Backend {
        Backend {
            state: Arc::new(State::new(client.clone(), options)),
            client,
            tokens: Previous::default(),
            options,
            shut_down,
            design: Arc::default(),
        }
    }

    pub(super) fn state(&self) -> &State {
        &self.state
    }

    /// The server's copy of a document's text, once checked against its rope and a
    /// full parse (an internal error says which of them went astray).
    pub fn text(&self, uri: &Uri, check: bool) -> Result<String> {
        let document = self
            .state
            .documents
            .get(uri)
            .ok_or_else(|| Error::invalid_params("document is not open"))?;
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

    /// Every token of a document, keeping the maze sections encoded now with it.
    fn document_tokens(&self, view: &View, uri: &Uri) -> Vec<semantic_tokens::Piece> {
        let (pieces, fresh) = semantic_tokens::document_tokens(view);
        if !fresh.is_empty() {
            self.state.documents.update(uri, |document| {
                document.keep_tokens(view.version, &view.statuses, fresh)
            });
        }
        pieces
    }

    /// A `window/logMessage` to the client.
    pub(super) async fn log(&self, kind: MessageType, message: String) {
        self.client.log_message(kind, message).await;
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
            let client = self.client.clone();
            let logged = message.clone();
            tokio::spawn(async move { client.log_message(MessageType::ERROR, logged).await });
            Error {
                code: ErrorCode::InternalError,
                message: message.into(),
                data: None,
            }
        })
    }

    /// A view of the document and the work on it, guarded; `Ok(None)` for a document
    /// that is not open.
    fn with_view<T>(
        &self,
        method: &str,
        uri: &Uri,
        work: impl FnOnce(&View) -> T,
    ) -> Result<Option<T>> {
        let Some(view) = self.view(uri)? else {
            return Ok(None);
        };
        self.guarded(method, || work(&view)).map(Some)
    }

    /// After a change the server could not apply: says so (an error in the log, and
    /// one diagnostic in place of the document's), and from now on answers requests
    /// for the document with an error, until the client sends its whole text again.
    pub(super) async fn lost_sync(&self, uri: &Uri, problem: &str) {
        let message = format!(
            "{} is out of sync: {problem}; requests for it fail until it is re-opened or its whole text is sent",
            uri.as_str()
        );
        self.log(MessageType::ERROR, message).await;
        self.changed(uri).await;
    }

    /// A view of an open document for a request; `Ok(None)` when it is not open, an
    /// error naming the problem when the server's copy is out of sync.
    pub(super) fn view(&self, uri: &Uri) -> Result<Option<View>> {
        let Some(view) = self.state.view(uri) else {
            return Ok(None);
        };
        match &view.out_of_sync {
            None => Ok(Some(view)),
            Some(problem) => Err(out_of_sync(uri, problem)),
        }
    }

    /// Re-solves and republishes after a change; the synchronous part runs before the
    /// first `.await`.
    async fn changed(&self, uri: &Uri) {
        let Some((version, pending)) = self.state.refresh(&self.client, uri) else {
            return;
        };
        // With solves pending, their task publishes (once they are in, or soon).
        if !pending {
            self.state.publish(&self.client, uri, Some(version)).await;
            self.state.mark_settled(uri, version);
        }
    }

    /// The client's `boxls` section, if it actually supplies one.
    async fn pull_configuration(&self) -> Option<Value> {
        if !self.state.settings().support.configuration {
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

    /// Applies a configuration section over the `initializationOptions`.
    async fn apply_config(&self, section: &Value) {
        let config = self.state.settings().initial.updated(section);
        if config == self.state.settings().config {
            return;
        }
        self.state
            .update_settings(|settings| settings.config = config);
        self.state.solves.forget_limited();
        self.state.documents.update_all(Document::unsettle);
        for uri in self.state.documents.uris() {
            self.changed(&uri).await;
        }
        self.state.refresh_client(&self.client);
    }

    /// Sends `workspace/applyEdit`, within a bounded wait.
    async fn apply_edit(&self, edit: WorkspaceEdit) -> Result<()> {
        if !self.state.settings().support.apply_edit {
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

fn capabilities(encoding: Encoding, support: ClientSupport) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
                CodeActionKind::new(INSERT_ALL_KIND),
                CodeActionKind::new(commands::HARDEST_KIND),
            ]),
            resolve_provider: Some(support.code_action_resolve),
            ..CodeActionOptions::default()
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic_tokens::legend(),
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                range: Some(true),
                ..SemanticTokensOptions::default()
            },
        )),
        diagnostic_provider: support.pull_diagnostics.then(|| {
            DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some("boxls".to_string()),
                inter_file_dependencies: false,
                workspace_diagnostics: false,
                ..DiagnosticOptions::default()
            })
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: COMMANDS.iter().map(|c| c.to_string()).collect(),
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

fn client_support(capabilities: &ClientCapabilities) -> ClientSupport {
    let workspace = capabilities.workspace.as_ref();
    let document = capabilities.text_document.as_ref();
    let markdown = document
        .and_then(|d| d.hover.as_ref())
        .and_then(|h| h.content_format.as_ref())
        // A client that says nothing gets markdown, as before; one that lists formats
        // gets markdown only if it lists it.
        .is_none_or(|formats| formats.contains(&MarkupKind::Markdown));
    let code_action = document.and_then(|d| d.code_action.as_ref());
    let diagnostic_refresh = workspace
        .and_then(|w| w.diagnostics.as_ref())
        .and_then(|c| c.refresh_support)
        .unwrap_or(false);
    ClientSupport {
        configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
        progress: capabilities
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false),
        inlay_hint_refresh: workspace
            .and_then(|w| w.inlay_hint.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false),
        code_lens_refresh: workspace
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false),
        semantic_tokens_refresh: workspace
            .and_then(|w| w.semantic_tokens.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false),
        diagnostic_refresh,
        // The solver's diagnostics come after the first pull; a client that cannot be
        // asked to pull again (Neovim 0.11 offers pull without refresh) would never see
        // them, so it gets every diagnostic pushed instead.
        pull_diagnostics: diagnostic_refresh && document.is_some_and(|d| d.diagnostic.is_some()),
        hover_format: if markdown {
            HoverFormat::Markdown
        } else {
            HoverFormat::PlainText
        },
        hierarchical_symbols: document
            .and_then(|d| d.document_symbol.as_ref())
            .and_then(|s| s.hierarchical_document_symbol_support)
            .unwrap_or(false),
        code_action_literals: code_action.is_some_and(|c| c.code_action_literal_support.is_some()),
        code_action_resolve: code_action
            .and_then(|c| c.resolve_support.as_ref())
            .is_some_and(|r| r.properties.iter().any(|p| p == "edit")),
        apply_edit: workspace.and_then(|w| w.apply_edit).unwrap_or(false),
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
        let support = client_support(&params.capabilities);
        self.design.note_client(&params.capabilities);
        let config = params
            .initialization_options
            .as_ref()
            .map_or_else(Config::default, Config::from_json);
        self.state.update_settings(|settings| {
            settings.encoding = encoding;
            settings.support = support;
            settings.config = config;
            settings.initial = config;
        });
        Ok(InitializeResult {
            capabilities: capabilities(encoding, support),
            server_info: Some(ServerInfo {
                name: "boxls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if let Some(section) = self.pull_configuration().await {
            self.apply_config(&section).await;
        }
        self.state.mark_configured();
    }

    async fn shutdown(&self) -> Result<()> {
        self.shut_down.store(true, Ordering::Relaxed);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        self.state
            .documents
            .open(document.uri.clone(), document.version, &document.text);
        self.tokens.forget(&document.uri);
        self.changed(&document.uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let encoding = self.state.settings().encoding;
        let applied = self.state.documents.change(
            &uri,
            params.text_document.version,
            &params.content_changes,
            encoding,
        );
        match applied {
            Ok(()) => self.changed(&uri).await,
            Err(Unapplied::NotOpen) => {
                let message = format!(
                    "didChange for a document that is not open: {}",
                    uri.as_str()
                );
                self.log(MessageType::WARNING, message).await;
            }
            Err(Unapplied::OutOfSync(problem)) => self.lost_sync(&uri, &problem).await,
            // Said once, when it happened; the document waits for its whole text.
            Err(Unapplied::StillOutOfSync) => {}
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.state.documents.close(&uri);
        self.tokens.forget(&uri);
        self.state.forget(&uri);
        self.design.forget(&uri);
        self.state.publish_closed(&self.client, &uri).await;
        if self.state.documents.is_empty() {
            super::memory::release_free_memory();
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let pushed = params
            .settings
            .get("boxls")
            .filter(|v| v.is_object())
            .cloned();
        let section = match pushed {
            Some(section) => Some(section),
            None => self.pull_configuration().await,
        };
        if let Some(section) = section {
            self.apply_config(&section).await;
        }
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.with_view(
            "textDocument/inlayHint",
            &params.text_document.uri,
            |view| inlay_hints::inlay_hints(view, params.range),
        )
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let support = self.state.settings().support;
        self.with_view("textDocument/codeAction", &uri, |view| {
            let range = view.byte_range(params.range);
            let only = params.context.only.as_deref();
            let mut actions = code_actions::code_actions(view, &uri, range.clone(), only, support);
            actions.extend(hardest::code_actions(
                &self.design,
                view,
                &uri,
                range,
                only,
                support,
            ));
            actions
        })
    }

    async fn code_action_resolve(&self, action: CodeAction) -> Result<CodeAction> {
        if let Some(request) = hardest::resolve_request(&action) {
            return self.resolve_hardest(request, action).await;
        }
        let Some(uri) = code_actions::resolve_uri(&action) else {
            return Ok(action);
        };
        let resolved = self.with_view("codeAction/resolve", &uri, |view| {
            code_actions::resolve(view, &uri, action.clone())
        })?;
        Ok(resolved.unwrap_or(action))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let edit = match Command::parse(&params.command, &params.arguments)? {
            Command::ApplyEdit(edit) => commands::checked_edit(edit, |uri, version| {
                self.state
                    .documents
                    .get(uri)
                    .is_some_and(|document| version.is_none_or(|v| v == document.version))
            })?,
            Command::Insert { uri, index } => {
                let found = self.with_view("workspace/executeCommand", &uri, |view| {
                    ide::insert_solution(&view.file(), index)
                        .map(|edit| code_actions::workspace_edit(view, &uri, &[edit]))
                })?;
                match found {
                    None => return Err(Error::invalid_params("document is not open")),
                    Some(Err(why)) => {
                        self.client.show_message(MessageType::INFO, why).await;
                        return Ok(None);
                    }
                    Some(Ok(edit)) => edit,
                }
            }
            Command::MakeHardest(request) => self.make_hardest(request).await?,
            Command::InsertAll { uri } => self
                .with_view("workspace/executeCommand", &uri, |view| {
                    code_actions::workspace_edit(view, &uri, &ide::all_solution_edits(&view.file()))
                })?
                .ok_or_else(|| Error::invalid_params("document is not open"))?,
        };
        self.apply_edit(edit).await?;
        Ok(None)
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params;
        let format = self.state.settings().support.hover_format;
        let at = Range::new(position.position, position.position);
        self.state
            .ensure_dead(&position.text_document.uri, Some(at))
            .await;
        let uri = &position.text_document.uri;
        let line = self.difficulty_line(uri, position.position).await;
        let hover = self.with_view("textDocument/hover", uri, |view| {
            hover::hover(view, view.offset(position.position), format)
        })?;
        Ok(difficulty::with_line(hover.flatten(), line))
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        let hierarchical = self.state.settings().support.hierarchical_symbols;
        self.with_view("textDocument/documentSymbol", &uri, |view| {
            symbols::document_symbols(view, &uri, hierarchical)
        })
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.with_view(
            "textDocument/foldingRange",
            &params.text_document.uri,
            symbols::folding_ranges,
        )
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        self.state.ensure_dead(&uri, None).await;
        self.with_view("textDocument/semanticTokens/full", &uri, |view| {
            let data = self.document_tokens(view, &uri);
            SemanticTokensResult::Tokens(self.tokens.full(&uri, data))
        })
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri;
        let previous = params.previous_result_id;
        self.state.ensure_dead(&uri, None).await;
        self.with_view("textDocument/semanticTokens/full/delta", &uri, |view| {
            let data = self.document_tokens(view, &uri);
            self.tokens.delta(&uri, &previous, data)
        })
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        self.state
            .ensure_dead(&params.text_document.uri, Some(params.range))
            .await;
        self.with_view(
            "textDocument/semanticTokens/range",
            &params.text_document.uri,
            |view| {
                let bytes = view.byte_range(params.range);
                SemanticTokensRangeResult::Tokens(SemanticTokens {
                    result_id: None,
                    data: semantic_tokens::tokens_in(view, bytes),
                })
            },
        )
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.with_view(
            "textDocument/formatting",
            &params.text_document.uri,
            formatting::formatting,
        )
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        self.with_view("textDocument/codeLens", &uri, |view| {
            code_lens::code_lenses(view, &uri)
        })
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let items = self
            .with_view(
                "textDocument/diagnostic",
                &params.text_document.uri,
                diagnostics::lsp_diagnostics,
            )?
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
