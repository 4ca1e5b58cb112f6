//! The shrinker: greedy passes over a failing maze to a fixed point, each keeping the
//! maze valid and the failure (the caller's `fails` re-runs the program). Pure and
//! deterministic: the same maze and the same answers give the same steps.
//!
//! Passes, in order: drop an edge row or column, drop an inner row or column, turn
//! floor into rock, move S, B or T one step toward another, and turn rock into floor
//! when that lets one of the other passes make the maze strictly smaller. Every
//! accepted step makes the maze smaller by (cells, free cells, distance between S, B
//! and T), so the passes end; candidates already tried are never run again.

use std::collections::HashMap;

use crate::maze::Grid;

/// The result of shrinking: the smallest failing maze found and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrunk {
    pub grid: Grid,
    /// Accepted steps.
    pub steps: usize,
    /// Candidates run (each a run of the program).
    pub runs: usize,
}

/// Shrinks `grid`, for which `fails` holds. `fails` gets a batch of candidates (at most
/// `batch`, to run side by side) and says for each whether it still fails the same way;
/// the first failing candidate in pass order is taken, whatever the batch size.
pub fn shrink(grid: Grid, batch: usize, fails: impl FnMut(&[Grid]) -> Vec<bool>) -> Shrunk {
    let mut shrinker = Shrinker {
        tried: HashMap::new(),
        fails,
        batch: batch.max(1),
        runs: 0,
    };
    shrinker.tried.insert(grid.clone(), true);
    let mut current = grid;
    let mut steps = 0;
    loop {
        let (next, taken) = shrinker.greedy(current.clone());
        steps += taken;
        let (next, taken) = shrinker.widen(next);
        steps += taken;
        if next == current {
            return Shrunk {
                grid: current,
                steps,
                runs: shrinker.runs,
            };
        }
        current = next;
    }
}

struct Shrinker<F> {
    /// Every candidate run, and whether it failed.
    tried: HashMap<Grid, bool>,
    fails: F,
    batch: usize,
    runs: usize,
}

/// The passes that only make a maze smaller, in order.
const PASSES: [fn(&Grid) -> Vec<Grid>; 4] = [edge_lines, inner_lines, floor_to_rock, moves];

impl<F: FnMut(&[Grid]) -> Vec<bool>> Shrinker<F> {
    /// The smaller passes to a fixed point: the grid reached, and the steps taken. Each
    /// pass sweeps: after a step it goes on from the candidate taken, in the new
    /// maze's candidates, rather than from the first (those before it were just
    /// refused; the next round tries them again, until a round takes no step).
    fn greedy(&mut self, mut current: Grid) -> (Grid, usize) {
        let mut steps = 0;
        loop {
            let round = steps;
            for pass in PASSES {
                let mut from = 0;
                while let Some((at, next)) = self.first_failing(pass(&current), from, &current) {
                    current = next;
                    steps += 1;
                    from = at;
                }
            }
            if steps == round {
                return (current, steps);
            }
        }
    }

    /// Rock into floor: kept only when the greedy passes then get below `current`.
    /// The wider mazes are run a batch at a time, side by side.
    fn widen(&mut self, current: Grid) -> (Grid, usize) {
        let wider = rock_to_floor(&current);
        for chunk in wider.chunks(self.batch) {
            let mut pending: Vec<(usize, Grid)> = chunk.iter().cloned().enumerate().collect();
            self.settle(&mut pending.clone());
            for (_, wider) in pending.drain(..) {
                if !self.tried.get(&wider).copied().unwrap_or(false) {
                    continue;
                }
                let (smaller, steps) = self.greedy(wider);
                if measure(&smaller) < measure(&current) {
                    return (smaller, steps + 1);
                }
            }
        }
        (current, 0)
    }

    /// The first candidate (in order, from position `from` on) that is smaller than
    /// `current` and still fails, with its position, running untried ones a batch at
    /// a time.
    fn first_failing(
        &mut self,
        candidates: Vec<Grid>,
        from: usize,
        current: &Grid,
    ) -> Option<(usize, Grid)> {
        let bound = measure(current);
        let mut pending: Vec<(usize, Grid)> = Vec::new();
        let smaller = candidates
            .into_iter()
            .enumerate()
            .skip(from)
            .filter(|(_, c)| measure(c) < bound);
        for (at, candidate) in smaller {
            match self.tried.get(&candidate) {
                // Known: decide now if nothing before it is still to be run.
                Some(&failed) if pending.is_empty() => {
                    if failed {
                        return Some((at, candidate));
                    }
                }
                Some(_) => pending.push((at, candidate)),
                None => {
                    pending.push((at, candidate));
                    let untried = pending.iter().filter(|(_, c)| !self.tried.contains_key(c));
                    if untried.count() >= self.batch {
                        if let Some(found) = self.settle(&mut pending) {
                            return Some(found);
                        }
                    }
                }
            }
        }
        self.settle(&mut pending)
    }

    /// Runs the untried candidates of `pending`, then returns the first failing one.
    fn settle(&mut self, pending: &mut Vec<(usize, Grid)>) -> Option<(usize, Grid)> {
        let mut untried: Vec<Grid> = Vec::new();
        for (_, candidate) in pending.iter() {
            if !self.tried.contains_key(candidate) && !untried.contains(candidate) {
                untried.push(candidate.clone());
            }
        }
        if !untried.is_empty() {
            self.runs += untried.len();
            let results = (self.fails)(&untried);
            for (grid, failed) in untried.into_iter().zip(results) {
                self.tried.insert(grid, failed);
            }
        }
        let found = pending
            .iter()
            .find(|(_, c)| self.tried.get(c).copied().unwrap_or(false))
            .cloned();
        pending.clear();
        found
    }
}

/// What the shrinker makes smaller, in order: cells, free cells, then how far apart
/// S, B and T are.
fn measure(grid: &Grid) -> (usize, usize, usize) {
    let free = grid.walls.iter().filter(|&&wall| !wall).count();
    let distance = |a: usize, b: usize| {
        let ((ar, ac), (br, bc)) = (grid.coords(a), grid.coords(b));
        ar.abs_diff(br) + ac.abs_diff(bc)
    };
    let spread = distance(grid.player, grid.boxed)
        + distance(grid.boxed, grid.target)
        + distance(grid.player, grid.target);
    (grid.cell_count(), free, spread)
}

/// The grid without row `row` (`None` for a column index) and column `col`; `None` when
/// S, B or T is on a dropped line or nothing would be left.
fn without(grid: &Grid, row: Option<usize>, col: Option<usize>) -> Option<Grid> {
    let rows = grid.rows - usize::from(row.is_some());
    let cols = grid.cols - usize::from(col.is_some());
    if rows == 0 || cols == 0 {
        return None;
    }
    let mut walls = Vec::with_capacity(rows * cols);
    let (mut player, mut boxed, mut target) = (None, None, None);
    for cell in 0..grid.cell_count() {
        let (r, c) = grid.coords(cell);
        if Some(r) == row || Some(c) == col {
            continue;
        }
        let index = walls.len();
        if cell == grid.player {
            player = Some(index);
        }
        if cell == grid.boxed {
            boxed = Some(index);
        }
        if cell == grid.target {
            target = Some(index);
        }
        walls.push(grid.walls[cell]);
    }
    Some(Grid {
        rows,
        cols,
        walls,
        player: player?,
        boxed: boxed?,
        target: target?,
    })
}

fn edge_lines(grid: &Grid) -> Vec<Grid> {
    [
        without(grid, Some(0), None),
        without(grid, Some(grid.rows - 1), None),
        without(grid, None, Some(0)),
        without(grid, None, Some(grid.cols - 1)),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn inner_lines(grid: &Grid) -> Vec<Grid> {
    let rows = (1..grid.rows.saturating_sub(1)).filter_map(|r| without(grid, Some(r), None));
    let cols = (1..grid.cols.saturating_sub(1)).filter_map(|c| without(grid, None, Some(c)));
    rows.chain(cols).collect()
}

fn occupied(grid: &Grid, cell: usize) -> bool {
    cell == grid.player || cell == grid.boxed || cell == grid.target
}

fn floor_to_rock(grid: &Grid) -> Vec<Grid> {
    (0..grid.cell_count())
        .filter(|&cell| !grid.walls[cell] && !occupied(grid, cell))
        .map(|cell| {
            let mut walls = grid.walls.clone();
            walls[cell] = true;
            Grid {
                walls,
                ..grid.clone()
            }
        })
        .collect()
}

fn rock_to_floor(grid: &Grid) -> Vec<Grid> {
    (0..grid.cell_count())
        .filter(|&cell| grid.walls[cell])
        .map(|cell| {
            let mut walls = grid.walls.clone();
            walls[cell] = false;
            Grid {
                walls,
                ..grid.clone()
            }
        })
        .collect()
}

/// S, B or T moved one free cell toward one of the other two (rows first).
fn moves(grid: &Grid) -> Vec<Grid> {
    let pieces = [grid.player, grid.boxed, grid.target];
    let mut out = Vec::new();
    for (moving, &from) in pieces.iter().enumerate() {
        for (other, &toward) in pieces.iter().enumerate() {
            if other == moving {
                continue;
            }
            for to in steps_toward(grid, from, toward) {
                if grid.walls[to] || occupied(grid, to) {
                    continue;
                }
                let mut moved = grid.clone();
                match moving {
                    0 => moved.player = to,
                    1 => moved.boxed = to,
                    _ => moved.target = to,
                }
                out.push(moved);
            }
        }
    }
    out
}

/// The neighbours of `from` one step closer to `toward`: vertical, then horizontal.
fn steps_toward(grid: &Grid, from: usize, toward: usize) -> Vec<usize> {
    let ((fr, fc), (tr, tc)) = (grid.coords(from), grid.coords(toward));
    let mut out = Vec::new();
    if tr != fr {
        let r = if tr > fr { fr + 1 } else { fr - 1 };
        out.push(r * grid.cols + fc);
    }
    if tc != fc {
        let c = if tc > fc { fc + 1 } else { fc - 1 };
        out.push(fr * grid.cols + c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows).expect("valid rows")
    }

    #[test]
    fn a_failure_that_needs_only_s_b_and_t_shrinks_to_them() {
        // "Fails" whenever S, B and T stand in one row in that order, any distance apart.
        let start = grid(&["#######", "#S..B.#", "#.#...#", "#....T#", "#######"]);
        let fails = |grids: &[Grid]| -> Vec<bool> {
            grids
                .iter()
                .map(|g| {
                    let (pr, pc) = g.coords(g.player);
                    let (br, bc) = g.coords(g.boxed);
                    let (tr, tc) = g.coords(g.target);
                    pr == br && br == tr && pc < bc && bc < tc
                })
                .collect()
        };
        // S, B, T not in one row: never fails, nothing to shrink.
        let shrunk = shrink(start.clone(), 4, fails);
        assert_eq!(shrunk.grid, start);
        assert_eq!(shrunk.steps, 0);
        let start = grid(&["#######", "#S..BT#", "#.#...#", "#.....#", "#######"]);
        let shrunk = shrink(start, 4, fails);
        assert_eq!(shrunk.grid.to_rows(), ["SBT"]);
        assert!(shrunk.steps > 0);
    }

    #[test]
    fn the_result_does_not_depend_on_the_batch_size_and_runs_are_cached() {
        let start = grid(&[
            "#########",
            "#S.#..B.#",
            "#..#.#..#",
            "#.....T.#",
            "#########",
        ]);
        // Fails while the box can still be pushed east or west (free on both sides).
        let fails = |grids: &[Grid]| -> Vec<bool> {
            grids
                .iter()
                .map(|g| {
                    let (r, c) = g.coords(g.boxed);
                    c > 0
                        && c + 1 < g.cols
                        && !g.walls[r * g.cols + c - 1]
                        && !g.walls[r * g.cols + c + 1]
                })
                .collect()
        };
        let mut seen = std::collections::HashSet::new();
        let mut duplicates = 0;
        let one = shrink(start.clone(), 1, |grids: &[Grid]| {
            for g in grids {
                duplicates += usize::from(!seen.insert(g.clone()));
            }
            fails(grids)
        });
        assert_eq!(duplicates, 0, "a candidate was run twice");
        for batch in [2, 3, 8] {
            let other = shrink(start.clone(), batch, fails);
            assert_eq!(other.grid, one.grid, "batch {batch}");
            assert_eq!(other.steps, one.steps, "batch {batch}");
        }
        assert!(fails(std::slice::from_ref(&one.grid))[0]);
        assert!(one.grid.cell_count() <= 6, "{:?}", one.grid.to_rows());
    }
}
