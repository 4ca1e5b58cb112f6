//! Diagnostics: the IDE layer's, converted; pushed (`publishDiagnostics`) or pulled
//! (`textDocument/diagnostic`) as the client prefers.

use tower_lsp_server::ls_types::{self as lsp, DiagnosticSeverity, NumberOrString};

use super::view::View;
use crate::ide;
use crate::maze::{Diagnostic, Severity};

pub fn lsp_diagnostics(view: &View) -> Vec<lsp::Diagnostic> {
    ide::diagnostics(&view.file())
        .iter()
        .map(|d| to_lsp(view, d))
        .collect()
}

pub fn to_lsp(view: &View, diagnostic: &Diagnostic) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: view.range(diagnostic.range.clone()),
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Information => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.code.as_str().to_string())),
        source: Some("boxls".to_string()),
        message: diagnostic.message.clone(),
        ..lsp::Diagnostic::default()
    }
}
