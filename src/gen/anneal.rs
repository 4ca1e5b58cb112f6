//! Annealing a layout: flip walls one at a time to raise the hardest placement's
//! (pushes, moves), keeping every free cell connected, and return the best layout seen
//! (never worse than the start).

use super::rng::Rng;
use crate::design::{self, Placement};
use crate::maze::Grid;

/// The hardest placement's (pushes, moves), (0, 0) when none is solvable.
fn score(grid: &Grid) -> (u64, u64) {
    hardest(grid).map_or((0, 0), |p| (p.pushes, p.moves))
}

fn hardest(grid: &Grid) -> Option<Placement> {
    design::hardest(grid, false).ok().flatten()
}

/// Anneals `start`'s walls while `keep_going(steps so far)` says so; the result has its
/// hardest placement applied.
pub fn anneal(start: &Grid, seed: u64, keep_going: &mut dyn FnMut(u64) -> bool) -> Grid {
    let mut rng = Rng::new(seed ^ 0x616e_6e65_616c);
    let mut current = start.clone();
    let mut current_score = score(&current);
    let (mut best, mut best_score) = (current.clone(), current_score);
    let interior: Vec<usize> = (0..start.cell_count())
        .filter(|&c| {
            let (r, col) = start.coords(c);
            r > 0 && col > 0 && r + 1 < start.rows && col + 1 < start.cols
        })
        .collect();
    let mut steps = 0;
    while !interior.is_empty() && keep_going(steps) {
        steps += 1;
        let cell = interior[rng.below(interior.len())];
        let mut next = current.clone();
        next.walls[cell] = !next.walls[cell];
        if !connected(&next) {
            continue;
        }
        let next_score = score(&next);
        // Downhill now and then (by little), so a plateau does not trap the search.
        let accept =
            next_score >= current_score || (next_score.0 + 2 >= current_score.0 && rng.percent(8));
        if accept {
            (current, current_score) = (next, next_score);
            if current_score > best_score {
                (best, best_score) = (current.clone(), current_score);
            }
        }
    }
    match hardest(&best) {
        Some(placement) => placement.apply(&best),
        None => best,
    }
}

/// At least three free cells, all in one region.
fn connected(grid: &Grid) -> bool {
    let free: Vec<usize> = (0..grid.cell_count()).filter(|&c| !grid.walls[c]).collect();
    let Some(&first) = free.first() else {
        return false;
    };
    if free.len() < 3 {
        return false;
    }
    let mut seen = vec![false; grid.cell_count()];
    seen[first] = true;
    let mut stack = vec![first];
    let mut count = 0;
    while let Some(cell) = stack.pop() {
        count += 1;
        let (r, c) = grid.coords(cell);
        let neighbours = [
            (r > 0).then(|| cell - grid.cols),
            (r + 1 < grid.rows).then(|| cell + grid.cols),
            (c > 0).then(|| cell - 1),
            (c + 1 < grid.cols).then(|| cell + 1),
        ];
        for n in neighbours.into_iter().flatten() {
            if !grid.walls[n] && !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    count == free.len()
}
