//! The multi-box Sokoban solver: fast (a solution soon, then improved) and optimal
//! (fewest pushes, then fewest moves, claimed only when proved).
//!
//! Pure and synchronous: a puzzle in, an [`Outcome`] out; time and memory limits and a
//! cancellation flag bound the work. One box and one goal go to the `.box` solver.
//! The parts: `board` (fixed context: floor, dead squares, push distances),
//! `matching` (lower bound), `freeze` (deadlocks), `goalroom` (goal macros), `tunnel`
//! (tunnel macros), `reach` (player walks), `expand` (successors), `table` + `zobrist`
//! (transposition table), `greedy` (fast search), `astar` (exact search), `path`
//! (LURD), `replay`.

mod astar;
mod board;
mod budget;
mod corral;
mod expand;
mod freeze;
mod goalroom;
mod greedy;
mod matching;
mod path;
mod reach;
mod replay;
mod single;
mod table;
mod tunnel;
mod zobrist;

pub use replay::replay;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use astar::Exact;
use board::Board;
use budget::Budget;
use greedy::Greedy;

/// A level: walls, goals, boxes and the player on a rectangular grid.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    pub width: usize,
    pub height: usize,
    /// Row-major `width * height`; cells outside the grid count as walls.
    pub walls: Vec<bool>,
    /// Row-major.
    pub goals: Vec<bool>,
    /// Cell indices (`row * width + col`), distinct, not walls.
    pub boxes: Vec<usize>,
    /// Cell index, not a wall, not a box.
    pub player: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    Fast,
    Optimal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub time: Duration,
    pub memory_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: Duration::from_secs(10),
            memory_bytes: 2 << 30,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Solution {
    /// `u d l r` walks, `U D L R` pushes (no run-length).
    pub lurd: String,
    pub pushes: u32,
    /// Walks + pushes.
    pub moves: u32,
    /// True only when proved fewest pushes, then fewest moves.
    pub optimal: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unknown {
    Time,
    Memory,
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Fast mode may return `optimal == false`.
    Solved(Solution),
    /// Proved: no sequence of moves solves the level.
    Unsolvable,
    /// A limit was reached first.
    Unknown {
        why: Unknown,
        /// Every solution has at least this many pushes.
        lower_bound: Option<u32>,
        best: Option<Solution>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub positions: u64,
    pub lower_bound: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    Progress(Progress),
    Improved(&'a Solution),
}

/// The share of the time limit the optimal mode gives the fast search for an
/// incumbent (its upper bound prunes the exact search).
const OPTIMAL_GREEDY_SHARE: u32 = 4;

/// Solves `puzzle`. `cancel` is polled often; `on_event` is called from the solving thread.
///
/// A malformed puzzle (sizes that do not match, a player or box off the floor) has no
/// legal play and is reported unsolvable.
pub fn solve(
    puzzle: &Puzzle,
    mode: Mode,
    limits: &Limits,
    cancel: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Outcome {
    solve_measured(puzzle, mode, limits, cancel, on_event).0
}

/// [`solve`], also returning the peak bytes the searches held (for the bench).
pub fn solve_measured(
    puzzle: &Puzzle,
    mode: Mode,
    limits: &Limits,
    cancel: &AtomicBool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> (Outcome, usize) {
    if !well_formed(puzzle) {
        return (Outcome::Unsolvable, 0);
    }
    if puzzle.boxes.iter().all(|&b| puzzle.goals[b]) {
        let solution = Solution {
            lurd: String::new(),
            pushes: 0,
            moves: 0,
            optimal: true,
        };
        on_event(Event::Improved(&solution));
        return (Outcome::Solved(solution), 0);
    }
    let goals: Vec<usize> = (0..puzzle.goals.len())
        .filter(|&c| puzzle.goals[c])
        .collect();
    if let ([box_cell], [goal]) = (puzzle.boxes.as_slice(), goals.as_slice()) {
        let outcome = single::solve(puzzle, *box_cell, *goal, limits, cancel);
        if let Outcome::Solved(solution) = &outcome {
            on_event(Event::Improved(solution));
        }
        return (outcome, 0);
    }
    if (puzzle.width + 2) * (puzzle.height + 2) > usize::from(u16::MAX) {
        let why = Unknown::Memory;
        return (
            Outcome::Unknown {
                why,
                lower_bound: None,
                best: None,
            },
            0,
        );
    }
    let (board, start) = Board::new(puzzle);
    if start.stuck_box || start.boxes.len() > board.goals.len() {
        return (Outcome::Unsolvable, 0);
    }
    let mut budget = Budget {
        deadline: Instant::now() + limits.time,
        memory_bytes: limits.memory_bytes,
        cancel,
        peak_bytes: 0,
    };
    let outcome = Solve {
        board: &board,
        boxes: &start.boxes,
        player: start.player,
        mode,
        limits,
    }
    .run(&mut budget, on_event);
    (outcome, budget.peak_bytes)
}

fn well_formed(puzzle: &Puzzle) -> bool {
    let cells = puzzle.width * puzzle.height;
    let floor = |cell: usize| cell < cells && !puzzle.walls[cell];
    let mut seen = vec![false; cells];
    puzzle.walls.len() == cells
        && puzzle.goals.len() == cells
        && floor(puzzle.player)
        && puzzle
            .boxes
            .iter()
            .all(|&b| floor(b) && b != puzzle.player && !std::mem::replace(&mut seen[b], true))
}

/// One multi-box solve.
struct Solve<'a> {
    board: &'a Board,
    boxes: &'a [usize],
    player: usize,
    mode: Mode,
    limits: &'a Limits,
}

impl Solve<'_> {
    fn run(&self, budget: &mut Budget<'_>, on_event: &mut dyn FnMut(Event<'_>)) -> Outcome {
        let boxes: Vec<u16> = self.boxes.iter().map(|&b| b as u16).collect();
        let deadline = budget.deadline;
        if self.mode == Mode::Optimal {
            budget.deadline = Instant::now() + self.limits.time / OPTIMAL_GREEDY_SHARE;
        }
        let first = greedy::search(self.board, &boxes, self.player, budget, on_event);
        budget.deadline = deadline;
        let mut best = match first {
            Greedy::Exhausted => return Outcome::Unsolvable,
            Greedy::Found(pushes) => {
                let solution = path::solution(self.board, self.boxes, self.player, &pushes, false);
                on_event(Event::Improved(&solution));
                Some(solution)
            }
            Greedy::Stopped(why) if self.mode == Mode::Fast || why != Unknown::Time => {
                return Outcome::Unknown {
                    why,
                    lower_bound: self.initial_bound(&boxes),
                    best: None,
                };
            }
            Greedy::Stopped(_) => None,
        };
        let incumbent = best.as_ref().map(|s| (s.pushes, s.moves));
        match astar::search(self.board, &boxes, self.player, incumbent, budget, on_event) {
            Exact::Found(pushes) => {
                let solution = path::solution(self.board, self.boxes, self.player, &pushes, true);
                on_event(Event::Improved(&solution));
                Outcome::Solved(solution)
            }
            Exact::Exhausted => match best.take() {
                Some(mut solution) => {
                    solution.optimal = true;
                    on_event(Event::Improved(&solution));
                    Outcome::Solved(solution)
                }
                None => Outcome::Unsolvable,
            },
            Exact::Stopped(why, lower) => match (self.mode, best) {
                (Mode::Fast, Some(solution)) if why != Unknown::Cancelled => {
                    Outcome::Solved(solution)
                }
                (_, best) => Outcome::Unknown {
                    why,
                    lower_bound: Some(lower),
                    best,
                },
            },
        }
    }

    fn initial_bound(&self, boxes: &[u16]) -> Option<u32> {
        expand::Expander::new(self.board).bound(self.board, boxes)
    }
}
