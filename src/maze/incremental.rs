//! Incremental reparsing: after an edit, re-read only the mazes the edit can have changed.
//!
//! Two facts about the parser make this exact, not approximate:
//!
//! - **Restart.** A maze's header line closes whatever precedes it, and the parser's
//!   state after that line depends on nothing before it (only on the maze number). So
//!   if the text up to the end of some maze's header line is unchanged, a fresh parser
//!   started at that header, with that maze's number, continues exactly like the old
//!   parse did; and the mazes before it are unchanged, because that same line still
//!   closes them. The edit may touch the header line of the maze it is in (turning it
//!   into a row changes the maze before), so the restart is the last maze whose whole
//!   header line — line break included — lies before the edit.
//! - **Resynchronisation.** Past the edit the new text is the old text shifted by the
//!   length difference. When the new parse reaches a header line (two integers, not
//!   after the terminator) that sits, shifted, where an old maze's header started, both
//!   parses close what they had and start the same maze from the same text: everything
//!   from there on is the old parse shifted, with maze numbers offset.
//!
//! Between the two, the new text is parsed for real. Diagnostics stay sorted by range,
//! as [`parse`] leaves them: the kept ones before the restart all start before it, the
//! re-read ones lie between restart and resynchronisation, the shifted ones after.

use std::ops::Range;

use super::parse::{missing_terminator, parse, MazeParser, ParsedFile};
use super::{Code, Diagnostic, Maze};

/// An edit in both coordinate systems: old bytes `start..old_end` became new bytes
/// `start..new_end`.
#[derive(Debug, Clone, Copy)]
struct Edit {
    start: usize,
    old_end: usize,
    new_end: usize,
}

impl Edit {
    /// The edit, if it is consistent with `new_text` (on char boundaries, in range).
    fn new(new_text: &str, old: Range<usize>, inserted_len: usize) -> Option<Edit> {
        let new_end = old.start.checked_add(inserted_len)?;
        let fits = old.start <= old.end
            && new_end <= new_text.len()
            && new_text.is_char_boundary(old.start)
            && new_text.is_char_boundary(new_end);
        fits.then_some(Edit {
            start: old.start,
            old_end: old.end,
            new_end,
        })
    }

    /// The old position of new byte `at` (which must be at or after `new_end`).
    fn to_old(self, at: usize) -> usize {
        at - self.new_end + self.old_end
    }

    /// Moves an old offset at or after `old_end` to where it is in the new text.
    fn shift(self, at: usize) -> usize {
        at - self.old_end + self.new_end
    }

    fn shift_range(self, range: &mut Range<usize>) {
        *range = self.shift(range.start)..self.shift(range.end);
    }

    fn changes_length(self) -> bool {
        self.old_end - self.start != self.new_end - self.start
    }
}

/// Which mazes an update replaced: old mazes `start..start + removed` became new
/// mazes `start..start + inserted`. Those before are unchanged; those after are the
/// old ones moved (new byte ranges and numbers, the same text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Splice {
    pub start: usize,
    pub removed: usize,
    pub inserted: usize,
}

/// What the re-read part of the text produced.
struct Middle {
    mazes: Vec<Maze>,
    diagnostics: Vec<Diagnostic>,
    /// The new start of the header line where the parse resynchronised with the old
    /// one, and the number the maze there now gets.
    resync: Option<(usize, usize)>,
    /// Read to the end of the text: the terminator found there.
    terminator: Option<Range<usize>>,
}

impl ParsedFile {
    /// Exactly what [`parse`]`(new_text)` returns, where `new_text` is this parse's
    /// text with the old bytes `edit` replaced by `inserted_len` bytes (starting at
    /// `edit.start` of `new_text`). Only the mazes near the edit are re-read.
    pub fn reparse(&self, new_text: &str, edit: Range<usize>, inserted_len: usize) -> ParsedFile {
        let mut file = self.clone();
        file.update(new_text, edit, inserted_len);
        file
    }

    /// [`ParsedFile::reparse`] in place: no copying of the unchanged mazes, and with an
    /// edit that keeps the length (typing over a cell) nothing after it is touched.
    /// Returns which mazes were re-read, so that what callers keep per maze can follow.
    pub fn update(&mut self, new_text: &str, edit: Range<usize>, inserted_len: usize) -> Splice {
        match Edit::new(new_text, edit, inserted_len) {
            Some(edit) => self.update_with(new_text, edit),
            // Not an edit of this text: correctness first.
            None => {
                let removed = self.mazes.len();
                *self = parse(new_text);
                Splice {
                    start: 0,
                    removed,
                    inserted: self.mazes.len(),
                }
            }
        }
    }

    fn update_with(&mut self, text: &str, edit: Edit) -> Splice {
        let (kept_mazes, from) = self.restart(text, edit.start);
        let kept_diagnostics = self.diagnostics.partition_point(|d| d.range.start < from);
        let first_index = kept_mazes + 1;
        let middle = self.reread(text, edit, from, first_index);
        match middle.resync {
            Some((at, index)) => {
                let old_at = edit.to_old(at);
                let next_maze = self.mazes.partition_point(|m| m.header.start < old_at);
                let next_diagnostic = self.diagnostics.partition_point(|d| d.range.start < old_at);
                self.shift_tail(text, edit, next_maze, next_diagnostic, index);
                let splice = Splice {
                    start: kept_mazes,
                    removed: next_maze - kept_mazes,
                    inserted: middle.mazes.len(),
                };
                self.mazes.splice(kept_mazes..next_maze, middle.mazes);
                self.diagnostics
                    .splice(kept_diagnostics..next_diagnostic, middle.diagnostics);
                splice
            }
            None => {
                let splice = Splice {
                    start: kept_mazes,
                    removed: self.mazes.len() - kept_mazes,
                    inserted: middle.mazes.len(),
                };
                self.mazes.truncate(kept_mazes);
                self.mazes.extend(middle.mazes);
                self.diagnostics.truncate(kept_diagnostics);
                self.diagnostics.extend(middle.diagnostics);
                self.terminator = middle.terminator;
                splice
            }
        }
    }

    /// How many mazes are kept unchanged and where re-reading starts: the header line
    /// of the last maze whose header line ends (line break included) before the edit.
    fn restart(&self, text: &str, edit_start: usize) -> (usize, usize) {
        let before = self.mazes.partition_point(|m| m.header.start < edit_start);
        // Only the last candidate's header line can reach into the edit, so this looks
        // at two mazes at most.
        (0..before)
            .rev()
            .find(|&k| header_line_ends_before(text, &self.mazes[k].header, edit_start))
            .map_or((0, 0), |k| (k, self.mazes[k].header.start))
    }

    /// Parses the new text from `from` until it provably agrees with the old parse
    /// again, or to the end.
    fn reread(&self, text: &str, edit: Edit, from: usize, first_index: usize) -> Middle {
        let old_mazes = &self.mazes;
        let mut candidate = old_mazes.partition_point(|m| m.header.start < edit.old_end);
        // Header lines come in increasing order, so one cursor over the old mazes' header
        // starts answers every question.
        let resynchronises = move |at: usize| {
            if at < edit.new_end {
                return false;
            }
            let old_at = edit.to_old(at);
            while old_mazes
                .get(candidate)
                .is_some_and(|m| m.header.start < old_at)
            {
                candidate += 1;
            }
            old_mazes
                .get(candidate)
                .is_some_and(|m| m.header.start == old_at)
        };
        let mut parser = MazeParser::resume(text, from, first_index).stop_before(resynchronises);
        let mut mazes = Vec::new();
        let mut diagnostics = Vec::new();
        for (maze, found) in parser.by_ref() {
            mazes.push(maze);
            diagnostics.extend(found);
        }
        let resync = parser.stopped_at().map(|at| (at, parser.next_index()));
        let (terminator, trailing) = parser.finish();
        diagnostics.extend(trailing);
        // The same stable sort as `parse`: ties keep the order the parser found them in.
        diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
        Middle {
            mazes,
            diagnostics,
            resync,
            terminator,
        }
    }

    /// Moves the old parse from maze `next_maze` and diagnostic `next_diagnostic` on
    /// (all past the edit) to their new places; the first of those mazes is now
    /// number `index`.
    fn shift_tail(
        &mut self,
        text: &str,
        edit: Edit,
        next_maze: usize,
        next_diagnostic: usize,
        index: usize,
    ) {
        let renumber = self.mazes.get(next_maze).is_some_and(|m| m.index != index);
        if edit.changes_length() || renumber {
            for (k, maze) in self.mazes[next_maze..].iter_mut().enumerate() {
                shift_maze(maze, edit);
                maze.index = index + k;
            }
            for diagnostic in &mut self.diagnostics[next_diagnostic..] {
                shift_diagnostic(diagnostic, edit);
            }
            if let Some(terminator) = &mut self.terminator {
                edit.shift_range(terminator);
            }
        }
        // The fix appends `0 0` with the file's first line break, which an edit near
        // the top may have changed.
        if !first_line_break_before(text, edit.start) {
            for diagnostic in &mut self.diagnostics[next_diagnostic..] {
                if diagnostic.code == Code::MissingTerminator {
                    *diagnostic = missing_terminator(text, Some(diagnostic.range.clone()));
                }
            }
        }
    }
}

/// Whether the header line whose content is `header` ends, line break included, at or
/// before `edit_start` in the text before the edit. Only bytes before `edit_start`
/// are looked at, as only those are the same in both texts; a `\r` just before the
/// edit might have been the first half of an old `\r\n`, so it does not count.
fn header_line_ends_before(text: &str, header: &Range<usize>, edit_start: usize) -> bool {
    let bytes = text.as_bytes();
    let Some(between) = bytes.get(header.end..edit_start) else {
        return false;
    };
    match between.iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(i) => between[i] == b'\n' || i + 1 < between.len(),
        None => false,
    }
}

/// Whether the text's first line break (which `missing-terminator`'s fix copies) lies
/// wholly before `edit_start`, so the edit cannot have changed it.
fn first_line_break_before(text: &str, edit_start: usize) -> bool {
    header_line_ends_before(text, &(0..0), edit_start)
}

fn shift_maze(maze: &mut Maze, edit: Edit) {
    edit.shift_range(&mut maze.header);
    edit.shift_range(&mut maze.extent);
    for row in &mut maze.rows {
        edit.shift_range(row);
    }
    if let Some(solution) = &mut maze.solution {
        edit.shift_range(&mut solution.line);
        edit.shift_range(&mut solution.moves);
    }
}

fn shift_diagnostic(diagnostic: &mut Diagnostic, edit: Edit) {
    edit.shift_range(&mut diagnostic.range);
    if let Some(fix) = &mut diagnostic.fix {
        for text_edit in &mut fix.edits {
            edit.shift_range(&mut text_edit.range);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAZE: &str = "1 3\nSBT\n; note\n";

    /// 100 mazes `1 3` / `SBT`, each followed by a comment.
    fn file() -> String {
        let mut text = MAZE.repeat(100);
        text.push_str("0 0\n");
        text
    }

    /// Which mazes an edit re-reads (by number), and whether the parse resynchronised.
    fn reread(text: &str, edit: Range<usize>, inserted: &str) -> (Vec<usize>, bool) {
        let old = parse(text);
        let mut new = text.to_string();
        new.replace_range(edit.clone(), inserted);
        let edit = Edit::new(&new, edit, inserted.len()).expect("a valid edit");
        let (kept, from) = old.restart(&new, edit.start);
        let middle = old.reread(&new, edit, from, kept + 1);
        let numbers = middle.mazes.iter().map(|m| m.index).collect();
        (numbers, middle.resync.is_some())
    }

    #[test]
    fn typing_in_a_row_rereads_that_maze_only() {
        // Maze #51's row.
        let at = 50 * MAZE.len() + 5;
        assert_eq!(reread(&file(), at..at + 1, "#"), (vec![51], true));
    }

    #[test]
    fn typing_in_a_comment_rereads_the_maze_it_follows() {
        let at = 50 * MAZE.len() + 12;
        assert_eq!(reread(&file(), at..at, "more "), (vec![51], true));
    }

    #[test]
    fn editing_a_header_rereads_from_the_maze_before() {
        let at = 50 * MAZE.len() + 1;
        assert_eq!(reread(&file(), at..at, "0"), (vec![50, 51], true));
        // The header becomes a row of maze #50; maze #52 is now #51.
        let header = 50 * MAZE.len();
        let (numbers, resynchronised) = reread(&file(), header..header + 3, "###");
        assert_eq!((numbers, resynchronised), (vec![50], true));
    }

    #[test]
    fn a_new_terminator_reads_to_the_end() {
        let at = 50 * MAZE.len();
        let (numbers, resynchronised) = reread(&file(), at..at, "0 0\n");
        assert_eq!((numbers, resynchronised), (vec![50], false));
    }
}
