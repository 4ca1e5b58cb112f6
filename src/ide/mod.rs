//! The IDE layer: what an editor asks about a `.box` file, answered in plain data over
//! byte ranges — summaries, diagnostics, hover text, tokens, symbols, lenses, edits,
//! replays.
//!
//! Architecture Invariant: this module never imports the LSP crates, tokio or I/O (a
//! test in `tests/it/layering.rs` checks). The server (`src/lsp`) converts positions
//! and protocol types around it; everything here is testable as data.
//!
//! Input is a [`FileView`]: the text, its parse, and one [`MazeStatus`] per maze (what
//! the server knows of each maze's solve right now).

mod actions;
mod design;
mod diagnostics;
mod hover;
mod lens;
mod levels;
mod replay;
mod state;
mod status;
mod symbols;
mod tokens;

pub use actions::{
    actions, all_solution_edits, insert_solution, recorded_is_optimal, Action, ActionKind,
    ActionKinds, INSERT_ALL, INSERT_ONE,
};
pub use design::{cell_at, cell_hover, hardest_fix, hardest_title, hardest_title_pending};
pub use diagnostics::{diagnostics, maze_diagnostics, preamble_diagnostics, status_diagnostics};
pub use hover::{hover, HoverFormat};
pub use lens::{lenses, Lens};
pub use levels::{
    all_level_solution_edits, cell_at as level_cell_at, insert_level_solution, level_actions,
    level_conversion, level_folding_ranges, level_hints, level_hover, level_lenses, level_offer,
    level_solver_diagnostics, level_state, level_state_at, level_states, level_symbols,
    level_tokens, maze_conversion, maze_offer, positions_to_solve, solve_level, Best, Conversion,
    LevelAction, LevelFile, LevelState, LevelStatus, Offer, Searching,
};
pub use replay::{board_after, board_runs, level_replay, replay, Board, Frame, Replay};
pub use state::{maze_state, maze_state_at, maze_states, MazeState, Recorded, StateKind};
pub use status::{counts, summary, DeadSquares, MazeStatus};
pub use symbols::{folding_ranges, symbols, Symbol};
pub use tokens::{tokens, Token, TokenKind, TOKEN_KINDS, TOKEN_MODIFIERS};

use std::ops::Range;

use crate::maze::{Maze, ParsedFile};

/// What the editor asked to be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub inlay_hints: bool,
    pub dead_squares: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            inlay_hints: true,
            dead_squares: true,
        }
    }
}

/// One document as the IDE functions see it.
#[derive(Clone, Copy)]
pub struct FileView<'a> {
    pub text: &'a str,
    pub parsed: &'a ParsedFile,
    /// One per maze of `parsed`, in order.
    pub statuses: &'a [MazeStatus],
    pub options: Options,
}

impl<'a> FileView<'a> {
    pub fn mazes(&self) -> impl Iterator<Item = (&'a Maze, &'a MazeStatus)> {
        self.parsed.mazes.iter().zip(self.statuses)
    }

    /// The maze whose lines (header through its last row or solution line) contain
    /// `offset`.
    pub fn maze_at(&self, offset: usize) -> Option<(&'a Maze, &'a MazeStatus)> {
        let offset = offset.min(self.text.len());
        let mazes = &self.parsed.mazes;
        // Mazes are in source order: the candidate is the last one starting at or
        // before the end of `offset`'s line.
        let line_end = line_end(self.text, offset);
        let candidate = mazes
            .partition_point(|maze| maze.extent.start <= line_end)
            .checked_sub(1)?;
        let maze = &mazes[candidate];
        let lines = line_start(self.text, maze.extent.start)..line_end_of(self.text, maze);
        lines
            .contains(&offset)
            .then(|| (maze, &self.statuses[candidate]))
    }
}

/// The byte where `offset`'s line starts (lines end at `\n`, `\r\n` or `\r`).
pub fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind(['\n', '\r']).map_or(0, |at| at + 1)
}

/// The byte where `offset`'s line content ends (before its line break).
pub fn line_end(text: &str, offset: usize) -> usize {
    text[offset..]
        .find(['\n', '\r'])
        .map_or(text.len(), |at| offset + at)
}

/// One past the end of a maze's last line content, so that a cursor at the end of
/// that line still counts as inside the maze.
fn line_end_of(text: &str, maze: &Maze) -> usize {
    line_end(text, maze.extent.end.min(text.len())) + 1
}

/// The part of `range` inside `text`, on character boundaries.
pub fn clamp(text: &str, range: Range<usize>) -> Range<usize> {
    let snap = |mut at: usize| {
        at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let (start, end) = (snap(range.start), snap(range.end));
    start.min(end)..end.max(start)
}

#[cfg(test)]
pub(crate) mod fixture;
