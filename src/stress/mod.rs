//! `boxls stress`, the pure part: what a run's outcome means (accepted, or which kind
//! of failure), where a wrong answer parts from an optimal one, the failure file's
//! text, and the shrinker (`shrink`). Running programs is the command line's business.

pub mod inputs;
pub mod shrink;

use std::fmt;

use crate::judge::{judge_against, Rejection};
use crate::maze::{plural, Grid};
use crate::solver::{self, Solution};

/// How a run ended, as the runner saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The program exited with this code.
    Exited(i32),
    /// A signal killed it.
    Signaled(i32),
    /// It ran past the time limit (milliseconds) and its process group was killed.
    TimedOut(u64),
    /// It wrote more than the output limit (bytes) and its process group was killed.
    OutputLimit(usize),
}

/// The kinds of failure a shrunk maze must keep (a wrong answer stays a wrong answer,
/// a crash stays a crash).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Well-formed output with a wrong answer: illegal, box not on T, suboptimal, or a
    /// wrong `Impossible.`.
    WrongAnswer,
    /// Output not in the POJ format (a missing blank line, `maze #1`, garbage).
    Malformed,
    /// A nonzero exit code or a signal.
    RuntimeError,
    TimeLimit,
    OutputLimit,
}

impl Kind {
    /// The name used in reports and `--json` (kebab-case, stable).
    pub fn name(self) -> &'static str {
        match self {
            Kind::WrongAnswer => "wrong-answer",
            Kind::Malformed => "malformed-output",
            Kind::RuntimeError => "runtime-error",
            Kind::TimeLimit => "time-limit",
            Kind::OutputLimit => "output-limit",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A run that failed: its kind and what the judge (or the exit status) says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: Kind,
    /// One line per problem: the judge's rejections, or the exit status.
    pub detail: Vec<String>,
}

/// Whether a run failed, and how: the exit status first, then the judge on stdout.
pub fn classify(
    grids: &[Grid],
    optima: &[Option<Solution>],
    ended: Ended,
    stdout: &[u8],
) -> Option<Failure> {
    let status = |kind, line: String| {
        Some(Failure {
            kind,
            detail: vec![line],
        })
    };
    match ended {
        Ended::Exited(0) => {}
        Ended::Exited(code) => return status(Kind::RuntimeError, format!("exit code {code}")),
        Ended::Signaled(signal) => {
            return status(Kind::RuntimeError, format!("killed by signal {signal}"))
        }
        Ended::TimedOut(ms) => {
            return status(Kind::TimeLimit, format!("still running after {ms} ms"))
        }
        Ended::OutputLimit(bytes) => {
            return status(Kind::OutputLimit, format!("wrote more than {bytes} bytes"))
        }
    }
    let output = String::from_utf8_lossy(stdout);
    let verdict = judge_against(grids, optima, &output);
    if verdict.accepted() {
        return None;
    }
    let lines: Vec<&str> = output.split('\n').collect();
    let wrong = verdict
        .rejections
        .iter()
        .all(|rejection| is_wrong_answer(rejection, &lines));
    Some(Failure {
        kind: if wrong {
            Kind::WrongAnswer
        } else {
            Kind::Malformed
        },
        detail: verdict.rejections.iter().map(ToString::to_string).collect(),
    })
}

/// A rejection of maze k's answer line (line 3k-1 of well-formed output, the judge
/// having checked everything before it) holding only moves or `Impossible.`.
fn is_wrong_answer(rejection: &Rejection, lines: &[&str]) -> bool {
    let Some(k) = rejection.maze else {
        return false;
    };
    if rejection.line != 3 * k - 1 {
        return false;
    }
    let Some(line) = lines.get(rejection.line - 1) else {
        return false;
    };
    let answer = line.trim_end_matches([' ', '\t', '\r']);
    answer == "Impossible." || is_move_string(answer)
}

/// The program's answer to maze k (1-based) when its output is laid out well enough to
/// find it: the line after `Maze #k`.
pub fn answer_of(stdout: &[u8], k: usize) -> Option<String> {
    let output = String::from_utf8_lossy(stdout);
    let mut lines = output
        .split('\n')
        .map(|l| l.trim_end_matches([' ', '\t', '\r']));
    let header = format!("Maze #{k}");
    lines.find(|line| *line == header)?;
    lines.next().map(str::to_string)
}

/// Where a legal but not optimal answer goes wrong: the 1-based index of the first
/// move after which the optimum can no longer be reached (every move before it can
/// still be completed optimally). `None` when the answer is optimal or illegal.
pub fn parting(grid: &Grid, optimum: &Solution, moves: &str) -> Option<usize> {
    let frames = solver::replay_frames(grid, moves).ok()?;
    let best = (optimum.pushes, optimum.moves);
    let mut done = (0u64, 0u64);
    for (index, (frame, letter)) in frames.iter().skip(1).zip(moves.chars()).enumerate() {
        done = (done.0 + u64::from(letter.is_ascii_uppercase()), done.1 + 1);
        let rest = if frame.boxed == grid.target {
            Some((0, 0))
        } else {
            let at = Grid {
                player: frame.player,
                boxed: frame.boxed,
                ..grid.clone()
            };
            solver::solve_path(&at).map(|s| (s.pushes, s.moves))
        };
        if rest.is_none_or(|(p, m)| (done.0 + p, done.1 + m) != best) {
            return Some(index + 1);
        }
    }
    None
}

/// Counts of a solution as reports show them.
pub fn counts(pushes: u64, moves: u64) -> String {
    format!(
        "{} · {}",
        plural(pushes, "push", "pushes"),
        plural(moves, "move", "moves")
    )
}

/// The optimum as a report states it: counts and one optimal move string.
pub fn expected(optimum: Option<&Solution>) -> String {
    match optimum {
        Some(best) => format!("{} ({})", counts(best.pushes, best.moves), best.path),
        None => "Impossible.".to_string(),
    }
}

/// The free cells of a grid (S, B and T included): the size the shrinker reports.
pub fn free_cells(grid: &Grid) -> usize {
    grid.walls.iter().filter(|&&wall| !wall).count()
}

/// A maze as POJ input: header, rows, and the `0 0` terminator when `last`.
pub fn input_text(grids: &[Grid]) -> String {
    let mut text = String::new();
    for grid in grids {
        text.push_str(&format!("{} {}\n", grid.rows, grid.cols));
        for row in grid.to_rows() {
            text.push_str(&row);
            text.push('\n');
        }
    }
    text.push_str("0 0\n");
    text
}

/// What the failure file says about the failure, one comment line each.
pub struct FailureNote<'a> {
    pub command: &'a str,
    pub seed: u64,
    pub test: u64,
    pub failure: &'a Failure,
    pub expected: String,
    pub got: String,
    /// The last lines of the program's stderr, if it wrote any.
    pub stderr_tail: &'a str,
    /// `rows×cols (free cells) → rows×cols (free cells), steps, runs`.
    pub shrunk: String,
}

/// The longest comment line the failure file holds (in characters); a longer one is
/// cut and says so. The file stays small whatever the program printed.
pub const MAX_COMMENT: usize = 1000;

/// The failure file: the comment block, the maze, the program's own answer recorded
/// as `; solution:` when it is a move string or `Impossible.` (so an editor checks
/// it), a `; failure: <kind>: <why>` line when there is no answer to check (which
/// `boxls check` reports as `recorded-failure`), and `0 0`. Every comment is one line
/// of printable text (control characters escaped) of at most [`MAX_COMMENT`] characters.
pub fn failure_file(grid: &Grid, note: &FailureNote<'_>, answer: Option<&str>) -> String {
    let mut text = String::new();
    let mut comment = |line: &str| {
        text.push_str("; ");
        text.push_str(&bounded(&printable(line), MAX_COMMENT));
        text.push('\n');
    };
    comment("boxls stress: the smallest maze found that this program gets wrong");
    comment(&format!("command: {}", note.command));
    comment(&format!("seed: {}, test {}", note.seed, note.test));
    comment(&format!("kind: {}", note.failure.kind));
    comment(&format!("expected: {}", note.expected));
    comment(&format!("got: {}", note.got));
    for line in &note.failure.detail {
        comment(&format!("judge: {line}"));
    }
    for line in note.stderr_tail.lines() {
        comment(&format!("stderr: {line}"));
    }
    comment(&format!("shrunk: {}", note.shrunk));
    text.push_str(&input_text(std::slice::from_ref(grid)).replace("0 0\n", ""));
    let checked = answer.filter(|a| is_move_string(a) || *a == crate::analysis::IMPOSSIBLE);
    match checked {
        Some(moves) if note.failure.kind == Kind::WrongAnswer => {
            text.push_str(&format!("; solution: {moves}\n"));
        }
        _ => {
            let why = note.failure.detail.first().map_or("", String::as_str);
            let line = format!("failure: {}: {why}", note.failure.kind);
            text.push_str(&format!("; {}\n", bounded(&printable(&line), MAX_COMMENT)));
        }
    }
    text.push_str("0 0\n");
    text
}

/// At most `max` characters of `line`; a longer one is cut and says how long it was.
pub fn bounded(line: &str, max: usize) -> String {
    let count = line.chars().count();
    if count <= max {
        return line.to_string();
    }
    let kept: String = line.chars().take(max).collect();
    format!("{kept}… (cut: {count} characters)")
}

/// Whether `answer` is made of move letters only (and so can be a `; solution:` line).
pub fn is_move_string(answer: &str) -> bool {
    !answer.is_empty() && answer.chars().all(|c| "nsewNSEW".contains(c))
}

/// `text` as one line safe for a comment or a terminal: control characters (line
/// breaks, ESC, CR, NUL…) escaped.
pub fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
