//! Tunnel macros for the fast search: a box pushed into a one-wide tunnel is pushed on
//! through it in one step.
//!
//! A tunnel cell along a direction has no floor on either side across it. A box in
//! one cannot move sideways; left half-way it blocks the tunnel, and pushing it on
//! later costs the same pushes, so the positions in between rarely serve. The macro
//! stops where the box leaves the tunnel, on a goal, or before a push that is blocked,
//! onto a dead square, into a freeze deadlock or onto a goal room's goal out of its
//! order (the push cut would drop it; a tunnel that ends in a room's door leaves the
//! box at the entrance, for the room's goal macro). Requiring the player to stand in the
//! tunnel too (the classic rule) made it fire too rarely to change any search. It
//! drops the positions in between, so like PI corrals it is a plan, not a proof: the
//! search that uses it treats running out of positions as inconclusive.

use super::board::Board;
use super::freeze::{frozen_off_goal, BOX, EMPTY};
use super::goalroom::Macro;

pub struct Tunnels {
    /// Scratch: box occupancy of the position being extended.
    occupancy: Vec<u8>,
}

impl Tunnels {
    pub fn new(board: &Board) -> Tunnels {
        Tunnels {
            occupancy: vec![EMPTY; board.len()],
        }
    }

    /// The tunnel macro that continues the push `(from, dir)` whose result is `boxes`
    /// (sorted), when the push took the box into a tunnel (off a goal) and at least one
    /// more push is possible; `None` otherwise (the push stands alone). `barred`: cells
    /// the box must not be pushed onto (a goal room's goals out of its order), where
    /// the macro stops before.
    pub fn extend(
        &mut self,
        board: &Board,
        boxes: &[u16],
        (from, dir): (usize, usize),
        barred: impl Fn(usize) -> bool,
    ) -> Option<Macro> {
        let to = board.step(from, dir);
        if board.goal[to] || !in_tunnel(board, to, dir) {
            return None;
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = BOX;
        }
        let mut pushes = vec![(from, dir)];
        let mut cell = to;
        while !board.goal[cell] && in_tunnel(board, cell, dir) {
            let next = board.step(cell, dir);
            if !board.floor[next]
                || self.occupancy[next] != EMPTY
                || !board.live[next]
                || barred(next)
            {
                break;
            }
            self.occupancy[cell] = EMPTY;
            self.occupancy[next] = BOX;
            if frozen_off_goal(board, &mut self.occupancy, next) {
                self.occupancy[next] = EMPTY;
                self.occupancy[cell] = BOX;
                break;
            }
            pushes.push((cell, dir));
            cell = next;
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = EMPTY;
        }
        self.occupancy[cell] = EMPTY;
        if pushes.len() < 2 {
            return None;
        }
        let mut after: Vec<u16> = boxes
            .iter()
            .map(|&b| if usize::from(b) == to { cell as u16 } else { b })
            .collect();
        after.sort_unstable();
        Some(Macro {
            player: board.step(cell, dir ^ 1),
            pushes,
            boxes: after,
        })
    }
}

/// Whether `cell` has no floor on either side across direction `dir`.
fn in_tunnel(board: &Board, cell: usize, dir: usize) -> bool {
    // Directions come in pairs (u d, l r): `dir ^ 2` and `dir ^ 3` are the other axis.
    !board.floor[board.step(cell, dir ^ 2)] && !board.floor[board.step(cell, dir ^ 3)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::testing::puzzle;

    /// The tunnel macro of pushing the first box right, if any: the pushes' box cells
    /// and where the box ends.
    fn push_right(rows: &[&str]) -> Option<(Vec<usize>, Vec<u16>)> {
        let (board, start) = Board::new(&puzzle(rows));
        let from = start.boxes[0];
        let mut boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        boxes[0] = board.step(from, 3) as u16;
        boxes.sort_unstable();
        let m = Tunnels::new(&board).extend(&board, &boxes, (from, 3), |_| false)?;
        assert_eq!(m.player, board.step(usize::from(m.boxes[0]), 2));
        let cells = m.pushes.iter().map(|&(cell, _)| cell - from).collect();
        Some((cells, m.boxes.iter().map(|&b| b - from as u16).collect()))
    }

    #[test]
    fn a_box_pushed_into_a_tunnel_goes_through_to_its_goal() {
        let rows = ["########", "#@$   .#", "########"];
        assert_eq!(push_right(&rows), Some((vec![0, 1, 2, 3], vec![4])));
    }

    #[test]
    fn the_macro_stops_where_the_tunnel_opens_or_a_box_blocks() {
        let open = ["#########", "#@$    .#", "#####   #", "#########"];
        assert_eq!(push_right(&open), Some((vec![0, 1, 2], vec![3])));
        // Next to the other box the two would freeze in the tunnel, off their goals.
        let blocked = ["##########", "#@$   $..#", "##########"];
        assert_eq!(push_right(&blocked), Some((vec![0, 1], vec![2, 4])));
    }

    #[test]
    fn a_push_that_leaves_the_box_beside_floor_stands_alone() {
        let rows = ["#######", "#@$   #", "#    .#", "#######"];
        assert_eq!(push_right(&rows), None);
    }
}
