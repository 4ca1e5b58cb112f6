//! Hover text: on a header, the counts, the move string and the maze drawn with the
//! box's path; on a cell, what it is and whether it is a dead square; on move *k* of
//! a `; solution:` line, `move k of M · push p of P` and the board after that move.

use std::ops::Range;

use super::replay::board_after;
use super::status::counts;
use super::{summary, FileView, MazeStatus};
use crate::maze::{Grid, Maze};

/// Larger mazes are described but not drawn.
const MAX_DRAWN_CELLS: usize = 80 * 60;

/// What the client can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoverFormat {
    Markdown,
    PlainText,
}

/// Hover text at `offset`, and the range it is about (when narrower than the line).
pub fn hover(
    file: &FileView,
    offset: usize,
    format: HoverFormat,
) -> Option<(String, Option<Range<usize>>)> {
    let (maze, status) = file.maze_at(offset)?;
    let write = Writer { format };
    let line = super::line_start(file.text, offset);
    if super::line_start(file.text, maze.header.start) == line {
        return Some((header_hover(&write, maze, status), None));
    }
    if let Some(solution) = &maze.solution {
        if super::line_start(file.text, solution.line.start) == line {
            return move_hover(&write, file.text, maze, solution.moves.clone(), offset);
        }
    }
    let (row, row_range) = maze
        .rows
        .iter()
        .enumerate()
        .find(|(_, row)| super::line_start(file.text, row.start) == line)?;
    if offset < row_range.start || offset >= row_range.end {
        return None;
    }
    let column = file.text[row_range.start..offset].chars().count();
    let ch = file.text[offset..].chars().next()?;
    let range = offset..offset + ch.len_utf8();
    let text = cell_hover(&write, file, maze, status, row, column, ch);
    Some((text, Some(range)))
}

/// Markup for the client's format.
struct Writer {
    format: HoverFormat,
}

impl Writer {
    fn bold(&self, text: &str) -> String {
        match self.format {
            HoverFormat::Markdown => format!("**{text}**"),
            HoverFormat::PlainText => text.to_string(),
        }
    }

    fn code(&self, text: &str) -> String {
        match self.format {
            HoverFormat::Markdown => format!("`{text}`"),
            HoverFormat::PlainText => text.to_string(),
        }
    }

    fn block(&self, lines: &[String]) -> String {
        match self.format {
            HoverFormat::Markdown => format!("```text\n{}\n```", lines.join("\n")),
            HoverFormat::PlainText => lines.join("\n"),
        }
    }

    fn note(&self, text: &str) -> String {
        match self.format {
            HoverFormat::Markdown => format!("_{text}_"),
            HoverFormat::PlainText => text.to_string(),
        }
    }
}

fn header_hover(write: &Writer, maze: &Maze, status: &MazeStatus) -> String {
    let dims = maze
        .declared
        .map_or(String::new(), |(r, c)| format!(" ({r}×{c})"));
    let mut out = format!("{}{dims}\n\n", write.bold(&format!("Maze #{}", maze.index)));
    let Some(grid) = &maze.grid else {
        out.push_str("This maze has errors; fix them to solve it.");
        return out;
    };
    match status {
        MazeStatus::Solved { solution, .. } => {
            out.push_str(&format!(
                "{}\n\n{}\n\n",
                counts(solution),
                write.code(&solution.path)
            ));
            out.push_str(&drawing(write, grid, Some(&solution.path)));
        }
        MazeStatus::Unsolvable { reason, .. } => {
            out.push_str(&format!("Unsolvable: {reason}.\n\n"));
            out.push_str(&drawing(write, grid, None));
        }
        other => out.push_str(&summary(other).unwrap_or_default()),
    }
    out
}

/// The maze as a block, with the box's path marked by the direction it was pushed.
fn drawing(write: &Writer, grid: &Grid, path: Option<&str>) -> String {
    if grid.cell_count() > MAX_DRAWN_CELLS {
        return write.note(&format!(
            "({}×{} cells: too large to draw)",
            grid.rows, grid.cols
        ));
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
    let mut out = write.block(&body);
    if path.is_some() {
        out.push_str("\n\n");
        out.push_str(&write.note("Arrows show the box's path."));
    }
    out
}

/// Each cell the box is pushed into, with the arrow of that push.
fn box_trail(grid: &Grid, path: &str) -> Vec<(usize, char)> {
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
    write: &Writer,
    file: &FileView,
    maze: &Maze,
    status: &MazeStatus,
    row: usize,
    column: usize,
    ch: char,
) -> String {
    let what = match ch {
        '#' => "rock".to_string(),
        '.' => "free cell".to_string(),
        'S' => format!("the player's start ({})", write.code("S")),
        'B' => format!("the box's start ({})", write.code("B")),
        'T' => format!("the target ({})", write.code("T")),
        _ => format!(
            "not a cell: use {}",
            ["#", ".", "S", "B", "T"].map(|c| write.code(c)).join(" ")
        ),
    };
    let mut out = format!("{what} — row {}, column {}", row + 1, column + 1);
    let dead = maze
        .grid
        .as_ref()
        .zip(status.dead())
        .is_some_and(|(grid, dead)| dead.get(row * grid.cols + column) == Some(&true));
    if file.options.dead_squares && dead {
        out.push_str(&format!(
            "\n\n{}: no sequence of pushes can bring the box from here to the target.",
            write.bold("Dead square")
        ));
    }
    out
}

/// Step-through: the board after the hovered move of a recorded solution.
fn move_hover(
    write: &Writer,
    text: &str,
    maze: &Maze,
    moves: Range<usize>,
    offset: usize,
) -> Option<(String, Option<Range<usize>>)> {
    if offset < moves.start || offset >= moves.end {
        return None;
    }
    let grid = maze.grid.as_ref()?;
    let recorded = &text[moves.clone()];
    let k = recorded[..offset - moves.start].chars().count() + 1;
    let letter = text[offset..].chars().next()?;
    let range = offset..offset + letter.len_utf8();
    let text = match board_after(grid, recorded, k) {
        Ok(board) => format!(
            "{}\n\n{}",
            write.bold(&format!(
                "move {} of {} · push {} of {}",
                board.moves_done, board.moves, board.pushes_done, board.pushes
            )),
            write.block(&board.drawing)
        ),
        Err(illegal) => {
            let at = recorded[..illegal.offset].chars().count() + 1;
            format!(
                "{}\n\nMove {at} is illegal: {}.",
                write.bold(&format!("move {k} of {}", recorded.chars().count())),
                illegal.message
            )
        }
    };
    Some((text, Some(range)))
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::super::fixture::Fixture;
    use super::*;

    const SAMPLE3: &str = "7 11\n###########\n#T##......#\n#.#.#..####\n#....B....#\n#.######..#\n#.....S...#\n###########\n; solution: eennwwWWWWeeeeeesswwwwwwwnNN\n0 0\n";

    /// Hover at the `$0` marker of `fixture`.
    fn check(fixture: &str, format: HoverFormat, expect: Expect) {
        let offset = fixture.find("$0").expect("a $0 marker");
        let text = fixture.replace("$0", "");
        let solved = Fixture::solved(&text);
        let shown = hover(&solved.view(), offset, format)
            .map_or("(none)".to_string(), |(text, range)| {
                format!("{text}\n-- range: {:?}", range.map(|r| &solved.text[r]))
            });
        expect.assert_eq(&shown);
    }

    #[test]
    fn header_markdown() {
        check(
            &SAMPLE3.replacen("7 11", "7 1$01", 1),
            HoverFormat::Markdown,
            expect![[r#"
                **Maze #1** (7×11)

                6 pushes · 28 moves

                `eennwwWWWWeeeeeesswwwwwwwnNN`

                ```text
                ###########
                #T##......#
                #↑#.#..####
                #←←←←B....#
                #.######..#
                #.....S...#
                ###########
                ```

                _Arrows show the box's path._
                -- range: None"#]],
        );
    }

    #[test]
    fn header_plain_text_has_no_markup() {
        check(
            &SAMPLE3.replacen("7 11", "$07 11", 1),
            HoverFormat::PlainText,
            expect![[r#"
                Maze #1 (7×11)

                6 pushes · 28 moves

                eennwwWWWWeeeeeesswwwwwwwnNN

                ###########
                #T##......#
                #↑#.#..####
                #←←←←B....#
                #.######..#
                #.....S...#
                ###########

                Arrows show the box's path.
                -- range: None"#]],
        );
    }

    #[test]
    fn dead_cell() {
        check(
            &SAMPLE3.replacen("#T##......#", "#T##.....$0.#", 1),
            HoverFormat::Markdown,
            expect![[r#"
                free cell — row 2, column 10

                **Dead square**: no sequence of pushes can bring the box from here to the target.
                -- range: Some(".")"#]],
        );
    }

    #[test]
    fn step_through_a_recorded_solution() {
        check(
            &SAMPLE3.replacen("eennwwW", "eennwwW$0", 1),
            HoverFormat::Markdown,
            expect![[r#"
                **move 8 of 28 · push 2 of 6**

                ```text
                ###########
                #T##......#
                #.#.#..####
                #..BS.....#
                #.######..#
                #.........#
                ###########
                ```
                -- range: Some("W")"#]],
        );
    }

    #[test]
    fn an_illegal_move_says_what_went_wrong() {
        check(
            "1 4\nSB.T\n; solution: EwE$0E\n0 0\n",
            HoverFormat::PlainText,
            expect![[r#"
                move 4 of 4

                Move 3 is illegal: `E` pushes, but the box is not there.
                -- range: Some("E")"#]],
        );
    }

    #[test]
    fn nothing_between_mazes() {
        check(
            "1 3\nSBT\n$0\n1 3\nSBT\n0 0\n",
            HoverFormat::Markdown,
            expect![[r#"(none)"#]],
        );
    }
}
