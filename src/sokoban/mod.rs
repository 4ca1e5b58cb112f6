//! The multi-box Sokoban solver: fast (a solution soon, then improved) and optimal
//! (fewest pushes, then fewest moves, claimed only when proved).
//!
//! Pure and synchronous: a puzzle in, an [`Outcome`] out; time and memory limits and a
//! cancellation flag bound the work. One box and one goal go to the `.box` solver.
//! The parts: `board` (fixed context: floor, dead squares, push distances),
//! `matching` (lower bound), `freeze` (deadlocks), `walled` (push distances with the
//! boxes frozen on goals as walls), `goalroom` (goal macros), `tunnel`
//! (tunnel macros), `reach` (player walks), `expand` (successors), `areas` (their
//! busy areas from the parent's), `table` + `zobrist` (transposition table), `greedy`
//! (fast search), `backward` (its pulls from the solved position, met halfway),
//! `astar` (exact search), `path` (LURD), `replay`.

mod areas;
mod astar;
mod backward;
mod board;
mod budget;
mod corral;
mod expand;
mod freeze;
mod goalroom;
mod greedy;
mod grow;
mod matching;
mod packing;
mod path;
mod reach;
mod replay;
mod single;
mod table;
mod tunnel;
mod walled;
mod zobrist;

/// The level's deadlock check matches boxes to goals as the corral test does.
pub(crate) use matching::Kuhn;
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

/// The share of the time limit the optimal mode keeps for the fast search, run only
/// when the exact search runs out of time, for a solution to show (not proved). The
/// exact search runs first and without an incumbent: the fast search's solution pruned
/// almost no position (session 36) and its time was lost on the levels it cannot solve.
const OPTIMAL_FALLBACK_SHARE: u32 = 10;

/// The most boxes the multi-box search takes on. Its matching bound starts with a
/// Hungarian matching, cubic in the boxes, for the forward and the backward search,
/// before the budget is first looked at: at 3,000 boxes that overshot a 2 s limit by
/// 41 s (1,000 boxes: 3 s; 500: well under one). Larger levels are unknown at once, as
/// a level larger than the search's cell numbers is.
pub const MAX_BOXES: usize = 500;

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
    // The clock starts before the board's distances, which grow with its floor.
    let deadline = Instant::now() + limits.time;
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
    let too_large = (puzzle.width + 2) * (puzzle.height + 2) > usize::from(u16::MAX);
    if too_large || puzzle.boxes.len() > MAX_BOXES {
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
    let mut budget = Budget::new(deadline, limits.memory_bytes, cancel);
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
        match self.mode {
            Mode::Fast => self.fast(&boxes, budget, on_event),
            Mode::Optimal => self.optimal(&boxes, budget, on_event),
        }
    }

    /// The fast search for a first solution, then the exact search with it as the
    /// incumbent on the time left (the answer is optimal only if that one finishes).
    fn fast(
        &self,
        boxes: &[u16],
        budget: &mut Budget<'_>,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Outcome {
        let solution = match greedy::search(self.board, boxes, self.player, budget, on_event) {
            Greedy::Exhausted => return Outcome::Unsolvable,
            Greedy::Found(pushes) => self.report(&pushes, false, on_event),
            Greedy::Stopped(why) => {
                return Outcome::Unknown {
                    why,
                    lower_bound: self.initial_bound(boxes),
                    best: None,
                };
            }
        };
        let incumbent = Some((solution.pushes, solution.moves));
        match astar::search(self.board, boxes, self.player, incumbent, budget, on_event) {
            Exact::Found(pushes) => Outcome::Solved(self.report(&pushes, true, on_event)),
            Exact::Exhausted => {
                let solution = Solution {
                    optimal: true,
                    ..solution
                };
                on_event(Event::Improved(&solution));
                Outcome::Solved(solution)
            }
            Exact::Stopped(Unknown::Cancelled, lower) => Outcome::Unknown {
                why: Unknown::Cancelled,
                lower_bound: Some(lower),
                best: Some(solution),
            },
            Exact::Stopped(..) => Outcome::Solved(solution),
        }
    }

    /// The exact search first, on all but a [`OPTIMAL_FALLBACK_SHARE`] of the limit;
    /// when it runs out of time, the fast search on the rest for a solution to show.
    fn optimal(
        &self,
        boxes: &[u16],
        budget: &mut Budget<'_>,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Outcome {
        let deadline = budget.deadline;
        let fallback = self.limits.time / OPTIMAL_FALLBACK_SHARE;
        budget.deadline = deadline.checked_sub(fallback).unwrap_or(deadline);
        let exact = astar::search(self.board, boxes, self.player, None, budget, on_event);
        budget.deadline = deadline;
        let (why, lower) = match exact {
            Exact::Found(pushes) => return Outcome::Solved(self.report(&pushes, true, on_event)),
            Exact::Exhausted => return Outcome::Unsolvable,
            Exact::Stopped(why, lower) => (why, lower),
        };
        let best = match why {
            Unknown::Time => {
                match greedy::search(self.board, boxes, self.player, budget, on_event) {
                    Greedy::Found(pushes) => Some(self.report(&pushes, false, on_event)),
                    Greedy::Exhausted => return Outcome::Unsolvable,
                    Greedy::Stopped(_) => None,
                }
            }
            Unknown::Memory | Unknown::Cancelled => None,
        };
        Outcome::Unknown {
            why,
            lower_bound: Some(lower),
            best,
        }
    }

    /// The solution of `pushes`, reported as an improvement.
    fn report(
        &self,
        pushes: &[(usize, usize)],
        optimal: bool,
        on_event: &mut dyn FnMut(Event<'_>),
    ) -> Solution {
        let solution = path::solution(self.board, self.boxes, self.player, pushes, optimal);
        on_event(Event::Improved(&solution));
        solution
    }

    fn initial_bound(&self, boxes: &[u16]) -> Option<u32> {
        expand::Expander::new(self.board).bound(self.board, boxes)
    }
}
