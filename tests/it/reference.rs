//! A reference solver for the differential tests: deliberately simple and obviously right.
//!
//! Plain Dijkstra over (player cell, box cell) states. Every move costs one move;
//! a push also costs one push; costs compare lexicographically as `(pushes, moves)`.
//! The heap is a `BinaryHeap` of `Reverse((rank, cost, player, box))`, and a state is
//! settled when it is *popped* (never when discovered), so the first popped state with
//! the box on the target is optimal. No dead squares, no biconnected blocks, no layers:
//! nothing that could share a bug with the real solver.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use boxls::maze::Grid;

/// Lexicographic cost: fewest pushes first, then fewest moves.
pub type Cost = (u64, u64);

/// The optimal `(pushes, moves)` of a maze, or `None` when it is impossible.
pub fn solve(grid: &Grid) -> Option<Cost> {
    dijkstra(grid, Order::PushesFirst)
}

/// The optimum when *total moves* come first (the wrong order), as `(pushes, moves)`.
///
/// Only used to show that a hand-written maze really separates the two orders.
pub fn solve_moves_first(grid: &Grid) -> Option<Cost> {
    dijkstra(grid, Order::MovesFirst)
}

/// Which count the search minimises first.
#[derive(Clone, Copy)]
enum Order {
    PushesFirst,
    MovesFirst,
}

impl Order {
    /// The key costs are compared by.
    fn rank(self, (pushes, moves): Cost) -> (u64, u64) {
        match self {
            Order::PushesFirst => (pushes, moves),
            Order::MovesFirst => (moves, pushes),
        }
    }
}

/// Dijkstra from the start state; returns the cost of the first goal state popped.
fn dijkstra(grid: &Grid, order: Order) -> Option<Cost> {
    let cells = grid.cell_count();
    let index = |player: usize, boxed: usize| player * cells + boxed;
    let mut settled = vec![false; cells * cells];
    let mut best = vec![None::<(u64, u64)>; cells * cells];
    let mut heap = BinaryHeap::new();
    best[index(grid.player, grid.boxed)] = Some((0, 0));
    heap.push(Reverse(((0, 0), (0, 0), grid.player, grid.boxed)));
    while let Some(Reverse((_, cost, player, boxed))) = heap.pop() {
        if settled[index(player, boxed)] {
            continue;
        }
        settled[index(player, boxed)] = true;
        if boxed == grid.target {
            return Some(cost);
        }
        for (next_player, next_box, pushed) in successors(grid, player, boxed) {
            let next = (cost.0 + u64::from(pushed), cost.1 + 1);
            let rank = order.rank(next);
            let slot = &mut best[index(next_player, next_box)];
            if slot.is_none_or(|old| rank < old) {
                *slot = Some(rank);
                heap.push(Reverse((rank, next, next_player, next_box)));
            }
        }
    }
    None
}

/// Every legal move from a state: `(player, box, was it a push)`.
fn successors(grid: &Grid, player: usize, boxed: usize) -> Vec<(usize, usize, bool)> {
    let mut out = Vec::with_capacity(4);
    for dir in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        let Some(next) = free_neighbour(grid, player, dir) else {
            continue;
        };
        if next != boxed {
            out.push((next, boxed, false));
        } else if let Some(beyond) = free_neighbour(grid, boxed, dir) {
            out.push((next, beyond, true));
        }
    }
    out
}

/// The neighbour of `cell` in direction `(drow, dcol)`, if it is inside the grid and not rock.
fn free_neighbour(grid: &Grid, cell: usize, (drow, dcol): (isize, isize)) -> Option<usize> {
    let (row, col) = grid.coords(cell);
    let row = row.checked_add_signed(drow).filter(|&r| r < grid.rows)?;
    let col = col.checked_add_signed(dcol).filter(|&c| c < grid.cols)?;
    let next = row * grid.cols + col;
    (!grid.walls[next]).then_some(next)
}

/// The optimum from the grid's start for every cell as the target (`None`: impossible,
/// or the box's own cell), from one run of the same Dijkstra to exhaustion: the first
/// state popped with the box on a cell is optimal for that cell as the target, as any
/// path to a later one passes an earlier one. For the design tools' brute force.
pub fn solve_every_target(grid: &Grid) -> Vec<Option<Cost>> {
    let cells = grid.cell_count();
    let index = |player: usize, boxed: usize| player * cells + boxed;
    let mut settled = vec![false; cells * cells];
    let mut best = vec![None::<(u64, u64)>; cells * cells];
    let mut found = vec![None; cells];
    let mut heap = BinaryHeap::new();
    best[index(grid.player, grid.boxed)] = Some((0, 0));
    heap.push(Reverse(((0, 0), grid.player, grid.boxed)));
    while let Some(Reverse((cost, player, boxed))) = heap.pop() {
        if settled[index(player, boxed)] {
            continue;
        }
        settled[index(player, boxed)] = true;
        if boxed != grid.boxed && found[boxed].is_none() {
            found[boxed] = Some(cost);
        }
        for (next_player, next_box, pushed) in successors(grid, player, boxed) {
            let next = (cost.0 + u64::from(pushed), cost.1 + 1);
            let slot = &mut best[index(next_player, next_box)];
            if slot.is_none_or(|old| next < old) {
                *slot = Some(next);
                heap.push(Reverse((next, next_player, next_box)));
            }
        }
    }
    found
}
