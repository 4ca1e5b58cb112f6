//! `boxls gen` end to end and `boxls::gen` directly: byte-identical output for the same
//! arguments, every maze valid with an optimal `; solution:` line, `--hardest` exact,
//! `--anneal-steps` never worse, and `--family traps` defeating every deliberately
//! wrong solver of the judge tests.

use std::io::Write as _;
use std::process::{Command, Stdio};

use boxls::analysis::check_text;
use boxls::design::hardest;
use boxls::gen::{generate, Family, GenOptions};
use boxls::judge::judge;
use boxls::maze::{parse, Code, Grid};

use super::judge::{is_optimal, output, BUGGY};

/// Standard output, standard error and exit code of one run of the binary.
pub fn run(args: &[&str], stdin: &[u8]) -> (String, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boxls"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the boxls binary runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    pipe.write_all(stdin).expect("write stdin");
    drop(pipe);
    let out = child.wait_with_output().expect("boxls finishes");
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
        out.status.code(),
    )
}

fn gen(args: &[&str]) -> String {
    let mut all = vec!["gen"];
    all.extend_from_slice(args);
    let (stdout, stderr, code) = run(&all, b"");
    assert_eq!(code, Some(0), "{stderr}");
    stdout
}

fn grids(text: &str) -> Vec<Grid> {
    parse(text)
        .mazes
        .into_iter()
        .map(|maze| (*maze.grid.expect("a valid maze")).clone())
        .collect()
}

/// No diagnostic but `unsolvable` on the impossible traps: every maze valid, every
/// solution line optimal, `0 0` there.
fn assert_clean(text: &str) {
    let report = check_text(text);
    let impossible = text.lines().filter(|l| l.ends_with(", impossible")).count();
    let unsolvable = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::Unsolvable)
        .count();
    assert_eq!(
        report.diagnostics.len(),
        unsolvable,
        "{:?}\n{text}",
        report.diagnostics
    );
    assert_eq!(unsolvable, impossible, "{text}");
}

#[test]
fn the_same_arguments_give_the_same_bytes_and_every_maze_is_clean() {
    for family in ["open", "rooms", "caves", "corridors", "traps"] {
        let args = ["--seed", "11", "--count", "6", "--family", family];
        let first = gen(&args);
        assert_eq!(first, gen(&args), "{family}");
        assert_clean(&first);
        let parsed = parse(&first);
        assert_eq!(parsed.mazes.len(), 6, "{family}");
        for maze in &parsed.mazes {
            let grid = maze.grid.as_ref().expect("valid");
            assert!(grid.rows <= 20 && grid.cols <= 20, "POJ 1475 sizes");
            // A solution line for every maze but the impossible traps, and the comment.
            let comment = &first[..maze.header.start];
            let comment = comment
                .lines()
                .rev()
                .find(|l| !l.is_empty())
                .expect("a comment");
            assert!(
                comment.starts_with(&format!("; Maze #{}: seed ", maze.index)),
                "{comment}"
            );
            assert_eq!(
                maze.solution.is_some(),
                !comment.ends_with("impossible"),
                "{comment}"
            );
            if maze.solution.is_some() {
                assert!(
                    comment.contains(" box lines") || comment.contains(" box line "),
                    "{comment}"
                );
            }
        }
    }
    assert_ne!(gen(&["--seed", "1"]), gen(&["--seed", "2"]));
}

#[test]
fn hardest_places_s_b_and_t_exactly_and_min_pushes_is_met() {
    let text = gen(&[
        "--seed",
        "5",
        "--count",
        "3",
        "--hardest",
        "--family",
        "caves",
        "--rows",
        "10",
        "--cols",
        "11",
    ]);
    assert_clean(&text);
    for grid in grids(&text) {
        let placement = hardest(&grid, false).unwrap().expect("solvable");
        assert_eq!(placement.apply(&grid), grid);
    }
    let text = gen(&[
        "--seed",
        "9",
        "--count",
        "4",
        "--min-pushes",
        "6",
        "--family",
        "corridors",
    ]);
    assert_clean(&text);
    for grid in grids(&text) {
        let solution = boxls::solver::solve_path(&grid).expect("solvable");
        assert!(solution.pushes >= 6, "{}", solution.pushes);
    }
}

#[test]
fn annealing_keeps_the_mazes_connected_and_never_makes_them_easier() {
    let base = [
        "--seed",
        "3",
        "--count",
        "2",
        "--rows",
        "8",
        "--cols",
        "9",
        "--hardest",
    ];
    let before = grids(&gen(&base));
    let mut annealed_args = base.to_vec();
    annealed_args.extend(["--anneal-steps", "40"]);
    let annealed_text = gen(&annealed_args);
    assert_eq!(
        annealed_text,
        gen(&annealed_args),
        "a step bound is reproducible"
    );
    assert_clean(&annealed_text);
    for (old, new) in before.iter().zip(grids(&annealed_text)) {
        let score = |g: &Grid| {
            let p = hardest(g, false).unwrap().expect("solvable");
            (p.pushes, p.moves)
        };
        assert!(score(&new) >= score(old));
        assert_eq!(
            hardest(&new, false).unwrap().map(|p| p.apply(&new)),
            Some(new.clone())
        );
        assert!(connected(&new), "{:?}", new.to_rows());
    }
}

fn connected(grid: &Grid) -> bool {
    let free: Vec<usize> = (0..grid.cell_count()).filter(|&c| !grid.walls[c]).collect();
    let mut seen = vec![false; grid.cell_count()];
    let mut stack = vec![free[0]];
    seen[free[0]] = true;
    while let Some(cell) = stack.pop() {
        let (r, c) = grid.coords(cell);
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (Some(r), Some(c)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) else {
                continue;
            };
            if r < grid.rows
                && c < grid.cols
                && !grid.walls[r * grid.cols + c]
                && !seen[r * grid.cols + c]
            {
                seen[r * grid.cols + c] = true;
                stack.push(r * grid.cols + c);
            }
        }
    }
    free.iter().all(|&c| seen[c])
}

#[test]
fn gen_family_traps_defeats_every_deliberately_wrong_solver() {
    let input = gen(&["--family", "traps", "--count", "12", "--seed", "1"]);
    let mazes = grids(&input);
    assert!(
        mazes.iter().any(|g| boxls::solver::solve_path(g).is_none()),
        "impossible ones included"
    );
    for (name, solver) in BUGGY {
        let answers = output(&mazes, solver);
        let verdict = judge(&input, &answers).expect("a valid input");
        // Each maze made for this mistake is among the rejected ones.
        let made_for: Vec<usize> = (1..)
            .zip(input.lines().filter(|l| l.starts_with("; Maze #")))
            .filter(|(_, comment)| comment.contains(&format!("trap: {name},")))
            .map(|(k, _)| k)
            .collect();
        let rejected: Vec<usize> = verdict.rejections.iter().filter_map(|r| r.maze).collect();
        assert_eq!(made_for.len(), 2, "{name}");
        assert!(
            made_for.iter().all(|k| rejected.contains(k)),
            "{name}: {made_for:?} {rejected:?}"
        );
        assert!(
            !verdict.rejections.is_empty(),
            "{name} is accepted on every trap"
        );
        // The judge is right to reject: the solver's answer is not optimal there.
        for rejection in &verdict.rejections {
            let k = rejection.maze.expect("per maze");
            assert!(
                !is_optimal(&mazes[k - 1], solver(&mazes[k - 1]).as_deref()),
                "{name}"
            );
        }
    }
}

#[test]
fn every_family_gives_connected_walled_in_mazes_through_the_api() {
    for family in Family::ALL {
        for seed in 0..8 {
            let options = GenOptions {
                rows: 9 + seed as usize,
                cols: 14,
                family,
                ..GenOptions::default()
            };
            let maze = generate(seed, &options);
            assert_eq!(maze, generate(seed, &options));
            assert!(connected(&maze.grid), "{family} {seed}");
            let g = &maze.grid;
            assert!(
                (0..g.cell_count()).all(|c| {
                    let (r, col) = g.coords(c);
                    !(r == 0 || col == 0 || r + 1 == g.rows || col + 1 == g.cols) || g.walls[c]
                }),
                "{family} {seed}: walled in"
            );
            assert_eq!(maze.solution.is_none(), maze.metrics.is_none());
            if family != Family::Traps {
                assert!(maze.solution.is_some(), "{family} {seed}");
            }
        }
    }
}

/// Free cells reachable from `start` with `cut` (a cell) or `edge` removed.
fn reach(grid: &Grid, start: usize, cut: Option<usize>, edge: Option<(usize, usize)>) -> usize {
    let mut seen = vec![false; grid.cell_count()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut count = 0;
    while let Some(cell) = stack.pop() {
        count += 1;
        let (r, c) = grid.coords(cell);
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (Some(r), Some(c)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) else {
                continue;
            };
            let n = r * grid.cols + c;
            let crossed = edge.is_some_and(|(a, b)| (a, b) == (cell, n) || (b, a) == (cell, n));
            if r < grid.rows
                && c < grid.cols
                && !grid.walls[n]
                && !seen[n]
                && Some(n) != cut
                && !crossed
            {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    count
}

#[test]
fn bridge_traps_have_a_cut_cell_without_a_bridge() {
    let input = gen(&["--family", "traps", "--count", "12", "--seed", "1"]);
    let made: Vec<Grid> = grids(&input)
        .into_iter()
        .zip(input.lines().filter(|l| l.starts_with("; Maze #")))
        .filter(|(_, comment)| comment.contains("trap: bridges for articulation points,"))
        .map(|(grid, _)| grid)
        .collect();
    assert_eq!(made.len(), 2);
    for grid in made {
        let free: Vec<usize> = (0..grid.cell_count()).filter(|&c| !grid.walls[c]).collect();
        let total = free.len();
        let neighbours = |v: usize| -> Vec<usize> {
            free.iter()
                .copied()
                .filter(|&w| {
                    let ((a, b), (c, d)) = (grid.coords(v), grid.coords(w));
                    a.abs_diff(c) + b.abs_diff(d) == 1
                })
                .collect()
        };
        let found = free.iter().any(|&v| {
            let Some(&other) = free.iter().find(|&&w| w != v) else {
                return false;
            };
            let cut = reach(&grid, other, Some(v), None) < total - 1;
            let bridged = neighbours(v)
                .into_iter()
                .any(|w| reach(&grid, v, None, Some((v, w))) < total);
            cut && !bridged
        });
        assert!(found, "{}", grid.to_rows().join("\n"));
    }
}

#[test]
fn rooms_stay_rooms_at_large_sizes() {
    // Three random cells of a large rooms layout are almost never solvable (the box
    // rarely gets through many one-cell doors): every maze from 350×350 used to come out
    // as open floor. Now T is chosen among the cells the box can reach.
    for seed in 1..=3 {
        let options = GenOptions {
            rows: 350,
            cols: 350,
            family: Family::Rooms,
            ..GenOptions::default()
        };
        let maze = generate(seed, &options);
        assert_eq!(maze.family, Family::Rooms, "seed {seed}");
        let solution = maze.solution.as_ref().expect("solvable");
        let replayed = boxls::solver::replay(&maze.grid, &solution.path).expect("legal");
        assert!(replayed.solved, "seed {seed}");
        assert_eq!(
            boxls::solver::solve_path(&maze.grid).map(|s| (s.pushes, s.moves)),
            Some((solution.pushes, solution.moves))
        );
    }
    let (out, err, code) = run(
        &["gen", "--family", "rooms", "--rows", "200", "--cols", "200"],
        b"",
    );
    assert_eq!((code, err.as_str()), (Some(0), ""), "{err}");
    assert!(
        out.contains("; Maze #1: seed 1, rooms, "),
        "{}",
        &out[..300]
    );
    assert_clean(&out);
}

#[test]
fn a_family_without_a_solvable_layout_is_said_to_be_open_instead() {
    // Caves at 100 % rock have no free cell: the maze is open floor, and stderr says so.
    let (out, err, code) = run(&["gen", "--family", "caves", "--walls", "100"], b"");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        err,
        "boxls: warning: maze #1: no caves layout of 12×12 had a solvable placement in 200 \
         layouts; it is open instead (its comment says so)\n"
    );
    assert!(out.contains("; Maze #1: seed 1, open, "), "{out}");
    assert_clean(&out);
}

#[test]
fn hardest_and_anneal_above_the_design_limit_are_errors_not_random_placements() {
    for extra in [
        &["--hardest"][..],
        &["--anneal-steps", "3"],
        &["--anneal", "1"],
    ] {
        let mut args = vec!["gen", "--rows", "257", "--cols", "256"];
        args.extend_from_slice(extra);
        let (out, err, code) = run(&args, b"");
        assert_eq!((code, out.as_str()), (Some(2), ""), "{extra:?}: {err}");
        let flag = if extra[0] == "--hardest" {
            "--hardest"
        } else {
            "--anneal"
        };
        assert_eq!(
            err,
            format!(
                "boxls: {flag} takes mazes of at most 65536 cells; 257×256 has 65792 (leave it \
                 out for a random solvable placement)\n"
            ),
            "{extra:?}"
        );
    }
}
