//! The `LanguageServer` implementation: lifecycle, document sync, configuration, and
//! dispatch of each request to its feature module.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::code_actions::{self, INSERT_ALL_KIND, INSERT_COMMAND};
use super::config::Config;
use super::position::Encoding;
use super::state::{ClientSupport, State};
use super::{code_lens, formatting, hover, inlay_hints, semantic_tokens, symbols};

pub struct Backend {
    client: Client,
    state: Arc<State>,
    /// Set by `shutdown`: whether `exit` is a clean one.
    shut_down: Arc<AtomicBool>,
}

impl Backend {
    pub fn new(
        client: Client,
        panic_on_cells: Option<usize>,
        shut_down: Arc<AtomicBool>,
    ) -> Backend {
        Backend {
            state: Arc::new(State::new(client.clone(), panic_on_cells)),
            client,
            shut_down,
        }
    }

    /// The server's copy of a document's text, once checked against its rope and a
    /// full parse (an internal error says which of them went astray).
    pub fn text(&self, uri: &Uri) -> Result<String> {
        let document = self
            .state
            .documents
            .get(uri)
            .ok_or_else(|| Error::invalid_params("document is not open"))?;
        document.check().map_err(|problem| Error {
            code: ErrorCode::InternalError,
            message: problem.into(),
            data: None,
        })?;
        Ok(document.text.to_string())
    }

    /// Re-solves and republishes after a change; the synchronous part runs before the
    /// first `.await`.
    async fn changed(&self, uri: &Uri) {
        let Some(view) = self.state.refresh(&self.client, uri) else {
            return;
        };
        self.state
            .publish(&self.client, uri, Some(view.version))
            .await;
    }

    async fn pull_configuration(&self) -> Option<Config> {
        if !self.state.settings().support.configuration {
            return None;
        }
        let items = vec![ConfigurationItem {
            scope_uri: None,
            section: Some("boxls".to_string()),
        }];
        let values = self.client.configuration(items).await.ok()?;
        Some(Config::from_json(values.first().unwrap_or(&Value::Null)))
    }

    async fn apply_config(&self, config: Config) {
        self.state
            .update_settings(|settings| settings.config = config);
        self.state.solves.forget_limited();
        for uri in self.state.documents.uris() {
            self.changed(&uri).await;
        }
        self.state.refresh_client(&self.client).await;
    }
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
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
            ]),
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
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..SemanticTokensOptions::default()
            },
        )),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![INSERT_COMMAND.to_string()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

fn client_support(capabilities: &ClientCapabilities) -> ClientSupport {
    let workspace = capabilities.workspace.as_ref();
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
        let config = params
            .initialization_options
            .as_ref()
            .map_or_else(Config::default, Config::from_json);
        self.state.update_settings(|settings| {
            settings.encoding = encoding;
            settings.support = support;
            settings.config = config;
        });
        Ok(InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "boxls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if let Some(config) = self.pull_configuration().await {
            if config != self.state.settings().config {
                self.apply_config(config).await;
            }
        }
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
        self.changed(&document.uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let encoding = self.state.settings().encoding;
        let known = self.state.documents.change(
            &uri,
            params.text_document.version,
            &params.content_changes,
            encoding,
        );
        if known {
            self.changed(&uri).await;
        } else {
            self.client
                .log_message(
                    MessageType::WARNING,
                    format!(
                        "didChange for a document that is not open: {}",
                        uri.as_str()
                    ),
                )
                .await;
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.state.documents.close(&uri);
        self.state.forget(&uri);
        self.state.publish_closed(&self.client, &uri).await;
        if self.state.documents.is_empty() {
            super::memory::release_free_memory();
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let pushed = params.settings.get("boxls").map(Config::from_json);
        let config = match pushed {
            Some(config) => Some(config),
            None => self.pull_configuration().await,
        };
        if let Some(config) = config {
            self.apply_config(config).await;
        }
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let Some(view) = self.state.view(&params.text_document.uri) else {
            return Ok(None);
        };
        Ok(Some(inlay_hints::inlay_hints(&view, params.range)))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let Some(view) = self.state.view(&uri) else {
            return Ok(None);
        };
        let range = view.byte_range(params.range);
        let only = params.context.only.as_deref();
        Ok(Some(code_actions::code_actions(&view, &uri, range, only)))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        if params.command != INSERT_COMMAND {
            return Err(Error::invalid_params(format!(
                "unknown command `{}`",
                params.command
            )));
        }
        let (uri, index) = match params.arguments.as_slice() {
            [Value::String(uri), index] => (uri.parse::<Uri>().ok(), index.as_u64()),
            _ => (None, None),
        };
        let (Some(uri), Some(index)) = (uri, index) else {
            return Err(Error::invalid_params(
                "expected arguments [uri, maze index]",
            ));
        };
        let edit = self
            .state
            .view(&uri)
            .and_then(|view| code_actions::insert_command_edit(&view, &uri, index as usize));
        if let Some(edit) = edit {
            self.client.apply_edit(edit).await?;
        }
        Ok(None)
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params;
        let Some(view) = self.state.view(&position.text_document.uri) else {
            return Ok(None);
        };
        let offset = view.offset(position.position);
        Ok(hover::hover(&view, offset))
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let Some(view) = self.state.view(&params.text_document.uri) else {
            return Ok(None);
        };
        Ok(Some(DocumentSymbolResponse::Nested(
            symbols::document_symbols(&view),
        )))
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let Some(view) = self.state.view(&params.text_document.uri) else {
            return Ok(None);
        };
        Ok(Some(symbols::folding_ranges(&view)))
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let Some(view) = self.state.view(&params.text_document.uri) else {
            return Ok(None);
        };
        Ok(Some(SemanticTokensResult::Tokens(
            semantic_tokens::semantic_tokens(&view),
        )))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let Some(view) = self.state.view(&params.text_document.uri) else {
            return Ok(None);
        };
        Ok(Some(formatting::formatting(&view)))
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let Some(view) = self.state.view(&uri) else {
            return Ok(None);
        };
        Ok(Some(code_lens::code_lenses(&view, &uri)))
    }
}
