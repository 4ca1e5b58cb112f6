//! `boxls solve` on Sokoban levels, and the solver's part of `boxls check --time-limit`:
//! each valid level through the multi-box solver (`crate::sokoban`), `--jobs` at a
//! time, answers printed in level order, every produced move string replayed by the
//! level model's own replay before it is printed.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use codespan_reporting::term::termcolor::StandardStream;

use super::report::{emit_finding, Finding, SourceFile};
use super::{color_for, Failure};
use crate::level::{self, parse_lurd, replay, Code, Diagnostic, Level, Position};
use crate::sokoban::{self, Limits, Mode, Outcome, Solution};

/// How levels are solved.
#[derive(Debug, Clone, Copy)]
pub struct SolveOptions {
    /// Per level.
    pub time_limit: Duration,
    pub optimal: bool,
    pub jobs: usize,
}

/// One level's answer.
#[derive(Debug, Clone)]
pub enum Answer {
    Solved(Solution),
    Unsolvable,
    /// The limit came first; every solution has at least `lower_bound` pushes.
    Unknown {
        lower_bound: Option<u32>,
    },
    /// The solver produced a move string that does not solve the level (a bug; never
    /// printed as an answer).
    Broken(String),
}

/// Solves one position within `options`, checking the move string it gets.
pub fn solve_position(position: &Position, options: SolveOptions) -> Answer {
    let mode = if options.optimal {
        Mode::Optimal
    } else {
        Mode::Fast
    };
    let limits = Limits {
        time: options.time_limit,
        ..Limits::default()
    };
    let never = AtomicBool::new(false);
    let outcome = sokoban::solve(position, mode, &limits, &never, &mut |_| {});
    let solution = match outcome {
        Outcome::Solved(solution) => solution,
        Outcome::Unknown {
            best: Some(solution),
            ..
        } => Solution {
            optimal: false,
            ..solution
        },
        Outcome::Unsolvable => return Answer::Unsolvable,
        Outcome::Unknown { lower_bound, .. } => return Answer::Unknown { lower_bound },
    };
    match verify(position, &solution) {
        Ok(()) => Answer::Solved(solution),
        Err(why) => Answer::Broken(why),
    }
}

/// The solution replayed independently: legal, solving, with the counts it claims.
fn verify(position: &Position, solution: &Solution) -> Result<(), String> {
    let moves = parse_lurd(
        &solution.lurd,
        std::slice::from_ref(&(0..solution.lurd.len())),
    )
    .map_err(|at| format!("the solver wrote a non-LURD move at byte {}", at.start))?;
    let played = replay(position, &moves)
        .map_err(|e| format!("the solver's move {} {}", e.step + 1, e.why))?;
    if !played.solved || (played.pushes, played.moves) != (solution.pushes, solution.moves) {
        return Err("the solver's solution does not solve the level as it claims".into());
    }
    Ok(())
}

/// `10 s`, `0.5 s`: a limit as people write it.
pub fn seconds(limit: Duration) -> String {
    let value = format!("{:.3}", limit.as_secs_f64());
    let value = value.trim_end_matches('0').trim_end_matches('.');
    format!("{value} s")
}

/// What the solver adds to `check`: `unsolvable`, `solver-unknown` (information),
/// and recorded solutions worse than the solver's.
pub fn solver_diagnostics(
    text: &str,
    level: &Level,
    answer: &Answer,
    limit: Duration,
) -> Vec<Diagnostic> {
    let first_row = level
        .board
        .rows
        .first()
        .cloned()
        .unwrap_or(level.board_lines.clone());
    match answer {
        Answer::Solved(solution) => level::solution_vs_best(
            text,
            level,
            (solution.pushes, solution.moves, &solution.lurd),
        ),
        Answer::Unsolvable => vec![Diagnostic::new(
            Code::Unsolvable,
            first_row,
            "this level is unsolvable (proved by the solver)",
        )],
        Answer::Unknown { lower_bound } => vec![Diagnostic::new(
            Code::SolverUnknown,
            first_row,
            match lower_bound {
                Some(bound) => format!(
                    "unknown after {} (every solution has at least {bound} pushes)",
                    seconds(limit)
                ),
                None => format!("unknown after {}", seconds(limit)),
            },
        )],
        Answer::Broken(why) => vec![Diagnostic::new(
            Code::SolverUnknown,
            first_row,
            format!("not solved: {why}"),
        )],
    }
}

/// Solves `jobs` (index, position) at a time, calling `done` in index order.
pub fn solve_all(
    positions: &[(usize, Position)],
    options: SolveOptions,
    mut done: impl FnMut(usize, Answer, f64) -> io::Result<()>,
) -> io::Result<()> {
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, positions.len().max(1)) {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((_, position)) = positions.get(i) else {
                    break;
                };
                let started = Instant::now();
                let answer = solve_position(position, options);
                if send
                    .send((i, answer, started.elapsed().as_secs_f64()))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (i, answer, secs) in receive {
            waiting.insert(i, (answer, secs));
            while let Some((answer, secs)) = waiting.remove(&printed) {
                done(positions[printed].0, answer, secs)?;
                printed += 1;
            }
        }
        Ok(())
    })
}

/// `"Title"` for the answer line (quotes and backslashes escaped).
fn quoted(title: &str) -> String {
    format!("\"{}\"", title.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `boxls solve` on a file of levels.
pub fn solve(
    name: &str,
    text: &str,
    options: SolveOptions,
    json: bool,
) -> Result<ExitCode, Failure> {
    let collection = level::parse(text);
    let file = SourceFile::new(name, text);
    let mut stderr = StandardStream::stderr(color_for(io::stderr().is_terminal()));
    let mut errors = false;
    let mut positions = Vec::new();
    for level in &collection.levels {
        let diagnostics = level::level_diagnostics(text, level);
        let broken = diagnostics.iter().any(Diagnostic::is_error);
        for diagnostic in diagnostics.iter().filter(|d| d.is_error()) {
            emit_finding(&mut stderr, &file, &Finding::from(diagnostic))?;
        }
        errors |= broken;
        match level.board.position() {
            Some(position) if !broken => positions.push((level.index, position)),
            _ => {}
        }
    }
    if collection.levels.is_empty() {
        eprintln!("boxls: note: no levels in `{name}`");
    }
    let progress = io::stderr().is_terminal();
    let total = positions.len();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (mut answered, mut solved) = (0, 0);
    solve_all(&positions, options, |index, answer, secs| {
        let level = &collection.levels[index - 1];
        let title = level.title.as_ref().map(|t| t.text.as_str());
        answered += 1;
        if progress {
            eprint!("\r\x1b[K");
        }
        if let Answer::Broken(why) = &answer {
            errors = true;
            eprintln!("boxls: level {index}: internal error: {why}");
        }
        solved += usize::from(matches!(answer, Answer::Solved(_)));
        let line = if json {
            answer_json(index, title, &answer, secs)
        } else {
            answer_line(index, title, &answer, options.time_limit)
        };
        writeln!(out, "{line}")?;
        out.flush()?;
        if progress && answered < total {
            eprint!(
                "level {} of {total} · {solved} solved so far · solving…",
                answered + 1
            );
        }
        Ok(())
    })?;
    Ok(if errors {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn answer_line(index: usize, title: Option<&str>, answer: &Answer, limit: Duration) -> String {
    let title = title.map_or(String::new(), |t| format!(" {}", quoted(t)));
    let what = match answer {
        Answer::Solved(solution) => solution.lurd.clone(),
        Answer::Unsolvable => "no solution".to_string(),
        Answer::Unknown { .. } | Answer::Broken(_) => format!("unknown after {}", seconds(limit)),
    };
    format!("Level {index}{title}: {what}")
}

fn answer_json(index: usize, title: Option<&str>, answer: &Answer, secs: f64) -> String {
    /// The fields in the order the README gives them.
    #[derive(serde::Serialize)]
    struct Line<'a> {
        level: usize,
        title: Option<&'a str>,
        status: &'static str,
        solution: Option<&'a str>,
        pushes: Option<u32>,
        moves: Option<u32>,
        optimal: bool,
        seconds: f64,
    }
    let (status, solution) = match answer {
        Answer::Solved(solution) => ("solved", Some(solution)),
        Answer::Unsolvable => ("unsolvable", None),
        Answer::Unknown { .. } | Answer::Broken(_) => ("unknown", None),
    };
    let line = Line {
        level: index,
        title,
        status,
        solution: solution.map(|s| s.lurd.as_str()),
        pushes: solution.map(|s| s.pushes),
        moves: solution.map(|s| s.moves),
        optimal: solution.is_some_and(|s| s.optimal),
        seconds: (secs * 1000.0).round() / 1000.0,
    };
    serde_json::to_string(&line).unwrap_or_default()
}
