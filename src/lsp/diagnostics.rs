//! Diagnostics: the IDE layer's, converted; pushed (`publishDiagnostics`) or pulled
//! (`textDocument/diagnostic`) as the client prefers.
//!
//! Each maze's diagnostics are converted once and kept with the document, their lines
//! counted from the maze's header line: an edit elsewhere, even one that adds or
//! removes lines before the maze, leaves them valid, and publishing adds the header's
//! current line. A document publishes after every change, so this is what keeps a
//! keystroke's cost to the maze it touched (and to what must be sent).

use std::sync::Arc;

use tower_lsp_server::ls_types::{self as lsp, DiagnosticSeverity, NumberOrString};

use super::view::View;
use crate::ide;
use crate::maze::{Diagnostic, Severity};

/// One maze's diagnostics converted, lines counted from its header's line; `None`
/// until converted, or since the maze or its status changed.
pub type Converted = Option<Arc<[lsp::Diagnostic]>>;

/// Conversions made while collecting, by maze index, for the document to keep.
pub type Fresh = Vec<(usize, Arc<[lsp::Diagnostic]>)>;

/// The document's diagnostics, in source order.
pub fn lsp_diagnostics(view: &View) -> Vec<lsp::Diagnostic> {
    collect(view).0
}

/// The document's diagnostics, and the mazes' conversions done now that are worth
/// keeping (those of settled mazes).
pub fn collect(view: &View) -> (Vec<lsp::Diagnostic>, Fresh) {
    if let Some(problem) = &view.out_of_sync {
        return (vec![out_of_sync(problem)], Vec::new());
    }
    let file = view.file();
    let mut all: Vec<lsp::Diagnostic> = ide::preamble_diagnostics(&file)
        .iter()
        .map(|d| to_lsp(view, d))
        .collect();
    let mut fresh = Vec::new();
    for (index, maze) in view.parsed.mazes.iter().enumerate() {
        let kept = view
            .kept
            .get(index)
            .and_then(|kept| kept.diagnostics.clone());
        let relative = kept.unwrap_or_else(|| {
            let converted = convert_maze(view, index);
            if view.statuses.get(index).is_some_and(|s| s.is_settled()) {
                fresh.push((index, converted.clone()));
            }
            converted
        });
        if relative.is_empty() {
            continue;
        }
        let header_line = view.line(maze.extent.start);
        all.extend(relative.iter().map(|d| moved(d, header_line, true)));
    }
    (all, fresh)
}

/// In place of every other diagnostic while the server's copy of the document is not
/// the client's: anything else would be about a text the user no longer has.
fn out_of_sync(problem: &str) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: lsp::Range::default(),
        severity: Some(DiagnosticSeverity::ERROR),
        code: Some(NumberOrString::String("out-of-sync".to_string())),
        source: Some("boxls".to_string()),
        message: format!(
            "boxls's copy of this document is out of sync ({problem}): close and re-open it"
        ),
        ..lsp::Diagnostic::default()
    }
}

/// Maze `index`'s diagnostics, lines counted from its header's line.
fn convert_maze(view: &View, index: usize) -> Arc<[lsp::Diagnostic]> {
    let header_line = view
        .parsed
        .mazes
        .get(index)
        .map_or(0, |maze| view.line(maze.extent.start));
    ide::maze_diagnostics(&view.file(), index)
        .iter()
        .map(|d| moved(&to_lsp(view, d), header_line, false))
        .collect()
}

/// `diagnostic` moved `lines` down (or up).
fn moved(diagnostic: &lsp::Diagnostic, lines: u32, down: bool) -> lsp::Diagnostic {
    let shift = |line: u32| {
        if down {
            line.saturating_add(lines)
        } else {
            line.saturating_sub(lines)
        }
    };
    let mut moved = diagnostic.clone();
    moved.range.start.line = shift(moved.range.start.line);
    moved.range.end.line = shift(moved.range.end.line);
    moved
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
