//! The fast mode's first search: best-first on the matching bound over positions
//! (boxes, player region normalised to its smallest cell), with PI-corral pruning,
//! goal-room macros and tunnel macros. Those keep some solution but may drop positions
//! that are not lost, so only the complete search (provably lost positions pruned,
//! nothing else) running out of positions proves the level unsolvable.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::board::Board;
use super::budget::Budget;
use super::corral::Corrals;
use super::expand::Expander;
use super::goalroom::{GoalRooms, Macro};
use super::table::{Table, NONE};
use super::tunnel::Tunnels;
use super::zobrist::Zobrist;
use super::{Event, Progress, Unknown};

pub enum Greedy {
    /// The pushes of a solution, first first.
    Found(Vec<(usize, usize)>),
    Exhausted,
    Stopped(Unknown),
}

/// How much the bound outweighs the pushes made so far in the priority: large enough
/// to dive, small enough that among near-equal bounds shorter paths come first.
const WEIGHT: u64 = 5;

/// The heap's last key: among equal priorities and bounds the newest position comes
/// first (a dive on ties, instead of the oldest first).
fn newest_first(id: u32) -> u32 {
    u32::MAX - id
}

/// Searches with PI-corral pruning first; when that search runs out of positions
/// after pruning some, it proves nothing, and the complete search runs on the time left.
pub fn search(
    board: &Board,
    boxes: &[u16],
    player: usize,
    budget: &mut Budget<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Greedy {
    match run(board, boxes, player, true, budget, on_event) {
        (Greedy::Exhausted, true) => run(board, boxes, player, false, budget, on_event).0,
        (answer, _) => answer,
    }
}

/// One best-first search; also whether PI-corral pruning removed any push.
fn run(
    board: &Board,
    boxes: &[u16],
    player: usize,
    corrals: bool,
    budget: &mut Budget<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> (Greedy, bool) {
    let mut pruned = false;
    let answer = best_first(board, boxes, player, corrals, &mut pruned, budget, on_event);
    (answer, pruned)
}

fn best_first(
    board: &Board,
    boxes: &[u16],
    player: usize,
    corrals: bool,
    pruned: &mut bool,
    budget: &mut Budget<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Greedy {
    let zobrist = Zobrist::new(board.len());
    let mut expander = Expander::new(board);
    let mut table = Table::new(boxes.len());
    if let Some(why) = budget.exceeded(table.bytes()) {
        return Greedy::Stopped(why);
    }
    let Some(bound) = expander.bound(board, boxes) else {
        return Greedy::Exhausted;
    };
    let region = expander.region(board, boxes, player);
    let hash = zobrist.boxes(boxes) ^ zobrist.player_at(region);
    let root = table.insert(
        hash,
        boxes,
        region as u16,
        NONE,
        (0, 0),
        (0, 0),
        bound as u16,
    );
    if bound == 0 {
        return Greedy::Found(Vec::new());
    }
    let mut open: Open = BinaryHeap::new();
    open.push(Reverse((u64::from(bound), 0u32, newest_first(root))));
    let mut expanded: u64 = 0;
    // Expand from the real player cell of the root; later nodes' regions are normalised,
    // and any cell of the region reaches the same pushes.
    let mut position = Vec::new();
    // Goal macros cut the other pushes, so they belong to the pruning pass only.
    let mut rooms = corrals.then(|| GoalRooms::new(board, boxes));
    // Tunnel macros drop the positions inside a tunnel: the pruning pass only too.
    let mut tunnels = corrals.then(|| Tunnels::new(board));
    // Corral deadlocks are sound but their visited sets keep hashes only: pruning too.
    let mut deadlocks = corrals.then(|| Corrals::new(board));
    while let Some(Reverse((_, _, order))) = open.pop() {
        let node = newest_first(order);
        expanded += 1;
        let progress = Progress {
            positions: table.len() as u64,
            lower_bound: bound,
        };
        let bytes = || table.bytes() + open.capacity() * 16;
        if let Some(why) = budget.tick(expanded, bytes, progress, on_event) {
            return Greedy::Stopped(why);
        }
        position.clear();
        position.extend_from_slice(table.boxes(node));
        let at = if node == root {
            player
        } else {
            usize::from(table.player[node as usize])
        };
        if node != root {
            let (from, dir) = table.push[node as usize];
            let pushed = board.step(usize::from(from), usize::from(dir));
            if deadlocks
                .as_mut()
                .is_some_and(|d| d.lost(board, &position, at, pushed))
            {
                *pruned = true;
                continue;
            }
        }
        let macros = rooms
            .as_mut()
            .map(|rooms| rooms.macros(board, &position, at))
            .unwrap_or_default();
        if !macros.is_empty() {
            // The goal cut: with a box ready for its room's next goal, only the macros
            // are tried (Rolling Stone); that may drop a solution, as PI corrals may.
            *pruned = true;
            for m in &macros {
                let frontier = Frontier {
                    table: &mut table,
                    open: &mut open,
                };
                if let Some(id) = frontier.add_macro(board, &zobrist, &mut expander, node, m) {
                    return Greedy::Found(table.pushes_to(id));
                }
            }
            continue;
        }
        *pruned |= expander.expand(board, &position, at, true, corrals);
        if let Some(rooms) = &rooms {
            let before = expander.children.len();
            expander.children.retain(|c| {
                !rooms.out_of_order(board.step(usize::from(c.push.0), usize::from(c.push.1)))
            });
            *pruned |= expander.children.len() < before;
        }
        let pushes = table.pushes[node as usize] + 1;
        let base = zobrist.boxes(&position);
        let children = std::mem::take(&mut expander.children);
        for child in &children {
            let child_boxes = &expander.child_boxes[child.boxes..child.boxes + boxes.len()];
            let push = (usize::from(child.push.0), usize::from(child.push.1));
            if let Some(m) = tunnels
                .as_mut()
                .and_then(|t| t.extend(board, child_boxes, push))
            {
                *pruned = true;
                let frontier = Frontier {
                    table: &mut table,
                    open: &mut open,
                };
                if let Some(id) = frontier.add_macro(board, &zobrist, &mut expander, node, &m) {
                    return Greedy::Found(table.pushes_to(id));
                }
                continue;
            }
            let hash = zobrist.after_push(board, base, child.push, child.region);
            if table.find(hash, child_boxes, child.region).is_some() {
                continue;
            }
            let id = table.insert(
                hash,
                child_boxes,
                child.region,
                node,
                child.push,
                (pushes, 0),
                child.bound as u16,
            );
            if child.bound == 0 {
                return Greedy::Found(table.pushes_to(id));
            }
            let priority = WEIGHT * u64::from(child.bound) + u64::from(pushes);
            open.push(Reverse((priority, child.bound, newest_first(id))));
        }
        expander.children = children;
    }
    Greedy::Exhausted
}

/// The open list: (priority, bound, [`newest_first`] of the node), smallest first.
type Open = BinaryHeap<Reverse<(u64, u32, u32)>>;

/// The table and open list, for adding a macro's positions.
struct Frontier<'a> {
    table: &'a mut Table,
    open: &'a mut Open,
}

impl Frontier<'_> {
    /// Stores the macro's last position as a child of `node` (its earlier positions as
    /// hidden links, so the solution lists every push) and queues it; returns it when
    /// it is solved.
    fn add_macro(
        self,
        board: &Board,
        zobrist: &Zobrist,
        expander: &mut Expander,
        node: u32,
        m: &Macro,
    ) -> Option<u32> {
        let region = expander.region(board, &m.boxes, m.player) as u16;
        let hash = zobrist.boxes(&m.boxes) ^ zobrist.player_at(usize::from(region));
        if self.table.find(hash, &m.boxes, region).is_some() {
            return None;
        }
        let bound = expander.bound(board, &m.boxes)?;
        let (last, links) = m.pushes.split_last()?;
        let mut parent = node;
        let mut pushes = self.table.pushes[node as usize];
        for &(from, dir) in links {
            pushes += 1;
            parent = self
                .table
                .insert_hidden(&m.boxes, parent, (from as u16, dir as u8), pushes);
        }
        pushes += 1;
        let id = self.table.insert(
            hash,
            &m.boxes,
            region,
            parent,
            (last.0 as u16, last.1 as u8),
            (pushes, 0),
            bound as u16,
        );
        if bound == 0 {
            return Some(id);
        }
        let priority = WEIGHT * u64::from(bound) + u64::from(pushes);
        self.open.push(Reverse((priority, bound, newest_first(id))));
        None
    }
}
