//! Document symbols (`Maze #k (r×c)` with the counts) and one folding range per maze.

use std::ops::Range;

use super::{summary, FileView};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    /// The whole maze, and its header.
    pub range: Range<usize>,
    pub selection: Range<usize>,
}

pub fn symbols(file: &FileView) -> Vec<Symbol> {
    file.mazes()
        .map(|(maze, status)| Symbol {
            name: match maze.declared {
                Some((rows, cols)) => format!("Maze #{} ({rows}×{cols})", maze.index),
                None => format!("Maze #{}", maze.index),
            },
            detail: summary(status),
            range: maze.extent.clone(),
            selection: maze.header.clone(),
        })
        .collect()
}

/// Each maze's extent, with the text to show when it is folded.
pub fn folding_ranges(file: &FileView) -> Vec<(Range<usize>, String)> {
    file.mazes()
        .map(|(maze, _)| (maze.extent.clone(), format!("Maze #{}", maze.index)))
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::fixture::Fixture;
    use super::*;

    #[test]
    fn one_symbol_per_maze_with_its_counts() {
        let fixture = Fixture::solved("1 3\nSBT\n1 3\nBST\n2 x\n0 0\n");
        expect![[r#"
            [
                Symbol {
                    name: "Maze #1 (1×3)",
                    detail: Some(
                        "1 push · 1 move",
                    ),
                    range: 0..7,
                    selection: 0..3,
                },
                Symbol {
                    name: "Maze #2 (1×3)",
                    detail: Some(
                        "unsolvable",
                    ),
                    range: 8..15,
                    selection: 8..11,
                },
            ]
        "#]]
        .assert_debug_eq(&symbols(&fixture.view()));
    }
}
