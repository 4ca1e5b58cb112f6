//! A maze's state as data (`boxls/maze`): what an editor needs to decide what to say or
//! do — a status from a fixed set, the sentence to show, the counts, the optimal and
//! recorded move strings, the first error — so that no client reads the server's
//! English to find out.

use std::ops::Range;

use super::actions::recorded_is_optimal;
use super::diagnostics::{maze_diagnostics, status_diagnostics};
use super::{FileView, MazeStatus};
use crate::maze::{Diagnostic, Maze, Severity};

/// One of a fixed set: clients branch on this, never on a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateKind {
    Solved,
    Solving,
    Unsolvable,
    Invalid,
    TooLarge,
    TimedOut,
    Failed,
}

impl StateKind {
    /// The name on the wire (`tooLarge`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            StateKind::Solved => "solved",
            StateKind::Solving => "solving",
            StateKind::Unsolvable => "unsolvable",
            StateKind::Invalid => "invalid",
            StateKind::TooLarge => "tooLarge",
            StateKind::TimedOut => "timedOut",
            StateKind::Failed => "failed",
        }
    }

    /// Every kind, in the order the manual lists them.
    pub const ALL: [StateKind; 7] = [
        StateKind::Solved,
        StateKind::Solving,
        StateKind::Unsolvable,
        StateKind::Invalid,
        StateKind::TooLarge,
        StateKind::TimedOut,
        StateKind::Failed,
    ];
}

/// The maze's `; solution:` line, judged against the optimum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub moves: String,
    /// Legal, ends with the box on `T`, and as good as the optimum (only when solved).
    pub optimal: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MazeState {
    /// `Maze #k`.
    pub index: usize,
    /// The header's bytes, and the bytes of the maze's last row (the header's when it
    /// has none).
    pub header: Range<usize>,
    pub last_row: Range<usize>,
    pub rows: usize,
    pub cols: usize,
    pub kind: StateKind,
    /// The sentence to show when the maze is not solved.
    pub reason: Option<String>,
    pub pushes: Option<u64>,
    pub moves: Option<u64>,
    /// The optimal move string, when solved.
    pub solution: Option<String>,
    pub recorded: Option<Recorded>,
    /// The first error of the maze's section (structural, or an illegal recorded line).
    pub first_error: Option<Diagnostic>,
}

/// The state of maze `index` (0-based), `None` past the last maze.
pub fn maze_state(file: &FileView, index: usize) -> Option<MazeState> {
    let maze = file.parsed.mazes.get(index)?;
    let status = file.statuses.get(index)?;
    let kind = kind_of(status);
    let (rows, cols) = match (&maze.grid, maze.declared) {
        (Some(grid), _) => (grid.rows, grid.cols),
        (None, Some(declared)) => declared,
        (None, None) => (0, 0),
    };
    let first_error = maze_diagnostics(file, index)
        .into_iter()
        .find(|d| d.severity == Severity::Error);
    let solution = status.solution();
    Some(MazeState {
        index: maze.index,
        header: maze.header.clone(),
        last_row: maze.rows.last().unwrap_or(&maze.header).clone(),
        rows,
        cols,
        kind,
        reason: reason(file.text, maze, status, first_error.as_ref()),
        pushes: solution.map(|s| s.pushes),
        moves: solution.map(|s| s.moves),
        solution: solution.map(|s| s.path.clone()),
        recorded: recorded(file.text, maze, status),
        first_error,
    })
}

/// The state of the maze whose lines contain `offset`.
pub fn maze_state_at(file: &FileView, offset: usize) -> Option<MazeState> {
    let (maze, _) = file.maze_at(offset)?;
    let index = file
        .parsed
        .mazes
        .partition_point(|m| m.extent.start < maze.extent.start);
    maze_state(file, index)
}

/// Every maze's state, in order.
pub fn maze_states(file: &FileView) -> Vec<MazeState> {
    (0..file.parsed.mazes.len())
        .filter_map(|index| maze_state(file, index))
        .collect()
}

fn kind_of(status: &MazeStatus) -> StateKind {
    match status {
        MazeStatus::Invalid => StateKind::Invalid,
        MazeStatus::Solving => StateKind::Solving,
        MazeStatus::Solved { .. } => StateKind::Solved,
        MazeStatus::Unsolvable { .. } => StateKind::Unsolvable,
        MazeStatus::TooLarge { .. } => StateKind::TooLarge,
        MazeStatus::TimedOut { .. } => StateKind::TimedOut,
        MazeStatus::Failed(_) => StateKind::Failed,
    }
}

/// The sentence for a maze that is not solved: the same words its diagnostics use.
fn reason(
    text: &str,
    maze: &Maze,
    status: &MazeStatus,
    first_error: Option<&Diagnostic>,
) -> Option<String> {
    match status {
        MazeStatus::Solved { .. } => None,
        MazeStatus::Solving => Some(format!("Maze #{} is still being solved", maze.index)),
        MazeStatus::Invalid => Some(first_error.map_or_else(
            || format!("Maze #{} has errors", maze.index),
            |error| error.message.clone(),
        )),
        MazeStatus::Unsolvable { reason, .. } => Some(format!("unsolvable: {reason}")),
        MazeStatus::TooLarge { .. } | MazeStatus::TimedOut { .. } | MazeStatus::Failed(_) => {
            status_diagnostics(text, maze, status)
                .into_iter()
                .next()
                .map(|d| d.message)
        }
    }
}

fn recorded(text: &str, maze: &Maze, status: &MazeStatus) -> Option<Recorded> {
    let line = maze.solution.as_ref()?;
    let moves = text.get(line.moves.clone())?.to_string();
    let optimal = status
        .solution()
        .is_some_and(|optimum| recorded_is_optimal(text, maze, optimum));
    Some(Recorded { moves, optimal })
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::fixture::Fixture;
    use super::super::MazeStatus;

    fn check(fixture: &Fixture, expect: expect_test::Expect) {
        let view = fixture.view();
        let rendered: Vec<String> = super::maze_states(&view)
            .iter()
            .map(|s| {
                format!(
                    "#{} {}x{} {} reason={:?} counts={:?}/{:?} solution={:?} recorded={:?} error={:?} header={:?} last={:?}",
                    s.index,
                    s.rows,
                    s.cols,
                    s.kind.as_str(),
                    s.reason,
                    s.pushes,
                    s.moves,
                    s.solution,
                    s.recorded.as_ref().map(|r| (r.moves.as_str(), r.optimal)),
                    s.first_error.as_ref().map(|d| (d.code.as_str(), &fixture.text[d.range.clone()])),
                    &fixture.text[s.header.clone()],
                    &fixture.text[s.last_row.clone()],
                )
            })
            .collect();
        expect.assert_eq(&rendered.join("\n"));
    }

    #[test]
    fn solved_unsolvable_invalid_and_recorded() {
        let text = "1 3\nSBT\n; solution: E\n1 3\nSTB\n1 3\nSxT\n1 4\nSB.T\n; solution: EE\n1 4\nSB.T\n; solution: eW\n0 0\n";
        check(
            &Fixture::solved(text),
            expect![[r##"
                #1 1x3 solved reason=None counts=Some(1)/Some(1) solution=Some("E") recorded=Some(("E", true)) error=None header="1 3" last="SBT"
                #2 1x3 unsolvable reason=Some("unsolvable: no push can ever move the box onto the target") counts=None/None solution=None recorded=None error=None header="1 3" last="STB"
                #3 1x3 invalid reason=Some("this maze has no box (`B`)") counts=None/None solution=None recorded=None error=Some(("missing-box", "1 3")) header="1 3" last="SxT"
                #4 1x4 solved reason=None counts=Some(2)/Some(2) solution=Some("EE") recorded=Some(("EE", true)) error=None header="1 4" last="SB.T"
                #5 1x4 solved reason=None counts=Some(2)/Some(2) solution=Some("EE") recorded=Some(("eW", false)) error=Some(("solution-illegal", "e")) header="1 4" last="SB.T""##]],
        );
    }

    #[test]
    fn solving_and_limits() {
        let text = "1 3\nSBT\n1 4\nSB.T\n0 0\n";
        let mut fixture = Fixture::solved(text);
        fixture.statuses[0] = MazeStatus::Solving;
        fixture.statuses[1] = MazeStatus::TooLarge { cells: 4, limit: 3 };
        check(
            &fixture,
            expect![[r##"
                #1 1x3 solving reason=Some("Maze #1 is still being solved") counts=None/None solution=None recorded=None error=None header="1 3" last="SBT"
                #2 1x4 tooLarge reason=Some("not solved: 4 cells is over the configured limit of 3 (boxls.solve.maxCells)") counts=None/None solution=None recorded=None error=None header="1 4" last="SB.T""##]],
        );
    }
}
