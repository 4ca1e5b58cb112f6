//! Design tools, exact and pure: the hardest placement of S, B and T for a maze's
//! walls, and the difficulty map (the optimum with the box on each free cell).
//!
//! Both run reverse searches over (box cell, player side) states from a target
//! ([`reverse`]) instead of solving placement by placement, sharing the walk distances
//! between a box's sides ([`sides`]) across every target. See SPEC §1 for the order:
//! most pushes, then most moves, then the first (T, B, S) in row-major order.

pub mod metrics;
mod reverse;
mod sides;

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::maze::Grid;
use crate::solver::blocks::Blocks;
use crate::solver::board::{sides_in, Board};
use crate::solver::Cancelled;
use reverse::{moves, pushes, Cost, Reverse, NEVER};
use sides::{free_sides, SideDistances, UNREACHED};

pub use metrics::{metrics, Metrics};

/// The most cells a design search takes: moves then stay below 2³² (an optimal solution
/// never repeats a (player, box) state), and the hardest placement, quadratic in the
/// cells, stays within seconds.
pub const MAX_CELLS: usize = 1 << 16;

/// S, B and T as grid cell indices, with the optimum of that placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    pub player: usize,
    pub boxed: usize,
    pub target: usize,
    pub pushes: u64,
    pub moves: u64,
}

impl Placement {
    /// `grid` with its S, B and T moved here (walls unchanged).
    pub fn apply(&self, grid: &Grid) -> Grid {
        Grid {
            player: self.player,
            boxed: self.boxed,
            target: self.target,
            ..grid.clone()
        }
    }
}

/// Why a design search gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DesignError {
    /// More than [`MAX_CELLS`] cells.
    TooLarge {
        cells: usize,
    },
    Cancelled,
}

impl fmt::Display for DesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DesignError::TooLarge { cells } => write!(
                f,
                "the maze has {cells} cells; design searches take at most {MAX_CELLS}"
            ),
            DesignError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl From<Cancelled> for DesignError {
    fn from(_: Cancelled) -> DesignError {
        DesignError::Cancelled
    }
}

/// The hardest placement for `grid`'s walls (with its target kept when
/// `keep_target`), or `None` when no placement is solvable.
pub fn hardest(grid: &Grid, keep_target: bool) -> Result<Option<Placement>, DesignError> {
    hardest_cancellable(grid, keep_target, &AtomicBool::new(false))
}

/// [`hardest`], giving up with [`DesignError::Cancelled`] soon after `cancel` is set.
pub fn hardest_cancellable(
    grid: &Grid,
    keep_target: bool,
    cancel: &AtomicBool,
) -> Result<Option<Placement>, DesignError> {
    let geometry = Geometry::new(grid, cancel)?;
    let targets: Vec<usize> = if keep_target {
        vec![geometry.board.target]
    } else {
        geometry.free.clone()
    };
    let mut reverse = Reverse::new(&geometry.board);
    // First pass: the most pushes any placement has, per target.
    let mut most = vec![0u32; targets.len()];
    for (slot, &target) in most.iter_mut().zip(&targets) {
        check(cancel)?;
        reverse.run(&geometry.board, &geometry.sides, target);
        *slot = geometry.most_pushes(&reverse, target).unwrap_or(0);
    }
    let Some(&best_pushes) = most.iter().max().filter(|&&p| p > 0) else {
        return Ok(None);
    };
    // Second pass, only for the targets that reach it: the moves.
    let mut walks = Walks::new(geometry.board.len());
    let mut best: Option<Placement> = None;
    for (&target, _) in targets.iter().zip(&most).filter(|(_, &p)| p == best_pushes) {
        check(cancel)?;
        reverse.run(&geometry.board, &geometry.sides, target);
        for &boxed in geometry.free.iter().filter(|&&b| b != target) {
            for group in geometry.groups(boxed) {
                if geometry.group_pushes(&reverse, target, boxed, group) != Some(best_pushes) {
                    continue;
                }
                let (player, moves) = geometry.farthest_start(
                    &reverse,
                    &mut walks,
                    target,
                    boxed,
                    group,
                    best_pushes,
                );
                if best.is_none_or(|b| u64::from(moves) > b.moves) {
                    best = Some(Placement {
                        player: geometry.unpadded(player),
                        boxed: geometry.unpadded(boxed),
                        target: geometry.unpadded(target),
                        pushes: u64::from(best_pushes),
                        moves: u64::from(moves),
                    });
                } else if best.is_some_and(|b| {
                    u64::from(moves) == b.moves
                        && b.target == geometry.unpadded(target)
                        && b.boxed == geometry.unpadded(boxed)
                        && geometry.unpadded(player) < b.player
                }) {
                    // Another side group of the same box: the first start wins.
                    best = best.map(|b| Placement {
                        player: geometry.unpadded(player),
                        ..b
                    });
                }
            }
        }
    }
    Ok(best)
}

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
    let geometry = Geometry::new(grid, cancel)?;
    let board = &geometry.board;
    let mut reverse = Reverse::new(board);
    reverse.run(board, &geometry.sides, board.target);
    check(cancel)?;
    let mut walks = Walks::new(board.len());
    walks.from(board, board.player, usize::MAX);
    let plain = walks.distance.clone();
    let mut map = vec![Difficulty::Rock; grid.cell_count()];
    for (cell, slot) in map.iter_mut().enumerate() {
        if grid.walls[cell] {
            continue;
        }
        let at = board.padded(cell);
        *slot = if at == board.player {
            Difficulty::Player
        } else if at == board.target {
            Difficulty::Target
        } else {
            match geometry.optimum_with_box_at(&reverse, &mut walks, &plain, at) {
                NEVER => Difficulty::Unsolvable,
                best => Difficulty::Solved {
                    pushes: u64::from(pushes(best)),
                    moves: u64::from(moves(best)),
                },
            }
        };
    }
    Ok(map)
}

fn check(cancel: &AtomicBool) -> Result<(), Cancelled> {
    if cancel.load(Ordering::Relaxed) {
        Err(Cancelled)
    } else {
        Ok(())
    }
}

/// The board, its free cells and the walk distances round a box on each.
struct Geometry {
    board: Board,
    sides: SideDistances,
    /// Free board cells in row-major order.
    free: Vec<usize>,
    cols: usize,
}

impl Geometry {
    fn new(grid: &Grid, cancel: &AtomicBool) -> Result<Geometry, DesignError> {
        if grid.cell_count() > MAX_CELLS {
            return Err(DesignError::TooLarge {
                cells: grid.cell_count(),
            });
        }
        let board = Board::new(grid);
        let blocks = Blocks::new(&board, cancel)?;
        let sides = SideDistances::new(&board, &blocks, cancel)?;
        let free = (0..board.len()).filter(|&c| board.is_free(c)).collect();
        Ok(Geometry {
            board,
            sides,
            free,
            cols: grid.cols,
        })
    }

    fn unpadded(&self, cell: usize) -> usize {
        (cell / self.board.width - 1) * self.cols + cell % self.board.width - 1
    }

    /// The sides of a box at `cell` split by where the player can be (the components of
    /// the free cells without `cell`), as masks.
    fn groups(&self, cell: usize) -> impl Iterator<Item = u8> + '_ {
        let free = free_sides(&self.board, cell);
        let mut left = free;
        std::iter::from_fn(move || {
            let first = sides_in(left).next()?;
            let group = sides_in(free)
                .filter(|&side| self.sides.between(cell, first, side) != UNREACHED)
                .fold(0u8, |mask, side| mask | 1 << side);
            left &= !group;
            Some(group)
        })
    }

    /// The pushes of a start in the component of `group` round the box at `boxed`, if
    /// the box can reach the target from there and a start other than T exists.
    fn group_pushes(
        &self,
        reverse: &Reverse,
        target: usize,
        boxed: usize,
        group: u8,
    ) -> Option<u32> {
        let board = &self.board;
        if group.count_ones() == 1 {
            // The component is the one side cell: it must not be the target alone.
            let side = sides_in(group).next()?;
            let cell = board.step(boxed, side);
            if cell == target && free_sides(board, target).count_ones() == 1 {
                return None;
            }
        }
        sides_in(group)
            .map(|side| reverse.first_push(board, boxed, side))
            .filter(|&c| c != NEVER)
            .map(pushes)
            .min()
    }

    /// The most pushes of any placement with this target, if any is solvable.
    fn most_pushes(&self, reverse: &Reverse, target: usize) -> Option<u32> {
        self.free
            .iter()
            .filter(|&&b| b != target)
            .flat_map(|&boxed| {
                self.groups(boxed)
                    .filter_map(move |group| self.group_pushes(reverse, target, boxed, group))
            })
            .max()
    }

    /// The start in `group`'s component (not T) with the most moves, the first in
    /// row-major order among equals, and those moves.
    fn farthest_start(
        &self,
        reverse: &Reverse,
        walks: &mut Walks,
        target: usize,
        boxed: usize,
        group: u8,
        best_pushes: u32,
    ) -> (usize, u32) {
        let board = &self.board;
        let mut total: Vec<(usize, u32)> = Vec::new();
        for side in sides_in(group) {
            let first = reverse.first_push(board, boxed, side);
            if first == NEVER || pushes(first) != best_pushes {
                continue;
            }
            walks.from(board, board.step(boxed, side), boxed);
            if total.is_empty() {
                total = walks.order.iter().map(|&c| (c, u32::MAX)).collect();
                total.sort_unstable();
            }
            for (cell, value) in total.iter_mut() {
                let walked = walks.distance[*cell];
                *value = (*value).min(walked.saturating_add(moves(first)));
            }
        }
        total.into_iter().filter(|&(cell, _)| cell != target).fold(
            (usize::MAX, 0),
            |(best_cell, best), (cell, value)| {
                if best_cell == usize::MAX || value > best {
                    (cell, value)
                } else {
                    (best_cell, best)
                }
            },
        )
    }

    /// The optimum from the maze's start with the box at `boxed` (`plain`: the walk
    /// distances from the start with no box).
    fn optimum_with_box_at(
        &self,
        reverse: &Reverse,
        walks: &mut Walks,
        plain: &[u32],
        boxed: usize,
    ) -> Cost {
        let board = &self.board;
        let start = board.player;
        if plain[boxed] == UNREACHED {
            return NEVER;
        }
        let mut best = NEVER;
        let mut around: Option<Vec<u32>> = None;
        for side in sides_in(free_sides(board, boxed)) {
            let first = reverse.first_push(board, boxed, side);
            if first == NEVER {
                continue;
            }
            let cell = board.step(boxed, side);
            let walk = match self.walk_round(plain, boxed, side) {
                Some(walk) => walk,
                None => around.get_or_insert_with(|| {
                    walks.from(board, start, boxed);
                    walks.distance.clone()
                })[cell],
            };
            if walk != UNREACHED {
                best = best.min(first + u64::from(walk));
            }
        }
        best
    }

    /// The walk from the start to side `side` of a box at `boxed`, from the walk
    /// distances with no box when they settle it; `None` when a walk must tell.
    ///
    /// A side nearer the start than the box has a shortest walk that cannot pass the
    /// box; so has a side with another neighbour one step nearer. Otherwise every
    /// shortest walk goes through the box: the walk is at least two longer (grid walks
    /// keep their parity), and a four-step detour from the box's nearer side meets that.
    fn walk_round(&self, plain: &[u32], boxed: usize, side: usize) -> Option<u32> {
        let board = &self.board;
        let cell = board.step(boxed, side);
        let (here, there) = (plain[boxed], plain[cell]);
        if cell == board.player || there < here {
            return Some(there);
        }
        let other_way = (0..4).any(|dir| {
            let n = board.step(cell, dir);
            n != boxed && board.is_free(n) && plain[n] != UNREACHED && plain[n] + 1 == there
        });
        if other_way {
            return Some(there);
        }
        let nearer = (0..4).find(|&dir| {
            let n = board.step(boxed, dir);
            board.is_free(n) && plain[n] != UNREACHED && plain[n] + 1 == here
        })?;
        let detour = self.sides.between(boxed, nearer, side);
        if detour == UNREACHED {
            return Some(UNREACHED);
        }
        (plain[board.step(boxed, nearer)] + detour == there + 2).then_some(there + 2)
    }
}

/// Breadth-first walks of the player, distances per board cell.
struct Walks {
    distance: Vec<u32>,
    /// The cells the last walk reached, in order.
    order: Vec<usize>,
}

impl Walks {
    fn new(cells: usize) -> Walks {
        Walks {
            distance: vec![UNREACHED; cells],
            order: Vec::new(),
        }
    }

    /// Walk distances from `from` round `obstacle` ([`UNREACHED`] where none).
    fn from(&mut self, board: &Board, from: usize, obstacle: usize) {
        for &cell in &self.order {
            self.distance[cell] = UNREACHED;
        }
        self.order.clear();
        self.distance[from] = 0;
        self.order.push(from);
        let mut head = 0;
        while let Some(&cell) = self.order.get(head) {
            head += 1;
            let next = self.distance[cell] + 1;
            for dir in 0..4 {
                let n = board.step(cell, dir);
                if board.is_free(n) && n != obstacle && self.distance[n] == UNREACHED {
                    self.distance[n] = next;
                    self.order.push(n);
                }
            }
        }
    }
}
