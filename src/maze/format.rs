//! `boxls fmt` and `textDocument/formatting`: the canonical layout of a `.box` file, as
//! a pure function of its text.
//!
//! The rules (SPEC §5): a header becomes `rows cols`, set to the size its rows agree on;
//! trailing blanks go; blank lines inside a maze go, runs of them elsewhere become one,
//! and a maze is followed by one blank line when another maze comes after it; a
//! `; solution:` line reads `; solution: <moves>`; the file ends with `0 0` and a line
//! break. Cells and the words of comments are never changed, every line keeps its own
//! line break (new lines take the file's first one), and formatting twice changes
//! nothing more than formatting once.

use std::ops::Range;

use super::diagnostic::TextEdit;
use super::lines::{first_line_break, line_spans};
use super::parse::{parse, MAX_CELLS};
use super::Maze;

/// The text laid out canonically.
pub fn format(text: &str) -> String {
    let parsed = parse(text);
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let new_break = first_line_break(text);
    let mut lines = classify_lines(text, bom, &parsed.mazes, parsed.terminator.as_ref());
    if parsed.terminator.is_none() {
        if let Some(last) = lines.last_mut().filter(|line| line.line_break.is_empty()) {
            last.line_break = new_break;
        }
        lines.push(OutLine {
            text: "0 0".to_string(),
            line_break: new_break,
            kind: Kind::Content,
        });
    }
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..bom]);
    for line in layout(lines, new_break) {
        out.push_str(&line.text);
        out.push_str(line.line_break);
    }
    out
}

/// The one edit that turns `text` into [`format`](fn@format)`(text)`, covering whole lines; `None`
/// when the text is already formatted.
pub fn format_edit(text: &str) -> Option<TextEdit> {
    whole_lines_edit(text, &format(text))
}

/// The one edit, covering whole lines of both texts, that turns `old` into `new`;
/// `None` when they are equal. Shared with the Sokoban formatter.
pub(crate) fn whole_lines_edit(old_text: &str, new_text: &str) -> Option<TextEdit> {
    if old_text == new_text {
        return None;
    }
    let (old, new) = (old_text.as_bytes(), new_text.as_bytes());
    let mut prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    while !is_line_start(old, prefix) || !is_line_start(new, prefix) {
        prefix -= 1;
    }
    let limit = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(limit)
        .take_while(|(a, b)| a == b)
        .count();
    while !is_line_start(old, old.len() - suffix) || !is_line_start(new, new.len() - suffix) {
        suffix -= 1;
    }
    Some(TextEdit {
        range: prefix..old.len() - suffix,
        new_text: new_text[prefix..new.len() - suffix].to_string(),
    })
}

/// Whether a line starts at byte `at` (LSP line breaks: `\n`, `\r\n`, `\r`).
fn is_line_start(text: &[u8], at: usize) -> bool {
    at == 0
        || at == text.len()
        || text[at - 1] == b'\n'
        || (text[at - 1] == b'\r' && text[at] != b'\n')
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A blank line outside any maze.
    Blank,
    Content,
    /// The last line of a maze that another maze follows.
    EndsMaze,
}

struct OutLine<'a> {
    text: String,
    line_break: &'a str,
    kind: Kind,
}

/// Each line of the text, rewritten on its own; blank lines inside mazes dropped.
fn classify_lines<'a>(
    text: &'a str,
    from: usize,
    mazes: &[Maze],
    terminator: Option<&Range<usize>>,
) -> Vec<OutLine<'a>> {
    let mut out = Vec::new();
    let mut next_maze = 0;
    for span in line_spans(text, from) {
        let start = span.content.start;
        while mazes.get(next_maze).is_some_and(|m| m.extent.end <= start) {
            next_maze += 1;
        }
        let maze = mazes
            .get(next_maze)
            .filter(|m| m.extent.start <= start && start < m.extent.end);
        let content = text[span.content.clone()].trim_end_matches(is_blank);
        let line_break = &text[span.content.end..span.end];
        let (text, kind) = match maze {
            _ if content.is_empty() && maze.is_some() => continue,
            _ if content.is_empty() => (String::new(), Kind::Blank),
            Some(maze) if start == maze.header.start => {
                let until = mazes
                    .get(next_maze + 1)
                    .map(|next| next.extent.start)
                    .or(terminator.map(|t| t.start))
                    .unwrap_or(text.len());
                (header(text, maze, until), Kind::Content)
            }
            _ if terminator.is_some_and(|t| t.start == start) => ("0 0".to_string(), Kind::Content),
            _ => (normalise_solution(content), Kind::Content),
        };
        let ends_maze =
            maze.is_some_and(|m| span.content.end >= m.extent.end) && next_maze + 1 < mazes.len();
        let kind = if ends_maze { Kind::EndsMaze } else { kind };
        out.push(OutLine {
            text,
            line_break,
            kind,
        });
    }
    out
}

/// Blank lines: none at the start or end, never two in a row, one after a maze that
/// another follows; and a line break after the last line.
fn layout<'a>(lines: Vec<OutLine<'a>>, new_break: &'a str) -> Vec<OutLine<'a>> {
    let mut out: Vec<OutLine<'a>> = Vec::with_capacity(lines.len() + 4);
    let mut blank_owed: Option<&'a str> = None;
    for line in lines {
        match line.kind {
            Kind::Blank => {
                if !out.is_empty() && blank_owed.is_none() {
                    blank_owed = Some(line.line_break);
                }
            }
            Kind::Content | Kind::EndsMaze => {
                if let Some(line_break) = blank_owed.take() {
                    out.push(OutLine {
                        text: String::new(),
                        line_break,
                        kind: Kind::Blank,
                    });
                }
                if line.kind == Kind::EndsMaze {
                    blank_owed = Some(if line.line_break.is_empty() {
                        new_break
                    } else {
                        line.line_break
                    });
                }
                out.push(line);
            }
        }
    }
    if let Some(last) = out.last_mut().filter(|line| line.line_break.is_empty()) {
        last.line_break = new_break;
    }
    out
}

/// A maze's header as `rows cols`: the size its rows agree on, else the declared one;
/// an unreadable header is left as it is. `until` is where the next maze (or the
/// terminator) starts.
fn header(text: &str, maze: &Maze, until: usize) -> String {
    let Some(declared) = maze.declared else {
        return text[maze.header.clone()]
            .trim_end_matches(is_blank)
            .to_string();
    };
    let (rows, cols) = match agreed_size(text, maze) {
        // Another row count would move a solution line the maze did not record into
        // it, or out of it: the next run would lay the file out differently.
        Some((rows, _)) if rows != declared.0 && stray_solution(text, maze, until) => declared,
        Some(size) => size,
        None => declared,
    };
    format!("{rows} {cols}")
}

/// Whether a `; solution:` line other than the recorded one lies in the maze's part
/// of the text.
fn stray_solution(text: &str, maze: &Maze, until: usize) -> bool {
    let recorded = maze.solution.as_ref().map(|line| line.line.start);
    line_spans(text, maze.header.end)
        .take_while(|line| line.content.start < until)
        .filter(|line| Some(line.content.start) != recorded)
        .any(|line| is_solution_line(&text[line.content]))
}

/// The rows' count and common length, when every row has the same length and setting
/// the header to them keeps every line where it is (no solution line before a row, the
/// size within the format's limit).
fn agreed_size(text: &str, maze: &Maze) -> Option<(usize, usize)> {
    let mut lengths = maze
        .rows
        .iter()
        .map(|row| text[row.clone()].chars().count());
    let first = lengths.next()?;
    if !lengths.all(|length| length == first) {
        return None;
    }
    let last_row = maze.rows.last()?.start;
    if maze
        .solution
        .as_ref()
        .is_some_and(|line| line.line.start < last_row)
    {
        return None;
    }
    let rows = maze.rows.len();
    (rows as u64 * first as u64 <= MAX_CELLS).then_some((rows, first))
}

/// The moves of a `; solution: moves` line (any spacing), trimmed.
fn solution_moves(line: &str) -> Option<&str> {
    line.trim_start_matches(is_blank)
        .strip_prefix(';')
        .map(|comment| comment.trim_start_matches(is_blank))
        .and_then(|comment| comment.strip_prefix("solution:"))
        .map(|moves| moves.trim_matches(is_blank))
}

fn is_solution_line(line: &str) -> bool {
    solution_moves(line).is_some()
}

/// `;solution:  moves` → `; solution: moves`; other lines unchanged.
fn normalise_solution(line: &str) -> String {
    match solution_moves(line) {
        Some("") => "; solution:".to_string(),
        Some(moves) => format!("; solution: {moves}"),
        None => line.to_string(),
    }
}

fn is_blank(ch: char) -> bool {
    ch == ' ' || ch == '\t'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, expected: &str) {
        let formatted = format(text);
        assert_eq!(formatted, expected);
        assert_eq!(format(&formatted), formatted, "idempotent");
        let edited = match format_edit(text) {
            Some(edit) => {
                let mut out = text.to_string();
                out.replace_range(edit.range, &edit.new_text);
                out
            }
            None => text.to_string(),
        };
        assert_eq!(edited, expected, "the edit gives the same text");
    }

    #[test]
    fn a_formatted_file_is_left_alone() {
        let text = "; Maze 1\n1 7\nSB....T\n; solution: EEEEE\n\n1 3\nSBT\n0 0\n";
        check(text, text);
        assert_eq!(format_edit(text), None);
    }

    #[test]
    fn headers_take_the_size_the_rows_agree_on() {
        check("  3\t 4 \n#SBT#\n#...#\n0 0\n", "2 5\n#SBT#\n#...#\n0 0\n");
        // Rows that disagree: only the spacing changes.
        check("1   5\nSBT\n....\n0 0\n", "1 5\nSBT\n....\n0 0\n");
    }

    #[test]
    fn blank_lines_trailing_blanks_and_solution_spacing() {
        check(
            "\n\n1 3 \n\nSBT\t\n;solution:   EE  \n\n\n; next\n1 3\nSBT\n1 3\nSBT\n\n\n0 0\n\n\n",
            "1 3\nSBT\n; solution: EE\n\n; next\n1 3\nSBT\n\n1 3\nSBT\n\n0 0\n",
        );
    }

    #[test]
    fn the_terminator_is_ensured_with_the_files_line_breaks() {
        check("1 3\r\nSBT", "1 3\r\nSBT\r\n0 0\r\n");
        check("1 3\rSBT\r", "1 3\rSBT\r0 0\r");
        check("", "0 0\n");
        check("  0   0  ", "0 0\n");
    }

    #[test]
    fn each_line_keeps_its_own_line_break() {
        check(
            "1 3\r\nSBT\n1 3\rSBT\r0 0",
            "1 3\r\nSBT\n\n1 3\rSBT\r0 0\r\n",
        );
    }

    #[test]
    fn cells_comments_and_broken_headers_are_kept() {
        let text = "; a comment  with  spaces\nx y\n#s B\n0 0\nafter\n";
        check(text, text);
    }

    #[test]
    fn a_row_count_that_would_move_a_solution_line_is_kept() {
        // The solution line inside maze 1's rows would become its recorded solution.
        check(
            "2 1\nS\n; solution: \n1 1\n\n  0   0  \n",
            "2 1\nS\n\n; solution:\n1 1\n\n0 0\n",
        );
    }

    #[test]
    fn the_edit_covers_whole_lines() {
        let edit = format_edit("1 3\nSBT  \n0 0\n").expect("trailing blanks");
        assert_eq!(edit.range, 4..10);
        assert_eq!(edit.new_text, "SBT\n");
    }
}
