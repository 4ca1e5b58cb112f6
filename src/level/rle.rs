//! Run-length rows: `4#` is `####`, a count before any cell character. Decoding keeps
//! each cell's source range (a run's cells share its token's range); expanding and
//! compressing rewrite one row's text.

use std::ops::Range;
use std::str::CharIndices;

use super::board::RowProblem;

/// The most cells one row may decode to: a typo like `9999999#` must not allocate a
/// row of that size.
pub const MAX_ROW_CELLS: usize = 65_536;

/// Whether `c` is a cell character of the XSB dialect (floor as space, `-` or `_`).
pub fn is_cell_char(c: char) -> bool {
    matches!(c, ' ' | '-' | '_' | '#' | '$' | '.' | '@' | '*' | '+')
}

/// One row decoded: each cell's character and source range, and what was wrong.
#[derive(Debug, Default)]
pub struct DecodedRow {
    pub cells: Vec<(char, Range<usize>)>,
    pub problems: Vec<RowProblem>,
}

/// Decodes the row `text[range]` (trailing blanks already excluded).
pub fn decode_row(text: &str, range: Range<usize>) -> DecodedRow {
    let mut row = DecodedRow::default();
    let mut runs = Runs::new(text, range.clone());
    for Run { c, at, count } in runs.by_ref() {
        let (times, start) = count.unwrap_or((1, at));
        let token = start..at + c.len_utf8();
        if times == 0 {
            row.problems.push(RowProblem::ZeroCount(token));
            continue;
        }
        let room = MAX_ROW_CELLS - row.cells.len();
        if times > room {
            row.problems.push(RowProblem::TooLong(token.clone()));
        }
        if !is_cell_char(c) {
            row.problems
                .push(RowProblem::UnknownCharacter(at..at + c.len_utf8(), c));
        }
        for _ in 0..times.min(room) {
            row.cells.push((c, token.clone()));
        }
    }
    if let Some((_, start)) = runs.pending {
        row.problems.push(RowProblem::StrayCount(start..range.end));
    }
    row
}

/// A character of a counted text (a row, a LURD move text) that is not a digit, with
/// the count written right before it: (value, its first digit's offset).
pub(super) struct Run {
    pub c: char,
    pub at: usize,
    pub count: Option<(usize, usize)>,
}

/// The [`Run`]s of `text[range]`, in order.
pub(super) struct Runs<'a> {
    chars: CharIndices<'a>,
    start: usize,
    /// The count read and not yet followed by a character: once the runs are all
    /// taken, a count with nothing after it.
    pub pending: Option<(usize, usize)>,
}

impl Runs<'_> {
    pub fn new(text: &str, range: Range<usize>) -> Runs<'_> {
        Runs {
            chars: text[range.clone()].char_indices(),
            start: range.start,
            pending: None,
        }
    }
}

impl Iterator for Runs<'_> {
    type Item = Run;

    fn next(&mut self) -> Option<Run> {
        for (offset, c) in self.chars.by_ref() {
            let at = self.start + offset;
            let Some(digit) = c.to_digit(10) else {
                let count = self.pending.take();
                return Some(Run { c, at, count });
            };
            let (value, start) = self.pending.unwrap_or((0, at));
            let value = value.saturating_mul(10).saturating_add(digit as usize);
            self.pending = Some((value, start));
        }
        None
    }
}

/// The row with every run written out (`3#-` → `###-`); characters other than digits
/// are copied as they are.
pub fn expand_row(row: &str) -> String {
    let decoded = decode_row(row, 0..row.len());
    decoded.cells.iter().map(|(c, _)| *c).collect()
}

/// The row with every run of two or more equal cells counted (`####-` → `4#-`); the
/// run keeps its own character, so `expand_row(compress_row(r)) == expand_row(r)`.
pub fn compress_row(row: &str) -> String {
    count_runs(&expand_row(row))
}

/// Cells written out (no counts in them) with every run of two or more equal cells
/// counted (`####-` → `4#-`).
pub fn count_runs(cells: &str) -> String {
    let mut out = String::with_capacity(cells.len());
    let mut chars = cells.chars().peekable();
    while let Some(c) = chars.next() {
        let mut run = 1;
        while chars.peek() == Some(&c) {
            chars.next();
            run += 1;
        }
        if run > 1 {
            out.push_str(&run.to_string());
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_expand_and_compress() {
        assert_eq!(expand_row("4#"), "####");
        assert_eq!(expand_row("#3-$12 #"), "#---$            #");
        assert_eq!(compress_row("####  $.#"), "4#2 $.#");
        assert_eq!(compress_row("4#"), "4#");
        assert_eq!(expand_row(&compress_row("##@$ . ___#")), "##@$ . ___#");
    }

    #[test]
    fn a_run_shares_its_token_range() {
        let row = decode_row("x3#$", 1..4);
        let ranges: Vec<_> = row.cells.iter().map(|(_, r)| r.clone()).collect();
        assert_eq!(ranges, [1..3, 1..3, 1..3, 3..4]);
        assert!(row.problems.is_empty());
    }

    #[test]
    fn bad_counts_are_reported_not_obeyed() {
        let row = decode_row("#0$#12", 0..6);
        assert_eq!(
            row.problems,
            [RowProblem::ZeroCount(1..3), RowProblem::StrayCount(4..6)]
        );
        let huge = decode_row("99999999999999999999999#", 0..24);
        assert_eq!(huge.cells.len(), MAX_ROW_CELLS);
        assert_eq!(huge.problems, [RowProblem::TooLong(0..24)]);
    }
}
