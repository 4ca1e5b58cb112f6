//! Code actions: the IDE layer's actions as `CodeAction` literals, or as `Command`s
//! for clients without literal support; and the commands behind them. What an action
//! leaves to `codeAction/resolve` (for a client that can resolve, and keeps `data`):
//! the edit of "Insert all", and of "Insert optimal solution" when it is offered while
//! its maze is still being solved — the resolve waits for the solve. A client that
//! cannot resolve gets "Insert optimal solution" with its edit: its code-action
//! request waits for the solve of the maze at the cursor (which ends at the configured
//! time limit at the latest).
//!
//! A Sokoban document's actions come with their edits (a level is solved or it is not:
//! nothing is left to resolve). The conversions (*Convert Maze #k to XSB*, *Convert
//! Level k to .box*) create a new file beside the document, so they are offered only to
//! a client that takes `documentChanges` with `create` operations; to one that resolves,
//! without the new file's text, which resolve makes for the version offered (VS Code
//! asks for code actions at every move of the cursor; a 2000×2000 maze's XSB is 4 MB).

use std::ops::Range;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Command, CreateFile, CreateFileOptions,
    DocumentChangeOperation, DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier,
    Position, Range as LspRange, ResourceOp, TextDocumentEdit, TextEdit as LspTextEdit, Uri,
    WorkspaceEdit,
};

use super::capabilities::ClientSupport;
use super::diagnostics::to_lsp;
use super::grid_key::GridKey;
use super::hardest::{self, parse_uri, HardestRequest};
use super::maze_watch::{fingerprint, valid, Watched};
use super::view::{Dead, View};
use super::Backend;
use crate::ide::{
    self, Action, ActionKind, ActionKinds, Conversion, LevelAction, MazeStatus, Offer,
};
use crate::maze::Grid;

use super::commands::{Write, APPLY_EDIT_COMMAND, INSERT_ALL_COMMAND, INSERT_ALL_KIND};

/// The `action` of the data of "Insert all optimal solutions".
const INSERT_ALL_ACTION: &str = "insertAll";
/// The `action` of the data of "Insert optimal solution" offered while solving.
const INSERT_ONE_ACTION: &str = "insertSolution";
/// The `action` of the data of a conversion offered to a client that resolves.
const CONVERT_ACTION: &str = "convert";

pub fn code_actions(
    view: &View,
    uri: &Uri,
    range: Range<usize>,
    only: Option<&[CodeActionKind]>,
) -> Vec<CodeActionOrCommand> {
    let support = view.support;
    let mut answer = match view.levels() {
        Some(levels) => {
            let kinds = wanted_kinds(only);
            let actions = ide::level_actions(&levels, &view.level_statuses, range.clone(), kinds);
            level_actions(view, uri, actions)
        }
        None => box_actions(view, uri, range.clone(), only),
    };
    if support.code_action_literals && support.create_files && wanted(only, CONVERT_KIND) {
        let action = if support.code_action_resolve {
            offer(view, range.start)
                .and_then(|offer| offered_conversion(view, uri, range.start, offer))
        } else {
            conversion(view, range.start).and_then(|conversion| converted(uri, conversion))
        };
        answer.extend(action.map(CodeActionOrCommand::CodeAction));
    }
    answer
}

/// The conversion of the maze or level at `offset`, its new file's text made.
fn conversion(view: &View, offset: usize) -> Option<Conversion> {
    match view.levels() {
        Some(levels) => ide::level_conversion(&levels, offset),
        None => ide::maze_conversion(&view.file(), offset),
    }
}

/// What [`conversion`] would offer at `offset`, without making the text.
fn offer(view: &View, offset: usize) -> Option<Offer> {
    match view.levels() {
        Some(levels) => ide::level_offer(&levels, offset),
        None => ide::maze_offer(&view.file(), offset),
    }
}

/// The code action kind of the conversions.
const CONVERT_KIND: &str = "refactor.extract";

/// A Sokoban document's actions, each with its edit: literals, or `boxls.applyEdit`
/// commands.
fn level_actions(view: &View, uri: &Uri, actions: Vec<LevelAction>) -> Vec<CodeActionOrCommand> {
    let support = view.support;
    actions
        .into_iter()
        .filter_map(|action| {
            let edit = view.workspace_edit(uri, &action.edits);
            if support.code_action_literals {
                Some(CodeActionOrCommand::CodeAction(CodeAction {
                    title: action.title,
                    kind: Some(kind(action.kind)),
                    diagnostics: action.diagnostic.map(|d| vec![to_lsp(view, &d)]),
                    is_preferred: (action.kind == ActionKind::QuickFix).then_some(true),
                    edit: Some(edit),
                    ..CodeAction::default()
                }))
            } else if support.apply_edit {
                Some(CodeActionOrCommand::Command(Command {
                    title: action.title,
                    command: APPLY_EDIT_COMMAND.to_string(),
                    arguments: Some(vec![json!(edit)]),
                }))
            } else {
                None
            }
        })
        .collect()
}

/// A conversion offered to a client that resolves: the edit, with the new file's text,
/// is made by `codeAction/resolve` for the version and offset in its `data`. Offered
/// only where the eager form would be (a name for the new file).
fn offered_conversion(view: &View, uri: &Uri, offset: usize, offer: Offer) -> Option<CodeAction> {
    sibling(uri, &offer.suffix, offer.extension)?;
    Some(CodeAction {
        title: offer.title,
        kind: Some(CodeActionKind::new(CONVERT_KIND)),
        data: Some(json!({
            "action": CONVERT_ACTION,
            "uri": uri.as_str(),
            "version": view.version,
            "offset": offset,
        })),
        ..CodeAction::default()
    })
}

/// A conversion as an action creating its file (never over an existing one: the
/// client refuses the whole edit if the name was taken meanwhile).
fn converted(uri: &Uri, conversion: Conversion) -> Option<CodeAction> {
    let Conversion { offer, text } = conversion;
    let edit = conversion_edit(uri, &offer, text)?;
    Some(CodeAction {
        title: offer.title,
        kind: Some(CodeActionKind::new(CONVERT_KIND)),
        edit: Some(edit),
        ..CodeAction::default()
    })
}

/// The edit that creates the conversion's file beside `uri` and writes `text` into it.
fn conversion_edit(uri: &Uri, offer: &Offer, text: String) -> Option<WorkspaceEdit> {
    let target = sibling(uri, &offer.suffix, offer.extension)?;
    let create = DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
        uri: target.clone(),
        options: Some(CreateFileOptions {
            overwrite: Some(false),
            ignore_if_exists: Some(false),
        }),
        annotation_id: None,
    }));
    let start = Position::new(0, 0);
    let write = DocumentChangeOperation::Edit(TextDocumentEdit {
        text_document: OptionalVersionedTextDocumentIdentifier {
            uri: target,
            version: None,
        },
        edits: vec![OneOf::Left(LspTextEdit {
            range: LspRange::new(start, start),
            new_text: text,
        })],
    });
    Some(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(vec![create, write])),
        ..WorkspaceEdit::default()
    })
}

/// `dir/name-suffix.ext` beside `dir/name.xsb`, or `dir/name-suffix-2.ext`, … when a
/// local file of that name exists.
fn sibling(uri: &Uri, suffix: &str, extension: &str) -> Option<Uri> {
    let (dir, name) = uri.as_str().rsplit_once('/')?;
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let stem = if stem.is_empty() { "untitled" } else { stem };
    let candidate = |n: usize| match n {
        1 => format!("{dir}/{stem}-{suffix}.{extension}"),
        n => format!("{dir}/{stem}-{suffix}-{n}.{extension}"),
    };
    let taken = |candidate: &str| {
        candidate
            .strip_prefix("file://")
            .and_then(percent_decoded)
            .is_some_and(|path| std::path::Path::new(&path).exists())
    };
    (1..1000)
        .map(candidate)
        .find(|name| !taken(name))?
        .parse()
        .ok()
}

/// A URI path with its `%XX` escapes decoded; `None` if it is not UTF-8.
fn percent_decoded(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| path.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

fn wanted(only: Option<&[CodeActionKind]>, kind: &str) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|prefix| {
            kind == prefix.as_str() || kind.starts_with(&format!("{}.", prefix.as_str()))
        })
    })
}

fn box_actions(
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
            .filter_map(|action| literal(view, uri, action, support))
            .map(CodeActionOrCommand::CodeAction)
            .collect()
    } else if support.apply_edit {
        actions
            .into_iter()
            .filter_map(|action| command(view, uri, action))
            .map(CodeActionOrCommand::Command)
            .collect()
    } else {
        // Neither form could change the document.
        Vec::new()
    }
}

fn wanted_kinds(only: Option<&[CodeActionKind]>) -> ActionKinds {
    let wanted = |kind: &str| wanted(only, kind);
    ActionKinds {
        quick_fix: wanted(CodeActionKind::QUICKFIX.as_str()),
        insert_solution: wanted(CodeActionKind::REFACTOR_REWRITE.as_str()),
        insert_all: wanted(INSERT_ALL_KIND),
    }
}

fn kind(kind: ActionKind) -> CodeActionKind {
    match kind {
        ActionKind::QuickFix => CodeActionKind::QUICKFIX,
        ActionKind::InsertSolution | ActionKind::Rewrite => CodeActionKind::REFACTOR_REWRITE,
        ActionKind::InsertAll => CodeActionKind::new(INSERT_ALL_KIND),
    }
}

fn literal(view: &View, uri: &Uri, action: Action, support: ClientSupport) -> Option<CodeAction> {
    let (edit, data) = match (action.edits, action.kind) {
        (Some(edits), _) => (Some(view.workspace_edit(uri, &edits)), None),
        (None, kind) if support.code_action_resolve => {
            (None, Some(resolve_data(view, uri, kind, action.maze)?))
        }
        (None, ActionKind::InsertAll) => {
            let edits = ide::all_solution_edits(&view.file());
            (Some(view.workspace_edit(uri, &edits)), None)
        }
        // A maze still being solved, for a client that cannot resolve: the request
        // waited for the solve (`Backend::solved_first`), and none came.
        (None, _) => return None,
    };
    Some(CodeAction {
        title: action.title,
        kind: Some(kind(action.kind)),
        diagnostics: action.diagnostic.map(|d| vec![to_lsp(view, &d)]),
        is_preferred: (action.kind == ActionKind::QuickFix).then_some(true),
        edit,
        data,
        ..CodeAction::default()
    })
}

/// The `data` of an action whose edit resolve fills in.
fn resolve_data(view: &View, uri: &Uri, kind: ActionKind, maze: Option<usize>) -> Option<Value> {
    if kind != ActionKind::InsertSolution {
        return Some(
            json!({ "action": INSERT_ALL_ACTION, "uri": uri.as_str(), "version": view.version }),
        );
    }
    let index = maze?;
    let (_, grid) = valid(view, index)?;
    Some(json!({
        "action": INSERT_ONE_ACTION,
        "uri": uri.as_str(),
        "version": view.version,
        "maze": index,
        "grid": fingerprint(grid),
    }))
}

fn command(view: &View, uri: &Uri, action: Action) -> Option<Command> {
    match (action.edits, action.kind) {
        (Some(edits), _) => Some(Command {
            title: action.title,
            command: APPLY_EDIT_COMMAND.to_string(),
            arguments: Some(vec![json!(view.workspace_edit(uri, &edits))]),
        }),
        (None, ActionKind::InsertAll) => Some(Command {
            title: action.title,
            command: INSERT_ALL_COMMAND.to_string(),
            arguments: Some(vec![Value::String(uri.as_str().to_string())]),
        }),
        // As in `literal`: a solve waited for that did not come.
        (None, _) => None,
    }
}

/// What `codeAction/resolve` is asked to fill in, as an action's `data` says.
pub enum Unresolved {
    Hardest(HardestRequest),
    InsertAll { uri: Uri },
    InsertSolution(InsertRequest),
    Convert(ConvertRequest),
}

/// The data of a conversion offered to a client that resolves.
#[derive(Debug, Deserialize)]
pub struct ConvertRequest {
    uri: String,
    /// The document version it was offered for: the offset means nothing in another.
    version: i32,
    /// Where the cursor was: the maze or level there is the one converted.
    offset: usize,
}

impl ConvertRequest {
    pub fn uri(&self) -> Result<Uri> {
        parse_uri(&self.uri)
    }
}

/// The data of "Insert optimal solution" offered while its maze was being solved.
#[derive(Debug, Deserialize)]
pub struct InsertRequest {
    uri: String,
    /// The document version it was offered for.
    #[allow(dead_code)]
    version: i32,
    /// 1-based: Maze #k.
    maze: usize,
    /// The maze's grid when offered (a [`fingerprint`]).
    grid: String,
}

#[derive(Deserialize)]
struct InsertAllData {
    uri: String,
    #[allow(dead_code)]
    version: i32,
}

fn malformed(error: impl std::fmt::Display) -> Error {
    Error::invalid_params(format!("codeAction/resolve: {error}"))
}

/// What an action's `data` asks resolve to fill in: `InvalidParams` for data that no
/// action of this server carries (an unknown `action`, a missing or malformed field),
/// never another action's edit.
pub fn unresolved(data: Value) -> Result<Unresolved> {
    let action = data
        .get("action")
        .and_then(Value::as_str)
        .map(str::to_string);
    match action.as_deref() {
        Some(hardest::ACTION) => {
            HardestRequest::parse(data, "codeAction/resolve").map(Unresolved::Hardest)
        }
        Some(INSERT_ALL_ACTION) => {
            let data: InsertAllData = serde_json::from_value(data).map_err(malformed)?;
            Ok(Unresolved::InsertAll {
                uri: parse_uri(&data.uri)?,
            })
        }
        Some(CONVERT_ACTION) => serde_json::from_value(data)
            .map(Unresolved::Convert)
            .map_err(malformed),
        Some(INSERT_ONE_ACTION) => {
            let request: InsertRequest = serde_json::from_value(data).map_err(malformed)?;
            if request.maze == 0 {
                return Err(malformed("mazes are numbered from 1"));
            }
            Ok(Unresolved::InsertSolution(request))
        }
        _ => Err(malformed("the action's data is not one this server made")),
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

/// `codeAction/resolve` of a conversion: its edit, made for the version it was offered
/// for; `ContentModified` once the document has moved on.
pub fn resolve_conversion(
    view: &View,
    uri: &Uri,
    request: &ConvertRequest,
    mut action: CodeAction,
) -> Result<CodeAction> {
    let changed = || {
        content_modified("the document has changed since the conversion was offered".to_string())
    };
    if view.version != request.version {
        return Err(changed());
    }
    let Conversion { offer, text } = conversion(view, request.offset).ok_or_else(changed)?;
    action.edit = Some(conversion_edit(uri, &offer, text).ok_or_else(changed)?);
    Ok(action)
}

fn content_modified(message: String) -> Error {
    Error {
        code: ErrorCode::ContentModified,
        message: message.into(),
        data: None,
    }
}

/// LSP's `RequestFailed`: there is no edit to make (and the user is told why).
fn request_failed(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(-32803),
        message: message.into(),
        data: None,
    }
}

/// Maze #`index`'s grid, if it is still the one `offered` (a [`fingerprint`]).
fn offered<'a>(view: &'a View, index: usize, offered: &str) -> Result<&'a Arc<Grid>> {
    valid(view, index)
        .map(|(_, grid)| grid)
        .filter(|grid| fingerprint(grid) == offered)
        .ok_or_else(|| {
            content_modified(format!(
                "Maze #{index} has changed since the action was offered"
            ))
        })
}

impl Backend {
    /// Before answering a client that cannot resolve: while the maze at `range`'s
    /// start is being solved, waits for its solve, so that "Insert optimal solution"
    /// comes with its edit. The version waited at (`None`: nothing to wait for); if
    /// the document moves on meanwhile, `ContentModified` at once (the request's
    /// range, and every action's edit, were about the text it left).
    pub(super) async fn solved_first(
        &self,
        uri: &Uri,
        range: LspRange,
        only: Option<&[CodeActionKind]>,
    ) -> Result<Option<i32>> {
        let Some(view) = self.state().view(uri, Dead::Skip).await? else {
            return Ok(None);
        };
        let support = view.support;
        let can_offer = support.code_action_literals || support.apply_edit;
        if support.code_action_resolve || !can_offer || !wanted_kinds(only).insert_solution {
            return Ok(None);
        }
        let file = view.file();
        let solving = file
            .maze_at(view.byte_range(range).start)
            .filter(|(_, status)| matches!(status, MazeStatus::Solving))
            .and_then(|(maze, _)| Some((maze.index, GridKey::new(maze.grid.as_ref()?))));
        let Some((index, key)) = solving else {
            return Ok(None);
        };
        let version = view.version;
        tokio::select! {
            _ = self.state().background().solve_of(uri, index - 1, &key) => Ok(Some(version)),
            () = self.state().documents().moved_on(uri, version) => {
                Err(content_modified(format!("{} has changed", uri.as_str())))
            }
        }
    }

    /// `codeAction/resolve` of "Insert optimal solution" offered while its maze was
    /// being solved: waits for the solve (unless the maze is edited or its document
    /// closed first: `ContentModified`), then writes the solution line into the text as
    /// it is now; `RequestFailed` saying why when there is none to write.
    pub(super) async fn resolve_insert_solution(
        &self,
        request: InsertRequest,
        mut action: CodeAction,
    ) -> Result<CodeAction> {
        let uri = parse_uri(&request.uri)?;
        let (changes, view) = self.state().changes_and_view(&uri).await?;
        let key = GridKey::new(offered(&view, request.maze, &request.grid)?);
        let watched = Watched::new(uri.clone(), request.maze, request.grid.clone(), changes);
        let solve = self
            .state()
            .background()
            .solve_of(&uri, request.maze - 1, &key);
        self.unless_withdrawn(watched, solve).await?;
        let view = self.state().open_view(&uri).await?;
        let edit = self.guarded("codeAction/resolve", || {
            offered(&view, request.maze, &request.grid)?;
            ide::insert_solution(&view.file(), request.maze).map_err(request_failed)
        })??;
        action.edit = Some(view.workspace_edit(&uri, &[edit]));
        action.data = None;
        Ok(action)
    }
}

/// The edit `write` makes in `view`; `Err` says why there is none (a maze without a
/// solution to write, a Sokoban document), for the user.
pub fn written(write: &Write, view: &View) -> std::result::Result<WorkspaceEdit, String> {
    if let Some(levels) = view.levels() {
        let statuses = &view.level_statuses;
        return match write {
            Write::Insert { uri, index } => ide::insert_level_solution(&levels, statuses, *index)
                .map(|edit| view.workspace_edit(uri, &[edit])),
            Write::InsertAll { uri } => {
                let edits = ide::all_level_solution_edits(&levels, statuses);
                if edits.is_empty() {
                    return Err("no level has a solution to write".to_string());
                }
                Ok(view.workspace_edit(uri, &edits))
            }
        };
    }
    match write {
        Write::Insert { uri, index } => {
            ide::insert_solution(&view.file(), *index).map(|edit| view.workspace_edit(uri, &[edit]))
        }
        Write::InsertAll { uri } => {
            Ok(view.workspace_edit(uri, &ide::all_solution_edits(&view.file())))
        }
    }
}
