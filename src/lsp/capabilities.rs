//! Negotiation: what the client said it can do ([`ClientSupport`], read once from
//! `initialize`) and what the server offers in return ([`server_capabilities`]).

use tower_lsp_server::ls_types::*;

use super::commands::{COMMANDS, HARDEST_KIND, INSERT_ALL_KIND};
use super::position::Encoding;
use crate::ide::{HoverFormat, TOKEN_KINDS, TOKEN_MODIFIERS};

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
    /// `CodeAction.data` is kept between `textDocument/codeAction` and
    /// `codeAction/resolve` (`codeAction.dataSupport`): only then is it sent.
    pub code_action_data: bool,
    /// `codeAction/resolve` can fill in an action's edit — which needs the action's
    /// `data` to say what to fill in, so only with [`ClientSupport::code_action_data`].
    pub code_action_resolve: bool,
    pub apply_edit: bool,
    /// Edits may be `documentChanges` naming the document's version (else plain
    /// `changes`).
    pub versioned_edits: bool,
    /// Edits may create files (`documentChanges` with `resourceOperations` holding
    /// `create`): the conversions' new files.
    pub create_files: bool,
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
            code_action_data: false,
            code_action_resolve: false,
            apply_edit: false,
            versioned_edits: false,
            create_files: false,
        }
    }
}

/// What the server offers, given the encoding it chose and what the client supports.
pub fn server_capabilities(encoding: Encoding, support: ClientSupport) -> ServerCapabilities {
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
                CodeActionKind::REFACTOR_EXTRACT,
                CodeActionKind::new(INSERT_ALL_KIND),
                CodeActionKind::new(HARDEST_KIND),
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
                legend: legend(),
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

impl ClientSupport {
    /// What the client's `initialize` capabilities say it supports.
    pub fn of(capabilities: &ClientCapabilities) -> ClientSupport {
        let workspace = capabilities.workspace.as_ref();
        let document = capabilities.text_document.as_ref();
        let markdown = document
            .and_then(|d| d.hover.as_ref())
            .and_then(|h| h.content_format.as_ref())
            // A client that says nothing gets markdown, as before; one that lists formats
            // gets markdown only if it lists it.
            .is_none_or(|formats| formats.contains(&MarkupKind::Markdown));
        let code_action = document.and_then(|d| d.code_action.as_ref());
        let code_action_data = code_action.and_then(|c| c.data_support).unwrap_or(false);
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
            pull_diagnostics: diagnostic_refresh
                && document.is_some_and(|d| d.diagnostic.is_some()),
            hover_format: if markdown {
                HoverFormat::Markdown
            } else {
                HoverFormat::PlainText
            },
            hierarchical_symbols: document
                .and_then(|d| d.document_symbol.as_ref())
                .and_then(|s| s.hierarchical_document_symbol_support)
                .unwrap_or(false),
            code_action_literals: code_action
                .is_some_and(|c| c.code_action_literal_support.is_some()),
            code_action_data,
            code_action_resolve: code_action_data
                && code_action
                    .and_then(|c| c.resolve_support.as_ref())
                    .is_some_and(|r| r.properties.iter().any(|p| p == "edit")),
            apply_edit: workspace.and_then(|w| w.apply_edit).unwrap_or(false),
            versioned_edits: workspace
                .and_then(|w| w.workspace_edit.as_ref())
                .and_then(|e| e.document_changes)
                .unwrap_or(false),
            create_files: workspace
                .and_then(|w| w.workspace_edit.as_ref())
                .is_some_and(|e| {
                    e.document_changes == Some(true)
                        && e.resource_operations
                            .as_ref()
                            .is_some_and(|ops| ops.contains(&ResourceOperationKind::Create))
                }),
        }
    }
}

/// The semantic token legend, from the IDE layer's one list of kinds and modifiers.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TOKEN_KINDS
            .iter()
            .map(|t| SemanticTokenType::new(t))
            .collect(),
        token_modifiers: TOKEN_MODIFIERS
            .iter()
            .map(|m| SemanticTokenModifier::new(m))
            .collect(),
    }
}
