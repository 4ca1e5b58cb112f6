//! The design tools as an editor shows them: the one edit of *Make Maze #k hardest*
//! (S, B and T moved, the solution line written) and its title, and the hover line for
//! a free cell from the difficulty map. Plain data; the server computes the placement
//! and the map off the request loop and calls these.

use super::FileView;
use crate::design::{Difficulty, Placement};
use crate::maze::{plural, Fix, Grid, Maze, TextEdit};

/// The title before the placement is known (the counts come with it).
pub fn hardest_title_pending(maze: usize, keep_target: bool) -> String {
    let keeping = if keep_target {
        " keeping the target"
    } else {
        ""
    };
    format!("Make Maze #{maze} hardest{keeping}")
}

/// *Make Maze #k hardest (6 → 31 pushes)*, or *… keeping the target*; `before` is the
/// maze's pushes now (`None`: unsolvable).
pub fn hardest_title(
    maze: usize,
    keep_target: bool,
    before: Option<u64>,
    after: &Placement,
) -> String {
    let keeping = if keep_target {
        " keeping the target"
    } else {
        ""
    };
    let before = before.map_or_else(|| "unsolvable".to_string(), |p| p.to_string());
    format!(
        "Make Maze #{maze} hardest{keeping} ({before} → {})",
        plural(after.pushes, "push", "pushes")
    )
}

/// The edit that moves `maze`'s S, B and T (its grid is `grid`) to `placement` and
/// writes `path` as its solution line (replacing a recorded one): one undoable fix.
pub fn hardest_fix(
    text: &str,
    maze: &Maze,
    grid: &Grid,
    placement: &Placement,
    path: &str,
    title: String,
) -> Fix {
    let placed = placement.apply(grid);
    let symbol = |g: &Grid, cell: usize| match cell {
        c if c == g.player => "S",
        c if c == g.boxed => "B",
        c if c == g.target => "T",
        _ => ".",
    };
    let mut cells = [
        grid.player,
        grid.boxed,
        grid.target,
        placed.player,
        placed.boxed,
        placed.target,
    ];
    cells.sort_unstable();
    let mut edits: Vec<TextEdit> = Vec::new();
    for (i, &cell) in cells.iter().enumerate() {
        if i > 0 && cells[i - 1] == cell {
            continue;
        }
        let (old, new) = (symbol(grid, cell), symbol(&placed, cell));
        let (row, col) = grid.coords(cell);
        if old != new {
            if let Some(line) = maze.rows.get(row) {
                let at = line.start + col;
                edits.push(TextEdit {
                    range: at..at + 1,
                    new_text: new.to_string(),
                });
            }
        }
    }
    edits.push(crate::analysis::solution_edit(text, maze, path));
    Fix { title, edits }
}

/// The hover line for a cell from the difficulty map, e.g. `box here: 12 pushes · 40
/// moves`; `None` for rock and the player's start.
pub fn cell_hover(difficulty: Difficulty) -> Option<String> {
    match difficulty {
        Difficulty::Rock | Difficulty::Player => None,
        Difficulty::Target => Some("box here: already on the target".to_string()),
        Difficulty::Unsolvable => Some("box here: unsolvable".to_string()),
        Difficulty::Solved { pushes, moves } => Some(format!(
            "box here: {} · {}",
            plural(pushes, "push", "pushes"),
            plural(moves, "move", "moves")
        )),
    }
}

/// The cell under `offset` in the rows of a valid maze: the maze, its grid and the
/// cell's index in the grid.
pub fn cell_at<'a>(file: &FileView<'a>, offset: usize) -> Option<(&'a Maze, &'a Grid, usize)> {
    let (maze, _) = file.maze_at(offset)?;
    let grid = maze.grid.as_ref()?;
    let (row, range) = maze
        .rows
        .iter()
        .enumerate()
        .find(|(_, range)| range.start <= offset && offset < range.end)?;
    let column = file.text.get(range.start..offset)?.chars().count();
    (row < grid.rows && column < grid.cols).then_some((maze, grid, row * grid.cols + column))
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::*;
    use crate::design::{difficulty_map, hardest};
    use crate::maze::parse;
    use crate::solver::solve_path;

    /// Makes the fixture's first maze hardest and shows the title and the new text.
    fn check(fixture: &str, keep_target: bool, expected: Expect) {
        let parsed = parse(fixture);
        let maze = &parsed.mazes[0];
        let grid = maze.grid.as_ref().expect("a valid maze");
        let placement = hardest(grid, keep_target)
            .expect("small")
            .expect("solvable");
        let path = solve_path(&placement.apply(grid)).expect("solvable").path;
        let before = solve_path(grid).map(|s| s.pushes);
        let title = hardest_title(maze.index, keep_target, before, &placement);
        let fix = hardest_fix(fixture, maze, grid, &placement, &path, title);
        // `\r` shown, so the line breaks kept are visible in the snapshot.
        let text = fix.apply(fixture).replace('\r', "\\r");
        expected.assert_eq(&format!("{}\n{text}", fix.title));
    }

    #[test]
    fn moves_s_b_and_t_and_writes_the_solution_line() {
        check(
            "; a comment stays\n5 6\n######\n#S..##\n#.B..#\n#..T.#\n######\n; solution: old\n0 0\n",
            false,
            expect![[r#"
                Make Maze #1 hardest (2 → 3 pushes)
                ; a comment stays
                5 6
                ######
                #T.S##
                #..B.#
                #....#
                ######
                ; solution: wsseenWWswN
                0 0
            "#]],
        );
    }

    #[test]
    fn keeping_the_target_and_inserting_a_missing_solution_line() {
        check(
            "3 7\r\n#######\r\n#.SB.T#\r\n#######\r\n\r\n1 3\r\nSBT\r\n0 0\r\n",
            true,
            expect![[r#"
                Make Maze #1 hardest keeping the target (2 → 3 pushes)
                3 7\r
                #######\r
                #SB..T#\r
                #######\r
                ; solution: EEE\r
                \r
                1 3\r
                SBT\r
                0 0\r
            "#]],
        );
    }

    #[test]
    fn cells_are_found_only_in_the_rows_of_valid_mazes() {
        let fixture = crate::ide::fixture::Fixture::solved("1 3\nSBT\n2 2\nS.\n.x\n0 0\n");
        let file = fixture.view();
        let cell = |offset| cell_at(&file, offset).map(|(maze, _, cell)| (maze.index, cell));
        assert_eq!(cell(0), None, "the header");
        assert_eq!(cell(4), Some((1, 0)));
        assert_eq!(cell(6), Some((1, 2)));
        assert_eq!(cell(7), None, "the line break");
        assert_eq!(cell(12), None, "an invalid maze");
        assert_eq!(
            hardest_title_pending(2, true),
            "Make Maze #2 hardest keeping the target"
        );
    }

    #[test]
    fn hover_lines_from_the_difficulty_map() {
        let grid = Grid::from_rows(&["#####", "#S.B#", "#..T#", "#####"]).expect("valid");
        let lines: Vec<Option<String>> = difficulty_map(&grid)
            .expect("small")
            .into_iter()
            .map(cell_hover)
            .collect();
        expect![[r#"
            [None, None, None, None, None, None, None, Some("box here: unsolvable"), Some("box here: unsolvable"), None, None, Some("box here: unsolvable"), Some("box here: 1 push · 2 moves"), Some("box here: already on the target"), None, None, None, None, None, None]
        "#]]
        .assert_eq(&format!("{lines:?}\n"));
    }
}
