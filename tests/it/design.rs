//! The design tools against brute force: the hardest placement (both modes) and the
//! difficulty map on thousands of small generated layouts, every placement solved by
//! the independent reference solver, and every answer's solution replayed.

use std::sync::atomic::AtomicBool;

use boxls::design::{
    difficulty_map, difficulty_map_cancellable, hardest, hardest_cancellable, hardest_tuned,
    most_pushes_by_target, DesignError, Difficulty, Placement, Tuning,
};
use boxls::gen::{Family, GenOptions};
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

/// `boxls hardest` on `input` with `args`: (stdout, stderr, exit code).
fn hardest_cli(args: &[&str], input: &str) -> (String, String, Option<i32>) {
    let mut all = vec!["hardest"];
    all.extend_from_slice(args);
    super::gen::run(&all, input.as_bytes())
}

#[test]
fn boxls_hardest_moves_s_b_t_writes_solutions_and_keeps_everything_else() {
    let sample = std::fs::read_to_string("examples/sample.box").unwrap();
    let (out, err, code) = hardest_cli(&[], &sample);
    assert_eq!(code, Some(0), "{err}");
    expect_test::expect![[r#"
        Maze #1: 5 pushes · 5 moves → 5 pushes · 5 moves
        Maze #2: unsolvable → 2 pushes · 2 moves
        Maze #3: 6 pushes · 28 moves → 10 pushes · 39 moves
        Maze #4: 3 pushes · 19 moves → 6 pushes · 23 moves
    "#]]
    .assert_eq(&err);
    let (before, after) = (boxls::maze::parse(&sample), boxls::maze::parse(&out));
    assert_eq!(before.mazes.len(), after.mazes.len());
    for (old, new) in before.mazes.iter().zip(&after.mazes) {
        let (old, new) = (old.grid.as_deref().unwrap(), new.grid.as_deref().unwrap());
        assert_eq!(old.walls, new.walls);
        let placement = hardest(old, false).unwrap().unwrap();
        assert_eq!(&placement.apply(old), new);
    }
    // Every solution line written is optimal, and nothing else is reported.
    assert!(boxls::analysis::check_text(&out)
        .diagnostics
        .iter()
        .all(|d| d.code == boxls::maze::Code::MissingTerminator));
    assert_eq!(
        after.mazes.iter().filter(|m| m.solution.is_some()).count(),
        4
    );
}

#[test]
fn boxls_hardest_one_maze_keeping_the_target_and_to_a_file() {
    let input =
        "; first\n1 4\nSB.T\n\n; second\n3 7\n#######\n#.SB.T#\n#######\n; solution: EE\n0 0\n";
    let dir = std::env::temp_dir().join(format!("boxls-hardest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("out.box");
    let (out, err, code) = hardest_cli(
        &[
            "--maze",
            "2",
            "--keep-target",
            "-o",
            path.to_str().unwrap(),
            "-",
        ],
        input,
    );
    assert_eq!((code, out.as_str()), (Some(0), ""), "{err}");
    assert_eq!(err, "Maze #2: 2 pushes · 2 moves → 3 pushes · 3 moves\n");
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        written,
        "; first\n1 4\nSB.T\n\n; second\n3 7\n#######\n#SB..T#\n#######\n; solution: EEE\n0 0\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn boxls_hardest_leaves_broken_and_hopeless_mazes_and_says_so() {
    let input = "1 4\nS#BT\n2 3\nSBT\n1 5\nS.B.T\n0 0\n";
    let (out, err, code) = hardest_cli(&[], input);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("Maze #1: unsolvable → no solvable placement; left as it is"),
        "{err}"
    );
    assert!(
        err.contains("too-few-rows") || err.contains("rows"),
        "{err}"
    );
    assert!(err.contains("Maze #2: has errors; left as it is"), "{err}");
    assert!(
        err.contains("Maze #3: 2 pushes · 3 moves → 3 pushes · 3 moves"),
        "{err}"
    );
    assert_eq!(
        out,
        "1 4\nS#BT\n2 3\nSBT\n1 5\nT..BS\n; solution: WWW\n0 0\n"
    );
    let (_, err, code) = hardest_cli(&["--maze", "9"], input);
    assert_eq!(code, Some(2));
    assert!(err.contains("there is no maze #9"), "{err}");
}

#[test]
fn boxls_solve_metrics_adds_a_line_per_solved_maze() {
    let sample = std::fs::read_to_string("examples/sample.box").unwrap();
    let (out, err, code) = super::gen::run(&["solve", "--metrics"], sample.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    expect_test::expect![[r#"
        Maze #1
        EEEEE
        ; 5 pushes · 5 moves · 1 box line · 0 box turns · 0 walk segments

        Maze #2
        Impossible.

        Maze #3
        eennwwWWWWeeeeeesswwwwwwwnNN
        ; 6 pushes · 28 moves · 2 box lines · 1 box turn · 2 walk segments

        Maze #4
        swwwnnnnnneeesssSSS
        ; 3 pushes · 19 moves · 1 box line · 0 box turns · 1 walk segment

    "#]]
    .assert_eq(&out);
    // Without the flag the output stays the POJ output.
    let (plain, _, _) = super::gen::run(&["solve"], sample.as_bytes());
    let expected = std::fs::read_to_string("examples/sample.out").unwrap();
    assert_eq!(plain, expected);
}

/// Every way of running the hardest-placement search: one thread without pruning (a
/// full search with moves from every target), and pruned on one, two and three threads.
fn every_tuning() -> [Tuning; 4] {
    [
        Tuning {
            threads: 1,
            prune: false,
        },
        Tuning {
            threads: 1,
            prune: true,
        },
        Tuning {
            threads: 2,
            prune: true,
        },
        Tuning {
            threads: 3,
            prune: false,
        },
    ]
}

fn assert_tunings_agree(grid: &Grid) -> Option<Placement> {
    let never = AtomicBool::new(false);
    let mut answers = Vec::new();
    for keep in [false, true] {
        let plain = hardest(grid, keep).expect("not too large");
        for tuning in every_tuning() {
            let got = hardest_tuned(grid, keep, &never, tuning).expect("not too large");
            assert_eq!(
                got,
                plain,
                "{tuning:?}, keep target: {keep}\n{}",
                grid.to_rows().join("\n")
            );
        }
        answers.push(plain);
    }
    answers[0]
}

#[test]
fn pruning_and_threads_change_nothing_on_small_layouts() {
    for grid in layouts(0xD351_6E03, 2000) {
        assert_tunings_agree(&grid);
    }
}

#[test]
fn pruning_and_threads_change_nothing_on_generated_mazes() {
    // Large enough for the default to use every core and for ties between targets.
    let mut solvable = 0;
    for (seed, family) in [
        Family::Rooms,
        Family::Caves,
        Family::Open,
        Family::Corridors,
    ]
    .into_iter()
    .cycle()
    .take(24)
    .enumerate()
    {
        let size = 10 + seed % 4 * 5;
        let options = GenOptions {
            rows: size,
            cols: size,
            family,
            ..GenOptions::default()
        };
        let grid = boxls::gen::generate(seed as u64, &options).grid;
        if let Some(placement) = assert_tunings_agree(&grid) {
            solvable += 1;
            assert_replays(&grid, &placement);
        }
    }
    assert!(solvable >= 20, "{solvable}");
}

#[test]
fn a_cancelled_design_search_says_so() {
    let grid = boxls::gen::generate(1, &GenOptions::default()).grid;
    let cancelled = AtomicBool::new(true);
    for tuning in every_tuning() {
        for keep in [false, true] {
            assert_eq!(
                hardest_tuned(&grid, keep, &cancelled, tuning),
                Err(DesignError::Cancelled)
            );
        }
    }
    assert_eq!(
        hardest_cancellable(&grid, false, &cancelled),
        Err(DesignError::Cancelled)
    );
    assert_eq!(
        difficulty_map_cancellable(&grid, &cancelled),
        Err(DesignError::Cancelled)
    );
}

#[test]
fn the_batched_pushes_only_searches_agree_with_one_full_search_per_target() {
    let mut grids = layouts(0xD351_6E04, 300);
    for (seed, family) in [
        Family::Caves,
        Family::Rooms,
        Family::Open,
        Family::Corridors,
    ]
    .into_iter()
    .cycle()
    .take(12)
    .enumerate()
    {
        // Up to 30×30: several passes of 64 targets, tiles cut by walls.
        let size = 12 + seed % 3 * 9;
        let options = GenOptions {
            rows: size,
            cols: size,
            family,
            ..GenOptions::default()
        };
        grids.push(boxls::gen::generate(seed as u64, &options).grid);
    }
    for grid in &grids {
        let full = most_pushes_by_target(grid, false, 1).expect("not too large");
        for threads in [1, 2] {
            let batched = most_pushes_by_target(grid, true, threads).expect("not too large");
            assert_eq!(batched, full, "{}", grid.to_rows().join("\n"));
        }
    }
}

#[test]
fn the_difficulty_map_matches_one_solve_per_cell_on_generated_mazes() {
    // Larger than the reference can take: walls round which the box's detours are long.
    let mut detoured = 0;
    for (seed, family) in [
        Family::Caves,
        Family::Rooms,
        Family::Corridors,
        Family::Open,
    ]
    .into_iter()
    .cycle()
    .take(16)
    .enumerate()
    {
        let size = 14 + seed % 4 * 6;
        let options = GenOptions {
            rows: size,
            cols: size,
            family,
            ..GenOptions::default()
        };
        let grid = boxls::gen::generate(seed as u64, &options).grid;
        let map = difficulty_map(&grid).expect("not too large");
        for (cell, &got) in map.iter().enumerate() {
            if grid.walls[cell] || cell == grid.player || cell == grid.target {
                continue;
            }
            let placed = Grid {
                boxed: cell,
                ..grid.clone()
            };
            let expected = match solve_path(&placed) {
                Some(solution) => Difficulty::Solved {
                    pushes: solution.pushes,
                    moves: solution.moves,
                },
                None => Difficulty::Unsolvable,
            };
            assert_eq!(got, expected, "cell {cell}\n{}", grid.to_rows().join("\n"));
            detoured += usize::from(matches!(expected, Difficulty::Solved { .. }));
        }
    }
    assert!(detoured > 1000, "{detoured}");
}
