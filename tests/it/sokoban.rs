//! The multi-box solver against an exhaustive reference kept here: a (pushes, moves)
//! Dijkstra over (player cell, boxes) on thousands of generated small levels. Optimal
//! mode must match it exactly; fast mode must never claim optimality falsely nor call a
//! solvable level unsolvable; every solution is replayed by a replayer kept here too.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use boxls::gen::rng::Rng;
use boxls::sokoban::{self, Event, Limits, Mode, Outcome, Puzzle, Unknown};

use crate::xsb_board;

/// Limits no generated level comes near: a level that hits them fails the test.
fn generous() -> Limits {
    Limits {
        time: Duration::from_secs(3600),
        memory_bytes: 1 << 30,
    }
}

/// The grid neighbour of `cell` in direction `dir` (`u d l r`), if inside.
fn neighbour(p: &Puzzle, cell: usize, dir: usize) -> Option<usize> {
    let (row, col) = ((cell / p.width) as isize, (cell % p.width) as isize);
    let (row, col) = match dir {
        0 => (row - 1, col),
        1 => (row + 1, col),
        2 => (row, col - 1),
        _ => (row, col + 1),
    };
    let inside = row >= 0 && col >= 0 && (row as usize) < p.height && (col as usize) < p.width;
    inside.then(|| row as usize * p.width + col as usize)
}

fn open(p: &Puzzle, cell: Option<usize>) -> Option<usize> {
    cell.filter(|&c| !p.walls[c])
}

/// Fewest pushes, then fewest moves, by brute force: every (player, boxes) state, each
/// step costing (0, 1) for a walk and (1, 1) for a push. Grids of at most 64 cells.
fn reference(p: &Puzzle) -> Option<(u32, u32)> {
    assert!(p.width * p.height <= 64);
    let goals: u64 = (0..p.width * p.height)
        .filter(|&c| p.goals[c])
        .map(|c| 1u64 << c)
        .sum();
    let start: u64 = p.boxes.iter().map(|&b| 1u64 << b).sum();
    let mut best: HashMap<(u64, usize), (u32, u32)> = HashMap::new();
    let mut queue = BinaryHeap::new();
    best.insert((start, p.player), (0, 0));
    queue.push(Reverse((0u32, 0u32, start, p.player)));
    while let Some(Reverse((pushes, moves, boxes, player))) = queue.pop() {
        if best[&(boxes, player)] < (pushes, moves) {
            continue;
        }
        if boxes & !goals == 0 {
            return Some((pushes, moves));
        }
        for dir in 0..4 {
            let Some(to) = open(p, neighbour(p, player, dir)) else {
                continue;
            };
            let (next, cost) = if boxes & (1 << to) != 0 {
                let Some(beyond) = open(p, neighbour(p, to, dir)) else {
                    continue;
                };
                if boxes & (1 << beyond) != 0 {
                    continue;
                }
                (boxes & !(1 << to) | (1 << beyond), (pushes + 1, moves + 1))
            } else {
                (boxes, (pushes, moves + 1))
            };
            let known = best.entry((next, to)).or_insert((u32::MAX, u32::MAX));
            if cost < *known {
                *known = cost;
                queue.push(Reverse((cost.0, cost.1, next, to)));
            }
        }
    }
    None
}

/// Plays `lurd` step by step: `Some((pushes, moves))` when every step is legal, the
/// case of each letter matches what happens, and all boxes end on goals.
fn replayed(p: &Puzzle, lurd: &str) -> Option<(u32, u32)> {
    let mut boxes: Vec<bool> = (0..p.width * p.height)
        .map(|c| p.boxes.contains(&c))
        .collect();
    let mut player = p.player;
    let mut pushes = 0;
    for letter in lurd.chars() {
        let dir = "udlr".find(letter.to_ascii_lowercase())?;
        let to = open(p, neighbour(p, player, dir))?;
        if boxes[to] {
            let beyond = open(p, neighbour(p, to, dir))?;
            if boxes[beyond] || !letter.is_ascii_uppercase() {
                return None;
            }
            boxes[to] = false;
            boxes[beyond] = true;
            pushes += 1;
        } else if letter.is_ascii_uppercase() {
            return None;
        }
        player = to;
    }
    let solved = (0..boxes.len()).all(|c| !boxes[c] || p.goals[c]);
    solved.then_some((pushes, lurd.len() as u32))
}

/// A random room of at most 8×8 cells inside a wall border with `boxes` boxes and as
/// many goals, small enough for the reference. Three in four are played backwards from
/// the solved position (random walks and pulls), so they are solvable by construction;
/// the fourth scatters boxes at random, which is mostly unsolvable.
fn generate(rng: &mut Rng, boxes: usize, index: usize) -> Puzzle {
    loop {
        let (width, height) = (rng.between(4, 8), rng.between(4, 8));
        let density = rng.between(5, 30) as u32;
        let mut walls = vec![true; width * height];
        let mut floor = Vec::new();
        for row in 1..height - 1 {
            for col in 1..width - 1 {
                let cell = row * width + col;
                if !rng.percent(density) {
                    walls[cell] = false;
                    floor.push(cell);
                }
            }
        }
        if floor.len() < boxes + 2 {
            continue;
        }
        let states = (0..boxes).fold(floor.len() as u64, |n, k| {
            n * (floor.len() - k) as u64 / (k as u64 + 1)
        });
        if states > 150_000 {
            continue;
        }
        let mut pick = |taken: &[usize]| loop {
            let cell = floor[rng.below(floor.len())];
            if !taken.contains(&cell) {
                return cell;
            }
        };
        let mut goal_cells = Vec::new();
        for _ in 0..boxes {
            let cell = pick(&goal_cells);
            goal_cells.push(cell);
        }
        let mut box_cells = Vec::new();
        if index % 4 == 3 {
            for _ in 0..boxes {
                let cell = pick(&box_cells);
                box_cells.push(cell);
            }
        } else {
            box_cells = goal_cells.clone();
        }
        let player = pick(&box_cells);
        let mut goals = vec![false; width * height];
        for &g in &goal_cells {
            goals[g] = true;
        }
        let mut p = Puzzle {
            width,
            height,
            walls,
            goals,
            boxes: box_cells,
            player,
        };
        if index % 4 != 3 {
            play_backwards(rng, &mut p);
        }
        return p;
    }
}

/// Random walks and pulls from the current position: reversed, a legal solution.
fn play_backwards(rng: &mut Rng, p: &mut Puzzle) {
    for _ in 0..rng.between(5, 80) {
        let dir = rng.below(4);
        let Some(to) = open(p, neighbour(p, p.player, dir)) else {
            continue;
        };
        if p.boxes.contains(&to) {
            continue;
        }
        let behind = neighbour(p, p.player, dir ^ 1);
        if let Some(slot) = p.boxes.iter().position(|&b| Some(b) == behind) {
            if rng.percent(60) {
                p.boxes[slot] = p.player;
            }
        }
        p.player = to;
    }
}

fn solve(p: &Puzzle, mode: Mode) -> Outcome {
    let never = AtomicBool::new(false);
    sokoban::solve(p, mode, &generous(), &never, &mut |_| {})
}

/// Checks both modes on one level against the reference; returns whether it is solvable.
fn check(p: &Puzzle, label: &str) -> bool {
    let expected = reference(p);
    match (solve(p, Mode::Optimal), expected) {
        (Outcome::Solved(s), Some(cost)) => {
            assert!(s.optimal, "{label}: optimal mode must prove optimality");
            assert_eq!(
                (s.pushes, s.moves),
                cost,
                "{label}: optimal cost, got {}",
                s.lurd
            );
            assert_eq!(
                replayed(p, &s.lurd),
                Some(cost),
                "{label}: replay of {}",
                s.lurd
            );
            assert_eq!(
                sokoban::replay(p, &s.lurd),
                Ok((cost.0, cost.1, true)),
                "{label}"
            );
        }
        (Outcome::Unsolvable, None) => {}
        (outcome, expected) => {
            panic!("{label}: optimal mode gave {outcome:?}, reference {expected:?}")
        }
    }
    match (solve(p, Mode::Fast), expected) {
        (Outcome::Solved(s), Some(cost)) => {
            assert_eq!(
                replayed(p, &s.lurd),
                Some((s.pushes, s.moves)),
                "{label}: replay of {}",
                s.lurd
            );
            assert!(
                (s.pushes, s.moves) >= cost,
                "{label}: better than exhaustive search?"
            );
            if s.optimal {
                assert_eq!(
                    (s.pushes, s.moves),
                    cost,
                    "{label}: fast mode claimed optimal falsely"
                );
            }
        }
        (Outcome::Unsolvable, None) => {}
        (outcome, expected) => {
            panic!("{label}: fast mode gave {outcome:?}, reference {expected:?}")
        }
    }
    expected.is_some()
}

/// 500 levels from `seed`: returns how many were unsolvable.
fn check_generated(seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut unsolvable = 0;
    for index in 0..500 {
        let boxes = 2 + index % 3;
        let p = generate(&mut rng, boxes, index);
        if !check(&p, &format!("seed {seed} level {index}")) {
            unsolvable += 1;
        }
    }
    unsolvable
}

/// A quarter or so of the generated levels are unsolvable: the proofs are exercised too.
fn assert_mix(unsolvable: usize) {
    assert!(
        (60..=220).contains(&unsolvable),
        "{unsolvable} of 500 unsolvable"
    );
}

#[test]
fn generated_levels_a_match_the_reference() {
    assert_mix(check_generated(1));
}

#[test]
fn generated_levels_b_match_the_reference() {
    assert_mix(check_generated(2));
}

#[test]
fn generated_levels_c_match_the_reference() {
    assert_mix(check_generated(3));
}

#[test]
fn generated_levels_d_match_the_reference() {
    assert_mix(check_generated(4));
}

#[test]
fn one_box_levels_go_to_the_box_solver_and_match_the_reference() {
    let mut rng = Rng::new(5);
    for index in 0..300 {
        check(&generate(&mut rng, 1, index), &format!("one box {index}"));
    }
}

fn microban() -> Vec<Puzzle> {
    xsb_board::levels(include_str!("../levels/Microban_155.xsb"))
}

#[test]
fn first_microban_levels_match_the_reference() {
    let levels = microban();
    assert_eq!(levels.len(), 155);
    let small: Vec<_> = levels
        .iter()
        .filter(|p| p.boxes.len() <= 3 && p.width * p.height <= 64)
        .collect();
    assert!(small.len() >= 5, "{}", small.len());
    for (index, p) in small.iter().enumerate() {
        assert!(check(p, &format!("small Microban {index}")));
    }
}

/// Goal rooms (a group of three goals or more) get goal macros and a packing order in
/// fast mode: small ones still match the reference, and XSokoban's first level (six
/// goals behind one side) is solved with a solution that replays.
#[test]
fn goal_room_levels_match_the_reference_and_replay() {
    let dead_end = xsb_board::board(&[
        "########", "#...   #", "###  $ #", "  #$ $@#", "  #    #", "  ######",
    ])
    .unwrap();
    assert!(check(&dead_end, "dead-end goal room"));
    let square = xsb_board::board(&[
        "#######", "#..   #", "#.$$  #", "#  $  #", "#   @ #", "#######",
    ])
    .unwrap();
    assert!(check(&square, "square goal room"));
    let xsokoban = xsb_board::levels(include_str!("../levels/XSokoban_90.xsb"));
    let first = xsokoban.first().unwrap();
    // The greedy solution is enough: a short limit cuts the exact search that follows.
    let limits = Limits {
        time: Duration::from_secs(1),
        ..generous()
    };
    let never = AtomicBool::new(false);
    match sokoban::solve(first, Mode::Fast, &limits, &never, &mut |_| {}) {
        Outcome::Solved(s) => assert_eq!(
            sokoban::replay(first, &s.lurd),
            Ok((s.pushes, s.moves, true)),
            "XSokoban 1: {}",
            s.lurd
        ),
        outcome => panic!("XSokoban 1: {outcome:?}"),
    }
}

#[test]
fn limits_and_cancellation_give_unknown_before_any_search() {
    let p = &microban()[2];
    let mut events = 0;
    let stopped = AtomicBool::new(true);
    let outcome = sokoban::solve(p, Mode::Fast, &generous(), &stopped, &mut |_| events += 1);
    assert!(
        matches!(
            outcome,
            Outcome::Unknown {
                why: Unknown::Cancelled,
                best: None,
                ..
            }
        ),
        "{outcome:?}"
    );
    let never = AtomicBool::new(false);
    let no_memory = Limits {
        memory_bytes: 0,
        ..generous()
    };
    let outcome = sokoban::solve(p, Mode::Optimal, &no_memory, &never, &mut |_| {});
    assert!(
        matches!(
            outcome,
            Outcome::Unknown {
                why: Unknown::Memory,
                ..
            }
        ),
        "{outcome:?}"
    );
    let no_time = Limits {
        time: Duration::ZERO,
        ..generous()
    };
    let outcome = sokoban::solve(p, Mode::Fast, &no_time, &never, &mut |_| {});
    match outcome {
        Outcome::Unknown {
            why: Unknown::Time,
            lower_bound: Some(bound),
            best: None,
        } => assert!(bound > 0),
        other => panic!("{other:?}"),
    }
    assert_eq!(events, 0);
}

/// A level of `boxes` boxes, each one push right of its goal, in rows of 50 over an
/// open floor: easy to solve, but its matching starts cubic in the boxes.
fn crowded(boxes: usize) -> Puzzle {
    let rows: Vec<String> = std::iter::once("@".to_string())
        .chain((0..boxes.div_ceil(50)).flat_map(|r| {
            let pairs = (boxes - r * 50).min(50);
            [" .$".repeat(pairs), String::new()]
        }))
        .collect();
    let width = rows.iter().map(String::len).max().unwrap_or(0) + 3;
    let mut text = format!("{}\n", "#".repeat(width));
    for row in &rows {
        text += &format!("#{row:width$}#\n", width = width - 2);
    }
    text += &"#".repeat(width);
    xsb_board::levels(&text).remove(0)
}

/// Past [`sokoban::MAX_BOXES`] the search is not started: its first matching alone
/// would outlast the limit, which it is not polled during. Just below, it starts.
#[test]
fn a_level_of_too_many_boxes_is_unknown_at_once() {
    let never = AtomicBool::new(false);
    let over = crowded(sokoban::MAX_BOXES + 1);
    assert_eq!(over.boxes.len(), sokoban::MAX_BOXES + 1);
    let mut events = 0;
    let outcome = sokoban::solve(&over, Mode::Fast, &generous(), &never, &mut |_| events += 1);
    assert!(
        matches!(
            outcome,
            Outcome::Unknown {
                why: Unknown::Memory,
                lower_bound: None,
                best: None
            }
        ),
        "{outcome:?}"
    );
    assert_eq!(events, 0);
    // At the cap the search starts, and stops at its first look at the budget.
    let under = crowded(sokoban::MAX_BOXES);
    let stopped = AtomicBool::new(true);
    let outcome = sokoban::solve(&under, Mode::Fast, &generous(), &stopped, &mut |_| {});
    assert!(
        matches!(
            outcome,
            Outcome::Unknown {
                why: Unknown::Cancelled,
                ..
            }
        ),
        "{outcome:?}"
    );
    let few = crowded(8);
    let outcome = sokoban::solve(&few, Mode::Fast, &generous(), &never, &mut |_| {});
    let Outcome::Solved(solution) = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!((solution.pushes, solution.optimal), (8, true));
    assert!(matches!(
        sokoban::replay(&few, &solution.lurd),
        Ok((8, _, true))
    ));
}

/// 300 boxes at the bottom of a 60 × 250 room, their goals at the top: every box some
/// 230 pushes from any goal, a matching bound past 65,535.
fn far_from_home() -> Puzzle {
    let (width, height) = (60, 250);
    let mut rows = vec![vec![' '; width]; height];
    let goals = (0..height).flat_map(|r| (1..width - 1).step_by(2).map(move |c| (r + 1, c)));
    let boxes =
        (0..height).flat_map(|r| (2..width - 1).step_by(2).map(move |c| (height - 2 - r, c)));
    for ((gr, gc), (br, bc)) in goals.zip(boxes).take(300) {
        rows[gr][gc] = '.';
        rows[br][bc] = '$';
    }
    rows[0][0] = '@';
    let wall = "#".repeat(width + 2);
    let mut text = format!("{wall}\n");
    for row in rows {
        text += &format!("#{}#\n", row.into_iter().collect::<String>());
    }
    text += &wall;
    xsb_board::levels(&text).remove(0)
}

/// The optimal search stored bounds in 16 bits: past 65,535 every position looked
/// stale, the search ran out of positions and called a solvable level unsolvable.
#[test]
fn a_bound_past_sixteen_bits_is_no_proof_of_unsolvability() {
    let puzzle = far_from_home();
    assert_eq!(puzzle.boxes.len(), 300);
    let never = AtomicBool::new(false);
    // Far too many pushes to search in a second: unknown, with the bound as found.
    let second = Limits {
        time: Duration::from_secs(1),
        ..generous()
    };
    let outcome = sokoban::solve(&puzzle, Mode::Optimal, &second, &never, &mut |_| {});
    match outcome {
        Outcome::Unknown {
            lower_bound: Some(bound),
            ..
        } => assert!(bound > 65_535, "{bound}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn each_improvement_is_reported_and_the_last_is_the_answer() {
    let p = &microban()[4];
    let never = AtomicBool::new(false);
    let mut improved = Vec::new();
    let outcome = sokoban::solve(p, Mode::Fast, &generous(), &never, &mut |event| {
        if let Event::Improved(s) = event {
            improved.push(s.clone());
        }
    });
    let Outcome::Solved(solution) = outcome else {
        panic!("{outcome:?}")
    };
    assert!(solution.optimal);
    assert_eq!(improved.last(), Some(&solution));
    for s in &improved {
        assert_eq!(replayed(p, &s.lurd), Some((s.pushes, s.moves)));
    }
}

#[test]
fn malformed_puzzles_are_unsolvable_not_a_panic() {
    let mut p = microban()[0].clone();
    p.walls.pop();
    assert_eq!(solve(&p, Mode::Fast), Outcome::Unsolvable);
    let mut p = microban()[0].clone();
    p.boxes.push(p.player);
    assert_eq!(solve(&p, Mode::Optimal), Outcome::Unsolvable);
    let mut p = microban()[0].clone();
    p.player = p.width * p.height;
    assert_eq!(solve(&p, Mode::Optimal), Outcome::Unsolvable);
}

#[test]
fn replay_reports_the_first_illegal_step() {
    let p = xsb_board::board(&["#####", "#@$.#", "#####"]).unwrap();
    assert_eq!(sokoban::replay(&p, "R"), Ok((1, 1, true)));
    assert_eq!(sokoban::replay(&p, "r"), Err(0));
    assert_eq!(sokoban::replay(&p, "RR"), Err(1));
    assert_eq!(sokoban::replay(&p, "Rx"), Err(1));
    assert_eq!(sokoban::replay(&p, ""), Ok((0, 0, false)));
}
