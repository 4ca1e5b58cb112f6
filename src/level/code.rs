//! The stable diagnostic codes of Sokoban levels (SPEC §7), their severities, and the
//! diagnostic itself (byte ranges, an optional quick fix).

use crate::maze::{DiagnosticCode, Severity};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    UnknownCharacter,
    BadRunLength,
    MissingPlayer,
    DuplicatePlayer,
    BoxGoalMismatch,
    MissingBox,
    OpenBorder,
    UnreachableBox,
    UnreachableGoal,
    UnterminatedComment,
    DuplicateMetadata,
    SolutionNotLurd,
    SolutionIllegal,
    SolutionIncomplete,
    SolutionNotOptimal,
    DeadSquare,
    FrozenBoxes,
    UnmatchedBoxes,
    /// From the solver: proved unsolvable.
    Unsolvable,
    /// From the solver: it stopped at its limit without an answer (information).
    SolverUnknown,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::UnknownCharacter => "unknown-character",
            Code::BadRunLength => "bad-run-length",
            Code::MissingPlayer => "missing-player",
            Code::DuplicatePlayer => "duplicate-player",
            Code::BoxGoalMismatch => "box-goal-mismatch",
            Code::MissingBox => "missing-box",
            Code::OpenBorder => "open-border",
            Code::UnreachableBox => "unreachable-box",
            Code::UnreachableGoal => "unreachable-goal",
            Code::UnterminatedComment => "unterminated-comment",
            Code::DuplicateMetadata => "duplicate-metadata",
            Code::SolutionNotLurd => "solution-not-lurd",
            Code::SolutionIllegal => "solution-illegal",
            Code::SolutionIncomplete => "solution-incomplete",
            Code::SolutionNotOptimal => "solution-not-optimal",
            Code::DeadSquare => "dead-square",
            Code::FrozenBoxes => "frozen-boxes",
            Code::UnmatchedBoxes => "unmatched-boxes",
            Code::Unsolvable => "unsolvable",
            Code::SolverUnknown => "solver-unknown",
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Code::UnterminatedComment
            | Code::DuplicateMetadata
            | Code::SolutionNotOptimal
            | Code::DeadSquare
            | Code::FrozenBoxes
            | Code::UnmatchedBoxes
            | Code::Unsolvable => Severity::Warning,
            Code::SolverUnknown => Severity::Information,
            _ => Severity::Error,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl DiagnosticCode for Code {
    fn as_str(self) -> &'static str {
        Code::as_str(self)
    }

    fn severity(self) -> Severity {
        Code::severity(self)
    }
}

/// A level diagnostic: the maze's diagnostic type with a level code.
pub type Diagnostic = crate::maze::Diagnostic<Code>;
