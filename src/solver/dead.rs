//! Dead squares: cells from which no sequence of pushes can bring the box to the target,
//! wherever the player stands.
//!
//! A backward search over (box cell, player side) states from the target, exact because
//! the player's moves around the box are answered by the biconnected blocks.

use std::sync::atomic::AtomicBool;

use super::blocks::Blocks;
use super::board::Board;
use super::{poll, Cancelled};

/// `live[cell]` for every board cell: some state with the box there reaches the target.
pub fn live_cells(
    board: &Board,
    blocks: &Blocks,
    cancel: &AtomicBool,
) -> Result<Vec<bool>, Cancelled> {
    let mut seen = vec![false; board.len() * 4];
    let mut live = vec![false; board.len()];
    let mut queue: Vec<usize> = Vec::new();
    let target = board.target;
    live[target] = true;
    for side in 0..4 {
        if board.is_free(board.step(target, side)) {
            seen[target * 4 + side] = true;
            queue.push(target * 4 + side);
        }
    }
    let mut popped = 0usize;
    while let Some(s) = queue.pop() {
        popped += 1;
        poll(cancel, popped)?;
        let (cell, side) = (s / 4, s % 4);
        live[cell] = true;
        let mut reach = |s: usize| {
            if !seen[s] {
                seen[s] = true;
                queue.push(s);
            }
        };
        for other in 0..4 {
            if other != side
                && board.is_free(board.step(cell, other))
                && blocks.connected_around(cell, side, other)
            {
                reach(cell * 4 + other);
            }
        }
        // Undo a push: the box came from where the player stands, pushed from one further.
        let from = board.step(cell, side);
        if board.is_free(board.step(from, side)) {
            reach(from * 4 + side);
        }
    }
    Ok(live)
}
