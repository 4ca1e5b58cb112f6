//! The solution played out: every frame of a maze's optimal solution (what the
//! editors' previews draw, `boxls/replay`), and the board after move *k* of any move
//! string (the step-through hover).

use super::FileView;
use crate::maze::Grid;
use crate::solver::{self, Illegal};

/// A maze's optimal solution, frame by frame, in 0-based (row, column) coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// `Maze #k`.
    pub index: usize,
    pub rows: usize,
    pub cols: usize,
    /// The maze as rows of `# . S B T`.
    pub cells: Vec<String>,
    /// The optimal move string.
    pub moves: String,
    pub pushes: u64,
    /// The start, then one frame per move.
    pub frames: Vec<Frame>,
    /// Dead squares (empty when they are not known or not wanted).
    pub dead: Vec<(usize, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    pub player: (usize, usize),
    pub boxed: (usize, usize),
}

/// The replay of the solved maze at `offset`; `None` where there is none.
pub fn replay(file: &FileView, offset: usize) -> Option<Replay> {
    let (maze, status) = file.maze_at(offset)?;
    let grid = maze.grid.as_ref()?;
    let solution = status.solution()?;
    let mut frames = Vec::with_capacity(solution.path.len() + 1);
    let played = solver::play(grid, &solution.path, |frame| {
        frames.push(Frame {
            player: grid.coords(frame.player),
            boxed: grid.coords(frame.boxed),
        })
    });
    // The solver's own answer always replays; if it did not, showing nothing beats
    // showing a wrong animation.
    played.ok().filter(|replayed| replayed.solved)?;
    let dead = match status.dead() {
        Some(dead) if file.options.dead_squares => dead
            .iter()
            .enumerate()
            .filter(|(_, &is_dead)| is_dead)
            .map(|(cell, _)| grid.coords(cell))
            .collect(),
        _ => Vec::new(),
    };
    Some(Replay {
        index: maze.index,
        rows: grid.rows,
        cols: grid.cols,
        cells: grid.to_rows(),
        moves: solution.path.clone(),
        pushes: solution.pushes,
        frames,
        dead,
    })
}

/// The board after the first `k` moves of a move string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// `k`, and how many moves the string has in all.
    pub moves_done: usize,
    pub moves: usize,
    /// Pushes among the first `k` moves, and in the whole string.
    pub pushes_done: u64,
    pub pushes: u64,
    /// The board drawn with `#` rock, `.` free, `T` target, `S` player, `B` box
    /// (`*` for the box on the target).
    pub drawing: Vec<String>,
}

/// Plays the first `k` moves of `moves` on `grid`: the board then, or the first
/// illegal move among them.
pub fn board_after(grid: &Grid, moves: &str, k: usize) -> Result<Board, Illegal> {
    let prefix_end = moves
        .char_indices()
        .nth(k)
        .map_or(moves.len(), |(at, _)| at);
    let mut last = None;
    let played = solver::play(grid, &moves[..prefix_end], |frame| last = Some(frame))?;
    let Some(frame) = last else {
        unreachable!("play visits the start")
    };
    Ok(Board {
        moves_done: played.moves as usize,
        moves: moves.chars().count(),
        pushes_done: played.pushes,
        pushes: moves.chars().filter(char::is_ascii_uppercase).count() as u64,
        drawing: draw(grid, frame),
    })
}

fn draw(grid: &Grid, frame: solver::Frame) -> Vec<String> {
    (0..grid.rows)
        .map(|row| {
            (0..grid.cols)
                .map(|col| {
                    let cell = row * grid.cols + col;
                    match cell {
                        _ if cell == frame.boxed && cell == grid.target => '*',
                        _ if cell == frame.boxed => 'B',
                        _ if cell == frame.player => 'S',
                        _ if cell == grid.target => 'T',
                        _ if grid.walls[cell] => '#',
                        _ => '.',
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::super::fixture::Fixture;
    use super::*;

    const MAZE: &str = "; a corridor\n3 5\n#####\n#SB.T\n#####\n0 0\n";

    #[test]
    fn replays_the_optimal_solution_frame_by_frame() {
        let fixture = Fixture::solved(MAZE);
        let offset = MAZE.find("#SB").expect("a row");
        let replay = replay(&fixture.view(), offset).expect("solved");
        expect![[r######"
            Replay {
                index: 1,
                rows: 3,
                cols: 5,
                cells: [
                    "#####",
                    "#SB.T",
                    "#####",
                ],
                moves: "EE",
                pushes: 2,
                frames: [
                    Frame {
                        player: (
                            1,
                            1,
                        ),
                        boxed: (
                            1,
                            2,
                        ),
                    },
                    Frame {
                        player: (
                            1,
                            2,
                        ),
                        boxed: (
                            1,
                            3,
                        ),
                    },
                    Frame {
                        player: (
                            1,
                            3,
                        ),
                        boxed: (
                            1,
                            4,
                        ),
                    },
                ],
                dead: [
                    (
                        1,
                        1,
                    ),
                ],
            }
        "######]]
        .assert_debug_eq(&replay);
    }

    #[test]
    fn no_replay_outside_a_maze_or_for_an_unsolvable_one() {
        let text = "; x\n1 3\nBST\n0 0\n";
        let fixture = Fixture::solved(text);
        assert_eq!(replay(&fixture.view(), 0), None, "on the comment");
        assert_eq!(replay(&fixture.view(), 5), None, "unsolvable");
    }

    #[test]
    fn the_board_after_k_moves() {
        let grid = Grid::from_rows(&["S.B.T", "....."]).expect("valid");
        let board = board_after(&grid, "eEE", 2).expect("legal");
        assert_eq!((board.moves_done, board.moves), (2, 3));
        assert_eq!((board.pushes_done, board.pushes), (1, 2));
        assert_eq!(board.drawing, ["..SBT", "....."]);
        let done = board_after(&grid, "eEE", 3).expect("legal");
        assert_eq!(done.drawing, ["...S*", "....."]);
        let illegal = board_after(&grid, "eEsE", 4).expect_err("walks away, then pushes");
        assert_eq!(illegal.offset, 3);
        assert!(
            board_after(&grid, "eEsE", 2).is_ok(),
            "the bad move comes later"
        );
    }
}
