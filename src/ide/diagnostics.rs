//! Diagnostics of a file as known now: the parser's, and for each maze what its
//! status says (solver checks, limits, failures). They come in sections — what lies
//! before the first maze, then each maze's from its header up to the next maze — so
//! that a server can keep each maze's converted and redo only the mazes an edit
//! touched.

use super::{FileView, MazeStatus};
use crate::analysis::solver_diagnostics;
use crate::maze::{Code, Diagnostic, Maze};

/// Every diagnostic of the file, in source order.
pub fn diagnostics(file: &FileView) -> Vec<Diagnostic> {
    let mut all = preamble_diagnostics(file).to_vec();
    for index in 0..file.parsed.mazes.len() {
        all.extend(maze_diagnostics(file, index));
    }
    all
}

/// The parser's diagnostics before the first maze's header.
pub fn preamble_diagnostics<'a>(file: &FileView<'a>) -> &'a [Diagnostic] {
    let end = file
        .parsed
        .mazes
        .first()
        .map_or(usize::MAX, |maze| maze.extent.start);
    let all = &file.parsed.diagnostics;
    &all[..all.partition_point(|d| d.range.start < end)]
}

/// The diagnostics of maze `index`'s section (from its header to the next maze's),
/// in source order: the parser's, then what its status adds.
pub fn maze_diagnostics(file: &FileView, index: usize) -> Vec<Diagnostic> {
    let mazes = &file.parsed.mazes;
    let Some(maze) = mazes.get(index) else {
        return Vec::new();
    };
    let end = mazes
        .get(index + 1)
        .map_or(usize::MAX, |next| next.extent.start);
    let all = &file.parsed.diagnostics;
    let first = all.partition_point(|d| d.range.start < maze.extent.start);
    let last = all.partition_point(|d| d.range.start < end);
    let mut out = all[first..last.max(first)].to_vec();
    let status = file.statuses.get(index).unwrap_or(&MazeStatus::Invalid);
    out.extend(status_diagnostics(file.text, maze, status));
    // Stable: a tie keeps the parser's first, as a sort of the whole file would.
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out
}

/// What one maze's status adds to its structural diagnostics.
pub fn status_diagnostics(text: &str, maze: &Maze, status: &MazeStatus) -> Vec<Diagnostic> {
    let at_header =
        |code, message: String| vec![Diagnostic::new(code, maze.header.clone(), message)];
    match status {
        MazeStatus::Invalid | MazeStatus::Solving => Vec::new(),
        MazeStatus::Solved { solution, .. } => solver_diagnostics(text, maze, Ok(solution)),
        MazeStatus::Unsolvable { reason, .. } => solver_diagnostics(text, maze, Err(*reason)),
        MazeStatus::TooLarge { cells, limit } => at_header(
            Code::TooLarge,
            format!("not solved: {cells} cells is over the configured limit of {limit} (boxls.solve.maxCells)"),
        ),
        MazeStatus::TimedOut { ms } => at_header(
            Code::TooLarge,
            format!("not solved: the solve took longer than the configured {ms} ms (boxls.solve.timeoutMs)"),
        ),
        MazeStatus::Failed(message) => at_header(
            Code::InternalError,
            format!("not solved: the solver failed ({message}); please report this maze"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::fixture::Fixture;
    use crate::maze::Code;

    fn check(text: &str, expect: expect_test::Expect) {
        let fixture = Fixture::solved(text);
        let rendered: Vec<String> = super::diagnostics(&fixture.view())
            .iter()
            .map(|d| format!("{} {:?} {}", d.code, &text[d.range.clone()], d.message))
            .collect();
        expect.assert_eq(&rendered.join("\n"));
    }

    #[test]
    fn solver_and_parser_diagnostics_in_source_order() {
        check(
            "1 3\nSBT\n; solution: E\n1 4\nS#BT\n1 3\nSxT\n0 0\n",
            expect![[r#"
                unsolvable "1 4" this maze is unsolvable: the player cannot reach the box
                missing-box "1 3" this maze has no box (`B`)
                bad-char "x" `x` is not a cell: use `#` `.` `S` `B` `T`"#]],
        );
    }

    /// Sections put together are the whole file's diagnostics sorted at once.
    #[test]
    fn sections_join_into_source_order() {
        let text = "junk\n1 3\nSBT\n; solution: E\n\n 1 4\nS#BT\nx\n1 3\nSxT\n0 0\nafter\n";
        let fixture = Fixture::solved(text);
        let file = fixture.view();
        let mut whole = file.parsed.diagnostics.clone();
        for (maze, status) in file.mazes() {
            whole.extend(super::status_diagnostics(text, maze, status));
        }
        whole.sort_by_key(|d| (d.range.start, d.range.end));
        assert!(whole.len() >= 5, "{whole:?}");
        assert_eq!(super::diagnostics(&file), whole);
    }

    #[test]
    fn limits_and_failures_sit_on_the_header() {
        let fixture = Fixture::with_status("1 3\nSBT\n0 0\n", |_| super::MazeStatus::TooLarge {
            cells: 3,
            limit: 2,
        });
        let found = super::diagnostics(&fixture.view());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, Code::TooLarge);
        assert_eq!(found[0].range, 0..3);
        assert!(
            found[0].message.contains("limit of 2"),
            "{}",
            found[0].message
        );
    }
}
