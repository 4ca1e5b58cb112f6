//! `boxls judge`: checks an answer file in the POJ 1475 output format against its input,
//! accepting any optimal answer. Pure: two texts in, a verdict out.
//!
//! Per maze k the output must hold `Maze #k`, then the move string or `Impossible.`, then
//! a blank line. A move string is accepted when it replays legally, leaves the box on
//! `T` and takes the fewest pushes and then the fewest moves; it need not be the string
//! `boxls solve` prints. Trailing spaces, tabs and `\r` at line ends and blank lines
//! at the very end are tolerated; anything else out of place is a rejection.

use std::fmt;
use std::sync::Arc;

use crate::maze::{line_spans, parse, plural, Grid};
use crate::solver::{self, Solution};

/// Why an answer file was rejected: where, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The maze the problem is about, when it is about one.
    pub maze: Option<usize>,
    /// 1-based line of the output file (one past the last line at its end).
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.maze {
            Some(k) => write!(f, "Maze #{k}: {} (output line {})", self.reason, self.line),
            None => write!(f, "output line {}: {}", self.line, self.reason),
        }
    }
}

/// The judgement of a whole answer file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// How many mazes the input holds.
    pub mazes: usize,
    /// Empty when the answer is accepted; in output order.
    pub rejections: Vec<Rejection>,
}

impl Verdict {
    pub fn accepted(&self) -> bool {
        self.rejections.is_empty()
    }
}

/// The input itself cannot be judged against (it has errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadInput(pub String);

/// Judges `output` as the answer to `input`.
pub fn judge(input: &str, output: &str) -> Result<Verdict, BadInput> {
    let grids = input_grids(input)?;
    let optima: Vec<Option<Solution>> = grids.iter().map(solver::solve_path).collect();
    Ok(judge_against(&grids, &optima, output))
}

/// The mazes of an input without errors.
fn input_grids(input: &str) -> Result<Vec<Grid>, BadInput> {
    let parsed = parse(input);
    if let Some(error) = parsed.diagnostics.iter().find(|d| d.is_error()) {
        let line = line_number(input, error.range.start);
        return Err(BadInput(format!(
            "the input has errors (line {line}: {}); `boxls check` lists them",
            error.message
        )));
    }
    Ok(parsed
        .mazes
        .into_iter()
        .filter_map(|maze| maze.grid)
        .map(Arc::unwrap_or_clone)
        .collect())
}

fn line_number(text: &str, offset: usize) -> usize {
    line_spans(text, 0)
        .take_while(|line| line.end <= offset)
        .count()
        + 1
}

/// Judges `output` against mazes whose optimal answers are known.
pub fn judge_against(grids: &[Grid], optima: &[Option<Solution>], output: &str) -> Verdict {
    if let Some(rejection) = control_character(output) {
        return verdict(grids, vec![rejection]);
    }
    let mut lines = OutputLines::new(output);
    let mut rejections = Vec::new();
    let reject = |maze, line, reason: String| Rejection { maze, line, reason };
    for (k, (grid, optimum)) in (1..).zip(grids.iter().zip(optima)) {
        let expected = format!("Maze #{k}");
        match lines.next() {
            Some((_, line)) if line == expected => {}
            Some((at, line)) => {
                let reason = match maze_number(line) {
                    Some(found) => format!("expected `{expected}`, found `Maze #{found}`"),
                    None => format!("expected `{expected}`, found `{}`", shown(line)),
                };
                rejections.push(reject(Some(k), at, reason));
                return verdict(grids, rejections);
            }
            None => {
                let reason = format!("missing: the output ends before `{expected}`");
                rejections.push(reject(Some(k), lines.end_line(), reason));
                return verdict(grids, rejections);
            }
        }
        let Some((at, answer)) = lines.next() else {
            let reason = format!("no answer: the output ends after `{expected}`");
            rejections.push(reject(Some(k), lines.end_line(), reason));
            return verdict(grids, rejections);
        };
        if let Err(reason) = check_answer(grid, optimum.as_ref(), answer) {
            rejections.push(reject(Some(k), at, reason));
        }
        match lines.next() {
            Some((_, "")) => {}
            Some((at, line)) => {
                let reason = format!(
                    "expected a blank line after the answer, found `{}`",
                    shown(line)
                );
                rejections.push(reject(Some(k), at, reason));
                return verdict(grids, rejections);
            }
            None => {
                let reason = "missing the blank line after the answer".to_string();
                rejections.push(reject(Some(k), lines.end_line(), reason));
                return verdict(grids, rejections);
            }
        }
    }
    if let Some((at, line)) = lines.find(|(_, line)| !line.is_empty()) {
        let reason = match maze_number(line) {
            Some(found) => format!(
                "`Maze #{found}` is extra: the input has {}",
                plural(grids.len() as u64, "maze", "mazes")
            ),
            None => format!("unexpected output after the last maze: `{}`", shown(line)),
        };
        rejections.push(reject(None, at, reason));
    }
    verdict(grids, rejections)
}

/// The first control character in the output (tabs and the line breaks and `\r` that
/// end lines aside): an answer is never binary, whatever else it holds, and a judge
/// must say so rather than fail to read it. Names the maze whose section it is in.
fn control_character(output: &str) -> Option<Rejection> {
    let mut maze = None;
    for (at, line) in OutputLines::new(output) {
        if let Some(k) = maze_number(line) {
            maze = usize::try_from(k).ok();
        }
        let Some((offset, c)) = line
            .char_indices()
            .find(|&(_, c)| c.is_control() && c != '\t')
        else {
            continue;
        };
        let column = line[..offset].chars().count() + 1;
        let what = match c {
            '\0' => "a NUL byte".to_string(),
            c => format!("the control character U+{:04X}", u32::from(c)),
        };
        return Some(Rejection {
            maze,
            line: at,
            reason: format!(
                "column {column} holds {what}; an answer is text (`Maze #k`, the moves or \
                 `Impossible.`, a blank line)"
            ),
        });
    }
    None
}

fn verdict(grids: &[Grid], rejections: Vec<Rejection>) -> Verdict {
    Verdict {
        mazes: grids.len(),
        rejections,
    }
}

/// Checks one answer line against the maze and its optimum (`None`: impossible).
fn check_answer(grid: &Grid, optimum: Option<&Solution>, answer: &str) -> Result<(), String> {
    if answer == "Impossible." {
        return match optimum {
            None => Ok(()),
            Some(best) => Err(format!(
                "answered `Impossible.`, but the maze is solvable with {} and {}",
                plural(best.pushes, "push", "pushes"),
                plural(best.moves, "move", "moves")
            )),
        };
    }
    if answer.is_empty() {
        return Err("the answer line is empty (expected moves or `Impossible.`)".to_string());
    }
    let replayed = solver::replay(grid, answer).map_err(|illegal| {
        let index = answer[..illegal.offset].chars().count() + 1;
        format!("move {index} is illegal: {}", illegal.message)
    })?;
    if !replayed.solved {
        let (row, col) = grid.coords(replayed.box_at);
        return Err(format!(
            "the moves leave the box at row {}, column {}, not on the target",
            row + 1,
            col + 1
        ));
    }
    let counts = |pushes, moves| {
        format!(
            "{} and {}",
            plural(pushes, "push", "pushes"),
            plural(moves, "move", "moves")
        )
    };
    let Some(best) = optimum else {
        return Err(format!(
            "the moves solve the maze ({}), though the judge found it impossible: a bug \
             in boxls, please report it",
            counts(replayed.pushes, replayed.moves)
        ));
    };
    match (replayed.pushes, replayed.moves).cmp(&(best.pushes, best.moves)) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Greater => Err(format!(
            "not optimal: {}; the optimum is {}",
            counts(replayed.pushes, replayed.moves),
            counts(best.pushes, best.moves)
        )),
        std::cmp::Ordering::Less => Err(format!(
            "the moves ({}) beat the judge's optimum ({}): a bug in boxls, please report it",
            counts(replayed.pushes, replayed.moves),
            counts(best.pushes, best.moves)
        )),
    }
}

/// `k` of a `Maze #k` line.
fn maze_number(line: &str) -> Option<u64> {
    line.strip_prefix("Maze #")?.parse().ok()
}

/// A line as quoted in a message: control characters escaped, long ones cut.
fn shown(line: &str) -> String {
    const MAX: usize = 60;
    let escaped: String = line.chars().flat_map(char::escape_debug).collect();
    match escaped.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &escaped[..cut]),
        None => escaped,
    }
}

/// The output's lines with trailing spaces, tabs and `\r` removed, numbered from 1.
struct OutputLines<'a> {
    lines: std::iter::Enumerate<std::str::Split<'a, char>>,
    count: usize,
}

impl<'a> OutputLines<'a> {
    fn new(output: &'a str) -> OutputLines<'a> {
        // A final line break ends the last line; it does not start an empty one.
        let output = output.strip_suffix('\n').unwrap_or(output);
        let count = if output.is_empty() {
            0
        } else {
            output.split('\n').count()
        };
        let mut lines = output.split('\n').enumerate();
        if output.is_empty() {
            lines.next();
        }
        OutputLines { lines, count }
    }

    /// The line number just past the end of the output.
    fn end_line(&self) -> usize {
        self.count + 1
    }
}

impl<'a> Iterator for OutputLines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        let (index, line) = self.lines.next()?;
        Some((index + 1, line.trim_end_matches([' ', '\t', '\r'])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "1 7\nSB....T\n1 7\nSB..#.T\n0 0\n";

    fn reasons(output: &str) -> Vec<String> {
        let verdict = judge(INPUT, output).expect("valid input");
        verdict.rejections.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_expected_output_is_accepted() {
        assert_eq!(
            reasons("Maze #1\nEEEEE\n\nMaze #2\nImpossible.\n\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            reasons("Maze #1 \r\nEEEEE\r\n\r\nMaze #2\r\nImpossible.\r\n\r\n\n\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn wrong_answers_are_named_by_maze() {
        assert_eq!(
            reasons("Maze #1\nImpossible.\n\nMaze #2\nEE\n\n"),
            [
                "Maze #1: answered `Impossible.`, but the maze is solvable with 5 pushes and 5 moves (output line 2)",
                "Maze #2: the moves leave the box at row 1, column 4, not on the target (output line 5)",
            ]
        );
        assert_eq!(
            reasons("Maze #1\nEEnEE\n\nMaze #2\nImpossible.\n\n"),
            ["Maze #1: move 3 is illegal: `n` walks off the edge of the maze (output line 2)"]
        );
    }

    #[test]
    fn malformed_output_is_rejected_where_it_goes_wrong() {
        assert_eq!(
            reasons("Maze #1\nEEEEE\nMaze #2\nImpossible.\n\n"),
            ["Maze #1: expected a blank line after the answer, found `Maze #2` (output line 3)"]
        );
        assert_eq!(
            reasons("Maze #1\nEEEEE\n\nMaze #2\nImpossible."),
            ["Maze #2: missing the blank line after the answer (output line 6)"]
        );
        assert_eq!(
            reasons("Maze #2\nImpossible.\n\n"),
            ["Maze #1: expected `Maze #1`, found `Maze #2` (output line 1)"]
        );
        assert_eq!(
            reasons(""),
            ["Maze #1: missing: the output ends before `Maze #1` (output line 1)"]
        );
        assert_eq!(
            reasons("Maze #1\nEEEEE\n\nMaze #2\nImpossible.\n\nMaze #3\nE\n\n"),
            ["output line 7: `Maze #3` is extra: the input has 2 mazes"]
        );
    }

    #[test]
    fn control_characters_are_a_rejection_saying_what_and_where() {
        assert_eq!(
            reasons("Maze #1\nEEEEE\n\nMaze #2\nImpossible.\n\n\x07bell"),
            ["Maze #2: column 1 holds the control character U+0007; an answer is text (`Maze #k`, the moves or `Impossible.`, a blank line) (output line 7)"]
        );
        assert_eq!(
            reasons("Maze #1\nEEEEE\n\nMaze #2\nImpo\0ssible.\n\n"),
            ["Maze #2: column 5 holds a NUL byte; an answer is text (`Maze #k`, the moves or `Impossible.`, a blank line) (output line 5)"]
        );
        assert_eq!(
            reasons("Maze #1\nEE\rEEE\n\nMaze #2\nImpossible.\n\n"),
            ["Maze #1: column 3 holds the control character U+000D; an answer is text (`Maze #k`, the moves or `Impossible.`, a blank line) (output line 2)"]
        );
        // Tabs and `\r\n` stay tolerated where they were.
        assert_eq!(
            reasons("Maze #1\t\r\nEEEEE\r\n\r\nMaze #2\nImpossible.\n\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn an_input_with_errors_cannot_be_judged() {
        let error = judge("; bad\n1 3\nSBx\n0 0\n", "").expect_err("bad input");
        assert!(
            error
                .0
                .starts_with("the input has errors (line 2: this maze has no target"),
            "{}",
            error.0
        );
    }
}
