//! Code actions: the IDE layer's actions as `CodeAction` literals (the edit of
//! "Insert all" filled in by `codeAction/resolve` when the client can), or as
//! `Command`s for clients without literal support; and the commands behind them.

use std::ops::Range;

use serde_json::{json, Value};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Command, Uri, WorkspaceEdit,
};

use super::capabilities::ClientSupport;
use super::diagnostics::to_lsp;
use super::view::View;
use crate::ide::{self, Action, ActionKind, ActionKinds};

use super::commands::{Write, APPLY_EDIT_COMMAND, INSERT_ALL_COMMAND, INSERT_ALL_KIND};

pub fn code_actions(
    view: &View,
    uri: &Uri,
    range: Range<usize>,
    only: Option<&[CodeActionKind]>,
) -> Vec<CodeActionOrCommand> {
    let support = view.support;
    let actions = ide::actions(&view.file(), range, wanted_kinds(only));
    if support.code_action_literals {
        actions
            .into_iter()
            .map(|action| CodeActionOrCommand::CodeAction(literal(view, uri, action, support)))
            .collect()
    } else if support.apply_edit {
        actions
            .into_iter()
            .map(|action| CodeActionOrCommand::Command(command(view, uri, action)))
            .collect()
    } else {
        // Neither form could change the document.
        Vec::new()
    }
}

fn wanted_kinds(only: Option<&[CodeActionKind]>) -> ActionKinds {
    let wanted = |kind: &str| {
        only.is_none_or(|only| {
            only.iter().any(|prefix| {
                kind == prefix.as_str() || kind.starts_with(&format!("{}.", prefix.as_str()))
            })
        })
    };
    ActionKinds {
        quick_fix: wanted(CodeActionKind::QUICKFIX.as_str()),
        insert_solution: wanted(CodeActionKind::REFACTOR_REWRITE.as_str()),
        insert_all: wanted(INSERT_ALL_KIND),
    }
}

fn kind(kind: ActionKind) -> CodeActionKind {
    match kind {
        ActionKind::QuickFix => CodeActionKind::QUICKFIX,
        ActionKind::InsertSolution => CodeActionKind::REFACTOR_REWRITE,
        ActionKind::InsertAll => CodeActionKind::new(INSERT_ALL_KIND),
    }
}

fn literal(view: &View, uri: &Uri, action: Action, support: ClientSupport) -> CodeAction {
    let (edit, data) = match action.edits {
        Some(edits) => (Some(view.workspace_edit(uri, &edits)), None),
        None if support.code_action_resolve => (
            None,
            Some(json!({ "uri": uri.as_str(), "version": view.version })),
        ),
        None => {
            let edits = ide::all_solution_edits(&view.file());
            (Some(view.workspace_edit(uri, &edits)), None)
        }
    };
    CodeAction {
        title: action.title,
        kind: Some(kind(action.kind)),
        diagnostics: action.diagnostic.map(|d| vec![to_lsp(view, &d)]),
        is_preferred: (action.kind == ActionKind::QuickFix).then_some(true),
        edit,
        data,
        ..CodeAction::default()
    }
}

fn command(view: &View, uri: &Uri, action: Action) -> Command {
    match action.edits {
        Some(edits) => Command {
            title: action.title,
            command: APPLY_EDIT_COMMAND.to_string(),
            arguments: Some(vec![json!(view.workspace_edit(uri, &edits))]),
        },
        None => Command {
            title: action.title,
            command: INSERT_ALL_COMMAND.to_string(),
            arguments: Some(vec![Value::String(uri.as_str().to_string())]),
        },
    }
}

/// `codeAction/resolve`: fills in the edit of "Insert all optimal solutions".
pub fn resolve(view: &View, uri: &Uri, mut action: CodeAction) -> CodeAction {
    if action.edit.is_none() {
        let edits = ide::all_solution_edits(&view.file());
        action.edit = Some(view.workspace_edit(uri, &edits));
    }
    action
}

/// The URI an unresolved action was made for.
pub fn resolve_uri(action: &CodeAction) -> Option<Uri> {
    action.data.as_ref()?.get("uri")?.as_str()?.parse().ok()
}

/// The edit `write` makes in `view`; `Err` says why there is none (a maze without a
/// solution to write), for the user.
pub fn written(write: &Write, view: &View) -> std::result::Result<WorkspaceEdit, String> {
    match write {
        Write::Insert { uri, index } => {
            ide::insert_solution(&view.file(), *index).map(|edit| view.workspace_edit(uri, &[edit]))
        }
        Write::InsertAll { uri } => {
            Ok(view.workspace_edit(uri, &ide::all_solution_edits(&view.file())))
        }
    }
}
