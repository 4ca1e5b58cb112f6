//! What the solver says about each level of a Sokoban document, as plain data: which
//! levels are worth solving (no error, no static deadlock), one level's solve (the
//! multi-box solver in fast mode, its move string replayed before its counts are
//! believed), the inlay hint at the end of each level's first board row, and the
//! `unsolvable` diagnostic a proved result adds.

use std::ops::Range;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::LevelFile;
use crate::level::{parse_lurd, replay, Code, Diagnostic, Level, Position};
use crate::maze::{plural, Severity};
use crate::sokoban::{self, Event, Limits, Mode, Outcome, Solution};

/// What is known of one level's solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelStatus {
    /// Not solved: its errors or static deadlocks already say what is wrong.
    Skipped,
    /// Being solved (or waiting for a solver): what the search has found so far.
    Solving(Searching),
    Solved {
        pushes: u32,
        moves: u32,
        /// Proved fewest pushes, then fewest moves.
        optimal: bool,
        /// The move string (LURD, no counts), replayed to solved with these counts.
        lurd: Arc<str>,
    },
    /// Proved: no sequence of moves solves it.
    Unsolvable,
    /// The time limit (in milliseconds) came first.
    Unknown { limit_ms: u64 },
    /// The solver broke (a panic, or a move string that does not replay).
    Failed(Arc<str>),
}

/// What a level's search still running has found so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Searching {
    /// Positions searched so far (0 until the search first reports).
    pub positions: u64,
    /// The best solution found so far, replayed; the fast mode goes on looking for
    /// fewer pushes until the time limit or a proof that this one is optimal.
    pub best: Option<Best>,
}

/// A solution found by a search that has not ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best {
    pub pushes: u32,
    pub moves: u32,
    pub lurd: Arc<str>,
}

impl LevelStatus {
    /// Not looked up yet, or waiting for a solver.
    pub const WAITING: LevelStatus = LevelStatus::Solving(Searching {
        positions: 0,
        best: None,
    });

    pub fn is_solving(&self) -> bool {
        matches!(self, LevelStatus::Solving(_))
    }

    /// The solution to offer — the solver's last word, or the best so far of a search
    /// still running: pushes, moves, move string.
    pub fn solution(&self) -> Option<(u32, u32, &Arc<str>)> {
        match self {
            LevelStatus::Solved {
                pushes,
                moves,
                lurd,
                ..
            } => Some((*pushes, *moves, lurd)),
            LevelStatus::Solving(Searching {
                best: Some(best), ..
            }) => Some((best.pushes, best.moves, &best.lurd)),
            _ => None,
        }
    }

    /// [`LevelStatus::solution`] as a [`Best`] (the move string shared, not copied).
    pub fn best(&self) -> Option<Best> {
        self.solution().map(|(pushes, moves, lurd)| Best {
            pushes,
            moves,
            lurd: lurd.clone(),
        })
    }
}

/// How often a running search's position count is reported: the hint is redrawn
/// each time, so often enough to look alive, seldom enough to cost nothing.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Each level's position, where it is worth solving: one player, no error, and no
/// static deadlock (`dead-square`, `frozen-boxes`, `unmatched-boxes` say it already).
pub fn positions_to_solve(file: &LevelFile<'_>) -> Vec<Option<Position>> {
    file.levels()
        .iter()
        .map(|level| {
            let blocked = diagnostics_within(file, level.extent.clone()).any(|d| {
                d.severity == Severity::Error
                    || matches!(
                        d.code,
                        Code::DeadSquare | Code::FrozenBoxes | Code::UnmatchedBoxes
                    )
            });
            if blocked {
                return None;
            }
            level.board.position()
        })
        .collect()
}

fn diagnostics_within<'a>(
    file: &LevelFile<'a>,
    extent: Range<usize>,
) -> impl Iterator<Item = &'a Diagnostic> {
    let all = file.diagnostics();
    let first = all.partition_point(|d| d.range.start < extent.start);
    all[first..]
        .iter()
        .take_while(move |d| d.range.start <= extent.end)
}

/// Solves `position` in fast mode within `time_limit`; `None` once `cancel` is set.
/// `report` hears what the search has found so far while it runs: a solution as soon
/// as one is found (replayed first), the number of positions about once a second.
pub fn solve_level(
    position: &Position,
    time_limit: Duration,
    cancel: &AtomicBool,
    report: &mut dyn FnMut(Searching),
) -> Option<LevelStatus> {
    let limits = Limits {
        time: time_limit,
        ..Limits::default()
    };
    let mut searching = Searching::default();
    let mut last_report = Instant::now();
    let mut on_event = |event: Event<'_>| match event {
        Event::Progress(progress) => {
            searching.positions = progress.positions;
            if last_report.elapsed() >= PROGRESS_EVERY {
                last_report = Instant::now();
                report(searching.clone());
            }
        }
        // The last word is the outcome itself, not a report.
        Event::Improved(solution) if !solution.optimal => {
            // Only a solution that replays (`checked`) is offered.
            if let Some(best) = checked(position, solution).best() {
                searching.best = Some(best);
                last_report = Instant::now();
                report(searching.clone());
            }
        }
        Event::Improved(_) => {}
    };
    let outcome = sokoban::solve(position, Mode::Fast, &limits, cancel, &mut on_event);
    let limit_ms = time_limit.as_millis() as u64;
    match outcome {
        Outcome::Solved(solution) => Some(checked(position, &solution)),
        Outcome::Unsolvable => Some(LevelStatus::Unsolvable),
        Outcome::Unknown {
            why: sokoban::Unknown::Cancelled,
            ..
        } => None,
        Outcome::Unknown {
            best: Some(solution),
            ..
        } => Some(checked(
            position,
            &Solution {
                optimal: false,
                ..solution
            },
        )),
        Outcome::Unknown { .. } => Some(LevelStatus::Unknown { limit_ms }),
    }
}

/// The solution's counts, once its move string replays to a solved board with them.
fn checked(position: &Position, solution: &Solution) -> LevelStatus {
    let all = 0..solution.lurd.len();
    let replayed = parse_lurd(&solution.lurd, std::slice::from_ref(&all))
        .ok()
        .and_then(|moves| replay(position, &moves).ok());
    match replayed {
        Some(played)
            if played.solved
                && (played.pushes, played.moves) == (solution.pushes, solution.moves) =>
        {
            LevelStatus::Solved {
                pushes: solution.pushes,
                moves: solution.moves,
                optimal: solution.optimal,
                lurd: solution.lurd.as_str().into(),
            }
        }
        _ => LevelStatus::Failed("the solver's move string does not solve the level".into()),
    }
}

/// One inlay hint per level with a status worth showing: at the end of its first
/// board row, the label.
pub fn level_hints(file: &LevelFile<'_>, statuses: &[LevelStatus]) -> Vec<(usize, String)> {
    file.levels()
        .iter()
        .zip(statuses)
        .filter_map(|(level, status)| Some((first_row(level).end, hint(status)?)))
        .collect()
}

pub(super) fn first_row(level: &Level) -> Range<usize> {
    level
        .board
        .rows
        .first()
        .cloned()
        .unwrap_or(level.board_lines.clone())
}

pub(super) fn hint(status: &LevelStatus) -> Option<String> {
    Some(match status {
        LevelStatus::Skipped => return None,
        LevelStatus::Solving(Searching {
            best: Some(best), ..
        }) => format!("{} · improving…", counts(best.pushes, best.moves)),
        LevelStatus::Solving(Searching { positions: 0, .. }) => "solving…".to_string(),
        LevelStatus::Solving(Searching { positions, .. }) => {
            format!("solving… {} positions", approximately(*positions))
        }
        LevelStatus::Solved {
            pushes,
            moves,
            optimal,
            ..
        } => {
            let proved = if *optimal { " (optimal)" } else { "" };
            format!("{}{proved}", counts(*pushes, *moves))
        }
        LevelStatus::Unsolvable => "unsolvable".to_string(),
        LevelStatus::Unknown { limit_ms } => format!("unknown after {}", seconds(*limit_ms)),
        LevelStatus::Failed(_) => "solver failed".to_string(),
    })
}

/// `97 pushes · 230 moves`.
fn counts(pushes: u32, moves: u32) -> String {
    format!(
        "{} · {}",
        plural(u64::from(pushes), "push", "pushes"),
        plural(u64::from(moves), "move", "moves")
    )
}

/// `812`, `35 k`, `1.2 M`: a count that changes every second, to two digits or so.
fn approximately(count: u64) -> String {
    match count {
        0..1_000 => count.to_string(),
        1_000..10_000 => format!("{:.1} k", count as f64 / 1e3),
        10_000..1_000_000 => format!("{} k", count / 1_000),
        1_000_000..10_000_000 => format!("{:.1} M", count as f64 / 1e6),
        _ => format!("{} M", count / 1_000_000),
    }
}

/// `10 s`, `0.5 s`.
fn seconds(ms: u64) -> String {
    let value = format!("{:.3}", ms as f64 / 1000.0);
    let value = value.trim_end_matches('0').trim_end_matches('.');
    format!("{value} s")
}

/// What the solver adds to the levels' diagnostics: `unsolvable` (proved) on the
/// first board row of each such level. A search that ran out of time is not a
/// diagnostic: the hint says it.
pub fn level_solver_diagnostics(file: &LevelFile<'_>, statuses: &[LevelStatus]) -> Vec<Diagnostic> {
    file.levels()
        .iter()
        .zip(statuses)
        .filter(|(_, status)| **status == LevelStatus::Unsolvable)
        .map(|(level, _)| {
            Diagnostic::new(
                Code::Unsolvable,
                first_row(level),
                "this level is unsolvable (proved by the solver)",
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::fixture::Fixture;
    use super::*;
    use expect_test::{expect, Expect};

    /// Each level solved at once (no limit reached), then its hint and diagnostics.
    fn check(text: &str, expect: Expect) {
        let fixture = Fixture::new(text);
        let file = fixture.view();
        let never = AtomicBool::new(false);
        let statuses: Vec<LevelStatus> = positions_to_solve(&file)
            .iter()
            .map(|position| match position {
                Some(position) => {
                    solve_level(position, Duration::from_secs(60), &never, &mut |_| {})
                        .unwrap_or(LevelStatus::WAITING)
                }
                None => LevelStatus::Skipped,
            })
            .collect();
        let mut out = Vec::new();
        for (offset, label) in level_hints(&file, &statuses) {
            out.push(format!("hint@{offset}: {label}"));
        }
        for d in level_solver_diagnostics(&file, &statuses) {
            out.push(format!("{}@{:?}: {}", d.code, d.range, d.message));
        }
        expect.assert_eq(&out.join("\n"));
    }

    #[test]
    fn a_solvable_level_gets_its_counts_an_unsolvable_one_a_diagnostic() {
        check(
            "#######\n#.   .#\n# $$  #\n#@    #\n#######\n\n########\n#@$ $..#\n########\n",
            expect![[r#"
                hint@7: 5 pushes · 11 moves (optimal)
                hint@49: unsolvable
                unsolvable@41..49: this level is unsolvable (proved by the solver)"#]],
        );
    }

    #[test]
    fn a_level_with_an_error_or_a_static_deadlock_is_not_solved() {
        check(
            "#####\n#@$.#\n#####\n\n#######\n#.$$  #\n#.  @ #\n#######\n\n#####\n#@$ #\n#####\n",
            expect![[r#"hint@5: 1 push · 1 move (optimal)"#]],
        );
    }

    #[test]
    fn hints_read_as_designers_write_them() {
        assert_eq!(
            hint(&LevelStatus::Unknown { limit_ms: 10_000 }).as_deref(),
            Some("unknown after 10 s")
        );
        assert_eq!(
            hint(&LevelStatus::Unknown { limit_ms: 500 }).as_deref(),
            Some("unknown after 0.5 s")
        );
        assert_eq!(hint(&LevelStatus::WAITING).as_deref(), Some("solving…"));
        let searching = |positions| {
            LevelStatus::Solving(Searching {
                positions,
                best: None,
            })
        };
        assert_eq!(
            hint(&searching(812)).as_deref(),
            Some("solving… 812 positions")
        );
        assert_eq!(
            hint(&searching(3_456)).as_deref(),
            Some("solving… 3.5 k positions")
        );
        assert_eq!(
            hint(&searching(35_999)).as_deref(),
            Some("solving… 35 k positions")
        );
        assert_eq!(
            hint(&searching(1_234_567)).as_deref(),
            Some("solving… 1.2 M positions")
        );
        let improving = LevelStatus::Solving(Searching {
            positions: 5_000,
            best: Some(Best {
                pushes: 97,
                moves: 230,
                lurd: "".into(),
            }),
        });
        assert_eq!(
            hint(&improving).as_deref(),
            Some("97 pushes · 230 moves · improving…")
        );
        let not_proved = LevelStatus::Solved {
            pushes: 97,
            moves: 230,
            optimal: false,
            lurd: "".into(),
        };
        assert_eq!(hint(&not_proved).as_deref(), Some("97 pushes · 230 moves"));
    }
}
