//! Test fixtures for the IDE functions: a text, its parse, and statuses from a real
//! solve (or given ones).

use std::sync::atomic::AtomicBool;

use super::tokens::TOKEN_MODIFIERS;
use super::{FileView, MazeStatus, Options, Token};
use crate::maze::{parse, Grid, ParsedFile};
use crate::solver;

pub struct Fixture {
    pub text: String,
    pub parsed: ParsedFile,
    pub statuses: Vec<MazeStatus>,
    pub options: Options,
}

impl Fixture {
    /// Every valid maze solved, with its dead squares.
    pub fn solved(text: &str) -> Fixture {
        Fixture::with_status(text, solved_status)
    }

    /// Each valid maze's status from `status`; invalid mazes are `Invalid`.
    pub fn with_status(text: &str, status: impl Fn(&Grid) -> MazeStatus) -> Fixture {
        let parsed = parse(text);
        let statuses = parsed
            .mazes
            .iter()
            .map(|maze| maze.grid.as_deref().map_or(MazeStatus::Invalid, &status))
            .collect();
        Fixture {
            text: text.to_string(),
            parsed,
            statuses,
            options: Options::default(),
        }
    }

    pub fn view(&self) -> FileView<'_> {
        FileView {
            text: &self.text,
            parsed: &self.parsed,
            statuses: &self.statuses,
            options: self.options,
        }
    }
}

pub fn solved_status(grid: &Grid) -> MazeStatus {
    let never = AtomicBool::new(false);
    let Ok(analysis) = solver::analyze(grid, &never) else {
        unreachable!("the flag is never set")
    };
    MazeStatus::from_analysis(analysis)
}

/// Tokens as the token tests show them, one a line: the token's text, its kind, and
/// ` dead` when it has that modifier (`.box` and Sokoban documents alike).
pub fn shown_tokens(text: &str, tokens: &[Token]) -> String {
    let shown: Vec<String> = tokens
        .iter()
        .map(|t| {
            let modifiers: String = TOKEN_MODIFIERS
                .iter()
                .enumerate()
                .filter(|(bit, _)| t.modifiers & (1 << bit) != 0)
                .map(|(_, name)| format!(" {name}"))
                .collect();
            format!("{:?} {:?}{modifiers}", &text[t.range.clone()], t.kind)
        })
        .collect();
    shown.join("\n")
}
