//! The checks of a level, each on the cells concerned: what the rows say (unknown
//! characters, bad counts), players, boxes and goals, the player's region (open
//! border, boxes and goals out of reach), static deadlocks, and recorded solutions.

use std::collections::VecDeque;
use std::ops::Range;

use super::board::{Board, Cell, Position, RowProblem};
use super::code::{Code, Diagnostic};
use super::deadlock::find_deadlocks;
use super::parse::{parse, Collection, Level, RecordedSolution};
use super::rle::MAX_ROW_CELLS;
use super::solution::{parse_lurd, replay, Replayed};
use crate::maze::{plural, Fix, MAX_CELLS};

/// A file read and checked.
#[derive(Debug, Clone)]
pub struct CheckedFile {
    pub collection: Collection,
    /// The reader's and every level's diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads `text` and checks every level (no solver).
pub fn check(text: &str) -> CheckedFile {
    let collection = parse(text);
    let mut diagnostics = collection.diagnostics.clone();
    for level in &collection.levels {
        diagnostics.extend(level_diagnostics(text, level));
    }
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    CheckedFile {
        collection,
        diagnostics,
    }
}

/// Every static diagnostic of one level.
pub fn level_diagnostics(text: &str, level: &Level) -> Vec<Diagnostic> {
    let board = &level.board;
    let mut out: Vec<Diagnostic> = board.problems.iter().map(row_problem).collect();
    let first_row = board
        .rows
        .first()
        .cloned()
        .unwrap_or(level.board_lines.clone());
    let players = board.players();
    match players[..] {
        [] => out.push(Diagnostic::new(
            Code::MissingPlayer,
            first_row.clone(),
            "this level has no player (`@`, or `+` on a goal)",
        )),
        [_] => {}
        [_, ref more @ ..] => out.extend(more.iter().map(|&cell| {
            Diagnostic::new(
                Code::DuplicatePlayer,
                board.spans[cell].clone(),
                "a second player: a level has one `@` (or `+` on a goal)",
            )
        })),
    }
    let (boxes, goals) = (board.boxes().len(), board.goals().len());
    if boxes == 0 {
        out.push(Diagnostic::new(
            Code::MissingBox,
            first_row.clone(),
            "this level has no box (`$`, or `*` on a goal)",
        ));
    } else if boxes != goals {
        out.push(Diagnostic::new(
            Code::BoxGoalMismatch,
            first_row,
            format!(
                "{} but {}: a level has as many of each",
                plural(boxes as u64, "box", "boxes"),
                plural(goals as u64, "goal", "goals")
            ),
        ));
    }
    let readable = board.problems.is_empty();
    if let (true, Some(position)) = (readable, board.position()) {
        out.extend(region_diagnostics(board, &position));
        if !out.iter().any(Diagnostic::is_error) {
            out.extend(deadlock_diagnostics(board, &position));
        }
        if boxes == goals {
            out.extend(recorded_solution_diagnostics(text, level, &position));
        }
    }
    out
}

fn row_problem(problem: &RowProblem) -> Diagnostic {
    match problem {
        RowProblem::UnknownCharacter(range, c) => Diagnostic::new(
            Code::UnknownCharacter,
            range.clone(),
            format!(
                "`{}` is not a cell: # wall, @ player, + player on goal, $ box, \
                 * box on goal, . goal, space - _ floor",
                c.escape_debug()
            ),
        ),
        // Both are read as nothing: removing them keeps the board as it reads.
        RowProblem::StrayCount(range) => Diagnostic::new(
            Code::BadRunLength,
            range.clone(),
            "a count with no cell after it (`4#` is four walls)",
        )
        .with_fix(Fix::replace("Remove the count", range.clone(), "")),
        RowProblem::ZeroCount(range) => {
            Diagnostic::new(Code::BadRunLength, range.clone(), "a run of 0 cells")
                .with_fix(Fix::replace("Remove the empty run", range.clone(), ""))
        }
        RowProblem::TooLong(range) => Diagnostic::new(
            Code::BadRunLength,
            range.clone(),
            format!("a row of more than {MAX_ROW_CELLS} cells: cut there"),
        ),
        RowProblem::BoardTooLarge(range) => Diagnostic::new(
            Code::BadRunLength,
            range.clone(),
            format!("a board of more than {MAX_CELLS} cells: not read"),
        ),
    }
}

/// The cells the player could ever reach (boxes may be pushed out of the way), and
/// the first cell of them, nearest the player, that touches the outside.
fn player_region(board: &Board, position: &Position) -> (Vec<bool>, Option<usize>) {
    let mut region = vec![false; board.cells.len()];
    let mut leak = None;
    let mut queue = VecDeque::from([position.player]);
    region[position.player] = true;
    while let Some(cell) = queue.pop_front() {
        for direction in 0..4 {
            match position.step(cell, direction) {
                Some(next) if board.cells[next] == Cell::Void => {
                    leak.get_or_insert(cell);
                }
                None => {
                    leak.get_or_insert(cell);
                }
                Some(next) if !position.walls[next] && !region[next] => {
                    region[next] = true;
                    queue.push_back(next);
                }
                Some(_) => {}
            }
        }
    }
    (region, leak)
}

fn region_diagnostics(board: &Board, position: &Position) -> Vec<Diagnostic> {
    let (region, leak) = player_region(board, position);
    let mut out = Vec::new();
    if let Some(cell) = leak {
        out.push(Diagnostic::new(
            Code::OpenBorder,
            board.spans[cell].clone(),
            "the player can walk out of the level here: the wall round it has a gap",
        ));
    }
    for (cell, &kind) in board.cells.iter().enumerate() {
        if region[cell] {
            continue;
        }
        // A box already on its goal behind walls is decoration.
        let (code, message) = match kind {
            Cell::Box => (Code::UnreachableBox, "the player can never reach this box"),
            Cell::Goal => (
                Code::UnreachableGoal,
                "the player can never reach this goal",
            ),
            _ => continue,
        };
        out.push(Diagnostic::new(code, board.spans[cell].clone(), message));
    }
    out
}

fn deadlock_diagnostics(board: &Board, position: &Position) -> Vec<Diagnostic> {
    let found = find_deadlocks(position);
    let mut out = Vec::new();
    for &cell in &found.dead {
        out.push(Diagnostic::new(
            Code::DeadSquare,
            board.spans[cell].clone(),
            "this box can never reach a goal from here (a dead square)",
        ));
    }
    for group in &found.frozen {
        let message = if group.len() == 1 {
            "frozen: this box can never move again, and it is not on a goal".to_string()
        } else {
            format!(
                "frozen: this box and {} can never move again, and not all of them are on goals",
                plural(group.len() as u64 - 1, "other", "others")
            )
        };
        for &cell in group {
            out.push(Diagnostic::new(
                Code::FrozenBoxes,
                board.spans[cell].clone(),
                message.clone(),
            ));
        }
    }
    let message = format!(
        "these {} can reach only {} between them",
        plural(found.unmatched.len() as u64, "box", "boxes"),
        plural(found.unmatched_goals as u64, "goal", "goals")
    );
    for &cell in &found.unmatched {
        out.push(Diagnostic::new(
            Code::UnmatchedBoxes,
            board.spans[cell].clone(),
            message.clone(),
        ));
    }
    out
}

/// A recorded solution replayed: its counts, or the diagnostic saying what is wrong.
fn replay_recorded(
    text: &str,
    solution: &RecordedSolution,
    position: &Position,
) -> Result<Replayed, Diagnostic> {
    if solution.parts.is_empty() {
        return Err(Diagnostic::new(
            Code::SolutionNotLurd,
            solution.key.clone(),
            "no moves after `Solution:`",
        ));
    }
    let moves = parse_lurd(text, &solution.parts).map_err(|range| {
        Diagnostic::new(
            Code::SolutionNotLurd,
            range,
            "not a LURD move: u d l r walk, U D L R push, a count before a move repeats it",
        )
    })?;
    let replayed = replay(position, &moves).map_err(|error| {
        let mv = &moves[error.step];
        Diagnostic::new(
            Code::SolutionIllegal,
            mv.range.clone(),
            format!(
                "move {} (`{}`) {}",
                error.step + 1,
                &text[mv.range.end - 1..mv.range.end],
                error.why
            ),
        )
    })?;
    if !replayed.solved {
        let range = moves
            .last()
            .map_or(solution.key.clone(), |mv| mv.range.clone());
        return Err(Diagnostic::new(
            Code::SolutionIncomplete,
            range,
            format!(
                "after {} a box is still off its goal",
                plural(u64::from(replayed.moves), "move", "moves")
            ),
        ));
    }
    Ok(replayed)
}

/// Each recorded solution's problem, and a warning on those worse than another one
/// recorded for the same level.
fn recorded_solution_diagnostics(
    text: &str,
    level: &Level,
    position: &Position,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut good = Vec::new();
    for solution in &level.solutions {
        match replay_recorded(text, solution, position) {
            Ok(replayed) => good.push((solution, replayed)),
            Err(diagnostic) => out.push(diagnostic),
        }
    }
    let best = good
        .iter()
        .min_by_key(|(_, r)| (r.pushes, r.moves))
        .map(|(s, r)| (*s, *r));
    if let Some((best_solution, best)) = best {
        let lurd = solution_text(text, best_solution);
        for (solution, replayed) in &good {
            if (replayed.pushes, replayed.moves) > (best.pushes, best.moves) {
                out.push(not_optimal(
                    solution,
                    *replayed,
                    best,
                    &lurd,
                    "another solution of this level",
                ));
            }
        }
    }
    out
}

/// The move text of a recorded solution, its parts joined.
fn solution_text(text: &str, solution: &RecordedSolution) -> String {
    solution
        .parts
        .iter()
        .map(|part| &text[part.clone()])
        .collect()
}

fn not_optimal(
    solution: &RecordedSolution,
    replayed: Replayed,
    best: Replayed,
    lurd: &str,
    whose: &str,
) -> Diagnostic {
    let range = moves_range(solution);
    Diagnostic::new(
        Code::SolutionNotOptimal,
        range.clone(),
        format!(
            "{} · {}, but {whose} takes {} · {}",
            plural(u64::from(replayed.pushes), "push", "pushes"),
            plural(u64::from(replayed.moves), "move", "moves"),
            plural(u64::from(best.pushes), "push", "pushes"),
            plural(u64::from(best.moves), "move", "moves"),
        ),
    )
    .with_fix(Fix::replace(
        "Replace with the better solution",
        range,
        lurd,
    ))
}

fn moves_range(solution: &RecordedSolution) -> Range<usize> {
    match (solution.parts.first(), solution.parts.last()) {
        (Some(first), Some(last)) => first.start..last.end,
        _ => solution.key.clone(),
    }
}

/// Warnings on the level's recorded solutions that are worse (fewer pushes, then
/// fewer moves) than `best`, a solution known from elsewhere (the solver): its counts
/// and moves (LURD, no counts).
pub fn solution_vs_best(text: &str, level: &Level, best: (u32, u32, &str)) -> Vec<Diagnostic> {
    let Some(position) = level.board.position() else {
        return Vec::new();
    };
    let (pushes, moves, lurd) = best;
    let best = Replayed {
        pushes,
        moves,
        solved: true,
    };
    level
        .solutions
        .iter()
        .filter_map(|solution| {
            let replayed = replay_recorded(text, solution, &position).ok()?;
            ((replayed.pushes, replayed.moves) > (pushes, moves))
                .then(|| not_optimal(solution, replayed, best, lurd, "the solver's solution"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    /// Every diagnostic of `text`, one per line: `code line:col-line:col text: message`.
    fn check_text(text: &str, expect: Expect) {
        let found = check(text);
        let line_col = |offset: usize| {
            let before = &text[..offset];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("{line}:{col}")
        };
        let shown: Vec<String> = found
            .diagnostics
            .iter()
            .map(|d| {
                format!(
                    "{} {}-{} `{}`: {}{}",
                    d.code,
                    line_col(d.range.start),
                    line_col(d.range.end),
                    &text[d.range.clone()],
                    d.message,
                    d.fix.as_ref().map_or(String::new(), |f| format!(
                        " [{}: {}]",
                        f.title, f.edits[0].new_text
                    ))
                )
            })
            .collect();
        expect.assert_eq(&shown.join("\n"));
    }

    #[test]
    fn a_clean_level_says_nothing() {
        check_text("#####\n#@$.#\n#####\nSolution: R\n", expect![[""]]);
    }

    #[test]
    fn unknown_characters_and_bad_counts() {
        check_text(
            "#####\n#@$x.#\n#0 3\n#####\n",
            expect![[r#"
                unknown-character 2:4-2:5 `x`: `x` is not a cell: # wall, @ player, + player on goal, $ box, * box on goal, . goal, space - _ floor
                bad-run-length 3:2-3:4 `0 `: a run of 0 cells [Remove the empty run: ]
                bad-run-length 3:4-3:5 `3`: a count with no cell after it (`4#` is four walls) [Remove the count: ]"#]],
        );
    }

    #[test]
    fn players_boxes_and_goals() {
        check_text(
            "######\n# $..#\n######\n\n#####\n#@@+#\n#$ .#\n#####\n\n####\n#@.#\n####\n",
            expect![[r#"
                missing-player 1:1-1:7 `######`: this level has no player (`@`, or `+` on a goal)
                box-goal-mismatch 1:1-1:7 `######`: 1 box but 2 goals: a level has as many of each
                box-goal-mismatch 5:1-5:6 `#####`: 1 box but 2 goals: a level has as many of each
                duplicate-player 6:3-6:4 `@`: a second player: a level has one `@` (or `+` on a goal)
                duplicate-player 6:4-6:5 `+`: a second player: a level has one `@` (or `+` on a goal)
                missing-box 10:1-10:5 `####`: this level has no box (`$`, or `*` on a goal)"#]],
        );
    }

    #[test]
    fn open_border_at_the_first_leak_and_cells_out_of_reach() {
        check_text(
            "#####\n#@$ .\n#####\n\n#######\n#@$.#$#\n#####.#\n###*###\n#######\n",
            expect![[r#"
                open-border 2:5-2:6 `.`: the player can walk out of the level here: the wall round it has a gap
                unreachable-box 6:6-6:7 `$`: the player can never reach this box
                unreachable-goal 7:6-7:7 `.`: the player can never reach this goal"#]],
        );
    }

    #[test]
    fn deadlocks_one_diagnostic_per_box() {
        check_text(
            "#####\n#$ .#\n# @ #\n#####\n\n#######\n#.$$  #\n#.  @ #\n#######\n\n#######\n#.$ $ #\n#@   .#\n#######\n",
            expect![[r#"
                dead-square 2:2-2:3 `$`: this box can never reach a goal from here (a dead square)
                frozen-boxes 7:3-7:4 `$`: frozen: this box and 1 other can never move again, and not all of them are on goals
                frozen-boxes 7:4-7:5 `$`: frozen: this box and 1 other can never move again, and not all of them are on goals
                unmatched-boxes 12:3-12:4 `$`: these 2 boxes can reach only 1 goal between them
                unmatched-boxes 12:5-12:6 `$`: these 2 boxes can reach only 1 goal between them"#]],
        );
    }

    #[test]
    fn recorded_solutions() {
        check_text(
            "######\n#@$ .#\n#    #\n######\nSolution: RR\nSolution: RdrruLdlluRR\nSolution: RRx\nSolution: rR\nSolution: R\nSolution:\n3R\nSolution:\n",
            expect![[r#"
                solution-not-optimal 6:11-6:23 `RdrruLdlluRR`: 4 pushes · 12 moves, but another solution of this level takes 2 pushes · 2 moves [Replace with the better solution: RR]
                solution-not-lurd 7:13-7:14 `x`: not a LURD move: u d l r walk, U D L R push, a count before a move repeats it
                solution-illegal 8:11-8:12 `r`: move 1 (`r`) meets a box: a push is written in upper case
                solution-incomplete 9:11-9:12 `R`: after 1 move a box is still off its goal
                solution-illegal 11:1-11:3 `3R`: move 3 (`R`) pushes a box into a wall or another box
                solution-not-lurd 12:1-12:9 `Solution`: no moves after `Solution:`"#]],
        );
    }
}
