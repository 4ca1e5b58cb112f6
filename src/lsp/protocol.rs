//! boxls's own part of the protocol, in one place: every `boxls/*` method as a type
//! with its name, params and result (the shape of rust-analyzer's `lsp/ext.rs`);
//! `register` in `mod.rs` is the one table that hands each to its handler.
//!
//! The manual (docs/src/user/custom-requests.md) declares each params and result type
//! as a TypeScript interface; `tests/it/lsp/extensions.rs` checks those against what
//! the server answers, and the editors' clients (their method names, the fields their
//! answer types read) against [`CLIENT_METHODS`] and those answers. Editors read these
//! fields; they never match the server's English.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentIdentifier};

/// A request a client sends.
pub trait Request {
    const METHOD: &'static str;
    type Params: DeserializeOwned + Send + 'static;
    type Result: Serialize + Send + 'static;
}

/// A notification (no answer).
pub trait Notification {
    const METHOD: &'static str;
    type Params: DeserializeOwned + Send + 'static;
}

/// Every method a client may send, as the manual lists them.
pub const CLIENT_METHODS: [&str; 6] = [
    DocumentText::METHOD,
    Settled::METHOD,
    Maze::METHOD,
    Mazes::METHOD,
    Replay::METHOD,
    Difficulty::METHOD,
];

/// `boxls/documentText`: the server's copy of a document, for debugging and tests.
pub enum DocumentText {}

impl Request for DocumentText {
    const METHOD: &'static str = "boxls/documentText";
    type Params = DocumentTextParams;
    type Result = String;
}

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
pub enum Settled {}

impl Request for Settled {
    const METHOD: &'static str = "boxls/settled";
    type Params = SettledParams;
    type Result = SettledResult;
}

/// The params of a request about a whole document.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentParams {
    pub text_document: TextDocumentIdentifier,
}

pub type SettledParams = DocumentParams;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettledResult {
    pub version: i32,
    pub published: u64,
}

/// `boxls/maze`: the state of the maze (or level) at a position, as data; `null` where
/// there is none.
pub enum Maze {}

impl Request for Maze {
    const METHOD: &'static str = "boxls/maze";
    type Params = MazeParams;
    type Result = Option<MazeInfo>;
}

/// The params of a request about the maze or level at a position.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
}

pub type MazeParams = PositionParams;

/// One maze's state (see [`crate::ide::MazeState`]).
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
    /// "failed"`: [`crate::ide::StateKind::as_str`], the one list of them.
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

/// `boxls/mazes`: every maze (or level) of a document.
pub enum Mazes {}

impl Request for Mazes {
    const METHOD: &'static str = "boxls/mazes";
    type Params = MazesParams;
    type Result = MazesResult;
}

pub type MazesParams = DocumentParams;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MazesResult {
    pub version: i32,
    pub mazes: Vec<MazeInfo>,
}

/// `boxls/replay`: the solved maze or level at a position, move by move, for the
/// editors' players. The answer carries the document version it was computed for, so
/// a preview can drop an answer older than what it shows.
pub enum Replay {}

impl Request for Replay {
    const METHOD: &'static str = "boxls/replay";
    type Params = ReplayParams;
    type Result = Option<ReplayResult>;
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
    /// Send every one-box frame (the default); `false` sends none (big mazes: the
    /// answer stays the size of the board plus the deltas in `steps` and `pushed`).
    #[serde(default = "yes")]
    pub frames: bool,
    /// Send the board as `runs` (its rows run-length coded) instead of `cells`: a
    /// 2,000×2,000 room is a few kilobytes instead of four megabytes of row strings.
    #[serde(default)]
    pub compact: bool,
}

/// A (row, column) pair, 0-based within the maze.
pub type Cell = [usize; 2];

/// One shape for a `.box` maze and a Sokoban level (see [`crate::ide::Replay`]):
/// `player`, `boxes`, `goals`, `steps` and `pushed` describe any number of boxes, and
/// the players draw from those; `start` and `frames` are the one-box view.
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
    /// The rows, unless `compact` was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<String>>,
    /// With `compact`: the rows run-length coded ([`crate::ide::board_runs`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<String>,
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

/// `boxls/difficulty`: the difficulty map of the maze at a position (`null` where
/// there is no maze small enough to map).
pub enum Difficulty {}

impl Request for Difficulty {
    const METHOD: &'static str = "boxls/difficulty";
    type Params = DifficultyParams;
    type Result = Option<DifficultyResult>;
}

pub type DifficultyParams = PositionParams;

/// For each cell, the optimum if the box started there (the maze's S and T kept).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DifficultyResult {
    pub version: i32,
    pub maze: usize,
    pub rows: usize,
    pub cols: usize,
    /// One string per row, one letter per cell: `#` rock, `S` the player's start, `T`
    /// the target, `x` free but unsolvable with the box there, `.` solvable.
    pub kinds: Vec<String>,
    /// Per row, per cell: the optimal pushes with the box there (`null` unless `.`).
    pub pushes: Vec<Vec<Option<u64>>>,
    /// Likewise the optimal moves.
    pub moves: Vec<Vec<Option<u64>>>,
    /// The most pushes of any cell (0 when none is solvable).
    pub max_pushes: u64,
}

/// Internal: the request `transport` turns an invalid message into, answered there
/// with the error it was made for (never registered: it never reaches a handler).
pub const INVALID_MESSAGE: &str = "boxls/invalidMessage";

/// Internal: the notification `transport` turns a `didChange` whose params cannot be
/// read into (tower-lsp-server would drop it without a word, and the server's copy of
/// the document would silently stop following the client's).
pub enum UnreadableChange {}

impl Notification for UnreadableChange {
    const METHOD: &'static str = "boxls/unreadableChange";
    type Params = UnreadableChangeParams;
}

/// What `transport` read of a `didChange` it could not decode.
#[derive(Debug, Serialize, Deserialize)]
pub struct UnreadableChangeParams {
    pub uri: Option<String>,
    pub version: Option<i32>,
    pub problem: String,
}
