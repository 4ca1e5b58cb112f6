//! Diagnostics: the parser's at once, the solver's as soon as each solve finishes.

use tower_lsp_server::ls_types::{self as lsp, DiagnosticSeverity, NumberOrString};

use super::solves::SolveResult;
use super::state::{Status, View};
use crate::analysis::solver_diagnostics;
use crate::maze::{Code, Diagnostic, Severity};

/// Every core diagnostic of the document as known now, in source order.
pub fn core_diagnostics(view: &View) -> Vec<Diagnostic> {
    let mut all = view.parsed.diagnostics.clone();
    for (maze, status) in view.mazes() {
        let Status::Known(result) = status else {
            continue;
        };
        match &**result {
            SolveResult::Done(analysis) => all.extend(solver_diagnostics(&view.text, maze, &analysis.outcome)),
            SolveResult::TooLarge { cells, limit } => all.push(Diagnostic::new(
                Code::TooLarge,
                maze.header.clone(),
                format!("not solved: {cells} cells is over the configured limit of {limit} (boxls.solve.maxCells)"),
            )),
            SolveResult::TimedOut { ms } => all.push(Diagnostic::new(
                Code::TooLarge,
                maze.header.clone(),
                format!("not solved: the solve took longer than the configured {ms} ms (boxls.solve.timeoutMs)"),
            )),
            SolveResult::Failed(message) => all.push(Diagnostic::new(
                Code::InternalError,
                maze.header.clone(),
                format!("not solved: the solver failed ({message}); please report this maze"),
            )),
        }
    }
    all.sort_by_key(|d| (d.range.start, d.range.end));
    all
}

pub fn lsp_diagnostics(view: &View) -> Vec<lsp::Diagnostic> {
    core_diagnostics(view)
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
