//! Dead squares: cells from which no sequence of pushes can bring the box to the target,
//! wherever the player stands.
//!
//! A backward search over (box cell, player side) states from the target, exact because
//! the player's moves around the box are answered by the biconnected blocks.

use std::sync::atomic::AtomicBool;

use super::blocks::Blocks;
use super::board::{sides_in, sides_where, Board};
use super::{poll, Cancelled};

/// `live[cell]` for every board cell: some state with the box there reaches the target.
pub fn live_cells(
    board: &Board,
    blocks: &Blocks,
    cancel: &AtomicBool,
) -> Result<Vec<bool>, Cancelled> {
    // Per cell, one bit per side whose state is known to reach the target.
    let mut seen = vec![0u8; board.len()];
    // Cells with sides newly known to be live, as `cell << 4 | sides`.
    let mut stack: Vec<u64> = Vec::new();
    let target = board.target;
    let target_sides = sides_where(|side| board.is_free(board.step(target, side)));
    seen[target] = target_sides;
    stack.push((target as u64) << 4 | u64::from(target_sides));
    let mut popped = 0usize;
    while let Some(top) = stack.pop() {
        popped += 1;
        poll(cancel, popped)?;
        let (cell, sides) = ((top >> 4) as usize, (top & 15) as u8);
        for side in sides_in(sides) {
            // Undo a push: the box came from where the player stands, pushed from one
            // further.
            let from = board.step(cell, side);
            if board.is_free(board.step(from, side)) {
                reach(board, blocks, &mut seen, &mut stack, from, side);
            }
        }
    }
    let mut live: Vec<bool> = seen.iter().map(|&sides| sides != 0).collect();
    live[target] = true;
    Ok(live)
}

/// Marks the state (`cell`, `side`) live, and with it every side the player can walk to
/// from there (one lookup in the blocks), to be expanded once.
fn reach(
    board: &Board,
    blocks: &Blocks,
    seen: &mut [u8],
    stack: &mut Vec<u64>,
    cell: usize,
    side: usize,
) {
    if seen[cell] & (1 << side) != 0 {
        return;
    }
    let around = sides_where(|other| {
        board.is_free(board.step(cell, other)) && blocks.connected_around(cell, side, other)
    });
    let new = around & !seen[cell];
    seen[cell] |= new;
    stack.push((cell as u64) << 4 | u64::from(new));
}
