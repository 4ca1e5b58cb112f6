//! The `traps` family: small mazes that each defeat one classic wrong algorithm of
//! SPEC §1, found by trying random layouts against a model of that mistake.
//!
//! The mistakes whose answer depends on the order moves are tried are modelled for all
//! 24 orders of the four directions, and a maze is kept only when every order goes
//! wrong: whichever order a wrong program uses, it fails on the maze.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;

use super::rng::Rng;
use super::{finish, layout, Family, Generated};
use crate::maze::Grid;
use crate::solver::{solve, Outcome, Reason};

/// The wrong algorithm a trap maze defeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Trap {
    /// Marking a state visited when it enters the priority queue (loses the fewest-moves
    /// tie-break).
    VisitedOnDiscovery,
    /// Visiting each box cell once, whatever the player's side.
    OneVisitPerBoxCell,
    /// Minimising total moves first.
    MovesFirst,
    /// A nested breadth-first search keeping the first path to each state.
    FirstPathOfNestedBfs,
    /// Impossible, though the box could reach the target with the player on another side.
    ImpossibleFromOneSide,
}

impl Trap {
    pub const ALL: [Trap; 5] = [
        Trap::VisitedOnDiscovery,
        Trap::OneVisitPerBoxCell,
        Trap::MovesFirst,
        Trap::FirstPathOfNestedBfs,
        Trap::ImpossibleFromOneSide,
    ];
}

impl fmt::Display for Trap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Trap::VisitedOnDiscovery => "visited on discovery",
            Trap::OneVisitPerBoxCell => "one visit per box cell",
            Trap::MovesFirst => "fewest moves first",
            Trap::FirstPathOfNestedBfs => "first path of a nested BFS",
            Trap::ImpossibleFromOneSide => "impossible only from one side",
        })
    }
}

/// Layouts tried per trap maze at most.
const TRIES: u32 = 20_000;

/// A trap maze of at most `rows × cols`; the trap is `seed` modulo the number of traps,
/// so consecutive seeds cycle through them.
pub fn generate(seed: u64, rows: usize, cols: usize) -> Generated {
    let trap = Trap::ALL[(seed % Trap::ALL.len() as u64) as usize];
    let mut rng = Rng::new(seed);
    let families = [
        Family::Open,
        Family::Rooms,
        Family::Caves,
        Family::Corridors,
    ];
    let mut last = None;
    for attempt in 1..=TRIES {
        let r = rng.between(4.min(rows), rows.min(9));
        let c = rng.between(5.min(cols), cols.min(9));
        let family = families[rng.below(families.len())];
        let percent = rng.between(0, 45) as u32;
        let walls = layout::layout(&mut rng, family, r, c, percent);
        let free: Vec<usize> = (0..walls.len()).filter(|&cell| !walls[cell]).collect();
        if free.len() < 3 {
            continue;
        }
        let [player, boxed, target] = [0, 1, 2].map(|_| free[rng.below(free.len())]);
        if player == boxed || boxed == target || player == target {
            continue;
        }
        let grid = Grid {
            rows: r,
            cols: c,
            walls,
            player,
            boxed,
            target,
        };
        if defeats(trap, &grid) {
            return finish(seed, Family::Traps, grid, Some(trap), attempt);
        }
        last = Some(grid);
    }
    let grid = last.unwrap_or_else(|| super::any_placement(vec![false; 15], 3, 5));
    finish(seed, Family::Traps, grid, None, TRIES)
}

/// Whether `grid` defeats the model of `trap`.
pub fn defeats(trap: Trap, grid: &Grid) -> bool {
    let best = reference(grid);
    match trap {
        Trap::ImpossibleFromOneSide => {
            matches!(solve(grid), Outcome::Unsolvable(Reason::PlayerWrongSide))
        }
        Trap::MovesFirst => {
            best.is_some_and(|(_, moves)| fewest_moves(grid).is_some_and(|fewest| fewest < moves))
        }
        Trap::VisitedOnDiscovery => {
            best.is_some() && orders().all(|order| settled_on_discovery(grid, &order) != best)
        }
        Trap::OneVisitPerBoxCell => {
            best.is_some() && orders().all(|order| nested_bfs(grid, &order, false) != best)
        }
        Trap::FirstPathOfNestedBfs => {
            best.is_some() && orders().all(|order| nested_bfs(grid, &order, true) != best)
        }
    }
}

type Cost = (u64, u64);

/// The four directions as (row, column) steps, north, south, west, east.
const DIRECTIONS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// Every order of the four directions.
fn orders() -> impl Iterator<Item = [(isize, isize); 4]> {
    (0..24).map(|mut k| {
        let mut left = DIRECTIONS.to_vec();
        let mut order = [(0, 0); 4];
        for (i, slot) in order.iter_mut().enumerate() {
            *slot = left.remove(k % (4 - i));
            k /= 4 - i;
        }
        order
    })
}

fn step(grid: &Grid, cell: usize, (dr, dc): (isize, isize)) -> Option<usize> {
    let (row, col) = grid.coords(cell);
    let row = row.checked_add_signed(dr).filter(|&r| r < grid.rows)?;
    let col = col.checked_add_signed(dc).filter(|&c| c < grid.cols)?;
    let next = row * grid.cols + col;
    (!grid.walls[next]).then_some(next)
}

/// The optimum by the real solver, as (pushes, moves).
fn reference(grid: &Grid) -> Option<Cost> {
    match solve(grid) {
        Outcome::Solved(s) => Some((s.pushes, s.moves)),
        Outcome::Unsolvable(_) => None,
    }
}

/// The fewest moves that bring the box to the target, pushes ignored.
fn fewest_moves(grid: &Grid) -> Option<u64> {
    let n = grid.cell_count();
    let mut dist = vec![u64::MAX; n * n];
    dist[grid.player * n + grid.boxed] = 0;
    let mut queue = VecDeque::from([(grid.player, grid.boxed)]);
    while let Some((player, boxed)) = queue.pop_front() {
        let here = dist[player * n + boxed];
        if boxed == grid.target {
            return Some(here);
        }
        for dir in DIRECTIONS {
            let Some(next) = step(grid, player, dir) else {
                continue;
            };
            let next_box = if next == boxed {
                match step(grid, boxed, dir) {
                    Some(beyond) => beyond,
                    None => continue,
                }
            } else {
                boxed
            };
            if dist[next * n + next_box] == u64::MAX {
                dist[next * n + next_box] = here + 1;
                queue.push_back((next, next_box));
            }
        }
    }
    None
}

/// Dijkstra over (player, box) that marks states done when they enter the queue; the
/// cost of the answer it gives.
fn settled_on_discovery(grid: &Grid, order: &[(isize, isize); 4]) -> Option<Cost> {
    let n = grid.cell_count();
    let mut done = vec![false; n * n];
    done[grid.player * n + grid.boxed] = true;
    let mut heap = BinaryHeap::from([Reverse(((0u64, 0u64), 0u64, grid.player, grid.boxed))]);
    let mut sequence = 0;
    while let Some(Reverse((cost, _, player, boxed))) = heap.pop() {
        if boxed == grid.target {
            return Some(cost);
        }
        for &dir in order {
            let Some(next) = step(grid, player, dir) else {
                continue;
            };
            let (next_box, next_cost) = if next == boxed {
                match step(grid, boxed, dir) {
                    Some(beyond) => (beyond, (cost.0 + 1, cost.1 + 1)),
                    None => continue,
                }
            } else {
                (boxed, (cost.0, cost.1 + 1))
            };
            if done[next * n + next_box] {
                continue;
            }
            done[next * n + next_box] = true;
            sequence += 1;
            heap.push(Reverse((next_cost, sequence, next, next_box)));
        }
    }
    None
}

/// A breadth-first search over pushes keeping the first path to each state, a state
/// being (box, side) or, with `per_side` false, the box cell alone; the answer's cost.
fn nested_bfs(grid: &Grid, order: &[(isize, isize); 4], per_side: bool) -> Option<Cost> {
    let key = |boxed: usize, side: usize| if per_side { boxed * 4 + side } else { boxed };
    let mut seen = vec![false; grid.cell_count() * 4];
    seen[key(grid.boxed, 0)] = !per_side;
    let mut queue = VecDeque::from([(grid.boxed, grid.player, 0u64, 0u64)]);
    while let Some((boxed, player, pushes, moves)) = queue.pop_front() {
        for (side, &dir) in order.iter().enumerate() {
            let (Some(stand), Some(beyond)) =
                (step(grid, boxed, (-dir.0, -dir.1)), step(grid, boxed, dir))
            else {
                continue;
            };
            if seen[key(beyond, side)] {
                continue;
            }
            let Some(walked) = walk(grid, player, stand, boxed) else {
                continue;
            };
            seen[key(beyond, side)] = true;
            let next = (pushes + 1, moves + walked + 1);
            if beyond == grid.target {
                return Some(next);
            }
            queue.push_back((beyond, boxed, next.0, next.1));
        }
    }
    None
}

/// The shortest walk's length from `from` to `to` round the box.
fn walk(grid: &Grid, from: usize, to: usize, boxed: usize) -> Option<u64> {
    let mut dist = vec![u64::MAX; grid.cell_count()];
    dist[from] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(cell) = queue.pop_front() {
        if cell == to {
            return Some(dist[cell]);
        }
        for dir in DIRECTIONS {
            if let Some(next) = step(grid, cell, dir).filter(|&n| n != boxed && dist[n] == u64::MAX)
            {
                dist[next] = dist[cell] + 1;
                queue.push_back(next);
            }
        }
    }
    None
}
