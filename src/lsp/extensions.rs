//! The handlers of the `boxls/*` requests (but `boxls/difficulty`, in `difficulty`)
//! and their answers built from a document's view; the methods and their types are
//! `protocol`'s.

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{MessageType, Position, Uri};

use super::protocol::{
    DocumentTextParams, FirstError, FrameInfo, Maze, MazeInfo, MazeParams, Mazes, MazesParams,
    MazesResult, RecordedInfo, Replay, ReplayParams, ReplayResult, Request, SettledParams,
    SettledResult, UnreadableChangeParams,
};
use super::view::{Dead, View};
use super::Backend;
use crate::ide::{self, LevelState, MazeState};
use crate::maze::{Diagnostic, DiagnosticCode};

/// The `boxls/maze` answer for the maze (or level) whose lines hold `position`.
pub fn maze(view: &View, position: Position) -> Option<MazeInfo> {
    let offset = view.offset(position);
    if let Some(levels) = view.levels() {
        let state = ide::level_state_at(&levels, &view.level_statuses, offset)?;
        return Some(level_info(view, state));
    }
    let state = ide::maze_state_at(&view.file(), offset)?;
    Some(maze_info(view, state))
}

/// The `boxls/mazes` answer: every maze, or every level.
pub fn mazes(view: &View) -> MazesResult {
    let mazes = match view.levels() {
        Some(levels) => ide::level_states(&levels, &view.level_statuses)
            .into_iter()
            .map(|state| level_info(view, state))
            .collect(),
        None => ide::maze_states(&view.file())
            .into_iter()
            .map(|state| maze_info(view, state))
            .collect(),
    };
    MazesResult {
        version: view.version,
        mazes,
    }
}

/// A level as a `MazeInfo`: its first and last board rows for the header and last
/// lines.
fn level_info(view: &View, state: LevelState) -> MazeInfo {
    MazeInfo {
        version: view.version,
        format: "xsb",
        maze: state.index,
        title: state.title,
        boxes: state.boxes,
        header_line: view.line(state.first_row.start),
        last_line: view.line(state.last_row.start),
        rows: state.rows,
        cols: state.cols,
        status: state.kind.as_str(),
        reason: state.reason,
        pushes: state.pushes,
        moves: state.moves,
        optimal: state.optimal,
        solution: state.solution,
        recorded: state.recorded.map(recorded_info),
        first_error: state.first_error.map(|error| first_error(view, error)),
    }
}

fn recorded_info(recorded: ide::Recorded) -> RecordedInfo {
    RecordedInfo {
        moves: recorded.moves,
        optimal: recorded.optimal,
    }
}

fn first_error<C: DiagnosticCode>(view: &View, error: Diagnostic<C>) -> FirstError {
    FirstError {
        range: view.range(error.range),
        code: error.code.as_str().to_string(),
        message: error.message,
    }
}

fn maze_info(view: &View, state: MazeState) -> MazeInfo {
    MazeInfo {
        version: view.version,
        format: "box",
        maze: state.index,
        title: None,
        boxes: 1,
        optimal: state.pushes.map(|_| true),
        header_line: view.line(state.header.start),
        last_line: view.line(state.last_row.start),
        rows: state.rows,
        cols: state.cols,
        status: state.kind.as_str(),
        reason: state.reason,
        pushes: state.pushes,
        moves: state.moves,
        solution: state.solution,
        recorded: state.recorded.map(recorded_info),
        first_error: state.first_error.map(|error| first_error(view, error)),
    }
}

/// The `boxls/replay` answer, `None` where there is no solved maze or level. `frames`:
/// the one-box frames too; `compact`: the board as runs instead of rows.
pub fn replay(
    view: &View,
    position: Position,
    frames: bool,
    compact: bool,
) -> Option<ReplayResult> {
    let offset = view.offset(position);
    let (format, replay) = match view.levels() {
        Some(levels) => (
            "sokoban",
            ide::level_replay(&levels, &view.level_statuses, offset)?,
        ),
        None => ("box", ide::replay(&view.file(), offset)?),
    };
    let cell = |(r, c): (usize, usize)| [r, c];
    let start = FrameInfo {
        player: cell(replay.player),
        boxed: cell(*replay.boxes.first()?),
    };
    Some(ReplayResult {
        format,
        maze: replay.index,
        title: replay.title,
        version: view.version,
        rows: replay.rows,
        cols: replay.cols,
        runs: compact.then(|| ide::board_runs(&replay.cells)),
        cells: (!compact).then_some(replay.cells),
        moves: replay.moves,
        pushes: replay.pushes,
        start,
        frames: if frames {
            replay.frames.into_iter().map(FrameInfo::from).collect()
        } else {
            Vec::new()
        },
        dead: replay.dead.into_iter().map(cell).collect(),
        player: start.player,
        boxes: replay.boxes.into_iter().map(cell).collect(),
        goals: replay.goals.into_iter().map(cell).collect(),
        steps: replay.steps,
        pushed: replay.pushed,
    })
}

/// The longest `boxls/settled` waits (a solve has its own, configurable limit).
const SETTLED_WAIT: std::time::Duration = std::time::Duration::from_secs(120);

pub(super) async fn document_text(backend: &Backend, params: DocumentTextParams) -> Result<String> {
    backend
        .state()
        .documents()
        .text(&params.text_document.uri, params.check)
}

pub(super) async fn settled(backend: &Backend, params: SettledParams) -> Result<SettledResult> {
    let uri = &params.text_document.uri;
    let wait = backend.state().background().settled(uri);
    let version = tokio::time::timeout(SETTLED_WAIT, wait)
        .await
        .map_err(|_| Error::internal_error())?
        .ok_or_else(|| Error::invalid_params("document is not open"))?;
    let published = backend.state().documents().publications(uri);
    Ok(SettledResult { version, published })
}

pub(super) async fn replay_request(
    backend: &Backend,
    params: ReplayParams,
) -> Result<Option<ReplayResult>> {
    let uri = &params.text_document.uri;
    let answer = backend
        .with_view(Replay::METHOD, uri, Dead::At(params.position), |view| {
            replay(view, params.position, params.frames, params.compact)
        })
        .await?;
    Ok(answer.flatten())
}

pub(super) async fn maze_request(
    backend: &Backend,
    params: MazeParams,
) -> Result<Option<MazeInfo>> {
    let uri = &params.text_document.uri;
    backend
        .with_view(Maze::METHOD, uri, Dead::Skip, |view| {
            maze(view, params.position)
        })
        .await?
        .ok_or_else(|| Error::invalid_params("document is not open"))
}

pub(super) async fn mazes_request(backend: &Backend, params: MazesParams) -> Result<MazesResult> {
    let uri = &params.text_document.uri;
    backend
        .with_view(Mazes::METHOD, uri, Dead::Skip, mazes)
        .await?
        .ok_or_else(|| Error::invalid_params("document is not open"))
}

/// A `didChange` that could not be decoded: the document it names is out of sync.
pub(super) async fn unreadable_change(backend: &Backend, params: UnreadableChangeParams) {
    let uri = params
        .uri
        .as_deref()
        .and_then(|uri| uri.parse::<Uri>().ok());
    let problem: std::sync::Arc<str> = params.problem.into();
    match uri {
        Some(uri)
            if backend.state().documents().mark_out_of_sync(
                &uri,
                params.version,
                problem.clone(),
            ) =>
        {
            backend.state().lost_sync(&uri, &problem).await;
        }
        _ => {
            let message = format!("{problem}; it names no open document and was dropped");
            backend.log(MessageType::ERROR, message).await;
        }
    }
}

impl From<ide::Frame> for FrameInfo {
    fn from(frame: ide::Frame) -> FrameInfo {
        FrameInfo {
            player: [frame.player.0, frame.player.1],
            boxed: [frame.boxed.0, frame.boxed.1],
        }
    }
}
