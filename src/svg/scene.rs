//! What a picture shows, whichever format the text came in: the level model's board
//! (rock, floor, the void around an XSB level, dead squares, goals), the pieces'
//! start, and the story — a solution played frame by frame, or why there is none.
//! A `.box` maze is the one-box case ([`Scene::of_maze`]); a Sokoban level has many
//! ([`Scene::of_level`]).

use crate::level::{self, Frame, Position};
use crate::maze::Grid;
use crate::solver::{replay_frames, Analysis, Outcome};

pub struct Scene {
    pub rows: usize,
    pub cols: usize,
    /// Row-major: rock.
    pub walls: Vec<bool>,
    /// Row-major: outside the level (an XSB board's void), drawn as paper.
    pub void: Vec<bool>,
    pub dead: Vec<bool>,
    pub goals: Vec<usize>,
    /// Where the player and the boxes stand before the first move.
    pub start: Frame,
    /// `Maze #3`, `Level 2 “Title”`.
    pub name: String,
    pub story: Story,
}

/// The solution to draw, or why there is none.
pub enum Story {
    Solved {
        /// The move string as written (`nsewNSEW` or LURD: pushes in upper case).
        moves: String,
        pushes: u64,
        /// Said after the counts: ` (optimal)` for a proved Sokoban optimum.
        claim: &'static str,
        /// The start, then the position after each move.
        frames: Vec<Frame>,
    },
    /// No solution: the headline says `label`, the note `why`.
    Unsolved { label: &'static str, why: String },
}

/// A Sokoban level's answer, as a picture tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelOutcome {
    Solved {
        lurd: String,
        optimal: bool,
    },
    Unsolvable,
    /// The limit (`10 s`) came first; every solution takes at least `lower_bound` pushes.
    Unknown {
        limit: String,
        lower_bound: Option<u32>,
    },
}

impl Scene {
    /// Maze `index` of a `.box` file with its analysis.
    pub fn of_maze(grid: &Grid, index: usize, analysis: &Analysis) -> Scene {
        let story = match &analysis.outcome {
            Outcome::Solved(solution) => match replay_frames(grid, &solution.path) {
                Ok(frames) => Story::Solved {
                    moves: solution.path.clone(),
                    pushes: solution.pushes,
                    claim: "",
                    frames: frames
                        .iter()
                        .map(|frame| Frame {
                            player: frame.player,
                            boxes: vec![frame.boxed],
                        })
                        .collect(),
                },
                // The solver's own moves always replay; say so rather than draw nonsense.
                Err(illegal) => broken(&illegal.message),
            },
            Outcome::Unsolvable(reason) => Story::Unsolved {
                label: "unsolvable",
                why: sentence(&reason.to_string()),
            },
        };
        Scene {
            rows: grid.rows,
            cols: grid.cols,
            walls: grid.walls.clone(),
            void: vec![false; grid.walls.len()],
            dead: analysis.dead.clone(),
            goals: vec![grid.target],
            start: Frame {
                player: grid.player,
                boxes: vec![grid.boxed],
            },
            name: format!("Maze #{index}"),
            story,
        }
    }

    /// A Sokoban level (`position`, read from `board`) called `name`, with its answer.
    pub fn of_level(
        board: &level::Board,
        position: &Position,
        name: String,
        outcome: &LevelOutcome,
    ) -> Scene {
        let story = match outcome {
            LevelOutcome::Solved { lurd, optimal } => {
                let played = level::parse_lurd(lurd, std::slice::from_ref(&(0..lurd.len())))
                    .map_err(|_| "it is not LURD".to_string())
                    .and_then(|moves| {
                        level::frames(position, &moves)
                            .map_err(|error| format!("move {} {}", error.step + 1, error.why))
                    });
                match played {
                    Ok(frames) => Story::Solved {
                        pushes: lurd.chars().filter(char::is_ascii_uppercase).count() as u64,
                        moves: lurd.clone(),
                        claim: if *optimal { " (optimal)" } else { "" },
                        frames,
                    },
                    Err(why) => broken(&why),
                }
            }
            LevelOutcome::Unsolvable => Story::Unsolved {
                label: "unsolvable",
                why: "No sequence of pushes brings every box onto a goal.".into(),
            },
            LevelOutcome::Unknown { limit, lower_bound } => Story::Unsolved {
                label: "unknown",
                why: match lower_bound {
                    Some(bound) => format!(
                        "No solution found within {limit}; any solution takes at least {}.",
                        crate::maze::plural(u64::from(*bound), "push", "pushes")
                    ),
                    None => format!("No solution found within {limit}."),
                },
            },
        };
        let void = outside(board);
        let dead = level::dead_squares(position)
            .into_iter()
            .zip(&void)
            .map(|(dead, &void)| dead && !void)
            .collect();
        Scene {
            rows: position.height,
            cols: position.width,
            walls: board
                .cells
                .iter()
                .map(|&cell| cell.is_wall() && cell != level::Cell::Void)
                .collect(),
            void,
            dead,
            goals: (0..position.goals.len())
                .filter(|&cell| position.goals[cell])
                .collect(),
            start: Frame {
                player: position.player,
                boxes: position.boxes.clone(),
            },
            name,
            story,
        }
    }

    /// `(row, column)` of a cell.
    pub fn coords(&self, cell: usize) -> (usize, usize) {
        (cell / self.cols.max(1), cell % self.cols.max(1))
    }

    pub fn is_solved(&self) -> bool {
        matches!(self.story, Story::Solved { .. })
    }

    /// One box and one goal: the `.box` picture, whose pieces keep their own names.
    pub fn is_single(&self) -> bool {
        self.start.boxes.len() == 1 && self.goals.len() == 1
    }
}

/// The cells outside a level: not walls, and joined to the board's edge by cells that
/// are not walls (the level's floor is closed in by walls, or it would not be drawn).
fn outside(board: &level::Board) -> Vec<bool> {
    let (width, height) = (board.width, board.height);
    let open = |cell: usize| !board.cells[cell].is_wall() || board.cells[cell] == level::Cell::Void;
    let mut out = vec![false; board.cells.len()];
    let mut stack: Vec<usize> = (0..board.cells.len())
        .filter(|&cell| {
            let (row, col) = (cell / width.max(1), cell % width.max(1));
            row == 0 || col == 0 || row + 1 == height || col + 1 == width
        })
        .filter(|&cell| open(cell))
        .collect();
    while let Some(cell) = stack.pop() {
        if out[cell] {
            continue;
        }
        out[cell] = true;
        let (row, col) = (cell / width, cell % width);
        let neighbours = [
            (row > 0).then(|| cell - width),
            (row + 1 < height).then(|| cell + width),
            (col > 0).then(|| cell - 1),
            (col + 1 < width).then(|| cell + 1),
        ];
        stack.extend(
            neighbours
                .into_iter()
                .flatten()
                .filter(|&next| open(next) && !out[next]),
        );
    }
    out
}

fn broken(why: &str) -> Story {
    Story::Unsolved {
        label: "unsolvable",
        why: format!("internal error: the solution does not replay ({why})"),
    }
}

/// `the player cannot reach the box` → `The player cannot reach the box.`
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}
