//! `.box` ⇄ `.xsb` for levels with one box: `# . S B T` ⇄ `# space @ $ .`, `n s e w`
//! ⇄ `u d r l` (case kept), the outside made explicit each way (XSB needs a wall
//! round the player; `.box` has rock past its edges, so cells the player can never
//! reach become rock).

use std::fmt::Write as _;
use std::ops::Range;

use super::board::{Cell, Position};
use super::check::level_diagnostics;
use super::code::Code;
use super::parse::parse;
use super::rle::compress_row;
use crate::maze::{self, Grid};

/// Why a maze or level cannot be converted: which one (1-based), where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertError {
    pub index: usize,
    pub range: Range<usize>,
    pub message: String,
}

/// The `.box` file's mazes as XSB levels (`; k`, a blank line, the board, the recorded
/// solution as `Solution:`), run-length rows when `run_length`.
pub fn box_to_xsb(text: &str, run_length: bool) -> Result<String, Vec<ConvertError>> {
    let parsed = maze::parse(text);
    let errors: Vec<ConvertError> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| ConvertError {
            index: maze_at(&parsed.mazes, d.range.start),
            range: d.range.clone(),
            message: d.message.clone(),
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut out = String::new();
    for maze in &parsed.mazes {
        let Some(level) = maze_to_xsb(text, maze, run_length) else {
            continue;
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&level);
    }
    Ok(out)
}

/// One maze of a `.box` text as an XSB level (`; k`, a blank line, the board, its
/// recorded solution as `Solution:`); `None` when it has no playable grid.
pub fn maze_to_xsb(text: &str, maze: &maze::Maze, run_length: bool) -> Option<String> {
    let grid = maze.grid.as_ref()?;
    let mut out = String::new();
    let _ = writeln!(out, "; {}\n", maze.index);
    for row in xsb_rows(grid) {
        let row = if run_length { compress_row(&row) } else { row };
        let _ = writeln!(out, "{row}");
    }
    if let Some(line) = &maze.solution {
        let moves = text.get(line.moves.clone()).unwrap_or("");
        let lurd: String = moves.chars().map(box_to_lurd).collect();
        if !lurd.is_empty() {
            let _ = writeln!(out, "Solution: {lurd}");
        }
    }
    Some(out)
}

fn maze_at(mazes: &[maze::Maze], offset: usize) -> usize {
    mazes
        .iter()
        .rev()
        .find(|maze| maze.extent.start <= offset)
        .map_or(1, |maze| maze.index)
}

fn box_to_lurd(c: char) -> char {
    match c {
        'n' => 'u',
        's' => 'd',
        'e' => 'r',
        'w' => 'l',
        'N' => 'U',
        'S' => 'D',
        'E' => 'R',
        'W' => 'L',
        other => other,
    }
}

fn lurd_to_box(c: char) -> char {
    match c {
        'u' => 'n',
        'd' => 's',
        'r' => 'e',
        'l' => 'w',
        'U' => 'N',
        'D' => 'S',
        'R' => 'E',
        'L' => 'W',
        other => other,
    }
}

/// A `.box` grid drawn in XSB, with a wall round it when a free cell is on its edge.
fn xsb_rows(grid: &Grid) -> Vec<String> {
    let symbol = |cell: usize| {
        if cell == grid.player {
            '@'
        } else if cell == grid.boxed {
            '$'
        } else if cell == grid.target {
            '.'
        } else if grid.walls[cell] {
            '#'
        } else {
            ' '
        }
    };
    let (rows, cols) = (grid.rows, grid.cols);
    let edge_free = (0..rows * cols).any(|cell| {
        let (r, c) = grid.coords(cell);
        !grid.walls[cell] && (r == 0 || c == 0 || r + 1 == rows || c + 1 == cols)
    });
    let mut out: Vec<String> = (0..rows)
        .map(|r| (0..cols).map(|c| symbol(r * cols + c)).collect())
        .collect();
    if edge_free {
        let wall = "#".repeat(cols + 2);
        out = std::iter::once(wall.clone())
            .chain(out.into_iter().map(|row| format!("#{row}#")))
            .chain(std::iter::once(wall))
            .collect();
    }
    out
}

/// The XSB text's levels as a `.box` file (each with one box): its title as a comment,
/// the first recorded solution that replays as `; solution:`, then `0 0`.
pub fn xsb_to_box(text: &str) -> Result<String, Vec<ConvertError>> {
    let collection = parse(text);
    let mut out = String::new();
    let mut errors = Vec::new();
    for level in &collection.levels {
        let fail = |range: Range<usize>, message: &str| ConvertError {
            index: level.index,
            range,
            message: message.to_string(),
        };
        // What the player can reach does not matter: `.box` mazes may be impossible.
        let structural = |d: &super::code::Diagnostic| {
            d.is_error()
                && !matches!(
                    d.code,
                    Code::OpenBorder | Code::UnreachableBox | Code::UnreachableGoal
                )
                && !d.code.as_str().starts_with("solution-")
        };
        if let Some(error) = level_diagnostics(text, level).into_iter().find(structural) {
            errors.push(fail(error.range, &error.message));
            continue;
        }
        let Some(position) = level.board.position() else {
            continue;
        };
        let cells = &level.board.cells;
        let whole = level.board_lines.clone();
        if position.boxes.len() != 1 {
            errors.push(fail(whole, "a .box maze has one box; this level has more"));
            continue;
        }
        if cells
            .iter()
            .any(|&c| c == Cell::BoxOnGoal || c == Cell::PlayerOnGoal)
        {
            errors.push(fail(
                whole,
                "a .box maze keeps S, B and T on three cells; here two share one",
            ));
            continue;
        }
        if let Some(title) = &level.title {
            let _ = writeln!(out, "; {}", title.text);
        }
        let _ = writeln!(out, "{} {}", position.height, position.width);
        for row in box_rows(&position) {
            let _ = writeln!(out, "{row}");
        }
        if let Some(moves) = first_good_solution(text, level, &position) {
            let _ = writeln!(out, "; solution: {moves}");
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    out.push_str("0 0\n");
    Ok(out)
}

/// One level of an XSB text as a `.box` file (its title as a comment, the maze, the
/// first recorded solution that replays, `0 0`): what [`xsb_to_box`] writes for a
/// text of that level alone; `None` when that level cannot be a `.box` maze.
pub fn level_to_box(text: &str, level: &super::parse::Level) -> Option<String> {
    let alone = text.get(level.extent.clone())?;
    let converted = xsb_to_box(alone).ok()?;
    (converted != "0 0\n").then_some(converted)
}

/// Rows of `# . S B T`; what the player can never reach is rock.
fn box_rows(position: &Position) -> Vec<String> {
    let no_boxes = vec![false; position.walls.len()];
    let reach = position.walkable_from(position.player, &no_boxes);
    (0..position.height)
        .map(|r| {
            (0..position.width)
                .map(|c| {
                    let cell = r * position.width + c;
                    if cell == position.player {
                        'S'
                    } else if position.boxes.contains(&cell) {
                        'B'
                    } else if position.goals[cell] {
                        'T'
                    } else if reach[cell] {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect()
        })
        .collect()
}

fn first_good_solution(
    text: &str,
    level: &super::parse::Level,
    position: &Position,
) -> Option<String> {
    level.solutions.iter().find_map(|solution| {
        let moves = super::solution::parse_lurd(text, &solution.parts).ok()?;
        let replayed = super::solution::replay(position, &moves).ok()?;
        replayed.solved.then(|| {
            moves
                .iter()
                .map(|mv| {
                    let c = b"udlr"[mv.direction] as char;
                    lurd_to_box(if mv.push { c.to_ascii_uppercase() } else { c })
                })
                .collect()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    #[test]
    fn box_to_xsb_and_back() {
        let xsb = box_to_xsb("1 7\nSB....T\n; solution: EEEEE\n0 0\n", false).unwrap();
        expect![[r#"
            ; 1

            #########
            #@$    .#
            #########
            Solution: RRRRR
        "#]]
        .assert_eq(&xsb);
        expect![[r#"
            ; 1
            3 9
            #########
            #SB....T#
            #########
            ; solution: EEEEE
            0 0
        "#]]
        .assert_eq(&xsb_to_box(&xsb).unwrap());
        assert_eq!(
            box_to_xsb("1 7\nSB....T\n0 0\n", true).unwrap(),
            "; 1\n\n9#\n#@$4 .#\n9#\n"
        );
    }

    #[test]
    fn one_maze_or_one_level_alone() {
        let text = "1 3\nSBT\n1 4\nS.BT\n; solution: wEE\n0 0\n";
        let parsed = maze::parse(text);
        expect![[r#"
            ; 2

            ######
            #@ $.#
            ######
            Solution: lRR
        "#]]
        .assert_eq(&maze_to_xsb(text, &parsed.mazes[1], false).unwrap_or_default());
        let xsb =
            "Title: Many\n######\n#@$$..#\n#######\n\n; One\n\n#####\n#@$.#\n#####\nSolution: R\n";
        let levels = parse(xsb).levels;
        assert_eq!(level_to_box(xsb, &levels[0]), None, "two boxes");
        expect![[r#"
            ; One
            3 5
            #####
            #SBT#
            #####
            ; solution: E
            0 0
        "#]]
        .assert_eq(&level_to_box(xsb, &levels[1]).unwrap_or_default());
    }

    #[test]
    fn many_boxes_and_shared_cells_are_refused() {
        let errors = xsb_to_box("######\n#@$$..#\n#######\n\n#####\n#+$ #\n#####\n").unwrap_err();
        let messages: Vec<_> = errors
            .iter()
            .map(|e| (e.index, e.message.as_str()))
            .collect();
        expect![[r#"
            [
                (
                    1,
                    "a .box maze has one box; this level has more",
                ),
                (
                    2,
                    "a .box maze keeps S, B and T on three cells; here two share one",
                ),
            ]
        "#]]
        .assert_debug_eq(&messages);
    }
}
