//! The per-request view of one document: its text, parse and what is known of each
//! maze's solve, with the position conversions every feature adapter needs.

use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range as LspRange};

use super::config::Config;
use super::document::Kept;
use super::position::{self, Encoding};
use crate::ide::{FileView, MazeStatus};
use crate::maze::ParsedFile;

/// Everything a feature needs to answer one request about one document.
pub struct View {
    pub version: i32,
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
}
