//! The solution played out: every frame of a maze's optimal solution and, for a maze
//! or a Sokoban level alike, the start and one compact delta per move (what the
//! editors' previews draw, `boxls/replay`); and the board after move *k* of any move
//! string (the step-through hover).

use super::levels::{dead_of, LevelFile, LevelStatus};
use super::FileView;
use crate::level::{self, parse_lurd, Cell};
use crate::maze::Grid;
use crate::solver::{self, Illegal};

/// A solution played out, in 0-based (row, column) coordinates and cell indices
/// (`row * cols + col`). One shape for a `.box` maze (one box) and a level (many).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// `Maze #k`, or `Level k` of a Sokoban document.
    pub index: usize,
    /// A level's title (a maze has none).
    pub title: Option<String>,
    pub rows: usize,
    pub cols: usize,
    /// The board as rows of `# . S B T` (a level's also `*` box on goal, `+` player on
    /// goal, and a space outside its walls), every row `cols` long.
    pub cells: Vec<String>,
    /// The move string: `n s e w` / `N S E W` for a maze, LURD for a level.
    pub moves: String,
    pub pushes: u64,
    /// One-box mazes only: the start, then one frame per move (empty for a level).
    pub frames: Vec<Frame>,
    /// Dead squares (empty when they are not known or not wanted).
    pub dead: Vec<(usize, usize)>,
    /// Where the player and the boxes start, and the goals.
    pub player: (usize, usize),
    pub boxes: Vec<(usize, usize)>,
    pub goals: Vec<(usize, usize)>,
    /// The player's cell index after each move.
    pub steps: Vec<usize>,
    /// Each push: the move's index, the box's (an index into `boxes`), and the cell
    /// index it is pushed to.
    pub pushed: Vec<[usize; 3]>,
}

/// The board's rows run-length coded, as XSB codes a row ([`level::count_runs`]): a
/// cell repeated `n > 1` times is `n` then the cell, `|` between rows
/// (`"5#|#.S2 T#|5#"`). A room of any size is a few characters a row, where the rows
/// themselves grow with its area.
pub fn board_runs(rows: &[String]) -> String {
    let coded: Vec<String> = rows.iter().map(|row| level::count_runs(row)).collect();
    coded.join("|")
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
    let index = |(row, col): (usize, usize)| row * grid.cols + col;
    let steps = frames.iter().skip(1).map(|f| index(f.player)).collect();
    let pushed = frames
        .windows(2)
        .enumerate()
        .filter(|(_, pair)| pair[0].boxed != pair[1].boxed)
        .map(|(k, pair)| [k, 0, index(pair[1].boxed)])
        .collect();
    let start = frames.first().copied()?;
    Some(Replay {
        index: maze.index,
        title: None,
        rows: grid.rows,
        cols: grid.cols,
        cells: grid.to_rows(),
        moves: solution.path.clone(),
        pushes: solution.pushes,
        frames,
        dead,
        player: start.player,
        boxes: vec![start.boxed],
        goals: vec![grid.coords(grid.target)],
        steps,
        pushed,
    })
}

/// The replay of the solved level at `offset` of a Sokoban document (`statuses`: one
/// per level, what is known of its solve); `None` where there is none or it is not
/// solved. The moves are played here, by the level model's own replay.
pub fn level_replay(file: &LevelFile, statuses: &[LevelStatus], offset: usize) -> Option<Replay> {
    let level = file.level_at(offset)?;
    let at = file.levels().iter().position(|l| std::ptr::eq(l, level))?;
    let status = statuses.get(at)?;
    let (_, _, lurd) = status.solution()?;
    let board = &level.board;
    let position = board.position()?;
    let all = 0..lurd.len();
    let moves = parse_lurd(lurd, std::slice::from_ref(&all)).ok()?;
    let mut steps = Vec::with_capacity(moves.len());
    let mut pushed = Vec::new();
    let played = level::replay_with(&position, &moves, |player, push| {
        if let Some((index, to)) = push {
            pushed.push([steps.len(), index, to]);
        }
        steps.push(player);
    });
    // The solve was replayed before it was kept; if it did not replay now, showing
    // nothing beats showing a wrong animation.
    played.ok().filter(|replayed| replayed.solved)?;
    let cols = board.width;
    let coords = |cell: usize| board.coords(cell);
    let dead = dead_of(level, file.options)
        .map(|dead| {
            (0..dead.len())
                .filter(|&cell| dead[cell])
                .map(coords)
                .collect()
        })
        .unwrap_or_default();
    let cells = board
        .cells
        .chunks(cols.max(1))
        .map(|row| row.iter().map(|&cell| kind(cell)).collect())
        .collect();
    Some(Replay {
        index: level.index,
        title: level.title.as_ref().map(|title| title.text.clone()),
        rows: board.height,
        cols,
        cells,
        moves: lurd.to_string(),
        pushes: pushed.len() as u64,
        frames: Vec::new(),
        dead,
        player: coords(position.player),
        boxes: position.boxes.iter().map(|&cell| coords(cell)).collect(),
        goals: board.goals().into_iter().map(coords).collect(),
        steps,
        pushed,
    })
}

/// A level's cell in the `.box` letters (and `*`, `+`, a space outside).
fn kind(cell: Cell) -> char {
    match cell {
        Cell::Void => ' ',
        Cell::Floor => '.',
        Cell::Wall | Cell::Unknown => '#',
        Cell::Goal => 'T',
        Cell::Box => 'B',
        Cell::BoxOnGoal => '*',
        Cell::Player => 'S',
        Cell::PlayerOnGoal => '+',
    }
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

    /// The rows back from runs, written independently of [`board_runs`].
    fn expand_runs(runs: &str) -> Vec<String> {
        runs.split('|')
            .map(|row| {
                let mut out = String::new();
                let mut count = String::new();
                for c in row.chars() {
                    if c.is_ascii_digit() {
                        count.push(c);
                    } else {
                        let times = count.parse().unwrap_or(1);
                        out.extend(std::iter::repeat_n(c, times));
                        count.clear();
                    }
                }
                out
            })
            .collect()
    }

    #[test]
    fn board_runs_code_each_row_and_expand_back() {
        let rows: Vec<String> = ["#####", "#.S  T#", "  ###", "#"]
            .map(String::from)
            .to_vec();
        assert_eq!(board_runs(&rows), "5#|#.S2 T#|2 3#|#");
        assert_eq!(expand_runs(&board_runs(&rows)), rows);
        let room: Vec<String> = (0..2_000)
            .map(|r| {
                (0..2_000)
                    .map(|c| if r % 4 == 3 && c % 4 == 3 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        let runs = board_runs(&room);
        assert_eq!(expand_runs(&runs), room);
        assert!(runs.len() < room.len() * 2_000 / 2, "{} bytes", runs.len());
    }

    #[test]
    fn replays_the_optimal_solution_frame_by_frame() {
        let fixture = Fixture::solved(MAZE);
        let offset = MAZE.find("#SB").expect("a row");
        let replay = replay(&fixture.view(), offset).expect("solved");
        expect![[r######"
            Replay {
                index: 1,
                title: None,
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
                player: (
                    1,
                    1,
                ),
                boxes: [
                    (
                        1,
                        2,
                    ),
                ],
                goals: [
                    (
                        1,
                        4,
                    ),
                ],
                steps: [
                    7,
                    8,
                ],
                pushed: [
                    [
                        0,
                        0,
                        8,
                    ],
                    [
                        1,
                        0,
                        9,
                    ],
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
    fn a_solved_level_replays_as_compact_deltas() {
        use crate::ide::levels::{positions_to_solve, solve_level};
        use std::sync::atomic::AtomicBool;
        let text = "Two boxes\n#######\n#.   .#\n# $$  #\n#@    #\n#######\n";
        let checked = crate::level::check(text);
        let file = LevelFile {
            text,
            checked: &checked,
            options: super::super::Options::default(),
        };
        let never = AtomicBool::new(false);
        let statuses: Vec<LevelStatus> = positions_to_solve(&file)
            .iter()
            .map(|position| {
                let position = position.as_ref().expect("worth solving");
                solve_level(
                    position,
                    std::time::Duration::from_secs(60),
                    &never,
                    &mut |_| {},
                )
                .expect("done")
            })
            .collect();
        let offset = text.find("# $$").expect("a row");
        let replay = level_replay(&file, &statuses, offset).expect("solved");
        assert_eq!(replay.title.as_deref(), Some("Two boxes"));
        assert_eq!(replay.cells[1], "#T...T#");
        assert_eq!(replay.boxes, [(2, 2), (2, 3)]);
        assert_eq!(replay.goals, [(1, 1), (1, 5)]);
        assert_eq!(replay.steps.len(), replay.moves.len());
        assert_eq!(replay.pushed.len() as u64, replay.pushes);
        // The deltas applied: every box ends on a goal.
        let cols = replay.cols;
        let mut boxes: Vec<usize> = replay.boxes.iter().map(|&(r, c)| r * cols + c).collect();
        for &[_, i, to] in &replay.pushed {
            boxes[i] = to;
        }
        let mut ends: Vec<(usize, usize)> = boxes.iter().map(|b| (b / cols, b % cols)).collect();
        ends.sort_unstable();
        assert_eq!(ends, replay.goals);
        let unsolved = [LevelStatus::WAITING];
        assert_eq!(
            level_replay(&file, &unsolved, offset),
            None,
            "not solved yet"
        );
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
