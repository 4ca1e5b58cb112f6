//! The design tools against brute force: the hardest placement (both modes) and the
//! difficulty map on thousands of small generated layouts, every placement solved by
//! the independent reference solver, and every answer's solution replayed.

use boxls::design::{difficulty_map, hardest, Difficulty, Placement};
use boxls::maze::Grid;
use boxls::solver::{replay, solve_path};

use super::generate::{self, Rng};
use super::reference::{self, Cost};

/// Small layouts (at most 16 free cells, so brute force stays quick), with S, B and T
/// somewhere on them.
fn layouts(seed: u64, count: usize) -> Vec<Grid> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let size = generate::size(&mut rng, 6);
        let grid = generate::mixed(&mut rng, size);
        if free_cells(&grid).len() <= 16 {
            out.push(grid);
        }
    }
    out
}

fn free_cells(grid: &Grid) -> Vec<usize> {
    (0..grid.cell_count()).filter(|&c| !grid.walls[c]).collect()
}

/// Every placement's optimum: `costs[s][b][t]`, one reference run per (S, B).
fn every_placement(grid: &Grid) -> Vec<Vec<Vec<Option<Cost>>>> {
    let n = grid.cell_count();
    let mut costs = vec![vec![vec![None; n]; n]; n];
    for s in free_cells(grid) {
        for b in free_cells(grid).into_iter().filter(|&b| b != s) {
            let placed = Grid {
                player: s,
                boxed: b,
                ..grid.clone()
            };
            let mut found = reference::solve_every_target(&placed);
            found[s] = None;
            costs[s][b] = found;
        }
    }
    costs
}

/// The brute-force hardest placement: most pushes, most moves, first (T, B, S).
fn brute_hardest(grid: &Grid, costs: &[Vec<Vec<Option<Cost>>>], keep: bool) -> Option<Placement> {
    let free = free_cells(grid);
    let mut best: Option<Placement> = None;
    for &t in free.iter().filter(|&&t| !keep || t == grid.target) {
        for &b in free.iter().filter(|&&b| b != t) {
            for &s in free.iter().filter(|&&s| s != t && s != b) {
                let Some((pushes, moves)) = costs[s][b][t] else {
                    continue;
                };
                if best.is_none_or(|old| (pushes, moves) > (old.pushes, old.moves)) {
                    best = Some(Placement {
                        player: s,
                        boxed: b,
                        target: t,
                        pushes,
                        moves,
                    });
                }
            }
        }
    }
    best
}

/// The placement's optimal solution exists, replays and has the promised counts.
fn assert_replays(grid: &Grid, placement: &Placement) {
    let placed = placement.apply(grid);
    let solution = solve_path(&placed).expect("the hardest placement is solvable");
    let replayed = replay(&placed, &solution.path).expect("the solution replays");
    assert!(replayed.solved, "{:?}", placed.to_rows());
    assert_eq!(
        (replayed.pushes, replayed.moves),
        (placement.pushes, placement.moves),
        "{:?}",
        placed.to_rows()
    );
}

#[test]
fn the_hardest_placement_matches_brute_force_in_both_modes() {
    let grids = layouts(0xD351_6E01, 2000);
    let mut solvable = [0usize; 2];
    for grid in &grids {
        let costs = every_placement(grid);
        for (mode, keep) in [false, true].into_iter().enumerate() {
            let expected = brute_hardest(grid, &costs, keep);
            let got = hardest(grid, keep).expect("small layouts are not too large");
            assert_eq!(
                got,
                expected,
                "keep target: {keep}\n{}",
                grid.to_rows().join("\n")
            );
            if let Some(placement) = got {
                solvable[mode] += 1;
                assert_replays(grid, &placement);
            }
        }
    }
    // The layouts are not all trivial: most have a solvable placement.
    assert!(solvable[0] > 1200 && solvable[1] > 600, "{solvable:?}");
}

#[test]
fn the_difficulty_map_matches_the_reference_per_cell() {
    let mut checked = [0usize; 2];
    for grid in layouts(0xD351_6E02, 2000) {
        let map = difficulty_map(&grid).expect("small layouts are not too large");
        for (cell, &got) in map.iter().enumerate() {
            let expected = if grid.walls[cell] {
                Difficulty::Rock
            } else if cell == grid.player {
                Difficulty::Player
            } else if cell == grid.target {
                Difficulty::Target
            } else {
                let placed = Grid {
                    boxed: cell,
                    ..grid.clone()
                };
                match reference::solve(&placed) {
                    Some((pushes, moves)) => Difficulty::Solved { pushes, moves },
                    None => Difficulty::Unsolvable,
                }
            };
            checked[usize::from(matches!(expected, Difficulty::Solved { .. }))] += 1;
            assert_eq!(got, expected, "cell {cell}\n{}", grid.to_rows().join("\n"));
        }
    }
    assert!(checked[1] > 2000, "{checked:?}");
}
