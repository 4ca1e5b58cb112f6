//! The IDE layer for a Sokoban document (`.xsb`/`.sok`): its levels read and checked
//! ([`LevelFile`]), answered as plain data over byte ranges — symbols and folding
//! (`symbols.rs`), semantic tokens of the board cells (`tokens.rs`), hover on a cell
//! or a level (`hover.rs`), what the solver says of each level — hint, `unsolvable`
//! (`solve.rs`), code actions and lenses (`actions.rs`), conversions to and from
//! `.box` (`convert.rs`), a level's state as data (`state.rs`). Diagnostics are the
//! checks' own ([`LevelFile::diagnostics`]).

mod actions;
mod convert;
mod hover;
mod solve;
mod state;
mod symbols;
mod tokens;

pub use actions::{
    all_level_solution_edits, insert_level_solution, level_actions, level_lenses, LevelAction,
};
pub use convert::{level_conversion, level_offer, maze_conversion, maze_offer, Conversion, Offer};
pub use hover::level_hover;
pub use solve::{
    level_hints, level_solver_diagnostics, positions_to_solve, solve_level, Best, LevelStatus,
    Searching,
};
pub use state::{level_state, level_state_at, level_states, LevelState};
pub use symbols::{level_folding_ranges, level_symbols};
pub use tokens::level_tokens;

use super::Options;
use crate::level::{dead_squares, CheckedFile, Diagnostic, Level};

/// One Sokoban document as the IDE functions see it.
#[derive(Clone, Copy)]
pub struct LevelFile<'a> {
    pub text: &'a str,
    pub checked: &'a CheckedFile,
    pub options: Options,
}

impl<'a> LevelFile<'a> {
    pub fn levels(&self) -> &'a [Level] {
        &self.checked.collection.levels
    }

    /// Every diagnostic of the file (the reader's and each level's), in source order:
    /// what `boxls check` reports for it.
    pub fn diagnostics(&self) -> &'a [Diagnostic] {
        &self.checked.diagnostics
    }

    /// The level whose extent (title's paragraph to last note) holds `offset`, a
    /// cursor just past its last character included.
    pub fn level_at(&self, offset: usize) -> Option<&'a Level> {
        let levels = self.levels();
        let candidate = levels
            .partition_point(|level| level.extent.start <= offset)
            .checked_sub(1)?;
        let level = &levels[candidate];
        (offset <= level.extent.end).then_some(level)
    }
}

/// The cell of `level`'s board whose characters hold `offset`: the first cell of a
/// run-length token (`4#` is four cells written once).
pub fn cell_at(level: &Level, offset: usize) -> Option<usize> {
    let spans = &level.board.spans;
    let cell = spans.partition_point(|span| span.end <= offset);
    spans
        .get(cell)
        .filter(|span| span.start <= offset && offset < span.end)
        .map(|_| cell)
}

/// The level's dead squares, when its board has one player to start from (and the
/// editor shows them).
pub(crate) fn dead_of(level: &Level, options: Options) -> Option<Vec<bool>> {
    if !options.dead_squares || !level.board.problems.is_empty() {
        return None;
    }
    level
        .board
        .position()
        .map(|position| dead_squares(&position))
}

#[cfg(test)]
mod fixture {
    use super::*;
    use crate::level;

    /// A text read and checked, for `check(fixture, expect![…])`.
    pub struct Fixture {
        pub text: String,
        pub checked: CheckedFile,
    }

    impl Fixture {
        pub fn new(text: &str) -> Fixture {
            Fixture {
                text: text.to_string(),
                checked: level::check(text),
            }
        }

        pub fn view(&self) -> LevelFile<'_> {
            LevelFile {
                text: &self.text,
                checked: &self.checked,
                options: Options::default(),
            }
        }
    }
}
