//! Sokoban levels (`.xsb`, `.sok`): the level model both formats share, the XSB/SOK
//! reader that never fails, the checks (structure, reachability, static deadlocks,
//! recorded solutions), canonical formatting, run-length rows and `.box` conversion.
//!
//! A `.box` maze is a level with one box: [`Position`] is the one shape the checks and
//! the solvers read, whichever format the text came in. Everything here is text in,
//! plain data out, over byte ranges of the source; no I/O, no LSP types.

mod board;
mod check;
mod code;
mod convert;
mod deadlock;
mod format;
mod parse;
mod rle;
mod solution;

pub use board::{Board, Cell, Position, RowProblem};
pub use check::{check, level_diagnostics, solution_vs_best, CheckedFile};
pub use code::{Code, Diagnostic};
pub use convert::{box_to_xsb, level_to_box, maze_to_xsb, xsb_to_box, ConvertError};
pub use deadlock::{dead_squares, find_deadlocks, Deadlocks};
pub use format::{board_edit, format, format_edit, RunLength};
pub use parse::{parse, Collection, Level, Meta, RecordedSolution, Title};
pub use rle::{compress_row, count_runs, expand_row};
pub use solution::{frames, parse_lurd, replay, replay_with, Frame, Move, ReplayError, Replayed};

/// Which reader a text is for: chosen by the file's extension or `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.box`: one box per maze, POJ 1475.
    Box,
    /// `.xsb` / `.sok`: Sokoban levels.
    Xsb,
}

impl Format {
    /// The format a file name says, if its extension names one (`.xsb`, `.sok`, `.box`,
    /// any case).
    pub fn of_name(name: &str) -> Option<Format> {
        let (_, extension) = name.rsplit_once('.')?;
        match extension.to_ascii_lowercase().as_str() {
            "xsb" | "sok" => Some(Format::Xsb),
            "box" => Some(Format::Box),
            _ => None,
        }
    }
}
