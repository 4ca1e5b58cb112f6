//! Exactness of the solver: `boxls::solver::solve` against the reference solver on
//! thousands of generated mazes, every produced move string replayed, plus hand-written
//! mazes for the traps of SPEC §1 and the classic sample; dead squares against the
//! reference from every start.

use std::sync::atomic::AtomicBool;
use std::thread;
use std::time::Instant;

use boxls::maze::{parse, Grid};
use boxls::solver::{analyze, dead_squares, replay, solve, Outcome, Solution};

use crate::generate::{self, Placement, Rng};
use crate::reference;

/// Size classes of generated mazes: (how many, largest side).
const BATCHES: [(usize, usize); 4] = [(4000, 6), (6000, 12), (6000, 20), (2000, 30)];
const SEED: u64 = 0xB0C5_1475;
/// In the largest class, every this-many-th maze is exactly 30×30.
const FULL_SIZE_EVERY: usize = 5;

/// The generated mazes, in a fixed order; maze `i` depends only on `SEED + i`.
fn generated() -> Vec<Grid> {
    let mut grids = Vec::new();
    for (count, max) in BATCHES {
        for k in 0..count {
            let mut rng = Rng::new(SEED.wrapping_add(grids.len() as u64));
            let size = if max == 30 && k % FULL_SIZE_EVERY == 0 {
                (30, 30)
            } else {
                generate::size(&mut rng, max)
            };
            grids.push(generate::mixed(&mut rng, size));
        }
    }
    grids
}

/// Compares the solver with the reference on one maze; `Ok(solvable)` when they agree.
fn check(grid: &Grid) -> Result<bool, String> {
    match (reference::solve(grid), solve(grid)) {
        (None, Outcome::Unsolvable(_)) => Ok(false),
        (Some(expected), Outcome::Solved(solution)) => {
            check_solution(grid, expected, &solution).map(|()| true)
        }
        (expected, outcome) => Err(format!(
            "reference says {expected:?} (pushes, moves), solver says {outcome:?}"
        )),
    }
}

/// The solution's counts are optimal and its move string really does them.
fn check_solution(grid: &Grid, expected: (u64, u64), solution: &Solution) -> Result<(), String> {
    let reported = (solution.pushes, solution.moves);
    if reported != expected {
        return Err(format!(
            "reference optimum {expected:?} (pushes, moves), solver reports {reported:?}"
        ));
    }
    let replayed = replay(grid, &solution.path)
        .map_err(|illegal| format!("path {:?} is illegal: {illegal:?}", solution.path))?;
    if !replayed.solved {
        return Err(format!(
            "path {:?} leaves the box off the target",
            solution.path
        ));
    }
    if (replayed.pushes, replayed.moves) != reported {
        return Err(format!(
            "path {:?} does {:?} (pushes, moves), solver reports {reported:?}",
            solution.path,
            (replayed.pushes, replayed.moves)
        ));
    }
    Ok(())
}

/// A failure report that reproduces the maze: paste it into a `.box` file.
fn report(index: usize, grid: &Grid, problem: &str) -> String {
    format!(
        "maze {index} (seed {:#x}): {problem}\n{}0 0\n",
        SEED.wrapping_add(index as u64),
        generate::render(grid)
    )
}

/// Checks every maze on two threads; returns (solvable count, failure reports).
fn check_all(grids: &[Grid]) -> (usize, Vec<String>) {
    const WORKERS: usize = 2;
    thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|worker| {
                scope.spawn(move || {
                    let (mut solvable, mut failures) = (0, Vec::new());
                    for index in (worker..grids.len()).step_by(WORKERS) {
                        match check(&grids[index]) {
                            Ok(solved) => solvable += usize::from(solved),
                            Err(problem) => failures.push(report(index, &grids[index], &problem)),
                        }
                    }
                    (solvable, failures)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().expect("a checker thread panicked"))
            .fold((0, Vec::new()), |(solvable, mut failures), (s, f)| {
                failures.extend(f);
                (solvable + s, failures)
            })
    })
}

#[test]
fn solver_matches_reference_on_generated_mazes() {
    let started = Instant::now();
    let grids = generated();
    let (solvable, failures) = check_all(&grids);
    eprintln!(
        "differential: {} mazes ({solvable} solvable, {} impossible) in {:.1?}",
        grids.len(),
        grids.len() - solvable,
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} of {} mazes disagree; the first few:\n\n{}",
        failures.len(),
        grids.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    assert!(grids.len() >= 5000);
    assert!(
        solvable * 4 >= grids.len() && solvable * 4 <= grids.len() * 3,
        "only {solvable} of {} mazes are solvable: the mix is lopsided",
        grids.len()
    );
}

#[test]
fn generated_mazes_cover_every_style_and_the_size_extremes() {
    let grids = generated();
    let sizes: Vec<(usize, usize)> = grids.iter().map(|g| (g.rows, g.cols)).collect();
    assert!(sizes.contains(&(1, 3)) && sizes.contains(&(3, 1)));
    assert!(sizes.contains(&(30, 30)));
    let mut rng = Rng::new(SEED);
    for style in generate::STYLES {
        for placement in [Placement::Anywhere, Placement::Region, Placement::Pulled] {
            let grid = generate::generate(&mut rng, style, placement, (9, 11));
            let cells = [grid.player, grid.boxed, grid.target];
            assert!(cells.iter().all(|&cell| !grid.walls[cell]), "{style:?}");
            assert!(cells[0] != cells[1] && cells[1] != cells[2] && cells[0] != cells[2]);
            let text = generate::render_file(std::slice::from_ref(&grid));
            assert_eq!(parse(&text).mazes[0].grid.as_deref(), Some(&grid), "{text}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Hand-written traps (SPEC §1).

fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows).expect("a valid hand-written maze")
}

/// Solves, checks against the reference and the replay, and returns the solution.
fn solved(rows: &[&str]) -> Solution {
    let grid = grid(rows);
    if let Err(problem) = check(&grid) {
        panic!("{problem}\n{}", generate::render(&grid));
    }
    match solve(&grid) {
        Outcome::Solved(solution) => solution,
        other => panic!("expected a solution, got {other:?}"),
    }
}

#[test]
fn player_must_walk_around_the_box() {
    // The player starts between the box and the target: push from the far side.
    let solution = solved(&["....", ".BST", "...."]);
    assert_eq!((solution.pushes, solution.moves), (2, 6));
    assert!(solution.path.ends_with("EE"), "{}", solution.path);
}

#[test]
fn box_revisits_a_cell_with_the_player_on_the_other_side() {
    // The box starts at (1,2) with the player east of it, and must come back to (1,2)
    // with the player west of it: a solver that visits each box cell once says Impossible.
    let solution = solved(&["...##", "..BST", "#####"]);
    assert_eq!((solution.pushes, solution.moves), (4, 8));
    assert_eq!(solution.path, "WnwwsEEE");
}

#[test]
fn fewest_pushes_beats_fewest_moves() {
    // Minimising total moves first would take 5 pushes; the optimum takes 3.
    let rows = MOVES_FIRST_TRAP;
    let solution = solved(rows);
    let pushes_first = reference::solve(&grid(rows)).expect("solvable");
    let moves_first = reference::solve_moves_first(&grid(rows)).expect("solvable");
    assert_eq!((pushes_first, moves_first), ((3, 13), (5, 11)));
    assert_eq!((solution.pushes, solution.moves), (3, 13));
}

/// Found by searching generated mazes with the reference in both orders: the best is
/// 3 pushes and 13 moves, but 5 pushes allow just 11 moves.
const MOVES_FIRST_TRAP: &[&str] = &["T.S", "..#", ".B.", "...", "..."];

#[test]
fn classic_sample_output_byte_for_byte() {
    let text = include_str!("../../examples/sample.box");
    let grids: Vec<Grid> = parse(text)
        .mazes
        .into_iter()
        .map(|maze| (*maze.grid.expect("the sample is valid")).clone())
        .collect();
    let paths: Vec<Option<String>> = grids
        .iter()
        .map(|grid| match solve(grid) {
            Outcome::Solved(solution) => Some(solution.path),
            Outcome::Unsolvable(_) => None,
        })
        .collect();
    let expected = [
        Some("EEEEE"),
        None,
        Some("eennwwWWWWeeeeeesswwwwwwwnNN"),
        Some("swwwnnnnnneeesssSSS"),
    ];
    assert_eq!(paths, expected.map(|path| path.map(String::from)));
    let output: String = paths
        .iter()
        .enumerate()
        .map(|(k, path)| {
            let line = path.as_deref().unwrap_or("Impossible.");
            format!("Maze #{}\n{line}\n\n", k + 1)
        })
        .collect();
    assert_eq!(output, include_str!("../../examples/sample.out"));
    for grid in &grids {
        check(grid).unwrap_or_else(|problem| panic!("{problem}"));
    }
}

/// Dead squares against their definition: a free cell is dead exactly when, with the box
/// there, the reference solves the maze from no player start at all.
#[test]
fn dead_squares_match_the_reference_from_every_start() {
    let never = AtomicBool::new(false);
    let mut dead_seen = 0;
    for seed in 0..300u64 {
        let mut rng = Rng::new(0xDEAD_0000 + seed);
        let size = generate::size(&mut rng, 7);
        let grid = generate::mixed(&mut rng, size);
        let analysis = analyze(&grid, &never).expect("never cancelled");
        // The server computes them on their own, later, where they are drawn.
        let alone = dead_squares(&grid, &never).expect("never cancelled");
        assert_eq!(alone, analysis.dead, "{}", generate::render(&grid));
        for cell in (0..grid.cell_count()).filter(|&c| !grid.walls[c] && c != grid.target) {
            let expected = !(0..grid.cell_count()).any(|player| {
                let start = Grid {
                    player,
                    boxed: cell,
                    ..grid.clone()
                };
                player != cell && !grid.walls[player] && reference::solve(&start).is_some()
            });
            dead_seen += usize::from(expected);
            assert_eq!(
                analysis.dead[cell],
                expected,
                "cell {cell} of\n{}",
                generate::render(&grid)
            );
        }
    }
    assert!(
        dead_seen > 100,
        "too few dead squares to mean much: {dead_seen}"
    );
}
