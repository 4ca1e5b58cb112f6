//! Grids straight from bytes (no parser in the way) through `solve` and `analyze`,
//! checked against the plain Dijkstra of the differential tests: same optimum, legal
//! moves, a box that never starts on a square `analyze` calls dead when it is solvable.

#![no_main]

use std::sync::atomic::AtomicBool;

use boxls::maze::Grid;
use boxls::solver::{analyze, replay, solve, Outcome};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/it/reference.rs"]
#[allow(dead_code)]
mod reference;

/// `[rows, cols, player, box, target, walls...]`: up to 16×16, one bit per cell.
fn grid(data: &[u8]) -> Option<Grid> {
    let (&[rows, cols, player, boxed, target], bits) = data.split_first_chunk::<5>()?;
    let rows = usize::from(rows % 16) + 1;
    let cols = usize::from(cols % 16) + 1;
    let cells = rows * cols;
    let [player, boxed, target] = [player, boxed, target].map(|b| usize::from(b) % cells);
    if player == boxed || boxed == target || player == target {
        return None;
    }
    let mut walls: Vec<bool> = (0..cells)
        .map(|i| bits.get(i / 8).is_some_and(|byte| byte >> (i % 8) & 1 == 1))
        .collect();
    for cell in [player, boxed, target] {
        walls[cell] = false;
    }
    Some(Grid {
        rows,
        cols,
        walls,
        player,
        boxed,
        target,
    })
}

fuzz_target!(|data: &[u8]| {
    let Some(grid) = grid(data) else { return };
    let outcome = solve(&grid);
    let analysis = analyze(&grid, &AtomicBool::new(false)).expect("never cancelled");
    assert_eq!(analysis.outcome, outcome);
    let expected = reference::solve(&grid);
    match &outcome {
        Outcome::Solved(solution) => {
            let replayed = replay(&grid, &solution.path).expect("legal moves");
            assert!(replayed.solved);
            assert_eq!(
                (replayed.pushes, replayed.moves),
                (solution.pushes, solution.moves)
            );
            assert_eq!(expected, Some((solution.pushes, solution.moves)));
            assert!(
                !analysis.dead[grid.boxed],
                "a solvable box is not on a dead square"
            );
        }
        Outcome::Unsolvable(reason) => assert_eq!(expected, None, "{reason:?}"),
    }
    assert!(!analysis.dead[grid.target]);
});
