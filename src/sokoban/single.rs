//! One box and one goal: the `.box` solver's job. The puzzle becomes a `.box` grid and
//! the answer comes back as LURD; a timer thread turns the time limit into that
//! solver's cancellation flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{Limits, Outcome, Puzzle, Solution, Unknown};
use crate::maze::Grid;
use crate::solver;

pub fn solve(
    puzzle: &Puzzle,
    box_cell: usize,
    goal: usize,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Outcome {
    let grid = Grid {
        rows: puzzle.height,
        cols: puzzle.width,
        walls: puzzle.walls.clone(),
        player: puzzle.player,
        boxed: box_cell,
        target: goal,
    };
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let deadline = Instant::now() + limits.time;
    let mut timed_out = false;
    let answer = std::thread::scope(|scope| {
        let watch = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if cancel.load(Ordering::Relaxed) || Instant::now() >= deadline {
                    stop.store(true, Ordering::Relaxed);
                    return Instant::now() >= deadline;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            false
        });
        let answer = solver::solve_cancellable(&grid, &stop);
        done.store(true, Ordering::Relaxed);
        timed_out = watch.join().unwrap_or(false);
        answer
    });
    match answer {
        Ok(solver::Outcome::Solved(found)) => Outcome::Solved(Solution {
            lurd: found.path.chars().map(lurd_letter).collect(),
            pushes: found.pushes as u32,
            moves: found.moves as u32,
            optimal: true,
        }),
        Ok(solver::Outcome::Unsolvable(_)) => Outcome::Unsolvable,
        Err(solver::Cancelled) => Outcome::Unknown {
            why: if timed_out {
                Unknown::Time
            } else {
                Unknown::Cancelled
            },
            lower_bound: None,
            best: None,
        },
    }
}

fn lurd_letter(letter: char) -> char {
    match letter {
        'n' => 'u',
        's' => 'd',
        'w' => 'l',
        'e' => 'r',
        'N' => 'U',
        'S' => 'D',
        'W' => 'L',
        'E' => 'R',
        other => other,
    }
}
