//! The exact solver: fewest pushes, then fewest moves; dead squares; replaying moves.
//!
//! Pure and synchronous. Long solves can be stopped through a cancellation flag.

mod blocks;
mod board;
mod dead;
mod replay;
mod search;
mod walk;

pub use replay::{replay, Illegal, Replayed};

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
                "the box starts on a dead square: no sequence of pushes brings it to the target"
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

/// Solves a maze, giving up with [`Cancelled`] soon after `cancel` becomes true.
pub fn solve_cancellable(grid: &Grid, cancel: &AtomicBool) -> Result<Outcome, Cancelled> {
    let board = Board::new(grid);
    let blocks = Blocks::new(&board);
    solve_on(&board, &blocks, cancel)
}

/// Solves a maze and computes its dead squares, sharing the work both need.
pub fn analyze(grid: &Grid, cancel: &AtomicBool) -> Result<Analysis, Cancelled> {
    let board = Board::new(grid);
    let blocks = Blocks::new(&board);
    let outcome = solve_on(&board, &blocks, cancel)?;
    let live = dead::live_cells(&board, &blocks);
    let dead = (0..grid.cell_count())
        .map(|cell| !grid.walls[cell] && !live[board.padded(cell)])
        .collect();
    Ok(Analysis { outcome, dead })
}

fn solve_on(board: &Board, blocks: &Blocks, cancel: &AtomicBool) -> Result<Outcome, Cancelled> {
    let mut search = Search::new(board, blocks, cancel);
    match search.run()? {
        Ending::Found(found) => Ok(Outcome::Solved(Solution {
            pushes: found.pushes,
            moves: found.moves,
            path: search.path(&found),
        })),
        Ending::BoxUnreachable => Ok(Outcome::Unsolvable(Reason::PlayerCannotReachBox)),
        Ending::Exhausted => {
            drop(search);
            Ok(Outcome::Unsolvable(explain(board, blocks)))
        }
    }
}

/// Why a maze whose search was exhausted has no solution.
fn explain(board: &Board, blocks: &Blocks) -> Reason {
    let target = board.target;
    let enterable = (0..4).any(|side| {
        let from = board.step(target, side);
        board.is_free(from) && board.is_free(board.step(from, side))
    });
    if !enterable {
        return Reason::TargetUnreachable;
    }
    if !dead::live_cells(board, blocks)[board.boxed] {
        return Reason::BoxOnDeadSquare;
    }
    Reason::PlayerWrongSide
}
