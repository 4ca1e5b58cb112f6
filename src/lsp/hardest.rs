//! *Make Maze #k hardest* and *… keeping the target*: the code actions for the maze at
//! the cursor, their edit (S, B and T moved, the solution line written, one undoable
//! edit) once the placement is known — in the action itself when it already is, else
//! on `codeAction/resolve`, or through the `boxls.makeHardest` command and
//! `workspace/applyEdit` for clients without resolve. The search runs in `design.rs`;
//! an edit is built from the text as it is when the search is done, and refused
//! (`ContentModified`) when the maze it was offered for has changed — at once, while
//! the search still runs, if the maze is edited or its document closed.

use std::ops::Range;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Command, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, Uri, WorkspaceEdit,
};

use super::capabilities::ClientSupport;
use super::commands::{HARDEST_KIND, MAKE_HARDEST_COMMAND};
use super::design::{Answer, Design, Hardest, Lookup, Question};
use super::documents::Documents;
use super::grid_key::GridKey;
use super::maze_watch::{fingerprint, valid, Watched};
use super::view::View;
use super::Backend;
use crate::design::MAX_CELLS;
use crate::ide::{hardest_fix, hardest_title, hardest_title_pending};
use crate::maze::{Fix, Grid, Maze};

/// What an offered action stands for: its `data` for resolve, its command's argument
/// (which a client may also build itself, without `grid`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HardestRequest {
    /// [`ACTION`] in the actions' data: tells it from other actions'.
    #[serde(default)]
    pub action: String,
    pub uri: String,
    /// The document version it was offered for.
    pub version: i32,
    /// 1-based: Maze #k.
    pub maze: usize,
    pub keep_target: bool,
    /// The maze's grid as offered (a hash): the edit is refused if it has changed.
    /// Without it, `version` must be the document's version when the command comes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
}

/// The `action` of these actions' data.
pub const ACTION: &str = "makeHardest";

impl HardestRequest {
    /// The request in an action's `data` or the command's argument; `InvalidParams`
    /// for anything malformed (a missing field, a maze number below 1, a version
    /// beyond `i32`, a `keepTarget` that is not a boolean), never another action's.
    pub fn parse(value: Value, what: &str) -> Result<HardestRequest> {
        let request: HardestRequest = serde_json::from_value(value)
            .map_err(|e| Error::invalid_params(format!("{what}: {e}")))?;
        if request.maze == 0 {
            return Err(Error::invalid_params(format!(
                "{what}: mazes are numbered from 1"
            )));
        }
        Ok(request)
    }
}

/// Whether the client asked for this kind (`only` lists kinds or their prefixes).
fn wanted(only: Option<&[CodeActionKind]>) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|prefix| {
            HARDEST_KIND == prefix.as_str()
                || HARDEST_KIND.starts_with(&format!("{}.", prefix.as_str()))
        })
    })
}

/// The largest maze the design searches take under the configured solve limit.
fn fits(view: &View, grid: &Grid) -> bool {
    grid.cell_count() <= MAX_CELLS.min(view.config.max_cells)
}

/// The two actions for the maze at `range`'s start, with their edits when the
/// placements are known; the searches not yet done are started and kept going for
/// this document until its next request.
pub fn code_actions(
    design: &Arc<Design>,
    documents: &Documents,
    view: &View,
    uri: &Uri,
    range: Range<usize>,
    only: Option<&[CodeActionKind]>,
) -> Vec<CodeActionOrCommand> {
    let support = view.support;
    if !wanted(only) || !(support.code_action_literals || support.apply_edit) {
        return Vec::new();
    }
    let file = view.file();
    let found = file
        .maze_at(range.start)
        .and_then(|(maze, _)| Some((maze, maze.grid.as_ref()?)))
        .filter(|(_, grid)| fits(view, grid));
    let Some((maze, grid)) = found else {
        documents.prefetch(uri, Vec::new());
        return Vec::new();
    };
    let key = GridKey::new(grid);
    let mut tickets = Vec::new();
    let mut actions = Vec::new();
    for keep_target in [false, true] {
        let request = HardestRequest {
            action: ACTION.to_string(),
            uri: uri.as_str().to_string(),
            version: view.version,
            maze: maze.index,
            keep_target,
            grid: Some(fingerprint(grid)),
        };
        match design.lookup(&key, Question::Hardest { keep_target }) {
            Lookup::Ready(Answer::Hardest(Some(hardest))) if moves_something(grid, &hardest) => {
                actions.push(ready(view, uri, maze, grid, &hardest, request, support));
            }
            // Nothing to move, no solvable placement, or a search that failed.
            Lookup::Ready(_) => {}
            // Without resolve, the edit can only come later through applyEdit: for
            // such a client the action waits until the placement is known.
            Lookup::Pending(ticket) if !support.code_action_resolve && !support.apply_edit => {
                tickets.push(ticket);
            }
            Lookup::Pending(ticket) => {
                tickets.push(ticket);
                actions.push(pending(maze.index, request, support));
            }
        }
    }
    documents.prefetch(uri, tickets);
    actions
}

fn moves_something(grid: &Grid, hardest: &Hardest) -> bool {
    let p = &hardest.placement;
    (p.player, p.boxed, p.target) != (grid.player, grid.boxed, grid.target)
}

fn command(title: String, request: &HardestRequest) -> Command {
    Command {
        title,
        command: MAKE_HARDEST_COMMAND.to_string(),
        arguments: Some(vec![serde_json::to_value(request).unwrap_or(Value::Null)]),
    }
}

/// The action with its title's counts and its edit.
fn ready(
    view: &View,
    uri: &Uri,
    maze: &Maze,
    grid: &Grid,
    hardest: &Hardest,
    request: HardestRequest,
    support: ClientSupport,
) -> CodeActionOrCommand {
    let fix = titled_fix(&view.text, maze, grid, hardest, request.keep_target);
    if !support.code_action_literals {
        return CodeActionOrCommand::Command(command(fix.title, &request));
    }
    CodeActionOrCommand::CodeAction(CodeAction {
        title: fix.title,
        kind: Some(CodeActionKind::new(HARDEST_KIND)),
        edit: Some(view.workspace_edit(uri, &fix.edits)),
        // Which variant this is, as data, like the pending actions: a client tells the
        // two apart without reading the edit (or the title) — a client that keeps data.
        data: support
            .code_action_data
            .then(|| serde_json::to_value(&request).ok())
            .flatten(),
        ..CodeAction::default()
    })
}

/// The placement's fix, titled with its counts (the action's title and edits).
fn titled_fix(text: &str, maze: &Maze, grid: &Grid, hardest: &Hardest, keep_target: bool) -> Fix {
    let title = hardest_title(maze.index, keep_target, hardest.before, &hardest.placement);
    hardest_fix(text, maze, grid, &hardest.placement, &hardest.path, title)
}

/// The action before its placement is known: resolved later, or run as a command.
fn pending(index: usize, request: HardestRequest, support: ClientSupport) -> CodeActionOrCommand {
    let title = hardest_title_pending(index, request.keep_target);
    if !support.code_action_literals {
        return CodeActionOrCommand::Command(command(title, &request));
    }
    let (data, command) = if support.code_action_resolve {
        (serde_json::to_value(&request).ok(), None)
    } else {
        (None, Some(command(title.clone(), &request)))
    };
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::new(HARDEST_KIND)),
        data,
        command,
        ..CodeAction::default()
    })
}

fn content_modified(index: usize) -> Error {
    Error {
        code: ErrorCode::ContentModified,
        message: format!("Maze #{index} has changed since the action was offered").into(),
        data: None,
    }
}

/// The maze the request names, if its grid is still `offered` (a [`fingerprint`]).
fn offered<'a>(view: &'a View, index: usize, offered: &str) -> Result<(&'a Maze, &'a Arc<Grid>)> {
    valid(view, index)
        .filter(|(_, grid)| fingerprint(grid) == offered)
        .ok_or_else(|| content_modified(index))
}

impl Backend {
    /// `codeAction/resolve` for these actions: waits for the search, fills in the edit.
    pub(super) async fn resolve_hardest(
        &self,
        request: HardestRequest,
        mut action: CodeAction,
    ) -> Result<CodeAction> {
        let (title, edits, view) = self.hardest_edits(&request).await?;
        let uri = parse_uri(&request.uri)?;
        action.title = title;
        action.edit = Some(view.workspace_edit(&uri, &edits));
        action.data = None;
        Ok(action)
    }

    /// `boxls.makeHardest`: the edit to send with `workspace/applyEdit`, at the
    /// document's version when the client takes versioned edits.
    pub(super) async fn make_hardest(&self, argument: Value) -> Result<WorkspaceEdit> {
        let request = HardestRequest::parse(argument, MAKE_HARDEST_COMMAND)?;
        let (_, edits, view) = self.hardest_edits(&request).await?;
        let uri = parse_uri(&request.uri)?;
        let edit = view.workspace_edit(&uri, &edits);
        if !view.support.versioned_edits {
            return Ok(edit);
        }
        let edits = edit
            .changes
            .and_then(|mut changes| changes.remove(&uri))
            .unwrap_or_default();
        Ok(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri,
                    version: Some(view.version),
                },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..WorkspaceEdit::default()
        })
    }

    /// Waits for the placement, then builds the edit from the document as it is now
    /// (with the view it was built from), if the maze is still the one offered.
    async fn hardest_edits(
        &self,
        request: &HardestRequest,
    ) -> Result<(String, Vec<crate::maze::TextEdit>, View)> {
        let uri = parse_uri(&request.uri)?;
        let (changes, view) = self.state().changes_and_view(&uri).await?;
        let grid = match &request.grid {
            Some(grid) => grid.clone(),
            None if view.version == request.version => valid(&view, request.maze)
                .map(|(_, grid)| fingerprint(grid))
                .ok_or_else(|| {
                    Error::invalid_params(format!("there is no valid Maze #{}", request.maze))
                })?,
            None => return Err(content_modified(request.maze)),
        };
        let key = GridKey::new(offered(&view, request.maze, &grid)?.1);
        let question = Question::Hardest {
            keep_target: request.keep_target,
        };
        // Nobody wants a placement for a maze that is gone: an edit of it, or closing
        // its document, ends the wait (see `maze_watch.rs`).
        let watched = Watched::new(uri.clone(), request.maze, grid.clone(), changes);
        let answer = self.answer_unless_changed(watched, &key, question).await?;
        let hardest = match answer {
            Some(Answer::Hardest(Some(hardest))) => hardest,
            Some(Answer::Hardest(None)) => {
                return Err(Error::invalid_params(format!(
                    "Maze #{} has no solvable placement",
                    request.maze
                )))
            }
            Some(Answer::Failed(message)) => return Err(internal(&message)),
            Some(Answer::Map(_)) | None => return Err(internal("the search was cancelled")),
        };
        // The document may have changed while the search ran.
        let view = self.state().open_view(&uri).await?;
        let (title, edits) = self.guarded("codeAction/resolve", || {
            let (maze, grid) = offered(&view, request.maze, &grid)?;
            let fix = titled_fix(&view.text, maze, grid, &hardest, request.keep_target);
            Ok((fix.title, fix.edits))
        })??;
        Ok((title, edits, view))
    }
}

pub fn parse_uri(uri: &str) -> Result<Uri> {
    uri.parse()
        .map_err(|_| Error::invalid_params(format!("not a URI: {uri}")))
}

fn internal(message: &str) -> Error {
    Error {
        code: ErrorCode::InternalError,
        message: message.to_string().into(),
        data: None,
    }
}
