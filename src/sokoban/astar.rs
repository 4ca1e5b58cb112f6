//! The exact search: A* over (pushes, moves) in lexicographic order, on positions
//! (boxes, the player's exact cell). After a push the player stands where the pushed
//! box was, so the walk to the next push — and with it the moves — is fixed by the
//! position; normalising the player to its region would lose the moves tie-break.
//!
//! The estimate (matching bound, 0 moves) is consistent: one push changes one box's push
//! distance to any goal by at most one. So a position's cost is final when it is popped,
//! and the first solved position popped is optimal. Positions whose estimate is not
//! below the incumbent's (pushes, moves) are dropped: running out of positions then
//! proves the incumbent optimal, or, with none, the level unsolvable.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::board::Board;
use super::budget::Budget;
use super::expand::Expander;
use super::table::{Table, NONE};
use super::zobrist::Zobrist;
use super::{Event, Progress, Unknown};

pub enum Exact {
    /// The pushes of an optimal solution cheaper than the incumbent.
    Found(Vec<(usize, usize)>),
    /// Nothing cheaper than the incumbent exists.
    Exhausted,
    /// Stopped; every solution costs at least this many pushes.
    Stopped(Unknown, u32),
}

pub fn search(
    board: &Board,
    boxes: &[u16],
    player: usize,
    incumbent: Option<(u32, u32)>,
    budget: &mut Budget<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Exact {
    let zobrist = Zobrist::new(board.len());
    let mut expander = Expander::new(board);
    let mut table = Table::new(boxes.len());
    if let Some(why) = budget.exceeded(table.bytes()) {
        return Exact::Stopped(why, 0);
    }
    let Some(bound) = expander.bound(board, boxes) else {
        return Exact::Exhausted;
    };
    let upper = incumbent.unwrap_or((u32::MAX, u32::MAX));
    if (bound, 0) >= upper {
        return Exact::Exhausted;
    }
    let hash = zobrist.boxes(boxes) ^ zobrist.player_at(player);
    let root = table.insert(
        hash,
        boxes,
        player as u16,
        NONE,
        (0, 0),
        (0, 0),
        bound as u16,
    );
    let mut open = BinaryHeap::new();
    open.push(Reverse((bound, 0u32, bound, root)));
    let mut expanded: u64 = 0;
    let mut lower = bound;
    let mut position = Vec::new();
    while let Some(Reverse((f_pushes, f_moves, _, node))) = open.pop() {
        let i = node as usize;
        let (pushes, moves) = (table.pushes[i], table.moves[i]);
        let estimate = u32::from(table.bound[i]);
        if (pushes + estimate, moves) != (f_pushes, f_moves) {
            continue; // a cheaper way here was found after this entry was queued
        }
        lower = lower.max(f_pushes);
        if estimate == 0 {
            return Exact::Found(table.pushes_to(node));
        }
        expanded += 1;
        let progress = Progress {
            positions: table.len() as u64,
            lower_bound: lower,
        };
        let bytes = || table.bytes() + open.capacity() * 16;
        if let Some(why) = budget.tick(expanded, bytes, progress, on_event) {
            return Exact::Stopped(why, lower);
        }
        position.clear();
        position.extend_from_slice(table.boxes(node));
        expander.expand(board, &position, usize::from(table.player[i]), false, false);
        let base = zobrist.boxes(&position);
        for child in &expander.children {
            let cost = (pushes + 1, moves + child.walk + 1);
            let f = (cost.0 + child.bound, cost.1);
            if f >= upper {
                continue;
            }
            let child_boxes = &expander.child_boxes[child.boxes..child.boxes + boxes.len()];
            let hash = zobrist.after_push(board, base, child.push, child.player);
            let id = match table.find(hash, child_boxes, child.player) {
                Some(id) => {
                    let j = id as usize;
                    if (table.pushes[j], table.moves[j]) <= cost {
                        continue;
                    }
                    table.pushes[j] = cost.0;
                    table.moves[j] = cost.1;
                    table.parent[j] = node;
                    table.push[j] = child.push;
                    id
                }
                None => table.insert(
                    hash,
                    child_boxes,
                    child.player,
                    node,
                    child.push,
                    cost,
                    child.bound as u16,
                ),
            };
            open.push(Reverse((f.0, f.1, child.bound, id)));
        }
    }
    Exact::Exhausted
}
