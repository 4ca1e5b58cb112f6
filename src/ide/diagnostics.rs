//! Diagnostics of a file as known now: the parser's, and for each maze what its
//! status says (solver checks, limits, failures).

use super::{FileView, MazeStatus};
use crate::analysis::solver_diagnostics;
use crate::maze::{Code, Diagnostic, Maze};

/// Every diagnostic of the file, in source order.
pub fn diagnostics(file: &FileView) -> Vec<Diagnostic> {
    let mut all = file.parsed.diagnostics.clone();
    for (maze, status) in file.mazes() {
        all.extend(status_diagnostics(file.text, maze, status));
    }
    all.sort_by_key(|d| (d.range.start, d.range.end));
    all
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
