//! The exact search: A* over (pushes, moves) in lexicographic order, on positions
//! (boxes, the player's exact cell). After a push the player stands where the pushed
//! box was, so the walk to the next push — and with it the moves — is fixed by the
//! position; normalising the player to its region would lose the moves tie-break.
//!
//! The estimate is the matching bound `h` in pushes and the same `h` in moves (each push
//! left is a move). It is consistent in the lexicographic order: one push changes one
//! box's push distance to any goal by at most one, so a child's pushes estimate falls by
//! at most the push it cost, and when it falls by exactly one the child's moves estimate
//! falls by one against the walk and push's `walk + 1 ≥ 1` moves. So a position's cost
//! is final when it is popped, and the first solved position popped is optimal. Among
//! positions of equal estimated pushes, the moves estimate orders them by their walks
//! so far (a 0 moves estimate ordered them by moves, so the shallowest first).
//! Positions whose estimate is not below the incumbent's (pushes, moves) are dropped:
//! running out of positions then proves the incumbent optimal, or, with none, the level
//! unsolvable.
//!
//! A position reached with more pushes than another of the same boxes and player
//! region is dropped (when queued, and when popped if a cheaper one came later): from
//! the cheaper one the player walks to its cell for no push, so whatever follows it
//! costs fewer pushes there. Every prefix of an optimal solution reaches its position
//! with the fewest pushes (a cheaper prefix plus the same rest would beat it), so no
//! optimal solution is lost, and the proofs stand.
//!
//! A popped position whose corral next to the box just pushed is lost (`corral`: an
//! exhausted sub-search, compared in full, so a proof) has no solution below it and is
//! not expanded; optimality and the proofs stand.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::board::Board;
use super::budget::Budget;
use super::corral::Corrals;
use super::expand::{Detail, Expander};
use super::grow::{self, Column};
use super::table::{Table, NONE};
use super::zobrist::Zobrist;
use super::{Event, Progress, Unknown};

/// Positions a corral sub-search may expand here: on Microban's hard levels no corral
/// proved lost needed more, and those that run to the cap cost less (400 in the fast
/// search).
const CORRAL_POSITIONS: usize = 100;

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
    let mut corrals = Corrals::with_cap(board, CORRAL_POSITIONS);
    let mut table = Table::new(boxes.len());
    let mut fewest = Fewest::new(boxes.len());
    if let Some(why) = budget.starting(table.bytes()) {
        return Exact::Stopped(why, 0);
    }
    let Some(bound) = expander.bound(board, boxes) else {
        return Exact::Exhausted;
    };
    let upper = incumbent.unwrap_or((u32::MAX, u32::MAX));
    if (bound, bound) >= upper {
        return Exact::Exhausted;
    }
    let hash = zobrist.boxes(boxes) ^ zobrist.player_at(player);
    let region = expander.region(board, boxes, player);
    let root_region = zobrist.boxes(boxes) ^ zobrist.player_at(region);
    // The first position recorded: never dominated.
    let Some(region) = fewest.reached(root_region, boxes, region as u16, 0) else {
        return Exact::Exhausted;
    };
    fewest.of_node.push(region);
    let root = table.insert(hash, boxes, player as u16, NONE, (0, 0), (0, 0), bound);
    let mut open = BinaryHeap::new();
    open.push(Reverse((bound, bound, bound, root)));
    let mut expanded: u64 = 0;
    let mut lower = bound;
    let mut position = Vec::new();
    while let Some(Reverse((f_pushes, f_moves, _, node))) = open.pop() {
        let i = node as usize;
        let (pushes, moves) = (table.pushes[i], table.moves[i]);
        let estimate = table.bound[i];
        if (pushes + estimate, moves + estimate) != (f_pushes, f_moves) {
            continue; // a cheaper way here was found after this entry was queued
        }
        if fewest.dominated(node, pushes) {
            continue;
        }
        lower = lower.max(f_pushes);
        if estimate == 0 {
            report_final(&table, lower, on_event);
            return Exact::Found(table.pushes_to(node));
        }
        expanded += 1;
        let progress = Progress {
            positions: table.len() as u64,
            lower_bound: lower,
        };
        let bytes = || table.bytes() + open.capacity() * 16 + corrals.bytes() + fewest.bytes();
        if let Some(why) = budget.tick(expanded, bytes, progress, on_event) {
            return Exact::Stopped(why, lower);
        }
        position.clear();
        position.extend_from_slice(table.boxes(node));
        let player = usize::from(table.player[i]);
        if table.parent[i] != NONE {
            let (from, dir) = table.push[i];
            let pushed = board.step(usize::from(from), usize::from(dir));
            if corrals.lost(board, &position, player, pushed) {
                continue;
            }
        }
        expander.expand(board, &position, player, Detail::Region, false);
        let base = zobrist.boxes(&position);
        for child in &expander.children {
            let cost = (pushes + 1, moves + child.walk + 1);
            let f = (cost.0 + child.bound, cost.1 + child.bound);
            if f >= upper {
                continue;
            }
            let child_boxes = &expander.child_boxes[child.boxes..child.boxes + boxes.len()];
            let region_hash = zobrist.after_push(board, base, child.push, child.region);
            let Some(region) = fewest.reached(region_hash, child_boxes, child.region, cost.0)
            else {
                continue;
            };
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
                None => {
                    fewest.of_node.push(region);
                    table.insert(
                        hash,
                        child_boxes,
                        child.player,
                        node,
                        child.push,
                        cost,
                        child.bound,
                    )
                }
            };
            grow::room_in_heap(&mut open);
            open.push(Reverse((f.0, f.1, child.bound, id)));
        }
    }
    report_final(&table, lower, on_event);
    Exact::Exhausted
}

/// The fewest pushes found so far to each (boxes, player region): positions reached
/// with more are dominated.
struct Fewest {
    /// Keyed by the region's smallest cell; only `pushes` is used of the entries.
    regions: Table,
    /// Per node of the search's table, its entry in `regions`.
    of_node: Column<u32>,
}

impl Fewest {
    fn new(box_count: usize) -> Fewest {
        Fewest {
            regions: Table::new(box_count),
            of_node: Column::new(),
        }
    }

    fn bytes(&self) -> usize {
        self.regions.bytes() + self.of_node.bytes()
    }

    /// Records (`boxes`, `region`) reached with `pushes`: its entry, or `None` when it
    /// was reached with fewer before (the new way is dominated).
    fn reached(&mut self, hash: u64, boxes: &[u16], region: u16, pushes: u32) -> Option<u32> {
        let Some(entry) = self.regions.find(hash, boxes, region) else {
            let cost = (pushes, 0);
            return Some(
                self.regions
                    .insert(hash, boxes, region, NONE, (0, 0), cost, 0),
            );
        };
        let fewest = &mut self.regions.pushes[entry as usize];
        if *fewest < pushes {
            return None;
        }
        *fewest = pushes;
        Some(entry)
    }

    /// Whether `node`, reached with `pushes`, has since been dominated.
    fn dominated(&self, node: u32, pushes: u32) -> bool {
        let entry = self.of_node[node as usize];
        self.regions.pushes[entry as usize] < pushes
    }
}

/// The positions stored when the search settles the level, for callers that compare
/// searches by their positions (the periodic events come only every few thousand).
fn report_final(table: &Table, lower: u32, on_event: &mut dyn FnMut(Event<'_>)) {
    on_event(Event::Progress(Progress {
        positions: table.len() as u64,
        lower_bound: lower,
    }));
}
