//! Code actions as edits: insert or replace one maze's solution line, insert all of
//! them, and the quick fixes the diagnostics carry.

use std::ops::Range;

use super::diagnostics::status_diagnostics;
use super::status::counts;
use super::{FileView, MazeStatus};
use crate::analysis::solution_edit;
use crate::maze::{Diagnostic, Maze, TextEdit};
use crate::solver::{self, Solution};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    /// `quickfix`: a diagnostic's fix.
    QuickFix,
    /// `refactor.rewrite`: write one maze's optimal solution line.
    InsertSolution,
    /// `source.boxls.insertAllSolutions`: every maze's.
    InsertAll,
    /// `refactor.rewrite`: another rewrite of the text (a level's run-length rows).
    Rewrite,
}

/// Which kinds the client asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionKinds {
    pub quick_fix: bool,
    pub insert_solution: bool,
    pub insert_all: bool,
}

impl ActionKinds {
    pub const ALL: ActionKinds = ActionKinds {
        quick_fix: true,
        insert_solution: true,
        insert_all: true,
    };
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub kind: ActionKind,
    /// The diagnostic a quick fix fixes.
    pub diagnostic: Option<Diagnostic>,
    /// `None` for [`ActionKind::InsertAll`] until resolved with [`all_solution_edits`]:
    /// it touches every maze, and the client may never pick it. `None` for an
    /// [`ActionKind::InsertSolution`] offered while its maze is still being solved:
    /// [`insert_solution`] makes it once the solve is done.
    pub edits: Option<Vec<TextEdit>>,
    /// The maze (1-based) an [`ActionKind::InsertSolution`] writes.
    pub maze: Option<usize>,
}

pub const INSERT_ONE: &str = "Insert optimal solution";
pub const INSERT_ALL: &str = "Insert all optimal solutions";

/// The actions for a selection (or cursor) `range`.
pub fn actions(file: &FileView, range: Range<usize>, kinds: ActionKinds) -> Vec<Action> {
    let mut out = Vec::new();
    if kinds.quick_fix {
        out.extend(quick_fixes(file, &range));
    }
    if kinds.insert_solution {
        out.extend(insert_one(file, range.start));
    }
    if kinds.insert_all
        && file
            .mazes()
            .any(|(maze, status)| solution_change(file.text, maze, status).is_some())
    {
        out.push(Action {
            title: INSERT_ALL.to_string(),
            kind: ActionKind::InsertAll,
            diagnostic: None,
            edits: None,
            maze: None,
        });
    }
    out
}

/// Fixes of the diagnostics touching `range`: only the mazes there are looked at.
fn quick_fixes(file: &FileView, range: &Range<usize>) -> Vec<Action> {
    let touches = |r: &Range<usize>| r.start <= range.end && range.start <= r.end;
    let structural = file
        .parsed
        .diagnostics
        .iter()
        .filter(|d| touches(&d.range))
        .cloned();
    let solver = file
        .mazes()
        .filter(|(maze, _)| touches(&maze.extent))
        .flat_map(|(maze, status)| status_diagnostics(file.text, maze, status))
        .filter(|d| touches(&d.range));
    structural
        .chain(solver)
        .filter_map(|diagnostic| {
            let fix = diagnostic.fix.clone()?;
            Some(Action {
                title: fix.title,
                kind: ActionKind::QuickFix,
                diagnostic: Some(diagnostic),
                edits: Some(fix.edits),
                maze: None,
            })
        })
        .collect()
}

/// The maze's solution line, or, while the maze is still being solved, the action
/// without its edit: offered at once, the edit made when the solve is done.
fn insert_one(file: &FileView, offset: usize) -> Option<Action> {
    let (maze, status) = file.maze_at(offset)?;
    let edits = match status {
        MazeStatus::Solving => None,
        _ => Some(vec![solution_change(file.text, maze, status)?]),
    };
    Some(Action {
        title: INSERT_ONE.to_string(),
        kind: ActionKind::InsertSolution,
        diagnostic: None,
        edits,
        maze: Some(maze.index),
    })
}

/// The edits of [`ActionKind::InsertAll`].
pub fn all_solution_edits(file: &FileView) -> Vec<TextEdit> {
    file.mazes()
        .filter_map(|(maze, status)| solution_change(file.text, maze, status))
        .collect()
}

/// The edit writing maze `index`'s optimal solution (the code lens's command), or
/// why there is nothing to write.
pub fn insert_solution(file: &FileView, index: usize) -> Result<TextEdit, String> {
    let Some((maze, status)) = file.mazes().find(|(maze, _)| maze.index == index) else {
        return Err(format!("there is no Maze #{index}"));
    };
    let name = format!("Maze #{index}");
    match status {
        MazeStatus::Solved { solution, .. } => {
            solution_change(file.text, maze, status).ok_or_else(|| {
                format!(
                    "the recorded solution of {name} is already optimal ({})",
                    counts(solution)
                )
            })
        }
        MazeStatus::Invalid => Err(format!("{name} has errors; fix them to solve it")),
        MazeStatus::Solving => Err(format!(
            "{name} is still being solved; try again in a moment"
        )),
        MazeStatus::Unsolvable { reason, .. } => Err(format!("{name} is unsolvable: {reason}")),
        MazeStatus::TooLarge { .. } | MazeStatus::TimedOut { .. } => Err(format!(
            "{name} is too large to solve with the configured limits"
        )),
        MazeStatus::Failed(message) => Err(format!("the solver failed on {name}: {message}")),
    }
}

fn solution_change(text: &str, maze: &Maze, status: &MazeStatus) -> Option<TextEdit> {
    let solution = status.solution()?;
    if recorded_is_optimal(text, maze, solution) {
        return None;
    }
    Some(solution_edit(text, maze, &solution.path))
}

/// Whether the maze's recorded solution line is legal, ends on `T` and is as good as
/// `optimum` (any optimal answer counts, not only the solver's).
pub fn recorded_is_optimal(text: &str, maze: &Maze, optimum: &Solution) -> bool {
    let (Some(line), Some(grid)) = (&maze.solution, &maze.grid) else {
        return false;
    };
    solver::replay(grid, &text[line.moves.clone()]).is_ok_and(|replayed| {
        replayed.solved && (replayed.pushes, replayed.moves) == (optimum.pushes, optimum.moves)
    })
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::fixture::Fixture;
    use super::*;

    fn titles(text: &str, at: usize) -> Vec<String> {
        let fixture = Fixture::solved(text);
        actions(&fixture.view(), at..at, ActionKinds::ALL)
            .into_iter()
            .map(|a| format!("{:?}: {} {:?}", a.kind, a.title, a.edits))
            .collect()
    }

    #[test]
    fn insert_one_and_all() {
        expect![[r#"
            [
                "InsertSolution: Insert optimal solution Some([TextEdit { range: 7..7, new_text: \"\\n; solution: E\" }])",
                "InsertAll: Insert all optimal solutions None",
            ]
        "#]].assert_debug_eq(&titles("1 3\nSBT\n1 4\nS.BT\n0 0\n", 5));
    }

    #[test]
    fn nothing_to_insert_when_the_recorded_line_is_optimal() {
        expect![[r#"
            []
        "#]]
        .assert_debug_eq(&titles("1 3\nSBT\n; solution: E\n0 0\n", 5));
    }

    #[test]
    fn insert_one_is_offered_while_solving_without_its_edit() {
        let fixture = Fixture::with_status("1 3\nSBT\n0 0\n", |_| MazeStatus::Solving);
        let offered = actions(&fixture.view(), 5..5, ActionKinds::ALL);
        expect![[r#"
            [
                Action {
                    title: "Insert optimal solution",
                    kind: InsertSolution,
                    diagnostic: None,
                    edits: None,
                    maze: Some(
                        1,
                    ),
                },
            ]
        "#]]
        .assert_debug_eq(&offered);
        expect![[r#"
            Err(
                "Maze #1 is still being solved; try again in a moment",
            )
        "#]]
        .assert_debug_eq(&insert_solution(&fixture.view(), 1));
    }

    #[test]
    fn quick_fix_for_a_bad_char() {
        expect![[r#"
            [
                "QuickFix: Replace with `B` Some([TextEdit { range: 5..6, new_text: \"B\" }])",
            ]
        "#]]
        .assert_debug_eq(&titles("1 3\nSbT\n0 0\n", 5));
    }

    #[test]
    fn insert_all_resolves_to_every_maze() {
        let text = "1 3\nSBT\n1 4\nS.BT\n0 0\n";
        let fixture = Fixture::solved(text);
        let edits = all_solution_edits(&fixture.view());
        assert_eq!(edits.len(), 2);
        assert_eq!(insert_solution(&fixture.view(), 2), Ok(edits[1].clone()));
        let recorded = Fixture::solved("1 3\nSBT\n; solution: E\n1 3\nBST\n0 0\n");
        expect![[r#"
            [
                Err(
                    "the recorded solution of Maze #1 is already optimal (1 push · 1 move)",
                ),
                Err(
                    "Maze #2 is unsolvable: the box starts on a dead square, from which no sequence of pushes brings it to the target",
                ),
                Err(
                    "there is no Maze #3",
                ),
            ]
        "#]].assert_debug_eq(&[1, 2, 3].map(|k| insert_solution(&recorded.view(), k)));
    }
}
