//! Compact geometry for big boards: cells of one kind merged into rectangles (runs
//! along a row, stacked while the next row has the same run) and written as one path.

use std::fmt::Write as _;

/// `width × height` cells with their top-left corner at column `col`, row `row`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    pub col: usize,
    pub row: usize,
    pub width: usize,
    pub height: usize,
}

/// The cells where `is_in(cell)` holds, as few rectangles as runs stacking allows:
/// a run continues the rectangle above it when that one has exactly its columns.
pub fn blocks(rows: usize, cols: usize, is_in: impl Fn(usize) -> bool) -> Vec<Block> {
    let mut done = Vec::new();
    let mut open: Vec<Block> = Vec::new();
    for row in 0..rows {
        let runs = row_runs(cols, |col| is_in(row * cols + col));
        let mut still_open = Vec::with_capacity(runs.len());
        let mut above = open.into_iter().peekable();
        for (col, width) in runs {
            // Rectangles above that end before this run can grow no more.
            while let Some(block) = above.next_if(|b| b.col < col) {
                done.push(block);
            }
            match above.next_if(|b| b.col == col && b.width == width) {
                Some(mut block) => {
                    block.height += 1;
                    still_open.push(block);
                }
                None => still_open.push(Block {
                    col,
                    row,
                    width,
                    height: 1,
                }),
            }
        }
        done.extend(above);
        open = still_open;
    }
    done.extend(open);
    done
}

/// `(first column, length)` of each maximal run of columns where `is_in` holds.
fn row_runs(cols: usize, is_in: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = None;
    for col in 0..=cols {
        match (start, col < cols && is_in(col)) {
            (None, true) => start = Some(col),
            (Some(first), false) => {
                runs.push((first, col - first));
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// Path data drawing every block as a closed subpath, in reading order. After the
/// first, each starts with a relative move from the previous block's corner (where
/// `z` leaves the pen), which keeps the numbers short.
pub fn path_data(blocks: &[Block]) -> String {
    let mut sorted = blocks.to_vec();
    sorted.sort_unstable_by_key(|b| (b.row, b.col));
    let mut d = String::with_capacity(sorted.len() * 12);
    let mut pen: Option<(usize, usize)> = None;
    for b in &sorted {
        // Writing to a String cannot fail.
        let _ = match pen {
            None => write!(d, "M{} {}", b.col, b.row),
            Some((col, row)) => write!(d, "m{} {}", b.col as isize - col as isize, b.row - row),
        };
        let _ = write!(d, "h{}v{}h-{}z", b.width, b.height, b.width);
        pen = Some((b.col, b.row));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::Grid;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows).expect("a valid grid")
    }

    #[test]
    fn stacked_equal_runs_make_one_rectangle() {
        let g = grid(&["#####", "#S.B#", "#..T#", "#####"]);
        let rock = blocks(g.rows, g.cols, |cell| g.walls[cell]);
        assert_eq!(
            rock,
            vec![
                Block {
                    col: 0,
                    row: 0,
                    width: 5,
                    height: 1
                },
                Block {
                    col: 0,
                    row: 1,
                    width: 1,
                    height: 2
                },
                Block {
                    col: 4,
                    row: 1,
                    width: 1,
                    height: 2
                },
                Block {
                    col: 0,
                    row: 3,
                    width: 5,
                    height: 1
                },
            ]
        );
        assert_eq!(
            path_data(&rock),
            "M0 0h5v1h-5zm0 1h1v2h-1zm4 0h1v2h-1zm-4 2h5v1h-5z"
        );
    }

    #[test]
    fn blocks_cover_exactly_the_chosen_cells() {
        let g = grid(&["#.#.##", "#S##B#", "..#..T", "####.#"]);
        let rock = blocks(g.rows, g.cols, |cell| g.walls[cell]);
        let mut covered = vec![0; g.cell_count()];
        for b in &rock {
            for row in b.row..b.row + b.height {
                for col in b.col..b.col + b.width {
                    covered[row * g.cols + col] += 1;
                }
            }
        }
        let expected: Vec<i32> = g.walls.iter().map(|&w| i32::from(w)).collect();
        assert_eq!(covered, expected);
    }
}
