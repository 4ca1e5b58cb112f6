//! The `.box` parser: a line-driven state machine that never fails.
//!
//! It yields mazes one at a time (so a huge file can stream through the CLI) and
//! recovers from broken input so that one bad line produces one diagnostic, not a
//! cascade: a header-like line where a row is expected ends the maze early, a row-like
//! line where a header is expected becomes an extra row of the previous maze, and after
//! a bad header the following rows are absorbed silently.

use std::ops::Range;
use std::sync::Arc;

use super::diagnostic::{plural, Code, Diagnostic, Fix, TextEdit};
use super::lines::{first_line_break, line_spans, LineSpan};
use super::{Grid, Maze, SolutionLine};

/// The largest maze the format allows (`r * c`).
pub const MAX_CELLS: u64 = 16_777_216;

/// Everything the parser found in a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedFile {
    pub mazes: Vec<Maze>,
    /// Structural diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The `0 0` line, if present.
    pub terminator: Option<Range<usize>>,
}

/// Parses a whole file.
pub fn parse(text: &str) -> ParsedFile {
    let mut parser = MazeParser::new(text);
    let mut file = ParsedFile::default();
    for (maze, diagnostics) in parser.by_ref() {
        file.mazes.push(maze);
        file.diagnostics.extend(diagnostics);
    }
    let (terminator, trailing) = parser.finish();
    file.terminator = terminator;
    file.diagnostics.extend(trailing);
    file.diagnostics
        .sort_by_key(|d| (d.range.start, d.range.end));
    file
}

/// What one line is, as far as the grammar is concerned.
enum Line {
    Blank,
    Comment,
    Solution(SolutionLine),
    /// `; failure: <kind>: <why>`: the failure of a program `boxls stress` recorded.
    Failure(Range<usize>),
    Header {
        rows: Range<usize>,
        cols: Range<usize>,
    },
    Other,
}

/// A maze being assembled.
struct Builder {
    index: usize,
    header: Range<usize>,
    declared: Option<(usize, usize)>,
    rows: Vec<Range<usize>>,
    /// Rows found where a header was expected after the maze was complete.
    extra_rows: Vec<Range<usize>>,
    solution: Option<SolutionLine>,
    header_diagnostic: Option<Diagnostic>,
    /// Warnings about lines inside or after the maze (misplaced or duplicate solutions).
    notes: Vec<Diagnostic>,
}

enum State {
    /// Between mazes; `pending` is a complete maze that may still get a solution line
    /// or extra rows.
    ExpectHeader {
        pending: Option<Builder>,
    },
    /// Reading the declared rows of a maze.
    Rows {
        maze: Builder,
        remaining: usize,
    },
    /// After a bad header: rows are absorbed until the next header.
    SkipRows {
        maze: Builder,
    },
    AfterTerminator,
}

/// Decides, given a header line's start, whether a resumed parse stops before it.
type StopBefore<'a> = Box<dyn FnMut(usize) -> bool + 'a>;

/// Streams the mazes of a text; call [`MazeParser::finish`] afterwards for the
/// file-level diagnostics (terminator).
pub struct MazeParser<'a> {
    text: &'a str,
    lines: Box<dyn Iterator<Item = LineSpan> + 'a>,
    state: State,
    next_index: usize,
    terminator: Option<Range<usize>>,
    after_terminator: Option<Range<usize>>,
    last_content: Option<Range<usize>>,
    /// Diagnostics of stray lines, handed out with the next maze.
    stray: Vec<Diagnostic>,
    exhausted: bool,
    /// Incremental reparsing: where the rest of the text is known to parse as before.
    stop_before: Option<StopBefore<'a>>,
    stopped_at: Option<usize>,
}

impl<'a> MazeParser<'a> {
    pub fn new(text: &'a str) -> MazeParser<'a> {
        MazeParser::resume(text, 0, 1)
    }

    /// A parser that starts reading at byte `from`, which must be the start of a line
    /// read outside any maze (0, or a maze's header line), numbering mazes from
    /// `first_index`. Everything before `from` is ignored.
    pub(crate) fn resume(text: &'a str, from: usize, first_index: usize) -> MazeParser<'a> {
        // A byte order mark is not content.
        let from = if from == 0 && text.starts_with('\u{feff}') {
            3
        } else {
            from
        };
        MazeParser {
            text,
            lines: Box::new(line_spans(text, from)),
            state: State::ExpectHeader { pending: None },
            next_index: first_index,
            terminator: None,
            after_terminator: None,
            last_content: None,
            stray: Vec::new(),
            exhausted: false,
            stop_before: None,
            stopped_at: None,
        }
    }

    /// Makes the parser end before the first header line (two integers, not after the
    /// terminator) whose start `stop` accepts, as if the text ended there: the maze
    /// before it is closed, and [`MazeParser::finish`] reports no terminator problems.
    pub(crate) fn stop_before(mut self, stop: impl FnMut(usize) -> bool + 'a) -> Self {
        self.stop_before = Some(Box::new(stop));
        self
    }

    /// Where the parser stopped, if a [`MazeParser::stop_before`] predicate fired.
    pub(crate) fn stopped_at(&self) -> Option<usize> {
        self.stopped_at
    }

    /// The number the next maze would get.
    pub(crate) fn next_index(&self) -> usize {
        self.next_index
    }

    /// The terminator's range and the diagnostics about it. Meaningful once the
    /// iterator is exhausted. After a stop the terminator lies in the unread rest of
    /// the text, so only the pending stray-line diagnostics are returned.
    pub fn finish(mut self) -> (Option<Range<usize>>, Vec<Diagnostic>) {
        let mut diagnostics = std::mem::take(&mut self.stray);
        if self.stopped_at.is_some() {
            return (None, diagnostics);
        }
        if let Some(range) = self.after_terminator.clone() {
            diagnostics.push(Diagnostic::new(
                Code::AfterTerminator,
                range,
                "content after the `0 0` terminator is ignored",
            ));
        }
        if self.terminator.is_none() {
            diagnostics.push(missing_terminator(self.text, self.last_content.clone()));
        }
        (self.terminator, diagnostics)
    }

    fn classify(&self, content: Range<usize>) -> Line {
        let line = &self.text[content.clone()];
        let trimmed = line.trim_matches(is_blank);
        if trimmed.is_empty() {
            return Line::Blank;
        }
        let start = content.start + (line.len() - line.trim_start_matches(is_blank).len());
        if let Some(comment) = trimmed.strip_prefix(';') {
            return match solution_moves(comment) {
                Some(moves) => {
                    let moves_start =
                        start + 1 + (moves.as_ptr() as usize - comment.as_ptr() as usize);
                    Line::Solution(SolutionLine {
                        line: start..start + trimmed.len(),
                        moves: moves_start..moves_start + moves.len(),
                    })
                }
                None if recorded_failure(comment) => Line::Failure(start..start + trimmed.len()),
                None => Line::Comment,
            };
        }
        match header_tokens(trimmed) {
            Some((rows, cols)) => Line::Header {
                rows: start + rows.start..start + rows.end,
                cols: start + cols.start..start + cols.end,
            },
            None => Line::Other,
        }
    }

    /// Reads one line, unless the parse stops before it; returns a maze when one is
    /// finished.
    fn read(&mut self, span: LineSpan) -> Option<(Maze, Vec<Diagnostic>)> {
        let line = self.classify(span.content.clone());
        if self.stops_before(&line, span.content.start) {
            self.stopped_at = Some(span.content.start);
            return self.end();
        }
        self.step(span, line)
    }

    /// Only a header line resynchronises: whatever state precedes it, it closes that
    /// state and starts a maze, so the parse from there on no longer depends on it.
    fn stops_before(&mut self, line: &Line, start: usize) -> bool {
        let resynchronises =
            matches!(line, Line::Header { .. }) && !matches!(self.state, State::AfterTerminator);
        resynchronises && self.stop_before.as_mut().is_some_and(|stop| stop(start))
    }

    /// The end of the text (or of the part to read): closes the current maze.
    fn end(&mut self) -> Option<(Maze, Vec<Diagnostic>)> {
        self.exhausted = true;
        let state = std::mem::replace(&mut self.state, State::AfterTerminator);
        self.close(state)
    }

    /// Feeds one classified line; returns a maze when one is finished.
    fn step(&mut self, span: LineSpan, line: Line) -> Option<(Maze, Vec<Diagnostic>)> {
        let content = trim_end_range(self.text, span.content);
        if !matches!(line, Line::Blank) {
            self.last_content = Some(content.clone());
        }
        let state = std::mem::replace(&mut self.state, State::AfterTerminator);
        let (state, done) = match (state, line) {
            (State::AfterTerminator, Line::Header { .. } | Line::Other) => {
                let start = self
                    .after_terminator
                    .as_ref()
                    .map_or(content.start, |r| r.start);
                self.after_terminator = Some(start..content.end);
                (State::AfterTerminator, None)
            }
            (state, Line::Blank | Line::Comment) => (state, None),
            (
                State::ExpectHeader {
                    pending: Some(mut maze),
                },
                Line::Failure(line),
            ) => {
                maze.notes.push(recorded_failure_note(self.text, line));
                (
                    State::ExpectHeader {
                        pending: Some(maze),
                    },
                    None,
                )
            }
            (
                State::Rows {
                    mut maze,
                    remaining,
                },
                Line::Failure(line),
            ) => {
                maze.notes.push(recorded_failure_note(self.text, line));
                (State::Rows { maze, remaining }, None)
            }
            (state @ State::AfterTerminator, Line::Failure(_)) => (state, None),
            (state, Line::Failure(line)) => {
                self.stray.push(recorded_failure_note(self.text, line));
                (state, None)
            }
            (
                State::ExpectHeader {
                    pending: Some(mut maze),
                },
                Line::Solution(solution),
            ) if maze.solution.is_none() => {
                maze.solution = Some(solution);
                (
                    State::ExpectHeader {
                        pending: Some(maze),
                    },
                    None,
                )
            }
            (
                State::ExpectHeader {
                    pending: Some(mut maze),
                },
                Line::Solution(solution),
            ) => {
                maze.notes.push(duplicate_solution(self.text, &solution));
                (
                    State::ExpectHeader {
                        pending: Some(maze),
                    },
                    None,
                )
            }
            (
                State::Rows {
                    mut maze,
                    remaining,
                },
                Line::Solution(solution),
            ) => {
                maze.notes.push(misplaced_solution(
                    &solution,
                    "inside a maze: it belongs after the maze's last row",
                ));
                (State::Rows { maze, remaining }, None)
            }
            (state @ State::ExpectHeader { pending: None }, Line::Solution(solution)) => {
                self.stray.push(misplaced_solution(
                    &solution,
                    "before any maze: it belongs after a maze's last row",
                ));
                (state, None)
            }
            // After a bad header the maze has no grid to check a solution against; after
            // the terminator everything is ignored.
            (state @ (State::SkipRows { .. } | State::AfterTerminator), Line::Solution(_)) => {
                (state, None)
            }
            (
                State::Rows {
                    mut maze,
                    remaining,
                },
                Line::Other,
            ) => {
                maze.rows.push(content);
                if remaining == 1 {
                    (
                        State::ExpectHeader {
                            pending: Some(maze),
                        },
                        None,
                    )
                } else {
                    let remaining = remaining - 1;
                    (State::Rows { maze, remaining }, None)
                }
            }
            (State::SkipRows { mut maze }, Line::Other) => {
                maze.rows.push(content);
                (State::SkipRows { maze }, None)
            }
            (
                State::ExpectHeader {
                    pending: Some(mut maze),
                },
                Line::Other,
            ) if looks_like_row(&self.text[content.clone()]) => {
                maze.extra_rows.push(content);
                (
                    State::ExpectHeader {
                        pending: Some(maze),
                    },
                    None,
                )
            }
            (state, Line::Other) => {
                let done = self.close(state);
                let mut maze = self.start_maze(content.clone(), None);
                maze.header_diagnostic = Some(Diagnostic::new(
                    Code::BadHeader,
                    content,
                    "expected a header `rows columns` (two positive integers)",
                ));
                (State::SkipRows { maze }, done)
            }
            (state, Line::Header { rows, cols }) => {
                let done = self.close(state);
                let next = self.header(content, rows, cols);
                (next, done)
            }
        };
        self.state = state;
        done
    }

    fn header(&mut self, line: Range<usize>, rows: Range<usize>, cols: Range<usize>) -> State {
        let r = parse_count(&self.text[rows.clone()]);
        let c = parse_count(&self.text[cols.clone()]);
        if r == Some(0) && c == Some(0) {
            self.terminator = Some(line);
            return State::AfterTerminator;
        }
        let problem = match (r, c) {
            (None, _) => Some((rows, "the row count is too large".to_string())),
            (_, None) => Some((cols, "the column count is too large".to_string())),
            (Some(0), _) => Some((rows, "a maze needs at least 1 row".to_string())),
            (_, Some(0)) => Some((cols, "a maze needs at least 1 column".to_string())),
            (Some(r), Some(c)) if r.saturating_mul(c) > MAX_CELLS => Some((
                line.clone(),
                format!(
                    "{r}×{c} is {} cells; at most {MAX_CELLS} are allowed",
                    r as u128 * c as u128
                ),
            )),
            _ => None,
        };
        match (problem, r, c) {
            (None, Some(r), Some(c)) => {
                let maze = self.start_maze(line, Some((r as usize, c as usize)));
                State::Rows {
                    maze,
                    remaining: r as usize,
                }
            }
            (problem, _, _) => {
                let mut maze = self.start_maze(line.clone(), None);
                let (range, message) = problem.unwrap_or((line, "bad header".to_string()));
                maze.header_diagnostic = Some(Diagnostic::new(Code::BadHeader, range, message));
                State::SkipRows { maze }
            }
        }
    }

    fn start_maze(&mut self, header: Range<usize>, declared: Option<(usize, usize)>) -> Builder {
        let index = self.next_index;
        self.next_index += 1;
        Builder {
            index,
            header,
            declared,
            rows: Vec::new(),
            extra_rows: Vec::new(),
            solution: None,
            header_diagnostic: None,
            notes: Vec::new(),
        }
    }

    /// Finishes whatever maze the state holds.
    fn close(&mut self, state: State) -> Option<(Maze, Vec<Diagnostic>)> {
        match state {
            State::ExpectHeader { pending } => pending.map(|maze| finish_maze(self.text, maze)),
            // A bad header with no rows under it is a stray line, not a maze: it
            // keeps its diagnostic but takes no `Maze #k` number.
            State::SkipRows { maze } if maze.rows.is_empty() => {
                self.next_index -= 1;
                self.stray.extend(maze.header_diagnostic);
                None
            }
            State::Rows { maze, .. } | State::SkipRows { maze } => {
                Some(finish_maze(self.text, maze))
            }
            State::AfterTerminator => None,
        }
    }
}

impl Iterator for MazeParser<'_> {
    type Item = (Maze, Vec<Diagnostic>);

    fn next(&mut self) -> Option<Self::Item> {
        while !self.exhausted {
            let done = match self.lines.next() {
                Some(span) => self.read(span),
                None => self.end(),
            };
            if let Some((maze, mut diagnostics)) = done {
                diagnostics.splice(0..0, self.stray.drain(..));
                return Some((maze, diagnostics));
            }
        }
        None
    }
}

/// Checks a finished maze and builds its grid when it is structurally valid.
fn finish_maze(text: &str, maze: Builder) -> (Maze, Vec<Diagnostic>) {
    let mut diagnostics: Vec<Diagnostic> = maze.header_diagnostic.iter().cloned().collect();
    let end = [
        maze.rows.last().map(|r| r.end),
        maze.extra_rows.last().map(|r| r.end),
        maze.solution.as_ref().map(|s| s.line.end),
    ]
    .into_iter()
    .flatten()
    .fold(maze.header.end, usize::max);
    let grid = maze.declared.and_then(|declared| {
        let before = diagnostics.len();
        check_shape(text, &maze, declared, &mut diagnostics);
        let cells = check_cells(text, &maze, maze.rows.len() < declared.0, &mut diagnostics);
        (diagnostics.len() == before)
            .then_some(cells)
            .flatten()
            .map(|(walls, s, b, t)| {
                Arc::new(Grid {
                    rows: declared.0,
                    cols: declared.1,
                    walls,
                    player: s,
                    boxed: b,
                    target: t,
                })
            })
    });
    let last_row = maze.rows.last().or(maze.extra_rows.last()).map(|r| r.start);
    diagnostics.extend(maze.notes.iter().cloned().map(|mut note| {
        if let (Code::MisplacedSolution, Some(last_row)) = (note.code, last_row) {
            if note.range.start < last_row {
                let has_one = maze.solution.is_some();
                note.fix = Some(placed_solution(text, note.range.clone(), last_row, has_one));
            }
        }
        note
    }));
    let maze = Maze {
        index: maze.index,
        header: maze.header.clone(),
        declared: maze.declared,
        rows: maze.rows.iter().chain(&maze.extra_rows).cloned().collect(),
        solution: maze.solution,
        extent: maze.header.start..end,
        grid,
    };
    (maze, diagnostics)
}

/// Row count and row lengths against the header.
fn check_shape(
    text: &str,
    maze: &Builder,
    (rows, cols): (usize, usize),
    out: &mut Vec<Diagnostic>,
) {
    let all_rows: Vec<&Range<usize>> = maze.rows.iter().chain(&maze.extra_rows).collect();
    let lengths: Vec<usize> = all_rows
        .iter()
        .map(|r| text[(*r).clone()].chars().count())
        .collect();
    let common_length = lengths
        .first()
        .copied()
        .filter(|&l| lengths.iter().all(|&x| x == l));
    let set_header = |title_rows: usize, title_cols: usize| {
        let new = format!("{title_rows} {title_cols}");
        Fix::replace(format!("Set header to `{new}`"), maze.header.clone(), new)
    };
    let row_token = header_row_token(text, &maze.header);
    if maze.rows.len() < rows {
        let mut d = Diagnostic::new(
            Code::TooFewRows,
            row_token.clone(),
            format!(
                "the header declares {} but the maze has {}",
                plural(rows as u64, "row", "rows"),
                maze.rows.len()
            ),
        );
        if let Some(length) = common_length {
            d = d.with_fix(set_header(all_rows.len(), length));
        }
        out.push(d);
    }
    if let (Some(first), Some(last)) = (maze.extra_rows.first(), maze.extra_rows.last()) {
        let total = all_rows.len();
        let mut d = Diagnostic::new(
            Code::TooManyRows,
            first.start..last.end,
            format!(
                "the header declares {} but the maze has {total}",
                plural(rows as u64, "row", "rows")
            ),
        );
        if let Some(length) = common_length {
            d = d.with_fix(set_header(total, length));
        }
        out.push(d);
    }
    match common_length {
        // Every row (of several) agrees: the header is what is wrong, so say it once,
        // there. A lone row may as well be the one that is wrong.
        Some(common) if common != cols && all_rows.len() > 1 => out.push(
            Diagnostic::new(
                Code::RowLength,
                header_col_token(text, &maze.header),
                format!(
                    "every row has {}; the header declares {cols}",
                    plural(common as u64, "cell", "cells")
                ),
            )
            .with_fix(set_header(all_rows.len(), common)),
        ),
        _ => {
            for (range, &length) in all_rows.iter().zip(&lengths) {
                if length == cols {
                    continue;
                }
                let mut d = Diagnostic::new(
                    Code::RowLength,
                    (*range).clone(),
                    format!(
                        "this row has {}; the header declares {cols}",
                        plural(length as u64, "cell", "cells")
                    ),
                );
                if let Some(common) = common_length {
                    d = d.with_fix(set_header(all_rows.len(), common));
                }
                out.push(d);
            }
        }
    }
}

type Cells = (Vec<bool>, usize, usize, usize);

/// Cell characters and the S/B/T counts; returns the cells when they are all valid.
fn check_cells(
    text: &str,
    maze: &Builder,
    incomplete: bool,
    out: &mut Vec<Diagnostic>,
) -> Option<Cells> {
    let mut walls = Vec::new();
    let mut found: [Vec<(usize, usize)>; 3] = Default::default();
    // A lowercase `s`/`b`/`t` already has a bad-char fix; "missing S" would be noise.
    let mut lowercase = [false; 3];
    let mut valid = true;
    for (i, row) in maze.rows.iter().chain(&maze.extra_rows).enumerate() {
        // Extra rows may well be a maze whose header went missing: their S/B/T are not
        // duplicates of this maze's.
        let own_row = i < maze.rows.len();
        let cells = text[row.clone()].as_bytes();
        // Most rows are only rock and floor: one pass over the bytes, no per-char work.
        if cells.iter().all(|&b| b == b'#' || b == b'.') {
            walls.extend(cells.iter().map(|&b| b == b'#'));
            continue;
        }
        let mut bad_run: Option<(Range<usize>, bool)> = None;
        for (offset, ch) in text[row.clone()].char_indices() {
            let at = row.start + offset;
            if own_row {
                if let Some(kind) = symbol_kind(ch) {
                    found[kind].push((at, walls.len()));
                }
                if let Some(kind) =
                    symbol_kind(ch.to_ascii_uppercase()).filter(|_| ch.is_ascii_lowercase())
                {
                    lowercase[kind] = true;
                }
            }
            if matches!(ch, '#' | '.' | 'S' | 'B' | 'T') {
                if let Some((run, _)) = bad_run.take() {
                    out.push(bad_char(text, run));
                }
            } else {
                valid = false;
                let fixable = fix_char(ch).is_some();
                let end = at + ch.len_utf8();
                match &mut bad_run {
                    Some((run, same)) if *same == fixable => run.end = end,
                    _ => {
                        if let Some((run, _)) = bad_run.replace((at..end, fixable)) {
                            out.push(bad_char(text, run));
                        }
                    }
                }
            }
            walls.push(ch == '#');
        }
        if let Some((run, _)) = bad_run {
            out.push(bad_char(text, run));
        }
    }
    let names = [
        (Code::MissingPlayer, Code::DuplicatePlayer, 'S', "player"),
        (Code::MissingBox, Code::DuplicateBox, 'B', "box"),
        (Code::MissingTarget, Code::DuplicateTarget, 'T', "target"),
    ];
    for (kind, ((missing, duplicate, symbol, name), found)) in names.iter().zip(&found).enumerate()
    {
        if found.is_empty() {
            valid = false;
            // While rows are still missing (or typed in lower case) the symbol may
            // simply not be there yet.
            if !incomplete && !lowercase[kind] {
                out.push(Diagnostic::new(
                    *missing,
                    maze.header.clone(),
                    format!("this maze has no {name} (`{symbol}`)"),
                ));
            }
        }
        for &(at, _) in found.iter().skip(1) {
            valid = false;
            out.push(Diagnostic::new(
                *duplicate,
                at..at + 1,
                format!("a second {name} (`{symbol}`); a maze has exactly one"),
            ));
        }
    }
    valid.then(|| (walls, found[0][0].1, found[1][0].1, found[2][0].1))
}

fn symbol_kind(ch: char) -> Option<usize> {
    match ch {
        'S' => Some(0),
        'B' => Some(1),
        'T' => Some(2),
        _ => None,
    }
}

fn bad_char(text: &str, run: Range<usize>) -> Diagnostic {
    let found = &text[run.clone()];
    let shown: String = found.chars().flat_map(char::escape_debug).collect();
    let message = if found.chars().count() == 1 {
        format!("`{shown}` is not a cell: use `#` `.` `S` `B` `T`")
    } else {
        format!("`{shown}` are not cells: use `#` `.` `S` `B` `T`")
    };
    let diagnostic = Diagnostic::new(Code::BadChar, run.clone(), message);
    let fixed: Option<String> = found.chars().map(fix_char).collect();
    match fixed {
        Some(fixed) => {
            let title = format!("Replace with `{fixed}`");
            diagnostic.with_fix(Fix {
                title,
                edits: vec![TextEdit {
                    range: run,
                    new_text: fixed,
                }],
            })
        }
        None => diagnostic,
    }
}

fn fix_char(ch: char) -> Option<char> {
    match ch {
        's' | 'b' | 't' => Some(ch.to_ascii_uppercase()),
        ' ' | '-' | '_' => Some('.'),
        _ => None,
    }
}

fn is_blank(ch: char) -> bool {
    ch == ' ' || ch == '\t'
}

fn trim_end_range(text: &str, range: Range<usize>) -> Range<usize> {
    let trimmed = text[range.clone()].trim_end_matches(is_blank);
    range.start..range.start + trimmed.len()
}

/// `rows` and `cols` token ranges (relative to `line`) when `line` is `\d+ \d+`.
fn header_tokens(line: &str) -> Option<(Range<usize>, Range<usize>)> {
    let bytes = line.as_bytes();
    let digits = |from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let rows_end = digits(0);
    let gap_end = rows_end
        + bytes[rows_end..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    let cols_end = digits(gap_end);
    let well_formed =
        rows_end > 0 && gap_end > rows_end && cols_end > gap_end && cols_end == bytes.len();
    well_formed.then_some((0..rows_end, gap_end..cols_end))
}

/// The header's first number, for diagnostics about the row count.
fn header_row_token(text: &str, header: &Range<usize>) -> Range<usize> {
    let line = &text[header.clone()];
    let trimmed = line.trim_start_matches(is_blank);
    let start = header.start + (line.len() - trimmed.len());
    let len = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 {
        header.clone()
    } else {
        start..start + len
    }
}

/// The header's second number, for diagnostics about the row length.
fn header_col_token(text: &str, header: &Range<usize>) -> Range<usize> {
    let line = &text[header.clone()];
    match header_tokens(line.trim_matches(is_blank)) {
        Some((_, cols)) => {
            let start = header.start + (line.len() - line.trim_start_matches(is_blank).len());
            start + cols.start..start + cols.end
        }
        None => header.clone(),
    }
}

/// A `duplicate-solution` warning: the maze already has a solution line.
fn duplicate_solution(text: &str, solution: &SolutionLine) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::DuplicateSolution,
        solution.line.clone(),
        "this maze already has a `; solution:` line; this one is ignored",
    );
    d.fix = Some(Fix {
        title: "Delete this second solution line".to_string(),
        edits: vec![TextEdit {
            range: whole_line(text, solution.line.start),
            new_text: String::new(),
        }],
    });
    d
}

/// The fix for a solution line inside a maze's rows: moved after its last row, or
/// deleted when the maze already has one there.
fn placed_solution(text: &str, line: Range<usize>, last_row: usize, has_one: bool) -> Fix {
    let delete = TextEdit {
        range: whole_line(text, line.start),
        new_text: String::new(),
    };
    if has_one {
        return Fix {
            title: "Delete this solution line (the maze has one after its rows)".to_string(),
            edits: vec![delete],
        };
    }
    let last = whole_line(text, last_row);
    let moved = &text[delete.range.clone()];
    // Line breaks come from the lines involved (never from elsewhere in the file, so
    // the fix depends on this maze's text only): the moved line keeps its own, and
    // when the last row ends the text without one, it gets the moved line's.
    let (moved_break, last_break) = (break_of(moved), break_of(&text[last.clone()]));
    let line_break = [moved_break, last_break]
        .into_iter()
        .find(|b| !b.is_empty())
        .unwrap_or("\n");
    let content = moved.trim_end_matches(['\n', '\r']);
    let new_text = if last_break.is_empty() {
        format!("{line_break}{content}")
    } else {
        format!("{content}{line_break}")
    };
    let after_last = last.end;
    Fix {
        title: "Move this solution line after the maze's last row".to_string(),
        edits: vec![
            delete,
            TextEdit {
                range: after_last..after_last,
                new_text,
            },
        ],
    }
}

/// The line break that ends `line` (empty for none).
fn break_of(line: &str) -> &str {
    &line[line.trim_end_matches(['\n', '\r']).len()..]
}

/// The whole line holding byte `at`, with its line break.
fn whole_line(text: &str, at: usize) -> Range<usize> {
    let start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let end = line_spans(text, start)
        .next()
        .map_or(text.len(), |span| span.end);
    start..end
}

/// A `misplaced-solution` warning: a solution line where no maze has just ended.
fn misplaced_solution(solution: &SolutionLine, where_: &str) -> Diagnostic {
    Diagnostic::new(
        Code::MisplacedSolution,
        solution.line.clone(),
        format!("this `; solution:` line is ignored: it is {where_}"),
    )
}

/// The kinds of failure `boxls stress` records (its `Kind::name`s).
const FAILURE_KINDS: [&str; 5] = [
    "wrong-answer",
    "malformed-output",
    "runtime-error",
    "time-limit",
    "output-limit",
];

/// Whether a comment (the text after `;`) is `failure: <kind>: …` with a kind
/// `boxls stress` records: other `failure:` comments stay comments.
fn recorded_failure(comment: &str) -> bool {
    let rest = comment.trim_start_matches(is_blank);
    rest.strip_prefix("failure:")
        .and_then(|rest| rest.trim_start_matches(is_blank).split_once(':'))
        .is_some_and(|(kind, _)| FAILURE_KINDS.contains(&kind))
}

/// The `recorded-failure` error of a `; failure: <kind>: <why>` line: the line says
/// why the program failed, the message repeats it.
fn recorded_failure_note(text: &str, line: Range<usize>) -> Diagnostic {
    let why = text[line.clone()]
        .trim_start_matches(';')
        .trim_start_matches(is_blank)
        .trim_start_matches("failure:")
        .trim_matches(is_blank);
    Diagnostic::new(
        Code::RecordedFailure,
        line,
        format!("the program under test failed on this maze ({why}); this line is the record `boxls stress` wrote: delete it once the program is fixed"),
    )
}

/// A decimal count, `None` when it does not fit comfortably (over `u32`).
fn parse_count(digits: &str) -> Option<u64> {
    let value: u64 = digits.trim_start_matches('0').parse().unwrap_or(0);
    let too_long = digits.trim_start_matches('0').len() > 10;
    (!too_long && value <= u64::from(u32::MAX)).then_some(value)
}

/// The move string of a `; solution: <moves>` comment (text after the `;`).
fn solution_moves(comment: &str) -> Option<&str> {
    let rest = comment
        .trim_start_matches(is_blank)
        .strip_prefix("solution:")?;
    Some(rest.trim_matches(is_blank))
}

fn looks_like_row(line: &str) -> bool {
    // Mostly cells (or the typos bad-char fixes): "hello there" is not a row.
    let cellish = line
        .chars()
        .filter(|ch| "#.SBTsbt-_ ".contains(*ch))
        .count();
    !line.bytes().any(|b| b.is_ascii_digit()) && cellish * 2 >= line.chars().count()
}

/// The `missing-terminator` warning for `text` whose last non-blank line is
/// `last_content`; its fix appends `0 0` with the file's own line break.
pub(crate) fn missing_terminator(text: &str, last_content: Option<Range<usize>>) -> Diagnostic {
    let len = text.len();
    let range = last_content.unwrap_or(len..len);
    let line_break = first_line_break(text);
    let new_text = if text.is_empty() || text.ends_with(['\n', '\r']) {
        format!("0 0{line_break}")
    } else {
        format!("{line_break}0 0{line_break}")
    };
    Diagnostic::new(
        Code::MissingTerminator,
        range,
        "the file does not end with the `0 0` terminator",
    )
    .with_fix(Fix::replace("Append `0 0`", len..len, new_text))
}
