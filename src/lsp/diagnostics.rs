//! Diagnostics: the IDE layer's (a Sokoban document's: its level checks), converted; pushed (`publishDiagnostics`) or pulled
//! (`textDocument/diagnostic`) as the client prefers.
//!
//! Each maze's diagnostics are converted once and kept with the document
//! (`sections.rs`), their lines counted from the maze's header line: an edit elsewhere,
//! even one that adds or removes lines before the maze, leaves them valid, and
//! publishing adds the header's current line. A document publishes after every
//! change, so this is what keeps a keystroke's cost to the maze it touched (and to
//! what must be sent).

use tower_lsp_server::ls_types::{self as lsp, DiagnosticSeverity, NumberOrString};

use super::sections::{Made, MazeDiagnostics, Reuse};
use super::view::View;
use std::ops::Range;

use crate::ide;
use crate::maze::{Diagnostic, DiagnosticCode, Severity};

/// The document's diagnostics, in source order, and the mazes' conversions made now
/// that are worth keeping.
pub fn collect(view: &View) -> (Vec<lsp::Diagnostic>, Made<MazeDiagnostics>) {
    let mut reuse = Reuse::new(view.version, &view.statuses, &view.kept);
    if let Some(problem) = &view.out_of_sync {
        return (vec![out_of_sync(problem)], reuse.made());
    }
    if let Some(levels) = view.levels() {
        let mut all = levels.diagnostics().to_vec();
        all.extend(ide::level_solver_diagnostics(&levels, &view.level_statuses));
        all.sort_by_key(|d| (d.range.start, d.range.end));
        let all = all.iter().map(|d| to_lsp(view, d));
        return (all.collect(), reuse.made());
    }
    let file = view.file();
    let mut all: Vec<lsp::Diagnostic> = ide::preamble_diagnostics(&file)
        .iter()
        .map(|d| to_lsp(view, d))
        .collect();
    for (index, maze) in view.parsed.mazes.iter().enumerate() {
        let relative = reuse.section(index, || convert_maze(view, index));
        if relative.is_empty() {
            continue;
        }
        let header_line = view.line(maze.extent.start);
        all.extend(relative.iter().map(|d| moved(d, header_line, true)));
    }
    (all, reuse.made())
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
fn convert_maze(view: &View, index: usize) -> MazeDiagnostics {
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

/// A maze's or a level's diagnostic, converted.
pub fn to_lsp<C: DiagnosticCode>(view: &View, diagnostic: &Diagnostic<C>) -> lsp::Diagnostic {
    let Diagnostic {
        code,
        severity,
        range,
        message,
        ..
    } = diagnostic;
    converted(view, range, *severity, code.as_str(), message)
}

fn converted(
    view: &View,
    range: &Range<usize>,
    severity: Severity,
    code: &str,
    message: &str,
) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: view.range(range.clone()),
        severity: Some(match severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Information => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(code.to_string())),
        source: Some("boxls".to_string()),
        message: message.to_string(),
        ..lsp::Diagnostic::default()
    }
}
