//! Joins the parser and the solver: solver-based diagnostics (unsolvable, recorded
//! solution checks) and the edit that writes a maze's solution line.

use crate::maze::{
    first_line_break, parse, plural, Code, Diagnostic, Fix, Grid, Maze, ParsedFile, TextEdit,
};
use crate::solver::{self, Outcome, Reason, Solution};

/// A whole file with every maze solved: what `boxls check` reports.
pub struct FileReport {
    pub parsed: ParsedFile,
    /// One entry per maze, `None` where the maze is not structurally valid.
    pub outcomes: Vec<Option<Outcome>>,
    /// Structural and solver diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses and solves everything in `text`.
pub fn check_text(text: &str) -> FileReport {
    let parsed = parse(text);
    let outcomes: Vec<Option<Outcome>> = parsed
        .mazes
        .iter()
        .map(|maze| maze.grid.as_deref().map(solver::solve))
        .collect();
    let mut diagnostics = parsed.diagnostics.clone();
    for (maze, outcome) in parsed.mazes.iter().zip(&outcomes) {
        if let Some(outcome) = outcome {
            diagnostics.extend(outcome_diagnostics(text, maze, outcome));
        }
    }
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    FileReport {
        parsed,
        outcomes,
        diagnostics,
    }
}

/// `unsolvable`, `solution-illegal` and `solution-not-optimal` for one solved maze:
/// `optimum` is its optimal solution, or why it has none.
pub fn solver_diagnostics(
    text: &str,
    maze: &Maze,
    optimum: Result<&Solution, Reason>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Err(reason) = optimum {
        out.push(Diagnostic::new(
            Code::Unsolvable,
            maze.header.clone(),
            format!("this maze is unsolvable: {reason}"),
        ));
    }
    if let (Some(line), Some(grid)) = (&maze.solution, &maze.grid) {
        out.extend(check_recorded(
            text,
            grid,
            line.moves.clone(),
            line.line.clone(),
            optimum.ok(),
        ));
    }
    out
}

/// [`solver_diagnostics`] for a solver [`Outcome`].
pub fn outcome_diagnostics(text: &str, maze: &Maze, outcome: &Outcome) -> Vec<Diagnostic> {
    let optimum = match outcome {
        Outcome::Solved(solution) => Ok(solution),
        Outcome::Unsolvable(reason) => Err(*reason),
    };
    solver_diagnostics(text, maze, optimum)
}

/// The check of `maze`'s recorded solution line against `optimum` (`None`: the maze is
/// impossible), as `boxls check` reports it; `None` when it is fine or absent.
pub fn recorded_solution_diagnostic(
    text: &str,
    maze: &Maze,
    optimum: Option<&Solution>,
) -> Option<Diagnostic> {
    let (line, grid) = (maze.solution.as_ref()?, maze.grid.as_ref()?);
    check_recorded(text, grid, line.moves.clone(), line.line.clone(), optimum)
}

/// The POJ answer for a maze without solution, which a `; solution:` line may record
/// (as `boxls stress` does for a program that answered it).
pub const IMPOSSIBLE: &str = "Impossible.";

/// A recorded `Impossible.` for a maze that has a solution.
fn wrong_impossible(moves: std::ops::Range<usize>, optimum: &Solution) -> Option<Diagnostic> {
    Some(
        Diagnostic::new(
            Code::SolutionIllegal,
            moves.clone(),
            format!(
                "`Impossible.` is wrong: this maze is solved in {}",
                pushes_and_moves(optimum.pushes, optimum.moves),
            ),
        )
        .with_fix(optimal_fix(moves, optimum)),
    )
}

/// `6 pushes and 28 moves`.
fn pushes_and_moves(pushes: u64, moves: u64) -> String {
    format!(
        "{} and {}",
        plural(pushes, "push", "pushes"),
        plural(moves, "move", "moves")
    )
}

/// The fix of a wrong recorded solution: the optimum written over it.
fn optimal_fix(moves: std::ops::Range<usize>, optimum: &Solution) -> Fix {
    Fix::replace(
        "Replace with the optimal solution",
        moves,
        optimum.path.clone(),
    )
}

/// Replays a recorded solution and compares it with the optimum; `Impossible.` is
/// right exactly when there is no optimum.
fn check_recorded(
    text: &str,
    grid: &Grid,
    moves: std::ops::Range<usize>,
    line: std::ops::Range<usize>,
    optimum: Option<&Solution>,
) -> Option<Diagnostic> {
    let recorded = &text[moves.clone()];
    if recorded == IMPOSSIBLE {
        return wrong_impossible(moves, optimum?);
    }
    let replayed = match solver::replay(grid, recorded) {
        Ok(replayed) => replayed,
        Err(illegal) => {
            let start = moves.start + illegal.offset;
            return Some(Diagnostic::new(
                Code::SolutionIllegal,
                start..start + illegal.len,
                format!("illegal move: {}", illegal.message),
            ));
        }
    };
    if !replayed.solved {
        let (row, col) = grid.coords(replayed.box_at);
        let range = if moves.is_empty() {
            line
        } else {
            moves.clone()
        };
        return Some(Diagnostic::new(
            Code::SolutionIllegal,
            range,
            format!(
                "the box ends at row {}, column {}, not on the target",
                row + 1,
                col + 1
            ),
        ));
    }
    let optimum = optimum?;
    if (replayed.pushes, replayed.moves) <= (optimum.pushes, optimum.moves) {
        return None;
    }
    Some(
        Diagnostic::new(
            Code::SolutionNotOptimal,
            moves.clone(),
            format!(
                "this solution takes {}; the optimum is {}",
                pushes_and_moves(replayed.pushes, replayed.moves),
                pushes_and_moves(optimum.pushes, optimum.moves),
            ),
        )
        .with_fix(optimal_fix(moves, optimum)),
    )
}

/// The edit that writes `path` as `maze`'s solution line, replacing any recorded one.
pub fn solution_edit(text: &str, maze: &Maze, path: &str) -> TextEdit {
    let new_line = format!("; solution: {path}");
    if let Some(line) = &maze.solution {
        return TextEdit {
            range: line.line.clone(),
            new_text: new_line,
        };
    }
    let after = maze.rows.last().map_or(maze.header.end, |row| row.end);
    let line_end = text[after..]
        .find(['\n', '\r'])
        .map_or(text.len(), |offset| after + offset);
    // The break ending that line, or else the file's first one.
    let line_break = first_line_break(if line_end < text.len() {
        &text[line_end..]
    } else {
        text
    });
    TextEdit {
        range: line_end..line_end,
        new_text: format!("{line_break}{new_line}"),
    }
}
