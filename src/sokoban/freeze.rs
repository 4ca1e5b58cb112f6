//! Freeze deadlocks: a set of boxes each blocked on both axes — by a wall, by a box of
//! the set, or by dead squares on both sides — can never move again; if one of them
//! is off its goal the position is lost. The 2×2 square of boxes and walls is the
//! smallest case. Checked for the box just pushed.

use super::board::Board;

/// Box occupancy of the board during one check; `WALL` marks a box assumed immovable
/// while its neighbours are examined.
pub const EMPTY: u8 = 0;
pub const BOX: u8 = 1;
pub const WALL: u8 = 2;

/// Whether the box at `cell` (just pushed there) is part of a frozen set with a box off
/// its goal. `occupancy` is left as it was found.
pub fn frozen_off_goal(board: &Board, occupancy: &mut [u8], cell: usize) -> bool {
    matches!(frozen(board, occupancy, cell), Some(true))
}

/// The boxes of `boxes` (on the board in `occupancy`) frozen on goals, in `out` in the
/// order of `boxes`; `false` when one of them is frozen with a box off its goal (the
/// position is lost).
pub fn frozen_goals(
    board: &Board,
    occupancy: &mut [u8],
    boxes: &[u16],
    out: &mut Vec<u16>,
) -> bool {
    out.clear();
    for &b in boxes {
        let cell = usize::from(b);
        if !board.goal[cell] {
            continue;
        }
        match frozen(board, occupancy, cell) {
            Some(true) => return false,
            Some(false) => out.push(b),
            None => {}
        }
    }
    true
}

/// `None` when the box at `cell` can still move; otherwise whether the frozen set found
/// holds a box off its goal.
pub fn frozen(board: &Board, occupancy: &mut [u8], cell: usize) -> Option<bool> {
    let mut off_goal = !board.goal[cell];
    occupancy[cell] = WALL;
    let mut frozen = true;
    for axis in [0, 2] {
        match blocked(board, occupancy, cell, axis) {
            Some(off) => off_goal |= off,
            None => {
                frozen = false;
                break;
            }
        }
    }
    occupancy[cell] = BOX;
    frozen.then_some(off_goal)
}

/// `None` when the box can move along `axis` (0: vertical, 2: horizontal); otherwise
/// whether the boxes blocking it include one off its goal.
fn blocked(board: &Board, occupancy: &mut [u8], cell: usize, axis: usize) -> Option<bool> {
    let before = board.step(cell, axis);
    let after = board.step(cell, axis + 1);
    let solid = |c: usize, occupancy: &[u8]| !board.floor[c] || occupancy[c] == WALL;
    if solid(before, occupancy) || solid(after, occupancy) {
        return Some(false);
    }
    if !board.live[before] && !board.live[after] {
        return Some(false);
    }
    for side in [before, after] {
        if occupancy[side] == BOX {
            if let Some(off) = frozen(board, occupancy, side) {
                return Some(off);
            }
        }
    }
    None
}
