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
    // Per cell, one bit per side whose state is known to reach the target.
    let mut seen = vec![0u8; board.len()];
    let mut stack: Vec<u32> = Vec::new();
    let target = board.target;
    for side in 0..4 {
        if board.is_free(board.step(target, side)) {
            reach(&mut seen, &mut stack, target, side);
        }
    }
    let mut popped = 0usize;
    while let Some(s) = stack.pop() {
        popped += 1;
        poll(cancel, popped)?;
        let (cell, side) = (s as usize / 4, s as usize % 4);
        for other in 0..4 {
            if other != side
                && board.is_free(board.step(cell, other))
                && blocks.connected_around(cell, side, other)
            {
                reach(&mut seen, &mut stack, cell, other);
            }
        }
        // Undo a push: the box came from where the player stands, pushed from one further.
        let from = board.step(cell, side);
        if board.is_free(board.step(from, side)) {
            reach(&mut seen, &mut stack, from, side);
        }
    }
    let mut live: Vec<bool> = seen.iter().map(|&sides| sides != 0).collect();
    live[target] = true;
    Ok(live)
}

/// Marks the state (`cell`, `side`) as reaching the target, to be expanded once.
fn reach(seen: &mut [u8], stack: &mut Vec<u32>, cell: usize, side: usize) {
    if seen[cell] & (1 << side) == 0 {
        seen[cell] |= 1 << side;
        stack.push((cell * 4 + side) as u32);
    }
}
