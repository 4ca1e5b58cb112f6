//! Replaying a move string on a grid: legality, counts, where the box ends, and the
//! position after every move (what pictures and previews of a solution draw).

use crate::maze::Grid;

/// The result of a legal replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    pub pushes: u64,
    pub moves: u64,
    /// Grid cell the box ends on.
    pub box_at: usize,
    pub solved: bool,
}

/// The first move that breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    /// Byte offset of the move in the move string.
    pub offset: usize,
    /// The move's length in bytes (non-ASCII characters are longer than one).
    pub len: usize,
    pub message: String,
}

/// Where the player and the box stand (grid cells) after some moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frame {
    pub player: usize,
    pub boxed: usize,
}

/// Plays `moves` (`nsew` walks, `NSEW` pushes) from the grid's start position.
pub fn replay(grid: &Grid, moves: &str) -> Result<Replayed, Illegal> {
    play(grid, moves, |_| {})
}

/// The start position, then the position after each move: one frame per move and
/// one more, for a legal move string.
pub fn replay_frames(grid: &Grid, moves: &str) -> Result<Vec<Frame>, Illegal> {
    let mut frames = Vec::with_capacity(moves.len() + 1);
    play(grid, moves, |frame| frames.push(frame))?;
    Ok(frames)
}

/// Like [`replay`], calling `visit` with the start and then after each legal move.
pub fn play(grid: &Grid, moves: &str, mut visit: impl FnMut(Frame)) -> Result<Replayed, Illegal> {
    let (mut player, mut boxed) = (grid.player, grid.boxed);
    visit(Frame { player, boxed });
    let mut pushes = 0u64;
    for (offset, letter) in moves.char_indices() {
        let illegal = |message: String| Illegal {
            offset,
            len: letter.len_utf8(),
            message,
        };
        let dir = match letter.to_ascii_lowercase() {
            'n' => (-1, 0),
            's' => (1, 0),
            'w' => (0, -1),
            'e' => (0, 1),
            _ => {
                return Err(illegal(format!(
                    "`{}` is not a move: use n s e w to walk and N S E W to push",
                    letter.escape_debug()
                )))
            }
        };
        let push = letter.is_ascii_uppercase();
        let next = neighbour(grid, player, dir)
            .ok_or_else(|| illegal(format!("`{letter}` walks off the edge of the maze")))?;
        if grid.walls[next] {
            return Err(illegal(format!("`{letter}` walks into rock")));
        }
        match (push, next == boxed) {
            (false, true) => {
                return Err(illegal(format!(
                    "`{letter}` walks into the box: use `{}` to push it",
                    letter.to_ascii_uppercase()
                )))
            }
            (true, false) => {
                return Err(illegal(format!(
                    "`{letter}` pushes, but the box is not there"
                )))
            }
            (true, true) => {
                let beyond = neighbour(grid, next, dir)
                    .filter(|&cell| !grid.walls[cell])
                    .ok_or_else(|| illegal(format!("`{letter}` pushes the box into rock")))?;
                boxed = beyond;
                pushes += 1;
            }
            (false, false) => {}
        }
        player = next;
        visit(Frame { player, boxed });
    }
    Ok(Replayed {
        pushes,
        moves: moves.chars().count() as u64,
        box_at: boxed,
        solved: boxed == grid.target,
    })
}

fn neighbour(grid: &Grid, cell: usize, (dr, dc): (isize, isize)) -> Option<usize> {
    let (row, col) = grid.coords(cell);
    let row = row.checked_add_signed(dr).filter(|&r| r < grid.rows)?;
    let col = col.checked_add_signed(dc).filter(|&c| c < grid.cols)?;
    Some(row * grid.cols + col)
}
