//! A level's state as data (`boxls/maze` on a Sokoban document): the `.box` maze's
//! fixed set of statuses, the sentence to show, the solver's counts and move string,
//! the first recorded solution judged against the solver's, the first error — and
//! what only levels have: a title and a number of boxes.

use std::ops::Range;

use super::actions::solution_counts;
use super::solve::{first_row, hint};
use super::symbols::level_name;
use super::{LevelFile, LevelStatus};
use crate::ide::{Recorded, StateKind};
use crate::level::{Diagnostic, Level};
use crate::maze::Severity;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelState {
    /// `Level k`.
    pub index: usize,
    /// The level's title, if it has one.
    pub title: Option<String>,
    /// The bytes of its first and last board rows.
    pub first_row: Range<usize>,
    pub last_row: Range<usize>,
    pub rows: usize,
    pub cols: usize,
    pub boxes: usize,
    pub kind: StateKind,
    /// The sentence to show when the level is not solved.
    pub reason: Option<String>,
    pub pushes: Option<u64>,
    pub moves: Option<u64>,
    /// Whether the solver proved its counts fewest (only when solved).
    pub optimal: Option<bool>,
    /// The solver's move string (LURD), when solved.
    pub solution: Option<String>,
    /// The first recorded solution: `optimal` when it solves the level at least as
    /// well as the solver's.
    pub recorded: Option<Recorded>,
    /// The first error in the level's text.
    pub first_error: Option<Diagnostic>,
}

/// The state of level `index` (0-based), `None` past the last one.
pub fn level_state(file: &LevelFile, statuses: &[LevelStatus], index: usize) -> Option<LevelState> {
    let level = file.levels().get(index)?;
    let status = statuses.get(index)?;
    let within =
        |d: &&Diagnostic| level.extent.start <= d.range.start && d.range.start <= level.extent.end;
    let mut diagnostics = file.diagnostics().iter().filter(within);
    let first_error = diagnostics
        .clone()
        .find(|d| d.severity == Severity::Error)
        .cloned();
    let first_warning = diagnostics.find(|d| d.severity == Severity::Warning);
    let solved = match status {
        LevelStatus::Solved {
            pushes,
            moves,
            optimal,
            lurd,
        } => Some((*pushes, *moves, *optimal, lurd.to_string())),
        _ => None,
    };
    let (kind, reason) = match status {
        LevelStatus::Solved { .. } => (StateKind::Solved, None),
        LevelStatus::Solving(_) => (
            StateKind::Solving,
            Some(format!("{} is still being solved", level_name(level))),
        ),
        LevelStatus::Skipped => match (&first_error, first_warning) {
            (Some(error), _) => (StateKind::Invalid, Some(error.message.clone())),
            // Skipped without an error: a static deadlock, which proves it unsolvable.
            (None, Some(deadlock)) => (
                StateKind::Unsolvable,
                Some(format!("unsolvable: {}", deadlock.message)),
            ),
            (None, None) => (StateKind::Invalid, None),
        },
        LevelStatus::Unsolvable => (
            StateKind::Unsolvable,
            Some("unsolvable (proved by the solver)".to_string()),
        ),
        LevelStatus::Unknown { .. } => (StateKind::TimedOut, hint(status)),
        LevelStatus::Failed(message) => (
            StateKind::Failed,
            Some(format!("the solver failed: {message}")),
        ),
    };
    Some(LevelState {
        index: level.index,
        title: level.title.as_ref().map(|title| title.text.clone()),
        first_row: first_row(level),
        last_row: level.board.rows.last().cloned().unwrap_or(first_row(level)),
        rows: level.board.height,
        cols: level.board.width,
        boxes: level.board.boxes().len(),
        kind,
        reason,
        pushes: solved.as_ref().map(|s| u64::from(s.0)),
        moves: solved.as_ref().map(|s| u64::from(s.1)),
        optimal: solved.as_ref().map(|s| s.2),
        recorded: recorded(file.text, level, solved.as_ref().map(|s| (s.0, s.1))),
        solution: solved.map(|s| s.3),
        first_error,
    })
}

/// The state of the level whose text holds `offset`.
pub fn level_state_at(
    file: &LevelFile,
    statuses: &[LevelStatus],
    offset: usize,
) -> Option<LevelState> {
    let level = file.level_at(offset)?;
    level_state(file, statuses, level.index.checked_sub(1)?)
}

/// Every level's state, in order.
pub fn level_states(file: &LevelFile, statuses: &[LevelStatus]) -> Vec<LevelState> {
    (0..file.levels().len())
        .filter_map(|index| level_state(file, statuses, index))
        .collect()
}

fn recorded(text: &str, level: &Level, solved: Option<(u32, u32)>) -> Option<Recorded> {
    let first = level.solutions.first()?;
    let moves: String = first
        .parts
        .iter()
        .filter_map(|part| text.get(part.clone()))
        .collect();
    let optimal = solved.is_some_and(|solver| {
        solution_counts(text, level, first).is_some_and(|counts| counts <= solver)
    });
    Some(Recorded { moves, optimal })
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::fixture::Fixture;
    use super::*;

    #[test]
    fn each_status_as_data() {
        let text = "Title: Solved\n######\n#@$ .#\n######\nSolution: RlrR\n\n; 2\n\n#####\n#@$.#|###\n\n#######\n#@ $ .#\n#.  $ #\n#######\n\n#####\n#$ .#\n# @ #\n#####\n\n######\n#@$ .#\n######\n";
        let fixture = Fixture::new(text);
        let statuses = [
            LevelStatus::Solved {
                pushes: 2,
                moves: 2,
                optimal: true,
                lurd: "RR".into(),
            },
            LevelStatus::Skipped,
            LevelStatus::Unsolvable,
            LevelStatus::Skipped,
            LevelStatus::Unknown { limit_ms: 10_000 },
        ];
        let shown: Vec<String> = level_states(&fixture.view(), &statuses)
            .iter()
            .map(|s| {
                format!(
                    "{} {:?} {}x{} {} boxes {} reason={:?} counts={:?}/{:?} optimal={:?} solution={:?} recorded={:?} error={:?} rows={:?}..{:?}",
                    s.index,
                    s.title,
                    s.rows,
                    s.cols,
                    s.boxes,
                    s.kind.as_str(),
                    s.reason,
                    s.pushes,
                    s.moves,
                    s.optimal,
                    s.solution,
                    s.recorded.as_ref().map(|r| (r.moves.as_str(), r.optimal)),
                    s.first_error.as_ref().map(|d| d.code.as_str()),
                    &text[s.first_row.clone()],
                    &text[s.last_row.clone()],
                )
            })
            .collect();
        expect![[r########"
            1 Some("Solved") 3x6 1 boxes solved reason=None counts=Some(2)/Some(2) optimal=Some(true) solution=Some("RR") recorded=Some(("RlrR", false)) error=None rows="######".."######"
            2 Some("2") 3x5 1 boxes invalid reason=Some("the player can walk out of the level here: the wall round it has a gap") counts=None/None optimal=None solution=None recorded=None error=Some("open-border") rows="#####".."###"
            3 None 4x7 2 boxes unsolvable reason=Some("unsolvable (proved by the solver)") counts=None/None optimal=None solution=None recorded=None error=None rows="#######".."#######"
            4 None 4x5 1 boxes unsolvable reason=Some("unsolvable: this box can never reach a goal from here (a dead square)") counts=None/None optimal=None solution=None recorded=None error=None rows="#####".."#####"
            5 None 3x6 1 boxes timedOut reason=Some("unknown after 10 s") counts=None/None optimal=None solution=None recorded=None error=None rows="######".."######""########]]
        .assert_eq(&shown.join("\n"));
    }
}
