//! The second differential test: boxls's large-maze machinery (O(1) detours, bounded
//! walks, lazily computed biconnected blocks, push layers) against a simple side-state
//! solver — Dijkstra over (box cell, player side) with a fresh breadth-first walk for
//! every move round the box — on mazes up to 60×60, where the (player, box) reference
//! is too slow to run thousands of times.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use boxls::maze::Grid;
use boxls::solver::{replay, solve, Outcome};

use crate::generate::{self, Rng};

const DIRS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

fn neighbour(grid: &Grid, cell: usize, (dr, dc): (isize, isize)) -> Option<usize> {
    let (r, c) = grid.coords(cell);
    let r = r.checked_add_signed(dr).filter(|&r| r < grid.rows)?;
    let c = c.checked_add_signed(dc).filter(|&c| c < grid.cols)?;
    Some(r * grid.cols + c).filter(|&n| !grid.walls[n])
}

/// Shortest walk from `from` to `to` with the box on `boxed`.
fn walk(grid: &Grid, from: usize, to: usize, boxed: usize) -> Option<u64> {
    let mut dist = vec![u64::MAX; grid.cell_count()];
    let mut queue = VecDeque::from([from]);
    dist[from] = 0;
    while let Some(cell) = queue.pop_front() {
        if cell == to {
            return Some(dist[cell]);
        }
        for dir in DIRS {
            if let Some(n) =
                neighbour(grid, cell, dir).filter(|&n| n != boxed && dist[n] == u64::MAX)
            {
                dist[n] = dist[cell] + 1;
                queue.push_back(n);
            }
        }
    }
    None
}

/// (pushes, moves) of the optimum, by Dijkstra over (box, side) with visited-on-pop.
fn side_state_solve(grid: &Grid) -> Option<(u64, u64)> {
    let mut heap = BinaryHeap::new();
    for (side, &dir) in DIRS.iter().enumerate() {
        if let Some(cell) = neighbour(grid, grid.boxed, dir) {
            if let Some(moves) = walk(grid, grid.player, cell, grid.boxed) {
                heap.push(Reverse((0u64, moves, grid.boxed, side)));
            }
        }
    }
    let mut done = vec![false; grid.cell_count() * 4];
    while let Some(Reverse((pushes, moves, boxed, side))) = heap.pop() {
        if boxed == grid.target {
            return Some((pushes, moves));
        }
        if std::mem::replace(&mut done[boxed * 4 + side], true) {
            continue;
        }
        let Some(player) = neighbour(grid, boxed, DIRS[side]) else {
            continue;
        };
        for (other, &dir) in DIRS.iter().enumerate() {
            if let Some(cell) = neighbour(grid, boxed, dir).filter(|_| other != side) {
                if let Some(steps) = walk(grid, player, cell, boxed) {
                    heap.push(Reverse((pushes, moves + steps, boxed, other)));
                }
            }
        }
        let (dr, dc) = DIRS[side];
        if let Some(next) = neighbour(grid, boxed, (-dr, -dc)) {
            heap.push(Reverse((pushes + 1, moves + 1, next, side)));
        }
    }
    None
}

#[test]
fn large_mazes_agree_with_the_simple_side_state_solver() {
    let mut rng = Rng::new(0x60_60);
    let (mut compared, mut solvable) = (0, 0);
    for _ in 0..400 {
        let size = (rng.between(30, 60), rng.between(30, 60));
        let grid = generate::mixed(&mut rng, size);
        let expected = side_state_solve(&grid);
        let got = match solve(&grid) {
            Outcome::Solved(solution) => {
                let replayed = replay(&grid, &solution.path)
                    .unwrap_or_else(|e| panic!("{e:?}\n{}", generate::render(&grid)));
                assert!(replayed.solved, "{}", generate::render(&grid));
                assert_eq!(
                    (replayed.pushes, replayed.moves),
                    (solution.pushes, solution.moves)
                );
                solvable += 1;
                Some((solution.pushes, solution.moves))
            }
            Outcome::Unsolvable(_) => None,
        };
        assert_eq!(got, expected, "maze:\n{}", generate::render(&grid));
        compared += 1;
    }
    eprintln!("large differential: {compared} mazes of 30×30 to 60×60, {solvable} solvable");
    assert!(
        solvable * 4 >= compared,
        "too few solvable mazes to mean anything"
    );
}
