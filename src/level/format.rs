//! Canonical XSB: trailing blanks trimmed, runs of blank lines made one (none at the
//! start or end), one blank line before each level after the first, metadata, comments
//! and `Comment:` blocks kept as written (blank lines inside a block too), board rows
//! kept, expanded or compressed. The file's first line break is used throughout.
//! Formatting never changes what the file reads as, and twice is once.

use super::parse::{board_rows, lines_of, parse, Kind, Level};
use super::rle::{compress_row, decode_row, expand_row};
use crate::maze::{first_line_break, line_spans, whole_lines_edit, TextEdit};

/// What the formatter does with run-length rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RunLength {
    /// Each row as written.
    #[default]
    Keep,
    /// Every row written out cell by cell, one row per line.
    Expand,
    /// Every run of two or more equal cells counted (`4#`), one row per line.
    Compress,
}

/// The text laid out canonically.
pub fn format(text: &str, run_length: RunLength) -> String {
    let level_starts: Vec<usize> = parse(text)
        .levels
        .iter()
        .skip(1)
        .map(|level| level.extent.start)
        .collect();
    let mut out: Vec<String> = Vec::new();
    let last_is_blank = |out: &[String]| out.last().is_some_and(|line| line.is_empty());
    for line in lines_of(text) {
        let written = text[line.content.clone()].trim_end();
        match line.kind {
            Kind::Blank => {
                if !out.is_empty() && !last_is_blank(&out) {
                    out.push(String::new());
                }
                continue;
            }
            _ if level_starts.binary_search(&line.content.start).is_ok()
                && !out.is_empty()
                && !last_is_blank(&out) =>
            {
                out.push(String::new());
            }
            _ => {}
        }
        match (line.kind, run_length) {
            (Kind::Board, RunLength::Expand | RunLength::Compress) => {
                for row in board_rows(text, line.content.clone()) {
                    out.push(rewrite_row(&text[row.clone()], run_length));
                }
            }
            _ => out.push(written.to_string()),
        }
    }
    while last_is_blank(&out) {
        out.pop();
    }
    let line_break = first_line_break(text);
    let mut formatted = String::with_capacity(text.len());
    for line in out {
        formatted.push_str(&line);
        formatted.push_str(line_break);
    }
    formatted
}

/// A row expanded or compressed; a row with a problem is left as written (rewriting
/// it would drop what the diagnostic points at).
fn rewrite_row(row: &str, run_length: RunLength) -> String {
    if !decode_row(row, 0..row.len()).problems.is_empty() {
        return row.to_string();
    }
    match run_length {
        RunLength::Compress => compress_row(row),
        _ => expand_row(row),
    }
}

/// The edit that writes one level's board rows expanded or compressed, one row per
/// line (as [`format()`] does for the whole file); `None` when every row is written that
/// way already, or for [`RunLength::Keep`]. A row with a problem stays as written.
pub fn board_edit(text: &str, level: &Level, run_length: RunLength) -> Option<TextEdit> {
    if run_length == RunLength::Keep {
        return None;
    }
    let lines = level.board_lines.clone();
    let mut rows = Vec::new();
    let mut changed = false;
    for line in line_spans(&text[..lines.end], lines.start) {
        let written = board_rows(text, line.content.clone());
        // `|` between rows becomes a line break.
        changed |= written.len() > 1;
        for row in written {
            let rewritten = rewrite_row(&text[row.clone()], run_length);
            changed |= rewritten != text[row];
            rows.push(rewritten);
        }
    }
    changed.then(|| TextEdit {
        range: lines,
        new_text: rows.join(first_line_break(text)),
    })
}

/// The one edit, covering whole lines, that turns `text` into its formatted text;
/// `None` when it is formatted already.
pub fn format_edit(text: &str, run_length: RunLength) -> Option<TextEdit> {
    whole_lines_edit(text, &format(text, run_length))
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    const MESSY: &str = "\n\n; Header  \n\n\n; 1\n\n####  \n#@$.#|####\nSolution: R  \n; 2\n\n\n\n  5#\n  #@*#\nComment:\n\nkept\nComment-End:\n\n\n";

    #[test]
    fn layout_is_canonical() {
        expect![[r#"
            ; Header

            ; 1

            ####
            #@$.#|####
            Solution: R
            ; 2

              5#
              #@*#
            Comment:

            kept
            Comment-End:
        "#]]
        .assert_eq(&format(MESSY, RunLength::Keep));
    }

    #[test]
    fn run_length_expanded_or_compressed() {
        expect![[r#"
            ####
            #@$.#
            ####
              #####
              #@*#
        "#]]
        .assert_eq(&format("####\n#@$.#|4#\n  5#\n  #@*#\n", RunLength::Expand));
        expect![[r#"
            4#
            #@$.#
            4#
            2 5#
            2 #@*#
        "#]]
        .assert_eq(&format(
            "####\n#@$.#|4#\n  5#\n  #@*#\n",
            RunLength::Compress,
        ));
    }

    #[test]
    fn one_levels_board_expanded_or_compressed() {
        let text = "; 1\n\n4#|#@$.#\n4#\nSolution: R\n\n; 2\n\n####\n#@*#\n####\n";
        let levels = parse(text).levels;
        let shown = |level: usize, mode| {
            board_edit(text, &levels[level], mode).map(|edit| {
                let mut edited = text.to_string();
                edited.replace_range(edit.range, &edit.new_text);
                edited
            })
        };
        expect![[r#"
            Some(
                "; 1\n\n####\n#@$.#\n####\nSolution: R\n\n; 2\n\n####\n#@*#\n####\n",
            )
        "#]]
        .assert_debug_eq(&shown(0, RunLength::Expand));
        expect![[r#"
            Some(
                "; 1\n\n4#\n#@$.#\n4#\nSolution: R\n\n; 2\n\n####\n#@*#\n####\n",
            )
        "#]]
        .assert_debug_eq(&shown(0, RunLength::Compress));
        assert_eq!(shown(1, RunLength::Expand), None, "written out already");
        assert_eq!(shown(0, RunLength::Keep), None);
        expect![[r#"
            Some(
                "; 1\n\n4#|#@$.#\n4#\nSolution: R\n\n; 2\n\n4#\n#@*#\n4#\n",
            )
        "#]]
        .assert_debug_eq(&shown(1, RunLength::Compress));
    }

    #[test]
    fn twice_is_once_and_the_edit_gives_the_same_text() {
        for mode in [RunLength::Keep, RunLength::Expand, RunLength::Compress] {
            let once = format(MESSY, mode);
            assert_eq!(format(&once, mode), once);
            let edit = format_edit(MESSY, mode).unwrap();
            let mut edited = MESSY.to_string();
            edited.replace_range(edit.range, &edit.new_text);
            assert_eq!(edited, once);
        }
    }
}
