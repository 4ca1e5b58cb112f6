//! `boxls judge` against answers from deliberately buggy solvers: each classic mistake
//! of SPEC §1 (visited on discovery, one visit per box cell, fewest moves first, the
//! first path of a nested BFS) is written out here and run on generated mazes; the
//! judge must reject exactly the mazes where its answer is not optimal (checked
//! against the reference solver) and accept the real solver's answers and other
//! optimal answers that differ from them.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use boxls::judge::judge;
use boxls::maze::Grid;
use boxls::solver::{replay, solve_path};

use super::generate::{self, Rng};
use super::reference;

/// Walk letters in the order the solvers try them.
const DIRECTIONS: [(char, (isize, isize)); 4] =
    [('n', (-1, 0)), ('s', (1, 0)), ('w', (0, -1)), ('e', (0, 1))];

fn step(grid: &Grid, cell: usize, (dr, dc): (isize, isize)) -> Option<usize> {
    let (row, col) = grid.coords(cell);
    let row = row.checked_add_signed(dr).filter(|&r| r < grid.rows)?;
    let col = col.checked_add_signed(dc).filter(|&c| c < grid.cols)?;
    let next = row * grid.cols + col;
    (!grid.walls[next]).then_some(next)
}

fn push_letter(walk: char) -> char {
    walk.to_ascii_uppercase()
}

// ---------------------------------------------------------------------------------
// Searches over (player, box) states.

#[derive(Clone, Copy, PartialEq)]
enum Order {
    PushesFirst,
    /// The mistake: total moves first.
    MovesFirst,
}

/// Dijkstra over (player, box) with a move-string answer. `settle_on_discovery` is the
/// mistake of marking a state done when it enters the queue; `directions` the order
/// moves are tried (a correct search in another order finds other optimal strings).
fn dijkstra(
    grid: &Grid,
    order: Order,
    settle_on_discovery: bool,
    directions: &[(char, (isize, isize))],
) -> Option<String> {
    let cells = grid.cell_count();
    let index = |player: usize, boxed: usize| player * cells + boxed;
    let rank = |(pushes, moves): (u64, u64)| match order {
        Order::PushesFirst => (pushes, moves),
        Order::MovesFirst => (moves, pushes),
    };
    let mut best = vec![None::<(u64, u64)>; cells * cells];
    let mut done = vec![false; cells * cells];
    let mut parent = vec![None::<(usize, char)>; cells * cells];
    let start = index(grid.player, grid.boxed);
    best[start] = Some((0, 0));
    done[start] = settle_on_discovery;
    let mut heap = BinaryHeap::from([Reverse(((0, 0), 0u64, grid.player, grid.boxed))]);
    let mut sequence = 0;
    while let Some(Reverse((key, _, player, boxed))) = heap.pop() {
        let here = index(player, boxed);
        if !settle_on_discovery {
            if done[here] {
                continue;
            }
            done[here] = true;
        }
        if boxed == grid.target {
            return Some(path_to(&parent, here));
        }
        let (pushes, moves) = match order {
            Order::PushesFirst => key,
            Order::MovesFirst => (key.1, key.0),
        };
        for &(letter, dir) in directions {
            let Some(next) = step(grid, player, dir) else {
                continue;
            };
            let (next_box, letter, cost) = if next == boxed {
                let Some(beyond) = step(grid, boxed, dir) else {
                    continue;
                };
                (beyond, push_letter(letter), (pushes + 1, moves + 1))
            } else {
                (boxed, letter, (pushes, moves + 1))
            };
            let there = index(next, next_box);
            let better = best[there].is_none_or(|old| rank(cost) < rank(old));
            if done[there] || !better {
                continue;
            }
            best[there] = Some(cost);
            parent[there] = Some((here, letter));
            done[there] = settle_on_discovery;
            sequence += 1;
            heap.push(Reverse((rank(cost), sequence, next, next_box)));
        }
    }
    None
}

fn path_to(parent: &[Option<(usize, char)>], mut state: usize) -> String {
    let mut letters = Vec::new();
    while let Some((previous, letter)) = parent[state] {
        letters.push(letter);
        state = previous;
    }
    letters.iter().rev().collect()
}

// ---------------------------------------------------------------------------------
// Nested searches: pushes outside, player walks inside.

/// The first walk a breadth-first search finds from `from` to `to` around the box.
fn walk(grid: &Grid, from: usize, to: usize, boxed: usize) -> Option<String> {
    let mut parent = vec![None::<(usize, char)>; grid.cell_count()];
    let mut seen = vec![false; grid.cell_count()];
    seen[from] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(cell) = queue.pop_front() {
        if cell == to {
            let mut letters = Vec::new();
            let mut at = cell;
            while let Some((previous, letter)) = parent[at] {
                letters.push(letter);
                at = previous;
            }
            return Some(letters.iter().rev().collect());
        }
        for &(letter, dir) in &DIRECTIONS {
            if let Some(next) = step(grid, cell, dir).filter(|&n| n != boxed && !seen[n]) {
                seen[next] = true;
                parent[next] = Some((cell, letter));
                queue.push_back(next);
            }
        }
    }
    None
}

/// A breadth-first search over pushes that keeps the first path reaching each state;
/// `per_side` says whether a state is (box cell, player side) or, the mistake, the box
/// cell alone.
fn nested_bfs(grid: &Grid, per_side: bool) -> Option<String> {
    let key = |boxed: usize, side: usize| if per_side { boxed * 4 + side } else { boxed };
    let mut seen = vec![false; grid.cell_count() * 4];
    seen[key(grid.boxed, 0)] = !per_side;
    let mut queue = VecDeque::from([(grid.boxed, grid.player, String::new())]);
    while let Some((boxed, player, path)) = queue.pop_front() {
        for (side, &(letter, dir)) in DIRECTIONS.iter().enumerate() {
            let opposite = (-dir.0, -dir.1);
            let (Some(stand), Some(beyond)) = (step(grid, boxed, opposite), step(grid, boxed, dir))
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
            let next = format!("{path}{walked}{}", push_letter(letter));
            if beyond == grid.target {
                return Some(next);
            }
            queue.push_back((beyond, boxed, next));
        }
    }
    None
}

// ---------------------------------------------------------------------------------
// The tests.

pub type Solver = fn(&Grid) -> Option<String>;

pub const BUGGY: [(&str, Solver); 4] = [
    ("visited on discovery", |g| {
        dijkstra(g, Order::PushesFirst, true, &DIRECTIONS)
    }),
    ("one visit per box cell", |g| nested_bfs(g, false)),
    ("fewest moves first", |g| {
        dijkstra(g, Order::MovesFirst, false, &DIRECTIONS)
    }),
    ("first path of a nested BFS", |g| nested_bfs(g, true)),
];

fn mazes() -> Vec<Grid> {
    let mut rng = Rng::new(0x1475_0042);
    (0..400)
        .map(|_| {
            let size = generate::size(&mut rng, 9);
            generate::mixed(&mut rng, size)
        })
        .collect()
}

pub fn output(grids: &[Grid], solver: Solver) -> String {
    let mut out = String::new();
    for (k, grid) in (1..).zip(grids) {
        let answer = solver(grid).unwrap_or_else(|| "Impossible.".to_string());
        out.push_str(&format!("Maze #{k}\n{answer}\n\n"));
    }
    out
}

/// Whether `answer` is an optimal one for `grid`, by the reference solver.
pub fn is_optimal(grid: &Grid, answer: Option<&str>) -> bool {
    let best = reference::solve(grid);
    match answer {
        None => best.is_none(),
        Some(moves) => replay(grid, moves).is_ok_and(|replayed| {
            replayed.solved && Some((replayed.pushes, replayed.moves)) == best
        }),
    }
}

/// The mazes the judge rejected.
fn rejected(input: &str, output: &str) -> Vec<usize> {
    let verdict = judge(input, output).expect("generated input is valid");
    assert!(
        verdict.rejections.iter().all(|r| r.maze.is_some()),
        "a well-formed output is judged per maze: {:?}",
        verdict.rejections
    );
    verdict.rejections.iter().filter_map(|r| r.maze).collect()
}

#[test]
fn the_judge_rejects_exactly_the_buggy_solvers_wrong_answers() {
    let grids = mazes();
    let input = generate::render_file(&grids);
    for (name, solver) in BUGGY {
        let wrong: Vec<usize> = (1..)
            .zip(&grids)
            .filter(|(_, grid)| !is_optimal(grid, solver(grid).as_deref()))
            .map(|(k, _)| k)
            .collect();
        assert!(!wrong.is_empty(), "{name}: no wrong answer on these mazes");
        assert_eq!(rejected(&input, &output(&grids, solver)), wrong, "{name}");
    }
}

#[test]
fn the_judge_accepts_the_real_solver_and_other_optimal_answers() {
    let grids = mazes();
    let input = generate::render_file(&grids);
    let real: Solver = |grid| solve_path(grid).map(|solution| solution.path);
    assert_eq!(rejected(&input, &output(&grids, real)), Vec::<usize>::new());
    // A correct search trying the moves in another order (one of the 24 per maze).
    let orders = direction_orders();
    let mut output = String::new();
    let mut differing = 0;
    for (k, grid) in (1..).zip(&grids) {
        let answer = dijkstra(grid, Order::PushesFirst, false, &orders[k % orders.len()]);
        differing += usize::from(answer != real(grid));
        let answer = answer.unwrap_or_else(|| "Impossible.".to_string());
        output.push_str(&format!("Maze #{k}\n{answer}\n\n"));
    }
    assert_eq!(rejected(&input, &output), Vec::<usize>::new());
    assert!(
        differing > 20,
        "only {differing} answers differ from boxls's"
    );
}

/// Every order of the four directions.
fn direction_orders() -> Vec<[(char, (isize, isize)); 4]> {
    let mut orders = Vec::new();
    for a in DIRECTIONS {
        for b in DIRECTIONS.into_iter().filter(|&b| b != a) {
            for c in DIRECTIONS.into_iter().filter(|&c| c != a && c != b) {
                let Some(d) = DIRECTIONS.into_iter().find(|&d| ![a, b, c].contains(&d)) else {
                    continue;
                };
                orders.push([a, b, c, d]);
            }
        }
    }
    orders
}
