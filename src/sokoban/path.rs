//! From a list of pushes to the LURD string: before each push the player takes a
//! shortest walk to the side of the box, found with the boxes where they are then.

use super::board::{Board, PUSHES, WALKS};
use super::expand::Expander;
use super::freeze::{BOX, EMPTY};
use super::Solution;

/// The LURD string of `pushes` from the start, and its counts. `optimal` is the
/// caller's claim, passed through.
pub fn solution(
    board: &Board,
    boxes: &[usize],
    player: usize,
    pushes: &[(usize, usize)],
    optimal: bool,
) -> Solution {
    let mut expander = Expander::new(board);
    let occupancy = &mut expander.occupancy;
    for &b in boxes {
        occupancy[b] = BOX;
    }
    let mut lurd = String::new();
    let mut at = player;
    for &(from, dir) in pushes {
        expander.reach.explore(board, &expander.occupancy, at);
        for step in expander.reach.path_to(board, board.step(from, dir ^ 1)) {
            lurd.push(char::from(WALKS[step]));
        }
        lurd.push(char::from(PUSHES[dir]));
        expander.occupancy[from] = EMPTY;
        expander.occupancy[board.step(from, dir)] = BOX;
        at = from;
    }
    Solution {
        pushes: pushes.len() as u32,
        moves: lurd.len() as u32,
        lurd,
        optimal,
    }
}
