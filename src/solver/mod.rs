//! The exact solver: fewest pushes, then fewest moves; dead squares; replaying moves.
//!
//! Pure and synchronous. Long solves can be stopped through a cancellation flag.

pub(crate) mod blocks;
pub(crate) mod board;
mod dead;
mod replay;
pub(crate) mod round;
pub(crate) mod search;
pub(crate) mod walk;
mod window;

pub use replay::{play, replay, replay_frames, Frame, Illegal, Replayed};

use std::fmt;
use std::sync::atomic::AtomicBool;

use crate::maze::Grid;
use blocks::Blocks;
use board::Board;
use search::{Ending, Search};

/// An optimal move string and its counts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Solution {
    pub pushes: u64,
    pub moves: u64,
    /// `nsew` walks and `NSEW` pushes.
    pub path: String,
}

/// Why no sequence of moves brings the box to the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    PlayerCannotReachBox,
    TargetUnreachable,
    BoxOnDeadSquare,
    PlayerWrongSide,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::PlayerCannotReachBox => "the player cannot reach the box",
            Reason::TargetUnreachable => "no push can ever move the box onto the target",
            Reason::BoxOnDeadSquare => {
                "the box starts on a dead square, from which no sequence of pushes brings it to the target"
            }
            Reason::PlayerWrongSide => {
                "the player cannot reach a side from which the box can be pushed to the target"
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    Solved(Solution),
    Unsolvable(Reason),
}

/// The solve was stopped through its cancellation flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

/// How often the long loops look at the cancellation flag (a few milliseconds of work).
const CHECK_EVERY: usize = 1 << 14;

/// Checks `cancel` on every [`CHECK_EVERY`]th call, cheaply.
fn poll(cancel: &AtomicBool, counter: usize) -> Result<(), Cancelled> {
    if counter % CHECK_EVERY == 0 && cancel.load(std::sync::atomic::Ordering::Relaxed) {
        Err(Cancelled)
    } else {
        Ok(())
    }
}

/// Everything the editor wants to know about one maze.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub outcome: Outcome,
    /// Per grid cell: free, but the box can never get from there to the target.
    pub dead: Vec<bool>,
}

/// Solves a maze to optimality.
pub fn solve(grid: &Grid) -> Outcome {
    let never = AtomicBool::new(false);
    match solve_cancellable(grid, &never) {
        Ok(outcome) => outcome,
        Err(Cancelled) => unreachable!("the flag is never set"),
    }
}

/// The optimal solution, or `None` when there is none, without working out why: all
/// that `boxls solve` prints.
pub fn solve_path(grid: &Grid) -> Option<Solution> {
    let never = AtomicBool::new(false);
    let board = Board::new(grid);
    let mut search = Search::new(&board, &never);
    match search.run().ok()? {
        Ending::Found(found) => Some(search.solution(&found)),
        Ending::BoxUnreachable | Ending::Exhausted => None,
    }
}

/// Per grid cell: whether the box can be pushed there from its start with the player
/// starting at S (the start cell counts once the player reaches a side of the box).
/// Independent of the target; costs one search that explores every reachable state.
pub fn box_reach(grid: &Grid) -> Vec<bool> {
    let never = AtomicBool::new(false);
    let mut board = Board::new(grid);
    // A rock target (the padding's first cell) is never pushed onto: the search
    // explores every state the player and box can reach, then ends exhausted.
    board.target = 0;
    let mut search = Search::new(&board, &never);
    // The flag is never set, and a rock target is never found.
    let _ = search.run();
    (0..grid.cell_count())
        .map(|cell| search.box_reached(board.padded(cell)))
        .collect()
}

/// Solves a maze, giving up with [`Cancelled`] soon after `cancel` becomes true.
pub fn solve_cancellable(grid: &Grid, cancel: &AtomicBool) -> Result<Outcome, Cancelled> {
    let board = Board::new(grid);
    Ok(solve_on(&board, cancel)?.0)
}

/// Per grid cell: free, but the box can never get from there to the target. The
/// server asks for these only where they are drawn (tokens, hover, previews).
pub fn dead_squares(grid: &Grid, cancel: &AtomicBool) -> Result<Vec<bool>, Cancelled> {
    let board = Board::new(grid);
    let blocks = Blocks::new(&board, cancel)?;
    dead_from(grid, &board, &blocks, cancel)
}

fn dead_from(
    grid: &Grid,
    board: &Board,
    blocks: &Blocks,
    cancel: &AtomicBool,
) -> Result<Vec<bool>, Cancelled> {
    let live = dead::live_cells(board, blocks, cancel)?;
    Ok((0..grid.cell_count())
        .map(|cell| !grid.walls[cell] && !live[board.padded(cell)])
        .collect())
}

/// Solves a maze and computes its dead squares, sharing the work both need.
pub fn analyze(grid: &Grid, cancel: &AtomicBool) -> Result<Analysis, Cancelled> {
    let board = Board::new(grid);
    let (outcome, blocks) = solve_on(&board, cancel)?;
    let blocks = match blocks {
        Some(blocks) => blocks,
        None => Blocks::new(&board, cancel)?,
    };
    let dead = dead_from(grid, &board, &blocks, cancel)?;
    Ok(Analysis { outcome, dead })
}

/// The outcome, and the blocks if the search needed them.
fn solve_on(board: &Board, cancel: &AtomicBool) -> Result<(Outcome, Option<Blocks>), Cancelled> {
    let mut search = Search::new(board, cancel);
    let outcome = match search.run()? {
        Ending::Found(found) => Outcome::Solved(search.solution(&found)),
        Ending::BoxUnreachable => Outcome::Unsolvable(Reason::PlayerCannotReachBox),
        Ending::Exhausted => {
            let blocks = match search.into_blocks() {
                Some(blocks) => blocks,
                None => Blocks::new(board, cancel)?,
            };
            let reason = explain(board, &blocks, cancel)?;
            return Ok((Outcome::Unsolvable(reason), Some(blocks)));
        }
    };
    Ok((outcome, search.into_blocks()))
}

/// Why a maze whose search was exhausted has no solution.
fn explain(board: &Board, blocks: &Blocks, cancel: &AtomicBool) -> Result<Reason, Cancelled> {
    let target = board.target;
    let enterable = (0..4).any(|side| {
        let from = board.step(target, side);
        board.is_free(from) && board.is_free(board.step(from, side))
    });
    if !enterable {
        return Ok(Reason::TargetUnreachable);
    }
    if !dead::live_cells(board, blocks, cancel)?[board.boxed] {
        return Ok(Reason::BoxOnDeadSquare);
    }
    Ok(Reason::PlayerWrongSide)
}
