//! The per-request snapshot of one document: its text, parse and what is known of each
//! maze's solve, the settings and what the client supports, with the position
//! conversions every feature adapter needs. `State::view` makes it, computing first the
//! dead squares the request draws ([`Dead`]), so no handler has a step to remember.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::{
    Position, Range as LspRange, TextEdit as LspTextEdit, Uri, WorkspaceEdit,
};

use super::capabilities::ClientSupport;
use super::config::Config;
use super::position::{self, Encoding};
use super::sections::Kept;
use crate::ide::{FileView, LevelFile, LevelStatus, MazeStatus};
use crate::level::CheckedFile;
use crate::maze::{ParsedFile, TextEdit};

/// Everything a feature needs to answer one request about one document.
pub struct View {
    pub version: i32,
    /// A Sokoban document's levels (its `parsed` has no mazes); `None` for `.box`.
    pub levels: Option<Arc<CheckedFile>>,
    /// One per level: what is known of its solve.
    pub level_statuses: Arc<Vec<LevelStatus>>,
    pub rope: Rope,
    pub text: Arc<String>,
    pub parsed: Arc<ParsedFile>,
    pub statuses: Arc<Vec<MazeStatus>>,
    /// Each maze's diagnostics and tokens as last sent, if still valid.
    pub kept: Arc<Vec<Kept>>,
    /// Why the server's copy no longer follows the client's, if it does not.
    pub out_of_sync: Option<Arc<str>>,
    pub encoding: Encoding,
    pub config: Config,
    pub support: ClientSupport,
}

/// Which mazes' dead squares a request draws: those are computed (on the blocking
/// pool, shared with any other request for the same maze) before its view is made.
#[derive(Debug, Clone, Copy)]
pub enum Dead {
    /// None: the answer does not show them.
    Skip,
    /// The maze at a position (hover, replay).
    At(Position),
    /// The mazes whose lines overlap a range (a viewport's tokens).
    In(LspRange),
    /// Every maze (the whole document's tokens).
    All,
}

impl View {
    /// The document as the IDE layer sees it.
    pub fn file(&self) -> FileView<'_> {
        FileView {
            text: &self.text,
            parsed: &self.parsed,
            statuses: &self.statuses,
            options: self.config.ide_options(),
        }
    }

    /// A Sokoban document as the IDE layer sees it; `None` for a `.box` document.
    pub fn levels(&self) -> Option<LevelFile<'_>> {
        self.levels.as_deref().map(|checked| LevelFile {
            text: &self.text,
            checked,
            options: self.config.ide_options(),
        })
    }

    pub fn range(&self, bytes: Range<usize>) -> LspRange {
        position::range(&self.rope, bytes, self.encoding)
    }

    /// The line of byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        position::line(&self.rope, offset)
    }

    pub fn position(&self, offset: usize) -> Position {
        position::position(&self.rope, offset, self.encoding)
    }

    pub fn offset(&self, position: Position) -> usize {
        position::offset(&self.rope, position, self.encoding)
    }

    pub fn byte_range(&self, range: LspRange) -> Range<usize> {
        position::byte_range(&self.rope, range, self.encoding)
    }

    /// The IDE layer's edits of this document as one `WorkspaceEdit`.
    pub fn workspace_edit(&self, uri: &Uri, edits: &[TextEdit]) -> WorkspaceEdit {
        let edits = edits
            .iter()
            .map(|edit| LspTextEdit {
                range: self.range(edit.range.clone()),
                new_text: edit.new_text.clone(),
            })
            .collect();
        WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    }
}
