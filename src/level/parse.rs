//! The XSB/SOK reader: never fails. Lines are sorted into board rows, comments,
//! `Key: value` metadata, `Comment:` … `Comment-End:` blocks, `Solution:` moves and
//! free text; a level is a maximal run of board lines, and the text between two
//! levels is split into the first one's notes and the second one's title.
//!
//! The title rule is SOK's: the last non-blank line before a board, when a blank line
//! (or nothing) comes before it. The given collections write `; 12` alone before a
//! blank line (title `12`), and Microban's last level `; 155` then `'The Dungeon'`:
//! a text line under a run of `;` comments after a blank line is the title too (quotes
//! dropped), so the number stays a comment.

use std::ops::Range;

use super::board::Board;
use super::code::{Code, Diagnostic};
use super::rle::is_cell_char;
use crate::maze::line_spans;

/// A file of levels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    pub levels: Vec<Level>,
    /// `Key: value` lines before the first level (`Collection:`, `Author:` …).
    pub header_metadata: Vec<Meta>,
    /// What the reader itself found (unterminated comment blocks, repeated keys).
    pub diagnostics: Vec<Diagnostic>,
}

/// One level as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// 1-based position in the file (`Level k`).
    pub index: usize,
    pub title: Option<Title>,
    pub board: Board,
    /// From the first board line's start to the last one's content end.
    pub board_lines: Range<usize>,
    /// The level's `Key: value` lines (before its board, in its title's paragraph,
    /// and after it), `Title:` and `Solution:` included.
    pub metadata: Vec<Meta>,
    pub solutions: Vec<RecordedSolution>,
    /// From its title's paragraph (or board) to the end of its last note.
    pub extent: Range<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title {
    pub text: String,
    /// The title line's (or `Title:` value's) range.
    pub range: Range<usize>,
}

/// A `Key: value` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    pub key: String,
    pub key_range: Range<usize>,
    pub value: String,
    pub value_range: Range<usize>,
}

/// A `Solution:` line and the move lines under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedSolution {
    /// The `Solution` key.
    pub key: Range<usize>,
    /// The move text: the value on the key's line, then each following moves line
    /// (each trimmed; empty parts left out).
    pub parts: Vec<Range<usize>>,
    /// From the key to the end of the last moves line.
    pub extent: Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Blank,
    /// `;` or `::` (`raw` for `::`, which is never a title).
    Comment {
        raw: bool,
    },
    /// Inside (or opening and closing) a `Comment:` … `Comment-End:` block.
    Block,
    Board,
    Meta,
    /// Moves under a `Solution:` line.
    Moves,
    Text,
}

pub(super) struct Line {
    pub content: Range<usize>,
    pub kind: Kind,
}

/// Every line of `text` with what it is (for the formatter).
pub(super) fn lines_of(text: &str) -> Vec<Line> {
    classify(text, &mut Vec::new())
}

/// Reads every level of `text`.
pub fn parse(text: &str) -> Collection {
    let mut diagnostics = Vec::new();
    let lines = classify(text, &mut diagnostics);
    let runs = board_runs(&lines);
    let mut levels = Vec::with_capacity(runs.len());
    let mut header_metadata = Vec::new();
    let mut preambles = Vec::with_capacity(runs.len());
    let mut titles = Vec::with_capacity(runs.len());
    for (k, run) in runs.iter().enumerate() {
        let from = if k == 0 { 0 } else { runs[k - 1].end };
        let (title, preamble) = title_and_preamble(text, &lines, from, run.start);
        titles.push(title);
        preambles.push(preamble);
    }
    if let Some(&first) = preambles.first() {
        header_metadata = metadata_in(text, &lines, 0..first, &mut diagnostics);
    } else {
        metadata_in(text, &lines, 0..lines.len(), &mut diagnostics);
    }
    for (k, run) in runs.iter().enumerate() {
        let notes_end = preambles.get(k + 1).copied().unwrap_or(lines.len());
        let mut metadata = metadata_in(text, &lines, preambles[k]..run.start, &mut diagnostics);
        metadata.extend(metadata_in(
            text,
            &lines,
            run.end..notes_end,
            &mut diagnostics,
        ));
        report_repeated_keys(&metadata, &mut diagnostics);
        let rows = run
            .clone()
            .flat_map(|i| board_rows(text, lines[i].content.clone()))
            .collect();
        let title = metadata
            .iter()
            .find(|meta| meta.key.eq_ignore_ascii_case("title") && !meta.value.is_empty())
            .map(|meta| Title {
                text: meta.value.clone(),
                range: meta.value_range.clone(),
            })
            .or_else(|| titles[k].clone());
        let last_note = (run.end..notes_end)
            .rev()
            .find(|&i| lines[i].kind != Kind::Blank)
            .unwrap_or(run.end - 1);
        let first_line = preambles[k].min(run.start);
        levels.push(Level {
            index: k + 1,
            title,
            board: Board::from_rows(text, rows),
            board_lines: lines[run.start].content.start..lines[run.end - 1].content.end,
            solutions: solutions_in(text, &lines, run.end..notes_end),
            metadata,
            extent: lines[first_line].content.start..lines[last_note].content.end,
        });
    }
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    Collection {
        levels,
        header_metadata,
        diagnostics,
    }
}

fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let part = &text[range.clone()];
    let start = range.start + (part.len() - part.trim_start().len());
    let end = range.start + part.trim_end().len();
    start..end.max(start)
}

fn classify(text: &str, diagnostics: &mut Vec<Diagnostic>) -> Vec<Line> {
    let mut lines: Vec<Line> = line_spans(text, 0)
        .map(|span| Line {
            kind: Kind::Text,
            content: span.content,
        })
        .collect();
    let mut i = 0;
    let mut after_solution = false;
    while i < lines.len() {
        let body = &text[trimmed(text, lines[i].content.clone())];
        let kind = if body.is_empty() {
            Kind::Blank
        } else if body.starts_with("::") {
            Kind::Comment { raw: true }
        } else if body.starts_with(';') {
            Kind::Comment { raw: false }
        } else if is_board_line(body) {
            Kind::Board
        } else if let Some((key, value)) = split_meta(body) {
            if key.eq_ignore_ascii_case("comment") && value.is_empty() {
                if let Some(end) = block_end(text, &lines, i) {
                    for line in &mut lines[i..=end] {
                        line.kind = Kind::Block;
                    }
                    i = end + 1;
                    after_solution = false;
                    continue;
                }
                diagnostics.push(Diagnostic::new(
                    Code::UnterminatedComment,
                    trimmed(text, lines[i].content.clone()),
                    "`Comment:` without a `Comment-End:` line: read as a one-line comment",
                ));
            }
            Kind::Meta
        } else if after_solution && is_moves_line(body) {
            Kind::Moves
        } else if looks_like_broken_row(body) {
            Kind::Board
        } else {
            Kind::Text
        };
        after_solution = match kind {
            Kind::Meta => split_meta(body).is_some_and(|(key, _)| is_solution_key(key)),
            Kind::Moves => true,
            _ => false,
        };
        lines[i].kind = kind;
        i += 1;
    }
    lines
}

/// The `Comment-End:` line closing the block opened on line `open`.
fn block_end(text: &str, lines: &[Line], open: usize) -> Option<usize> {
    (open + 1..lines.len()).find(|&j| {
        text[trimmed(text, lines[j].content.clone())]
            .get(..11)
            .is_some_and(|head| head.eq_ignore_ascii_case("comment-end"))
    })
}

/// A board line as the Sokoban tools tell one: cell characters only, or cell
/// characters with run-length counts and `|` (at least one cell character).
fn is_board_line(body: &str) -> bool {
    body.chars().all(is_cell_char)
        || (body
            .chars()
            .all(|c| is_cell_char(c) || c.is_ascii_digit() || c == '|')
            && body.chars().any(is_cell_char))
}

/// A row with a typo in it (`#  x #`): walls, and mostly cell characters. Read as a
/// board row so that the unknown character is reported where it is.
fn looks_like_broken_row(body: &str) -> bool {
    let cells = body
        .chars()
        .filter(|&c| is_cell_char(c) || c.is_ascii_digit() || c == '|')
        .count();
    body.contains('#') && cells * 2 >= body.chars().count() && !body.contains(':')
}

fn is_moves_line(body: &str) -> bool {
    body.chars()
        .all(|c| "udlrUDLR".contains(c) || c.is_ascii_digit() || c.is_whitespace())
        && body.chars().any(|c| c.is_ascii_alphabetic())
}

fn is_solution_key(key: &str) -> bool {
    key.get(..8)
        .is_some_and(|head| head.eq_ignore_ascii_case("solution"))
}

/// `Key: value` (the key a word or a few, starting with a letter).
fn split_meta(body: &str) -> Option<(&str, &str)> {
    let (key, value) = body.split_once(':')?;
    let key = key.trim();
    let word = |c: char| c.is_alphanumeric() || " -_().".contains(c);
    (key.chars().next()?.is_alphabetic() && key.len() <= 40 && key.chars().all(word))
        .then(|| (key, value.trim()))
}

/// Maximal runs of board lines, as line index ranges.
fn board_runs(lines: &[Line]) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].kind == Kind::Board {
            let start = i;
            while i < lines.len() && lines[i].kind == Kind::Board {
                i += 1;
            }
            runs.push(start..i);
        } else {
            i += 1;
        }
    }
    runs
}

/// The rows of one board line: its `|`-separated parts, trailing blanks dropped,
/// empty parts skipped.
pub(super) fn board_rows(text: &str, content: Range<usize>) -> Vec<Range<usize>> {
    let mut rows = Vec::new();
    let mut start = content.start;
    for part in text[content.clone()].split('|') {
        let end = start + part.trim_end().len();
        if end > start {
            rows.push(start..end);
        }
        start += part.len() + 1;
    }
    rows
}

/// For the board starting on line `board` (text since line `from`): its title, and the
/// first line that belongs to it (its title's paragraph, or the paragraph touching the
/// board), `board` when none does.
fn title_and_preamble(
    text: &str,
    lines: &[Line],
    from: usize,
    board: usize,
) -> (Option<Title>, usize) {
    let Some(last) = (from..board).rev().find(|&i| lines[i].kind != Kind::Blank) else {
        return (None, board);
    };
    let paragraph = (from..=last)
        .rev()
        .take_while(|&i| lines[i].kind != Kind::Blank)
        .last()
        .unwrap_or(last);
    let qualifies = match lines[last].kind {
        Kind::Comment { raw: false } => paragraph == last,
        Kind::Text => {
            (paragraph..last).all(|i| matches!(lines[i].kind, Kind::Comment { raw: false }))
        }
        _ => false,
    };
    if qualifies {
        return (Some(title_of(text, &lines[last])), paragraph);
    }
    if last + 1 == board {
        // A paragraph touching the board is its own (`Title: X` right above it), after
        // any solution lines of the level before.
        let after_moves = (paragraph..board)
            .rev()
            .find(|&i| matches!(lines[i].kind, Kind::Moves) || is_solution_line(text, &lines[i]))
            .map_or(paragraph, |i| i + 1);
        return (None, after_moves);
    }
    (None, board)
}

fn is_solution_line(text: &str, line: &Line) -> bool {
    line.kind == Kind::Meta
        && split_meta(&text[trimmed(text, line.content.clone())])
            .is_some_and(|(key, _)| is_solution_key(key))
}

/// A title line's text: a comment without its `;`, a text without its quotes.
fn title_of(text: &str, line: &Line) -> Title {
    let mut range = trimmed(text, line.content.clone());
    if text[range.clone()].starts_with(';') {
        range = trimmed(text, range.start + 1..range.end);
    }
    let body = &text[range.clone()];
    if body.len() >= 2 && body.starts_with('\'') && body.ends_with('\'') {
        range = range.start + 1..range.end - 1;
    }
    Title {
        text: text[range.clone()].to_string(),
        range,
    }
}

fn metadata_in(
    text: &str,
    lines: &[Line],
    range: Range<usize>,
    _diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Meta> {
    lines[range]
        .iter()
        .filter(|line| line.kind == Kind::Meta)
        .filter_map(|line| meta_of(text, line.content.clone()))
        .collect()
}

fn meta_of(text: &str, content: Range<usize>) -> Option<Meta> {
    let body_range = trimmed(text, content);
    let body = &text[body_range.clone()];
    let colon = body.find(':')?;
    let key_range = trimmed(text, body_range.start..body_range.start + colon);
    let value_range = trimmed(text, body_range.start + colon + 1..body_range.end);
    Some(Meta {
        key: text[key_range.clone()].to_string(),
        key_range,
        value: text[value_range.clone()].to_string(),
        value_range,
    })
}

/// A key given twice in one level (comments and solutions may repeat).
fn report_repeated_keys(metadata: &[Meta], diagnostics: &mut Vec<Diagnostic>) {
    for (i, meta) in metadata.iter().enumerate() {
        let repeatable = meta.key.eq_ignore_ascii_case("comment") || is_solution_key(&meta.key);
        let first = metadata[..i]
            .iter()
            .find(|earlier| earlier.key.eq_ignore_ascii_case(&meta.key));
        if let (false, Some(first)) = (repeatable, first) {
            diagnostics.push(Diagnostic::new(
                Code::DuplicateMetadata,
                meta.key_range.clone(),
                format!(
                    "`{}` is given twice for this level; the first (`{}`) is used",
                    meta.key, first.value
                ),
            ));
        }
    }
}

fn solutions_in(text: &str, lines: &[Line], range: Range<usize>) -> Vec<RecordedSolution> {
    let mut out = Vec::new();
    let mut i = range.start;
    while i < range.end {
        if !is_solution_line(text, &lines[i]) {
            i += 1;
            continue;
        }
        let Some(meta) = meta_of(text, lines[i].content.clone()) else {
            i += 1;
            continue;
        };
        let mut parts = Vec::new();
        if !meta.value_range.is_empty() {
            parts.push(meta.value_range.clone());
        }
        let mut end = meta.value_range.end.max(meta.key_range.end);
        i += 1;
        while i < range.end && lines[i].kind == Kind::Moves {
            let part = trimmed(text, lines[i].content.clone());
            end = part.end;
            parts.push(part);
            i += 1;
        }
        out.push(RecordedSolution {
            key: meta.key_range.clone(),
            parts,
            extent: meta.key_range.start..end,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles(text: &str) -> Vec<Option<String>> {
        parse(text)
            .levels
            .iter()
            .map(|level| level.title.as_ref().map(|t| t.text.clone()))
            .collect()
    }

    #[test]
    fn titles_follow_the_sok_rule_and_the_collections() {
        let microban =
            "; Microban\n; by DWS\n\n; 1\n\n###\n#@$.#\n###\n\n; 155\n'The Dungeon'\n\n###\n";
        assert_eq!(
            titles(microban),
            [Some("1".into()), Some("The Dungeon".into())]
        );
        // A comment right under another comment is not a title; a text line alone is.
        assert_eq!(titles("; a\n; b\n#@$.#\n"), [None]);
        assert_eq!(titles("Nice one\n#@$.#\n"), [Some("Nice one".into())]);
        assert_eq!(titles("Author: me\nNice\n#@$.#\n"), [None]);
        // `Title:` wins over a title line.
        assert_eq!(titles("Line\n\n#@$.#\nTitle: Key\n"), [Some("Key".into())]);
    }

    #[test]
    fn solutions_metadata_and_blocks_go_with_their_level() {
        let text =
            "#@$.#\nAuthor: A\nSolution:\nrR\nrr\n\nComment:\n#@$.#\nComment-End:\n\nT2\n\n#@$.#\n";
        let file = parse(text);
        assert_eq!(file.levels.len(), 2);
        let first = &file.levels[0];
        assert_eq!(first.metadata.len(), 2);
        let moves: Vec<_> = first.solutions[0]
            .parts
            .iter()
            .map(|r| &text[r.clone()])
            .collect();
        assert_eq!(moves, ["rR", "rr"]);
        assert_eq!(file.levels[1].title.as_ref().unwrap().text, "T2");
        assert!(file.diagnostics.is_empty());
    }

    #[test]
    fn run_length_rows_split_at_bars() {
        let file = parse("5#|#@$.#|5#\n");
        assert_eq!(file.levels[0].board.to_rows(), ["#####", "#@$.#", "#####"]);
    }
}
