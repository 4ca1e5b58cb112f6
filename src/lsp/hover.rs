//! Hover: on a header, the counts, the move string and a drawing of the box's path;
//! on a cell, what it is and whether it is a dead square.

use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use super::solves::SolveResult;
use super::state::{summary, Status, View};
use crate::maze::{Grid, Maze};
use crate::solver::Outcome;

/// Larger mazes are described but not drawn.
const MAX_DRAWN_CELLS: usize = 80 * 60;

pub fn hover(view: &View, offset: usize) -> Option<Hover> {
    let (maze, status) = view.maze_at(offset)?;
    let line = view.rope.byte_to_line(offset);
    let text = if view.rope.byte_to_line(maze.header.start) == line {
        header_hover(maze, status)
    } else {
        let (row, row_range) = maze
            .rows
            .iter()
            .enumerate()
            .find(|(_, row)| view.rope.byte_to_line(row.start) == line)?;
        if offset < row_range.start || offset >= row_range.end {
            return None;
        }
        let column = view.text[row_range.start..offset].chars().count();
        cell_hover(view, maze, status, row, column)?
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    })
}

fn header_hover(maze: &Maze, status: &Status) -> String {
    let dims = maze
        .declared
        .map_or(String::new(), |(r, c)| format!(" ({r}×{c})"));
    let mut out = format!("**Maze #{}**{dims}\n\n", maze.index);
    let Some(grid) = &maze.grid else {
        out.push_str("This maze has errors; fix them to solve it.");
        return out;
    };
    match status {
        Status::Known(result) => match &**result {
            SolveResult::Done(analysis) => match &analysis.outcome {
                Outcome::Solved(solution) => {
                    out.push_str(&format!(
                        "{}\n\n`{}`\n\n",
                        summary(status).unwrap_or_default(),
                        solution.path
                    ));
                    out.push_str(&drawing(grid, Some(&solution.path)));
                }
                Outcome::Unsolvable(reason) => {
                    out.push_str(&format!("Unsolvable: {reason}.\n\n"));
                    out.push_str(&drawing(grid, None));
                }
            },
            _ => out.push_str(&summary(status).unwrap_or_default()),
        },
        _ => out.push_str("solving…"),
    }
    out
}

/// The maze as a code block, with the box's path marked by the direction it was pushed.
fn drawing(grid: &Grid, path: Option<&str>) -> String {
    if grid.cell_count() > MAX_DRAWN_CELLS {
        return format!("_({}×{} cells: too large to draw)_", grid.rows, grid.cols);
    }
    let mut rows: Vec<Vec<char>> = grid
        .to_rows()
        .iter()
        .map(|row| row.chars().collect())
        .collect();
    if let Some(path) = path {
        for (cell, arrow) in box_trail(grid, path) {
            let (r, c) = grid.coords(cell);
            if cell != grid.boxed && cell != grid.target {
                rows[r][c] = arrow;
            }
        }
    }
    let body: Vec<String> = rows.into_iter().map(String::from_iter).collect();
    format!(
        "```text\n{}\n```\n\n_Arrows show the box's path._",
        body.join("\n")
    )
}

/// Each cell the box is pushed into, with the arrow of that push.
fn box_trail(grid: &Grid, path: &str) -> Vec<(usize, char)> {
    // Each push moves the box one cell its way; the rest of the path does not move it.
    let mut trail = Vec::new();
    let mut at = grid.boxed;
    for letter in path.chars().filter(char::is_ascii_uppercase) {
        let (row, col) = grid.coords(at);
        let (next, arrow) = match letter {
            'N' => (row.checked_sub(1).map(|r| (r, col)), '↑'),
            'S' => (Some((row + 1, col)), '↓'),
            'W' => (col.checked_sub(1).map(|c| (row, c)), '←'),
            _ => (Some((row, col + 1)), '→'),
        };
        let Some((row, col)) = next.filter(|&(r, c)| r < grid.rows && c < grid.cols) else {
            break;
        };
        at = row * grid.cols + col;
        trail.push((at, arrow));
    }
    trail
}

fn cell_hover(
    view: &View,
    maze: &Maze,
    status: &Status,
    row: usize,
    column: usize,
) -> Option<String> {
    let ch = view.text[maze.rows[row].clone()].chars().nth(column)?;
    let what = match ch {
        '#' => "rock",
        '.' => "free cell",
        'S' => "the player's start (`S`)",
        'B' => "the box's start (`B`)",
        'T' => "the target (`T`)",
        _ => "not a cell: use `#` `.` `S` `B` `T`",
    };
    let mut out = format!("{what} — row {}, column {}", row + 1, column + 1);
    if let (Some(grid), Status::Known(result)) = (&maze.grid, status) {
        if let SolveResult::Done(analysis) = &**result {
            let cell = row * grid.cols + column;
            if view.config.dead_squares && analysis.dead.get(cell) == Some(&true) {
                out.push_str("\n\n**Dead square**: no sequence of pushes can bring the box from here to the target.");
            }
        }
    }
    Some(out)
}
