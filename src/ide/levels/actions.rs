//! A Sokoban document's code actions and lenses as edits: a level's `Solution:` line
//! written (or its recorded one replaced) once the level is solved, every level's at
//! once, its run-length rows expanded or compressed, the quick fixes its diagnostics
//! carry (a worse recorded solution replaced by the best known one), and the lens over
//! each level's first board row.

use std::ops::Range;

use super::solve::{first_row, hint};
use super::symbols::level_name;
use super::{LevelFile, LevelStatus};
use crate::ide::{ActionKind, ActionKinds, Lens};
use crate::level::{
    board_edit, parse_lurd, replay, Code, Diagnostic, Level, RecordedSolution, RunLength,
};
use crate::maze::{first_line_break, plural, TextEdit};

pub const INSERT_LEVEL_SOLUTION: &str = "Insert solution";
pub const INSERT_ALL_LEVEL_SOLUTIONS: &str = "Insert all solutions";
pub const EXPAND_ROWS: &str = "Expand run-length rows";
pub const COMPRESS_ROWS: &str = "Compress run-length rows";
pub const BEST_KNOWN: &str = "Replace with the best known solution";

/// One action on a Sokoban document, with its edits (levels' actions are never left
/// to resolve: what they write is known when they are offered).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelAction {
    pub title: String,
    pub kind: ActionKind,
    /// The diagnostic a quick fix fixes.
    pub diagnostic: Option<Diagnostic>,
    pub edits: Vec<TextEdit>,
}

/// The actions for a selection (or cursor) `range`; `statuses` has one entry per level.
pub fn level_actions(
    file: &LevelFile,
    statuses: &[LevelStatus],
    range: Range<usize>,
    kinds: ActionKinds,
) -> Vec<LevelAction> {
    let mut out = Vec::new();
    if kinds.quick_fix {
        out.extend(quick_fixes(file, statuses, &range));
    }
    if kinds.insert_solution {
        if let Some((level, status)) = level_and_status(file, statuses, range.start) {
            if let Some(edit) = solution_change(file.text, level, status) {
                out.push(action(
                    INSERT_LEVEL_SOLUTION,
                    ActionKind::InsertSolution,
                    edit,
                ));
            }
            for (mode, title) in [
                (RunLength::Expand, EXPAND_ROWS),
                (RunLength::Compress, COMPRESS_ROWS),
            ] {
                if let Some(edit) = board_edit(file.text, level, mode) {
                    out.push(action(title, ActionKind::Rewrite, edit));
                }
            }
        }
    }
    if kinds.insert_all {
        let edits = all_level_solution_edits(file, statuses);
        if !edits.is_empty() {
            out.push(LevelAction {
                title: INSERT_ALL_LEVEL_SOLUTIONS.to_string(),
                kind: ActionKind::InsertAll,
                diagnostic: None,
                edits,
            });
        }
    }
    out
}

fn action(title: &str, kind: ActionKind, edit: TextEdit) -> LevelAction {
    LevelAction {
        title: title.to_string(),
        kind,
        diagnostic: None,
        edits: vec![edit],
    }
}

fn level_and_status<'a>(
    file: &LevelFile<'a>,
    statuses: &'a [LevelStatus],
    offset: usize,
) -> Option<(&'a Level, &'a LevelStatus)> {
    let level = file.level_at(offset)?;
    Some((level, statuses.get(level.index.checked_sub(1)?)?))
}

/// The fixes of the diagnostics touching `range`. A `solution-not-optimal` warning's
/// fix (another recorded solution is better) writes, once the level is solved, the
/// best solution known: the solver's when it is better still.
fn quick_fixes(
    file: &LevelFile,
    statuses: &[LevelStatus],
    range: &Range<usize>,
) -> Vec<LevelAction> {
    let touches = |r: &Range<usize>| r.start <= range.end && range.start <= r.end;
    file.diagnostics()
        .iter()
        .filter(|d| touches(&d.range))
        .filter_map(|diagnostic| {
            let fix = diagnostic.fix.clone()?;
            let (title, edits) = match level_and_status(file, statuses, diagnostic.range.start) {
                Some((
                    level,
                    LevelStatus::Solved {
                        pushes,
                        moves,
                        lurd,
                        ..
                    },
                )) if diagnostic.code == Code::SolutionNotOptimal => {
                    let solver_better = recorded_best(file.text, level)
                        .is_some_and(|best| (*pushes, *moves) < best);
                    let edits = if solver_better {
                        vec![TextEdit {
                            range: diagnostic.range.clone(),
                            new_text: lurd.to_string(),
                        }]
                    } else {
                        fix.edits
                    };
                    (BEST_KNOWN.to_string(), edits)
                }
                _ => (fix.title, fix.edits),
            };
            Some(LevelAction {
                title,
                kind: ActionKind::QuickFix,
                diagnostic: Some(diagnostic.clone()),
                edits,
            })
        })
        .collect()
}

/// The fewest (pushes, moves) of the level's recorded solutions that solve it.
fn recorded_best(text: &str, level: &Level) -> Option<(u32, u32)> {
    level
        .solutions
        .iter()
        .filter_map(|solution| solution_counts(text, level, solution))
        .min()
}

/// A recorded solution's (pushes, moves), when it solves the level.
pub(super) fn solution_counts(
    text: &str,
    level: &Level,
    solution: &RecordedSolution,
) -> Option<(u32, u32)> {
    let position = level.board.position()?;
    let moves = parse_lurd(text, &solution.parts).ok()?;
    let played = replay(&position, &moves).ok()?;
    played.solved.then_some((played.pushes, played.moves))
}

/// The edit writing the solver's solution of `level`: a `Solution:` line right under
/// its board, or in place of its first recorded solution; `None` unless the level is
/// solved and no recorded solution is as good (pushes, then moves).
fn solution_change(text: &str, level: &Level, status: &LevelStatus) -> Option<TextEdit> {
    let (pushes, moves, lurd) = status.solution()?;
    if recorded_best(text, level).is_some_and(|best| best <= (pushes, moves)) {
        return None;
    }
    let line = format!("Solution: {lurd}");
    Some(match level.solutions.first() {
        Some(recorded) => TextEdit {
            range: recorded.key.start..recorded.extent.end,
            new_text: line,
        },
        None => {
            let end = level.board_lines.end;
            TextEdit {
                range: end..end,
                new_text: format!("{}{line}", first_line_break(text)),
            }
        }
    })
}

/// Every level's *Insert solution* edit.
pub fn all_level_solution_edits(file: &LevelFile, statuses: &[LevelStatus]) -> Vec<TextEdit> {
    file.levels()
        .iter()
        .zip(statuses)
        .filter_map(|(level, status)| solution_change(file.text, level, status))
        .collect()
}

/// The edit writing level `index`'s (1-based) solution (the lens's command), or why
/// there is none, for the user.
pub fn insert_level_solution(
    file: &LevelFile,
    statuses: &[LevelStatus],
    index: usize,
) -> Result<TextEdit, String> {
    let found = index
        .checked_sub(1)
        .and_then(|i| Some((file.levels().get(i)?, statuses.get(i)?)));
    let Some((level, status)) = found else {
        return Err(format!("there is no Level {index}"));
    };
    if let Some(edit) = solution_change(file.text, level, status) {
        return Ok(edit);
    }
    let name = level_name(level);
    Err(match status {
        LevelStatus::Solved { pushes, moves, .. } => format!(
            "the recorded solution of {name} is already as good as the solver's ({} · {})",
            plural(u64::from(*pushes), "push", "pushes"),
            plural(u64::from(*moves), "move", "moves"),
        ),
        LevelStatus::Skipped => {
            format!("{name} is not solved: its errors or deadlocks say why")
        }
        LevelStatus::Solving(_) => {
            format!(
                "{name} is still being solved and no solution is found yet; try again in a moment"
            )
        }
        LevelStatus::Unsolvable => format!("{name} is unsolvable"),
        LevelStatus::Unknown { .. } => {
            format!("{name} was not solved within the time limit (boxls.sokoban.timeLimit)")
        }
        LevelStatus::Failed(message) => format!("the solver failed on {name}: {message}"),
    })
}

/// One lens per level with a status to show, over its first board row: the hint's
/// words, and whether a click would write the solution.
pub fn level_lenses(file: &LevelFile, statuses: &[LevelStatus]) -> Vec<Lens> {
    file.levels()
        .iter()
        .zip(statuses)
        .filter_map(|(level, status)| {
            let label = hint(status)?;
            let title = match status.solution() {
                Some(_) if solution_change(file.text, level, status).is_some() => {
                    format!("{label} — insert solution")
                }
                Some(_) => format!("{label} — solution up to date"),
                None => label,
            };
            Some(Lens {
                range: first_row(level),
                title,
                maze: level.index,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::super::fixture::Fixture;
    use super::*;

    /// The level solved as `lurd` says (counted by replaying it).
    fn solved(text: &str, level: usize, lurd: &str) -> LevelStatus {
        let checked = crate::level::check(text);
        let position = checked.collection.levels[level]
            .board
            .position()
            .expect("a position");
        let moves = parse_lurd(lurd, std::slice::from_ref(&(0..lurd.len()))).expect("LURD");
        let played = replay(&position, &moves).expect("legal");
        assert!(played.solved);
        LevelStatus::Solved {
            pushes: played.pushes,
            moves: played.moves,
            optimal: false,
            lurd: lurd.into(),
        }
    }

    /// The actions at the cursor (a `‸` in `text`, removed) with each edit applied.
    fn check(text: &str, statuses: impl Fn(&str) -> Vec<LevelStatus>, expect: Expect) {
        let at = text.find('‸').expect("a cursor");
        let text = text.replacen('‸', "", 1);
        let fixture = Fixture::new(&text);
        let statuses = statuses(&text);
        let shown: Vec<String> =
            level_actions(&fixture.view(), &statuses, at..at, ActionKinds::ALL)
                .into_iter()
                .map(|action| {
                    let mut edited = text.clone();
                    let mut edits = action.edits.clone();
                    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
                    for edit in edits {
                        edited.replace_range(edit.range, &edit.new_text);
                    }
                    let fixes = action
                        .diagnostic
                        .map_or(String::new(), |d| format!(" (fixes {})", d.code));
                    format!("{:?} {}{fixes}:\n{edited}", action.kind, action.title)
                })
                .collect();
        expect.assert_eq(&shown.join("----\n"));
    }

    const TWO: &str = "; 1\n\n###‸###\n#@$ .#\n######\n\n; 2\n\n5#|#@$.#|5#\n";

    #[test]
    fn a_solved_level_gets_its_solution_line_and_every_level_at_once() {
        check(
            TWO,
            |text| vec![solved(text, 0, "RR"), solved(text, 1, "R")],
            expect![[r#"
                InsertSolution Insert solution:
                ; 1

                ######
                #@$ .#
                ######
                Solution: RR

                ; 2

                5#|#@$.#|5#
                ----
                Rewrite Compress run-length rows:
                ; 1

                6#
                #@$ .#
                6#

                ; 2

                5#|#@$.#|5#
                ----
                InsertAll Insert all solutions:
                ; 1

                ######
                #@$ .#
                ######
                Solution: RR

                ; 2

                5#|#@$.#|5#
                Solution: R
            "#]],
        );
    }

    #[test]
    fn run_length_rows_expand_and_compress_only_when_that_changes_them() {
        check(
            "; 1\n\n######\n#@$ .#\n######\n\n; 2\n\n5#|#@$.#‸\n5#\n",
            |_| vec![LevelStatus::WAITING, LevelStatus::WAITING],
            expect![[r#"
                Rewrite Expand run-length rows:
                ; 1

                ######
                #@$ .#
                ######

                ; 2

                #####
                #@$.#
                #####
                ----
                Rewrite Compress run-length rows:
                ; 1

                ######
                #@$ .#
                ######

                ; 2

                5#
                #@$.#
                5#
            "#]],
        );
    }

    #[test]
    fn a_recorded_solution_is_replaced_only_by_a_better_one() {
        let text = "###‸###\n#@$ .#\n######\nSolution: RlrR\n";
        check(
            text,
            |text| vec![solved(text, 0, "RR")],
            expect![[r#"
                InsertSolution Insert solution:
                ######
                #@$ .#
                ######
                Solution: RR
                ----
                Rewrite Compress run-length rows:
                6#
                #@$ .#
                6#
                Solution: RlrR
                ----
                InsertAll Insert all solutions:
                ######
                #@$ .#
                ######
                Solution: RR
            "#]],
        );
        let fixture = Fixture::new("######\n#@$ .#\n######\nSolution: RR\n");
        let statuses = [solved(&fixture.text, 0, "RR")];
        let file = fixture.view();
        let offered = level_actions(&file, &statuses, 8..8, ActionKinds::ALL);
        assert!(
            offered.iter().all(|a| a.kind == ActionKind::Rewrite),
            "{offered:?}"
        );
        expect![[r#"
            [
                Err(
                    "the recorded solution of Level 1 is already as good as the solver's (2 pushes · 2 moves)",
                ),
                Err(
                    "there is no Level 2",
                ),
            ]
        "#]]
        .assert_debug_eq(&[1, 2].map(|k| insert_level_solution(&file, &statuses, k)));
    }

    #[test]
    fn a_worse_recorded_solution_is_replaced_with_the_best_known_once_solved() {
        let text = "#######\n#@$  .#\n#######\nSolution: RlrRR\nSolution: Rlrl‸rRR\n";
        // Before the solve: the better recorded one.
        check(
            text,
            |_| vec![LevelStatus::WAITING],
            expect![[r#"
                QuickFix Replace with the better solution (fixes solution-not-optimal):
                #######
                #@$  .#
                #######
                Solution: RlrRR
                Solution: RlrRR
                ----
                Rewrite Compress run-length rows:
                7#
                #@$2 .#
                7#
                Solution: RlrRR
                Solution: RlrlrRR
            "#]],
        );
        // Solved with fewer moves than either: the solver's.
        check(
            text,
            |text| vec![solved(text, 0, "RRR")],
            expect![[r#"
                QuickFix Replace with the best known solution (fixes solution-not-optimal):
                #######
                #@$  .#
                #######
                Solution: RlrRR
                Solution: RRR
                ----
                InsertSolution Insert solution:
                #######
                #@$  .#
                #######
                Solution: RRR
                Solution: RlrlrRR
                ----
                Rewrite Compress run-length rows:
                7#
                #@$2 .#
                7#
                Solution: RlrRR
                Solution: RlrlrRR
                ----
                InsertAll Insert all solutions:
                #######
                #@$  .#
                #######
                Solution: RRR
                Solution: RlrlrRR
            "#]],
        );
    }

    #[test]
    fn a_solution_over_several_lines_is_replaced_whole() {
        check(
            "######\n#@$ .#\n######\nSolution:\nRl‸r\nR\n\nA note\n",
            |text| vec![solved(text, 0, "RR")],
            expect![[r#"
                InsertSolution Insert solution:
                ######
                #@$ .#
                ######
                Solution: RR

                A note
                ----
                Rewrite Compress run-length rows:
                6#
                #@$ .#
                6#
                Solution:
                Rlr
                R

                A note
                ----
                InsertAll Insert all solutions:
                ######
                #@$ .#
                ######
                Solution: RR

                A note
            "#]],
        );
    }

    #[test]
    fn a_count_read_as_nothing_is_removed() {
        check(
            "#####\n#@$.#0‸$\n#####\n",
            |_| vec![LevelStatus::Skipped],
            expect![[r#"
                QuickFix Remove the empty run (fixes bad-run-length):
                #####
                #@$.#
                #####
                ----
                Rewrite Compress run-length rows:
                5#
                #@$.#0$
                5#
            "#]],
        );
        check(
            "#####\n#@$.#\n#####1‸2\n",
            |_| vec![LevelStatus::Skipped],
            expect![[r#"
                QuickFix Remove the count (fixes bad-run-length):
                #####
                #@$.#
                #####
                ----
                Rewrite Compress run-length rows:
                5#
                #@$.#
                #####12
            "#]],
        );
    }

    #[test]
    fn the_lens_says_whether_a_click_writes_the_solution() {
        let text = "######\n#@$ .#\n######\n\n######\n#@$ .#\n######\nSolution: RR\n\n#####\n#@$.#\n#####\n";
        let fixture = Fixture::new(text);
        let statuses = [
            solved(text, 0, "RR"),
            solved(text, 1, "RR"),
            LevelStatus::WAITING,
        ];
        let shown: Vec<String> = level_lenses(&fixture.view(), &statuses)
            .into_iter()
            .map(|lens| format!("{} {:?}: {}", lens.maze, &text[lens.range], lens.title))
            .collect();
        expect![[r#######"
            1 "######": 2 pushes · 2 moves — insert solution
            2 "######": 2 pushes · 2 moves — solution up to date
            3 "#####": solving…"#######]]
        .assert_eq(&shown.join("\n"));
    }
}
