//! The kept per-maze sections: what each maze's part of the document was last sent as
//! — its diagnostics and its semantic tokens, lines counted from the maze's own first
//! line so that edits elsewhere leave them valid — and the one loop every
//! whole-document answer runs: reuse a maze's kept section, or make it now and hand it
//! back to be kept if the maze's solve is final.
//!
//! The document holds the kept sections (`document.rs`), the features make them
//! (`diagnostics.rs`, `semantic_tokens.rs`), and `documents.rs` keeps what was made.

use std::sync::Arc;

use tower_lsp_server::ls_types::{Diagnostic, SemanticToken};

use crate::ide::MazeStatus;

/// One maze's sections as last sent, while still valid (`None`: to be made again).
#[derive(Debug, Clone, Default)]
pub struct Kept {
    pub diagnostics: Option<MazeDiagnostics>,
    pub tokens: Option<SectionTokens>,
}

/// One maze's diagnostics converted, lines counted from its header's line.
pub type MazeDiagnostics = Arc<[Diagnostic]>;

/// One maze section's tokens, encoded as if the token before were at the start of the
/// section's first line; `last_line` is the line of its last token, counted the same
/// way.
#[derive(Debug, Clone)]
pub struct SectionTokens {
    pub data: Arc<[SemanticToken]>,
    pub last_line: u32,
}

/// A kind of section a maze keeps.
pub trait Section: Clone {
    fn slot(kept: &mut Kept) -> &mut Option<Self>;
    fn kept(kept: &Kept) -> Option<&Self>;
}

impl Section for MazeDiagnostics {
    fn slot(kept: &mut Kept) -> &mut Option<Self> {
        &mut kept.diagnostics
    }

    fn kept(kept: &Kept) -> Option<&Self> {
        kept.diagnostics.as_ref()
    }
}

impl Section for SectionTokens {
    fn slot(kept: &mut Kept) -> &mut Option<Self> {
        &mut kept.tokens
    }

    fn kept(kept: &Kept) -> Option<&Self> {
        kept.tokens.as_ref()
    }
}

/// Sections made for one version of a document, by maze index, with the statuses
/// they were made from: the document keeps each only while its maze still has that
/// status (see `Document::keep`).
pub struct Made<T> {
    pub version: i32,
    pub statuses: Arc<Vec<MazeStatus>>,
    pub sections: Vec<(usize, T)>,
}

/// The reuse-or-make loop over a view's mazes.
pub struct Reuse<'a, T> {
    kept: &'a [Kept],
    made: Made<T>,
}

impl<'a, T: Section> Reuse<'a, T> {
    pub fn new(version: i32, statuses: &Arc<Vec<MazeStatus>>, kept: &'a [Kept]) -> Self {
        Reuse {
            kept,
            made: Made {
                version,
                statuses: statuses.clone(),
                sections: Vec::new(),
            },
        }
    }

    /// Maze `index`'s section: the kept one, or `make`'s, remembered to be kept when
    /// the maze's solve is final (a section of a maze still solving would be stale at
    /// once).
    pub fn section(&mut self, index: usize, make: impl FnOnce() -> T) -> T {
        if let Some(kept) = self.kept.get(index).and_then(T::kept) {
            return kept.clone();
        }
        let made = make();
        if self
            .made
            .statuses
            .get(index)
            .is_some_and(MazeStatus::is_final)
        {
            self.made.sections.push((index, made.clone()));
        }
        made
    }

    /// What was made that is worth keeping.
    pub fn made(self) -> Made<T> {
        self.made
    }
}
