//! Code actions: insert or replace one maze's solution line, insert all of them, and
//! the quick fixes the diagnostics carry. Also the `boxls.insertSolution` command
//! behind the code lens.

use std::collections::HashMap;
use std::ops::Range;

use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, TextEdit as LspTextEdit, Uri, WorkspaceEdit,
};

use super::diagnostics::{core_diagnostics, to_lsp};
use super::solves::SolveResult;
use super::state::{Status, View};
use crate::analysis::solution_edit;
use crate::maze::{Maze, TextEdit};
use crate::solver::Outcome;

pub const INSERT_ONE: &str = "Insert optimal solution";
pub const INSERT_ALL: &str = "Insert all optimal solutions";
pub const INSERT_ALL_KIND: &str = "source.boxls.insertAllSolutions";
/// The command the code lens runs; arguments: the document URI and the maze index.
pub const INSERT_COMMAND: &str = "boxls.insertSolution";

pub fn code_actions(
    view: &View,
    uri: &Uri,
    range: Range<usize>,
    only: Option<&[CodeActionKind]>,
) -> Vec<CodeActionOrCommand> {
    let wanted = |kind: &CodeActionKind| {
        only.is_none_or(|only| {
            only.iter().any(|prefix| {
                kind.as_str() == prefix.as_str()
                    || kind.as_str().starts_with(&format!("{}.", prefix.as_str()))
            })
        })
    };
    let mut actions = Vec::new();
    if wanted(&CodeActionKind::QUICKFIX) {
        actions.extend(quick_fixes(view, uri, &range));
    }
    if wanted(&CodeActionKind::REFACTOR_REWRITE) {
        actions.extend(insert_one(view, uri, range.start));
    }
    if wanted(&CodeActionKind::new(INSERT_ALL_KIND)) {
        actions.extend(insert_all(view, uri));
    }
    actions
        .into_iter()
        .map(CodeActionOrCommand::CodeAction)
        .collect()
}

fn quick_fixes(view: &View, uri: &Uri, range: &Range<usize>) -> Vec<CodeAction> {
    core_diagnostics(view)
        .into_iter()
        .filter(|d| d.range.start <= range.end && range.start <= d.range.end)
        .filter_map(|diagnostic| {
            let fix = diagnostic.fix.as_ref()?;
            Some(CodeAction {
                title: fix.title.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![to_lsp(view, &diagnostic)]),
                edit: Some(workspace_edit(view, uri, &fix.edits)),
                is_preferred: Some(true),
                ..CodeAction::default()
            })
        })
        .collect()
}

fn insert_one(view: &View, uri: &Uri, offset: usize) -> Option<CodeAction> {
    let (maze, status) = view.maze_at(offset)?;
    let edit = solution_change(view, maze, status)?;
    Some(CodeAction {
        title: INSERT_ONE.to_string(),
        kind: Some(CodeActionKind::REFACTOR_REWRITE),
        edit: Some(workspace_edit(view, uri, &[edit])),
        ..CodeAction::default()
    })
}

fn insert_all(view: &View, uri: &Uri) -> Option<CodeAction> {
    let edits: Vec<TextEdit> = view
        .mazes()
        .filter_map(|(maze, status)| solution_change(view, maze, status))
        .collect();
    (!edits.is_empty()).then(|| CodeAction {
        title: INSERT_ALL.to_string(),
        kind: Some(CodeActionKind::new(INSERT_ALL_KIND)),
        edit: Some(workspace_edit(view, uri, &edits)),
        ..CodeAction::default()
    })
}

/// The edit for the `boxls.insertSolution` command.
pub fn insert_command_edit(view: &View, uri: &Uri, maze_index: usize) -> Option<WorkspaceEdit> {
    let (maze, status) = view.mazes().find(|(maze, _)| maze.index == maze_index)?;
    let edit = solution_change(view, maze, status)?;
    Some(workspace_edit(view, uri, &[edit]))
}

/// The edit writing the optimal solution, if the maze is solved and does not already
/// record exactly that.
fn solution_change(view: &View, maze: &Maze, status: &Status) -> Option<TextEdit> {
    let Status::Known(result) = status else {
        return None;
    };
    let SolveResult::Done(analysis) = &**result else {
        return None;
    };
    let Outcome::Solved(solution) = &analysis.outcome else {
        return None;
    };
    if maze
        .solution
        .as_ref()
        .is_some_and(|line| view.text[line.moves.clone()] == solution.path)
    {
        return None;
    }
    Some(solution_edit(&view.text, maze, &solution.path))
}

fn workspace_edit(view: &View, uri: &Uri, edits: &[TextEdit]) -> WorkspaceEdit {
    let edits = edits
        .iter()
        .map(|edit| LspTextEdit {
            range: view.range(edit.range.clone()),
            new_text: edit.new_text.clone(),
        })
        .collect();
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}
