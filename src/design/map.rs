//! The difficulty map: with the maze's own S and T, the optimum if the box started on
//! each free cell, from one reverse search from T and one walk from S.
//!
//! Only the cells the reverse search reaches can be solvable, so only their side walks
//! are worked out ([`LazySides`]) and only they are looked at afterwards: a map of
//! rooms whose target few cells can reach costs little more than those cells.

use std::sync::atomic::AtomicBool;

use super::detour::Detours;
use super::reverse::{moves, pushes, Cost, Reverse, NEVER};
use super::sides::{free_sides, LazySides, UNREACHED};
use super::{check, DesignError, Walks, MAX_CELLS};
use crate::maze::Grid;
use crate::solver::board::{sides_in, Board};
use crate::solver::Cancelled;

/// What the box would need on one cell of the difficulty map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Difficulty {
    Rock,
    /// The player's start: the box cannot start there.
    Player,
    /// The target: nothing to do.
    Target,
    Unsolvable,
    Solved {
        pushes: u64,
        moves: u64,
    },
}

/// For each grid cell, the optimum if the box started there with `grid`'s S and T.
pub fn difficulty_map(grid: &Grid) -> Result<Vec<Difficulty>, DesignError> {
    difficulty_map_cancellable(grid, &AtomicBool::new(false))
}

/// [`difficulty_map`], giving up with [`DesignError::Cancelled`] soon after `cancel` is set.
pub fn difficulty_map_cancellable(
    grid: &Grid,
    cancel: &AtomicBool,
) -> Result<Vec<Difficulty>, DesignError> {
    if grid.cell_count() > MAX_CELLS {
        return Err(DesignError::TooLarge {
            cells: grid.cell_count(),
        });
    }
    let board = Board::new(grid);
    let mut sides = LazySides::new(&board, cancel);
    let mut reverse = Reverse::new(&board);
    reverse.run(&board, &mut sides, board.target)?;
    check(cancel)?;
    let mut walks = Walks::new(board.len());
    walks.from(&board, board.player, usize::MAX);
    let mut map = Map {
        board: &board,
        sides,
        reverse,
        plain: walks.distance,
        detours: Detours::new(board.len()),
    };
    let mut difficulties: Vec<Difficulty> = grid
        .walls
        .iter()
        .map(|&wall| {
            if wall {
                Difficulty::Rock
            } else {
                Difficulty::Unsolvable
            }
        })
        .collect();
    // The cells the reverse search reached, the only ones from which the box can reach
    // the target, in memory order (so the lookups round each run along the rows).
    for (row, cells) in difficulties.chunks_mut(grid.cols).enumerate() {
        check(cancel)?;
        let first = (row + 1) * board.width + 1;
        for (col, difficulty) in cells.iter_mut().enumerate() {
            let cell = first + col;
            if !map.reverse.reached(cell) || cell == board.player || cell == board.target {
                continue;
            }
            let best = map.optimum_with_box_at(cell)?;
            if best != NEVER {
                *difficulty = Difficulty::Solved {
                    pushes: u64::from(pushes(best)),
                    moves: u64::from(moves(best)),
                };
            }
        }
    }
    difficulties[grid.player] = Difficulty::Player;
    difficulties[grid.target] = Difficulty::Target;
    Ok(difficulties)
}

/// One map's searches: the reverse search from the target and the player's walks.
struct Map<'a> {
    board: &'a Board,
    sides: LazySides<'a>,
    reverse: Reverse,
    /// The walk distances from the start with no box.
    plain: Vec<u32>,
    detours: Detours,
}

impl Map<'_> {
    /// The optimum from the maze's start with the box at `boxed`.
    fn optimum_with_box_at(&mut self, boxed: usize) -> Result<Cost, Cancelled> {
        let board = self.board;
        if self.plain[boxed] == UNREACHED {
            return Ok(NEVER);
        }
        let mut best = NEVER;
        let mut repaired = false;
        for side in sides_in(free_sides(board, boxed)) {
            let first = self.reverse.first_push(boxed, side);
            if first == NEVER {
                continue;
            }
            let cell = board.step(boxed, side);
            let walk = match self.walk_round(boxed, side)? {
                Some(walk) => walk,
                None => {
                    if !repaired {
                        self.detours.repair(board, &self.plain, boxed);
                        repaired = true;
                    }
                    self.detours.walk(&self.plain, cell)
                }
            };
            if walk != UNREACHED {
                best = best.min(first + u64::from(walk));
            }
        }
        Ok(best)
    }

    /// The walk from the start to side `side` of a box at `boxed`, from the walk
    /// distances with no box when they settle it; `None` when a walk must tell.
    ///
    /// A side nearer the start than the box has a shortest walk that cannot pass the
    /// box; so has a side with another neighbour one step nearer. Otherwise every
    /// shortest walk goes through the box: the walk is at least two longer (grid walks
    /// keep their parity), and a four-step detour from the box's nearer side meets that.
    fn walk_round(&mut self, boxed: usize, side: usize) -> Result<Option<u32>, Cancelled> {
        let board = self.board;
        let plain = &self.plain;
        let cell = board.step(boxed, side);
        let (here, there) = (plain[boxed], plain[cell]);
        if cell == board.player || there < here {
            return Ok(Some(there));
        }
        let other_way = (0..4).any(|dir| {
            let n = board.step(cell, dir);
            n != boxed && board.is_free(n) && plain[n] != UNREACHED && plain[n] + 1 == there
        });
        if other_way {
            return Ok(Some(there));
        }
        let Some(nearer) = (0..4).find(|&dir| {
            let n = board.step(boxed, dir);
            board.is_free(n) && plain[n] != UNREACHED && plain[n] + 1 == here
        }) else {
            return Ok(None);
        };
        let before = plain[board.step(boxed, nearer)];
        let detour = self.sides.between(boxed, nearer, side)?;
        if detour == UNREACHED {
            return Ok(Some(UNREACHED));
        }
        Ok((before + detour == there + 2).then_some(there + 2))
    }
}
