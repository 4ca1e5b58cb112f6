//! Code lens over each header: the counts, and whether the recorded solution is
//! already optimal; clicking inserts the solution.

use std::ops::Range;

use super::actions::recorded_is_optimal;
use super::{summary, FileView, MazeStatus};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lens {
    pub range: Range<usize>,
    pub title: String,
    /// The maze whose solution a click inserts (`Maze #k`).
    pub maze: usize,
}

pub fn lenses(file: &FileView) -> Vec<Lens> {
    file.mazes()
        .filter_map(|(maze, status)| {
            let summary = summary(status)?;
            let title = match status {
                MazeStatus::Solved { solution, .. }
                    if recorded_is_optimal(file.text, maze, solution) =>
                {
                    format!("{summary} — solution up to date")
                }
                MazeStatus::Solved { .. } => format!("{summary} — insert solution"),
                _ => summary,
            };
            Some(Lens {
                range: maze.header.clone(),
                title,
                maze: maze.index,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::fixture::Fixture;
    use super::*;

    #[test]
    fn titles_follow_the_status_and_the_recorded_line() {
        let text = "1 3\nSBT\n1 3\nSBT\n; solution: E\n1 3\nBST\n0 0\n";
        let fixture = Fixture::solved(text);
        let titles: Vec<String> = lenses(&fixture.view())
            .into_iter()
            .map(|l| l.title)
            .collect();
        expect![[r#"
            [
                "1 push · 1 move — insert solution",
                "1 push · 1 move — solution up to date",
                "unsolvable",
            ]
        "#]]
        .assert_debug_eq(&titles);
    }
}
