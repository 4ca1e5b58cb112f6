//! Design tools, exact and pure: the hardest placement of S, B and T for a maze's
//! walls, and the difficulty map (the optimum with the box on each free cell).
//!
//! Both run reverse searches over (box cell, player side) states from a target
//! (`reverse.rs`) instead of solving placement by placement. The hardest placement
//! shares a table of the walks between a box's sides (`sides.rs`) across every target
//! and first finds each target's most pushes with cheaper pushes-only searches, 64
//! targets at a time (`push_layers.rs`), over all cores. The map (`map.rs`) runs one
//! search, working out only the walks it reaches, then repairs the player's walks only
//! where the box lengthens them (`detour.rs`). See SPEC §1 for the order: most pushes,
//! then most moves, then the first (T, B, S) in row-major order.

mod detour;
mod map;
pub mod metrics;
mod push_layers;
mod reverse;
mod sides;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::maze::Grid;
use crate::solver::blocks::Blocks;
use crate::solver::board::{sides_in, Board};
use crate::solver::Cancelled;
use push_layers::{PushGraph, PushLayers, BATCH};
use reverse::{moves, pushes, Reverse, NEVER};
use sides::{free_sides, SideDistances, UNREACHED};

pub use map::{difficulty_map, difficulty_map_cancellable, Difficulty};
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
    hardest_tuned(grid, keep_target, cancel, Tuning::default())
}

/// How [`hardest_tuned`] runs. Every setting gives the same answer (the tests compare
/// them); they exist to be compared.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuning {
    /// Worker threads; 0 for one per core when the maze is large enough to pay for them.
    pub threads: usize,
    /// Skip a target whose most pushes are below the best found so far instead of
    /// working out its moves.
    pub prune: bool,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            threads: 0,
            prune: true,
        }
    }
}

/// Fewer targets than this go on one thread: spawning would cost more than it saves.
const THREADED_TARGETS: usize = 200;

/// [`hardest_cancellable`] with the threads and the pruning chosen.
///
/// With pruning, pushes-only reverse searches, 64 targets a pass (`push_layers.rs`),
/// find the most pushes of all; only the targets reaching them get the full search with moves. The
/// deepest layer holding a real start gives a target's most pushes, and only its
/// states can be the answer's, so the moves come from them at once. Without pruning
/// every target gets the full search (the same answer, slower). Threads take targets
/// from a shared counter; the answer is the best of all in the total order of SPEC §1,
/// whichever thread found what.
#[doc(hidden)]
pub fn hardest_tuned(
    grid: &Grid,
    keep_target: bool,
    cancel: &AtomicBool,
    tuning: Tuning,
) -> Result<Option<Placement>, DesignError> {
    let geometry = Geometry::new(grid, cancel)?;
    let board = &geometry.board;
    let targets: Vec<usize> = if keep_target {
        vec![board.target]
    } else {
        geometry.free.clone()
    };
    let threads = match tuning.threads {
        0 if targets.len() >= THREADED_TARGETS => {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
        0 => 1,
        n => n,
    };
    // With pruning, the targets reaching the most pushes, each with them.
    let candidates: Vec<(usize, Option<u32>)> = if tuning.prune && targets.len() > 1 {
        let most = geometry.most_pushes_batched(&targets, threads, cancel)?;
        let Some(top) = most.iter().flatten().max().copied() else {
            return Ok(None);
        };
        targets
            .iter()
            .zip(&most)
            .filter(|(_, &most)| most == Some(top))
            .map(|(&target, &most)| (target, most))
            .collect()
    } else {
        targets.iter().map(|&target| (target, None)).collect()
    };
    let found = in_parallel(
        threads,
        &candidates,
        cancel,
        || (Reverse::new(board), Walks::new(board.len())),
        |(reverse, walks), &(target, expected)| {
            let Ok(()) = reverse.run(board, &mut &geometry.sides, target);
            let most = geometry.most_pushes(target, reverse.layers(), |k| reverse.layer(k))?;
            // The two searches agree (the tests check it); were they ever not to, the
            // full one decides, and a candidate that is not one is left out.
            if expected.is_some_and(|expected| expected != most) {
                return None;
            }
            geometry.hardest_for(reverse, walks, target, most)
        },
    )?;
    Ok(found.into_iter().fold(None, better))
}

/// Per grid cell, the most pushes of a placement with the target there (`None` for
/// rock and where none is solvable): from the batched pushes-only searches when
/// `batched`, else from one full search per target. For the tests, which compare them.
#[doc(hidden)]
pub fn most_pushes_by_target(
    grid: &Grid,
    batched: bool,
    threads: usize,
) -> Result<Vec<Option<u32>>, DesignError> {
    let never = AtomicBool::new(false);
    let geometry = Geometry::new(grid, &never)?;
    let board = &geometry.board;
    let most = if batched {
        geometry.most_pushes_batched(&geometry.free, threads, &never)?
    } else {
        let mut reverse = Reverse::new(board);
        geometry
            .free
            .iter()
            .map(|&target| {
                let Ok(()) = reverse.run(board, &mut &geometry.sides, target);
                geometry.most_pushes(target, reverse.layers(), |k| reverse.layer(k))
            })
            .collect()
    };
    let mut by_cell = vec![None; grid.cell_count()];
    for (&target, most) in geometry.free.iter().zip(most) {
        by_cell[geometry.unpadded(target)] = most;
    }
    Ok(by_cell)
}

/// `step` on each of `items` over up to `threads` threads, each with its own scratch
/// (`scratch()`) and taking items from a shared counter; the results in item order.
fn in_parallel<T: Sync, S, R: Send>(
    threads: usize,
    items: &[T],
    cancel: &AtomicBool,
    scratch: impl Fn() -> S + Sync,
    step: impl Fn(&mut S, &T) -> R + Sync,
) -> Result<Vec<R>, Cancelled> {
    let next = AtomicUsize::new(0);
    let work = || -> Result<Vec<(usize, R)>, Cancelled> {
        let mut state = scratch();
        let mut out = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else {
                return Ok(out);
            };
            check(cancel)?;
            out.push((index, step(&mut state, item)));
        }
    };
    let threads = threads.clamp(1, items.len().max(1));
    let mut all = if threads == 1 {
        work()?
    } else {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            let mut all = Vec::new();
            for worker in workers {
                match worker.join() {
                    Ok(done) => all.extend(done?),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            Ok(all)
        })?
    };
    all.sort_unstable_by_key(|&(index, _)| index);
    Ok(all.into_iter().map(|(_, result)| result).collect())
}

/// The better of two placements: most pushes, most moves, then the first (T, B, S).
fn better(a: Option<Placement>, b: Option<Placement>) -> Option<Placement> {
    let key = |p: &Placement| {
        (
            p.pushes,
            p.moves,
            std::cmp::Reverse((p.target, p.boxed, p.player)),
        )
    };
    match (a, b) {
        (Some(a), Some(b)) => Some(if key(&b) > key(&a) { b } else { a }),
        (a, b) => a.or(b),
    }
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
            .map(|side| reverse.first_push(boxed, side))
            .filter(|&c| c != NEVER)
            .map(pushes)
            .min()
    }

    /// The most pushes of any placement with this target, if any is solvable: the
    /// deepest of a reverse search's `layers` with a state whose player side is not
    /// the target alone (`layer(k)`: layer k's states, or one state per side group).
    fn most_pushes<I: Iterator<Item = (usize, usize)>>(
        &self,
        target: usize,
        layers: usize,
        layer: impl Fn(usize) -> I,
    ) -> Option<u32> {
        let board = &self.board;
        // A target with one free side is alone round a box there: a group of its own.
        let dead_end_target = free_sides(board, target).count_ones() == 1;
        (1..layers)
            .rev()
            .find(|&k| {
                layer(k).any(|(cell, side)| !dead_end_target || board.step(cell, side) != target)
            })
            .map(|k| k as u32)
    }

    /// [`Geometry::most_pushes`] for each of `targets`, from the pushes-only searches,
    /// 64 targets a pass. A pass's targets are taken tile by tile (8×8 cells): close
    /// targets have close wave fronts, so a pass visits each node in few layers.
    fn most_pushes_batched(
        &self,
        targets: &[usize],
        threads: usize,
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<u32>>, Cancelled> {
        let board = &self.board;
        let graph = PushGraph::new(board, &self.sides);
        let width = board.width;
        let mut order: Vec<usize> = (0..targets.len()).collect();
        order.sort_by_key(|&i| {
            let cell = targets[i];
            (cell / width / 8, cell % width / 8, cell)
        });
        let batches: Vec<&[usize]> = order.chunks(BATCH).collect();
        let found = in_parallel(
            threads,
            &batches,
            cancel,
            || {
                (
                    PushLayers::new(&graph, board.len()),
                    Vec::with_capacity(BATCH),
                )
            },
            |(layers, cells), batch| {
                cells.clear();
                cells.extend(batch.iter().map(|&i| targets[i]));
                layers.most_pushes(&graph, cells)
            },
        )?;
        let mut most = vec![None; targets.len()];
        for (batch, found) in batches.iter().zip(found) {
            for (&i, pushes) in batch.iter().zip(found) {
                most[i] = pushes;
            }
        }
        Ok(most)
    }

    /// The best placement with this target, given its `most` pushes: the farthest
    /// start of each side group, of each box of that layer, that needs that many.
    fn hardest_for(
        &self,
        reverse: &Reverse,
        walks: &mut Walks,
        target: usize,
        most: u32,
    ) -> Option<Placement> {
        let mut boxes: Vec<usize> = reverse.layer(most as usize).map(|(cell, _)| cell).collect();
        boxes.sort_unstable();
        boxes.dedup();
        let mut best = None;
        for boxed in boxes {
            for group in self.groups(boxed) {
                if self.group_pushes(reverse, target, boxed, group) != Some(most) {
                    continue;
                }
                let (player, moves) =
                    self.farthest_start(reverse, walks, target, boxed, group, most);
                let found = Placement {
                    player: self.unpadded(player),
                    boxed: self.unpadded(boxed),
                    target: self.unpadded(target),
                    pushes: u64::from(most),
                    moves: u64::from(moves),
                };
                best = better(best, Some(found));
            }
        }
        best
    }

    /// The start in `group`'s component (not T) with the most moves, the first in
    /// row-major order among equals, and those moves: one walk from all the group's
    /// sides at once, each starting at the moves its first push needs.
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
        let mut seeds: Vec<(usize, u32)> = sides_in(group)
            .filter_map(|side| {
                let first = reverse.first_push(boxed, side);
                (first != NEVER && pushes(first) == best_pushes)
                    .then(|| (board.step(boxed, side), moves(first)))
            })
            .collect();
        seeds.sort_unstable_by_key(|&(_, moves)| moves);
        walks.seeded(board, &seeds, boxed);
        walks.order.iter().filter(|&&cell| cell != target).fold(
            (usize::MAX, 0),
            |(best_cell, best), &cell| {
                let value = walks.distance[cell];
                if best_cell == usize::MAX || value > best || (value == best && cell < best_cell) {
                    (cell, value)
                } else {
                    (best_cell, best)
                }
            },
        )
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
        self.seeded(board, &[(from, 0)], obstacle);
    }

    /// Walk distances round `obstacle` from the nearest of `seeds` (cell, distance
    /// already gone), sorted by that distance: a breadth-first search, level by level,
    /// that takes each seed in when its level comes.
    fn seeded(&mut self, board: &Board, seeds: &[(usize, u32)], obstacle: usize) {
        for &cell in &self.order {
            self.distance[cell] = UNREACHED;
        }
        self.order.clear();
        let Some(&(_, mut level)) = seeds.first() else {
            return;
        };
        let (mut head, mut seed) = (0, 0);
        loop {
            while let Some(&(cell, _)) = seeds.get(seed).filter(|&&(_, d)| d == level) {
                seed += 1;
                if self.distance[cell] == UNREACHED {
                    self.distance[cell] = level;
                    self.order.push(cell);
                }
            }
            let end = self.order.len();
            if head == end {
                match seeds.get(seed) {
                    Some(&(_, d)) => level = d,
                    None => return,
                }
                continue;
            }
            for i in head..end {
                let cell = self.order[i];
                for dir in 0..4 {
                    let n = board.step(cell, dir);
                    if board.is_free(n) && n != obstacle && self.distance[n] == UNREACHED {
                        self.distance[n] = level + 1;
                        self.order.push(n);
                    }
                }
            }
            head = end;
            level += 1;
        }
    }
}
