//! The `boxls/*` requests: boxls's own part of the protocol, with typed `serde` params
//! and results. The manual (docs/src/user/custom-requests.md) documents each as a TypeScript interface, and
//! `tests/it/lsp/extensions.rs` checks those interfaces against the types here.
//!
//! Editors read these fields; they never match the server's English.

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{MessageType, Position, Range, TextDocumentIdentifier, Uri};

use super::view::{Dead, View};
use super::Backend;
use crate::ide::{self, LevelState, MazeState};
use crate::maze::{Diagnostic, DiagnosticCode};

/// `boxls/documentText`: the server's copy of a document, for debugging and tests.
pub const DOCUMENT_TEXT: &str = "boxls/documentText";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentTextParams {
    pub text_document: TextDocumentIdentifier,
    /// Check the copy against its rope and a full parse first (the default).
    #[serde(default = "yes")]
    pub check: bool,
}

fn yes() -> bool {
    true
}

/// `boxls/settled`: waits until the document's current version is solved and its
/// diagnostics are published. `published` counts every `publishDiagnostics` sent for
/// the document so far (the answer may overtake the last of them: a client waits
/// until it has seen that many). Tests and tools wait on this instead of a timer.
pub const SETTLED: &str = "boxls/settled";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SettledParams {
    pub text_document: TextDocumentIdentifier,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettledResult {
    pub version: i32,
    pub published: u64,
}

/// `boxls/maze`: the state of the maze at a position, as data.
pub const MAZE: &str = "boxls/maze";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MazeParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
}

/// One maze's state (see [`ide::MazeState`]).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MazeInfo {
    pub version: i32,
    /// `"box"` for a `.box` maze, `"xsb"` for a Sokoban level (`.xsb`, `.sok`).
    pub format: &'static str,
    /// 1-based: Maze #k, or Level k.
    pub maze: usize,
    /// A level's title (`None` for a `.box` maze or an untitled level).
    pub title: Option<String>,
    pub boxes: usize,
    pub header_line: u32,
    pub last_line: u32,
    pub rows: usize,
    pub cols: usize,
    /// `"solved" | "solving" | "unsolvable" | "invalid" | "tooLarge" | "timedOut" |
    /// "failed"`: [`ide::StateKind::as_str`], the one list of them.
    pub status: &'static str,
    pub reason: Option<String>,
    pub pushes: Option<u64>,
    pub moves: Option<u64>,
    /// Whether `pushes` and `moves` are proved fewest (when solved: a `.box` maze's
    /// always are, a level's when the solver proved it).
    pub optimal: Option<bool>,
    pub solution: Option<String>,
    pub recorded: Option<RecordedInfo>,
    pub first_error: Option<FirstError>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedInfo {
    pub moves: String,
    pub optimal: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FirstError {
    pub range: Range,
    pub code: String,
    pub message: String,
}

/// `boxls/mazes`: every maze of a document.
pub const MAZES: &str = "boxls/mazes";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MazesParams {
    pub text_document: TextDocumentIdentifier,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MazesResult {
    pub version: i32,
    pub mazes: Vec<MazeInfo>,
}

/// `boxls/replay`: the solved maze at a position, frame by frame, for the editors'
/// previews. The answer carries the document version it was computed for, so a
/// preview can drop an answer older than what it shows.
pub const REPLAY: &str = "boxls/replay";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
    /// Send every frame (the default); `false` sends none, and the client replays
    /// `moves` from `start` (big mazes: the answer stays the size of the board).
    #[serde(default = "yes")]
    pub frames: bool,
}

/// A (row, column) pair, 0-based within the maze.
pub type Cell = [usize; 2];

/// One shape for a `.box` maze and a Sokoban level (see [`ide::Replay`]): `start` and
/// `frames` are the one-box view Neovim's player reads; `player`, `boxes`, `goals`,
/// `steps` and `pushed` describe any number of boxes, and the VS Code preview reads those.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayResult {
    /// `"box"` or `"sokoban"`: which kind of document the board is from.
    pub format: &'static str,
    pub maze: usize,
    pub title: Option<String>,
    pub version: i32,
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<String>,
    pub moves: String,
    pub pushes: u64,
    pub start: FrameInfo,
    pub frames: Vec<FrameInfo>,
    pub dead: Vec<Cell>,
    pub player: Cell,
    pub boxes: Vec<Cell>,
    pub goals: Vec<Cell>,
    pub steps: Vec<usize>,
    pub pushed: Vec<[usize; 3]>,
}

#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameInfo {
    pub player: Cell,
    #[serde(rename = "box")]
    pub boxed: Cell,
}

impl From<ide::Frame> for FrameInfo {
    fn from(frame: ide::Frame) -> FrameInfo {
        FrameInfo {
            player: [frame.player.0, frame.player.1],
            boxed: [frame.boxed.0, frame.boxed.1],
        }
    }
}

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

/// The `boxls/replay` answer, `None` where there is no solved maze or level.
pub fn replay(view: &View, position: Position, frames: bool) -> Option<ReplayResult> {
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
        cells: replay.cells,
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

impl Backend {
    pub(super) async fn document_text(&self, params: DocumentTextParams) -> Result<String> {
        self.state().text(&params.text_document.uri, params.check)
    }

    pub(super) async fn settled(&self, params: SettledParams) -> Result<SettledResult> {
        let uri = &params.text_document.uri;
        let wait = self.state().settled(uri);
        let version = tokio::time::timeout(SETTLED_WAIT, wait)
            .await
            .map_err(|_| Error::internal_error())?
            .ok_or_else(|| Error::invalid_params("document is not open"))?;
        let published = self.state().publications(uri);
        Ok(SettledResult { version, published })
    }

    pub(super) async fn replay(&self, params: ReplayParams) -> Result<Option<ReplayResult>> {
        let uri = &params.text_document.uri;
        let answer = self
            .with_view(REPLAY, uri, Dead::At(params.position), |view| {
                replay(view, params.position, params.frames)
            })
            .await?;
        Ok(answer.flatten())
    }

    pub(super) async fn maze(&self, params: MazeParams) -> Result<Option<MazeInfo>> {
        let uri = &params.text_document.uri;
        self.with_view(MAZE, uri, Dead::Skip, |view| maze(view, params.position))
            .await?
            .ok_or_else(|| Error::invalid_params("document is not open"))
    }

    pub(super) async fn mazes(&self, params: MazesParams) -> Result<MazesResult> {
        let uri = &params.text_document.uri;
        self.with_view(MAZES, uri, Dead::Skip, mazes)
            .await?
            .ok_or_else(|| Error::invalid_params("document is not open"))
    }
}

/// What `transport` read of a `didChange` it could not decode.
#[derive(Debug, Deserialize)]
pub struct UnreadableChange {
    uri: Option<String>,
    version: Option<i32>,
    problem: String,
}

impl Backend {
    /// A `didChange` that could not be decoded: the document it names is out of sync.
    pub(super) async fn unreadable_change(&self, params: UnreadableChange) {
        let uri = params
            .uri
            .as_deref()
            .and_then(|uri| uri.parse::<Uri>().ok());
        let problem: std::sync::Arc<str> = params.problem.into();
        match uri {
            Some(uri)
                if self
                    .state()
                    .mark_out_of_sync(&uri, params.version, problem.clone()) =>
            {
                self.state().lost_sync(&uri, &problem).await;
            }
            _ => {
                let message = format!("{problem}; it names no open document and was dropped");
                self.log(MessageType::ERROR, message).await;
            }
        }
    }
}
