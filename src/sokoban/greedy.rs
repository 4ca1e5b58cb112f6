//! The fast mode's first search: best-first on the matching bound over positions
//! (boxes, player region normalised to its smallest cell), three open lists taken in
//! turn (the priority; packing first; connectivity first), with PI-corral pruning,
//! goal-room macros, the packing advisor's macros and tunnel macros. Those keep some
//! solution but may drop positions that are not lost, so only the complete search
//! (provably lost positions pruned, nothing else) running out of positions proves the
//! level unsolvable. Beside it the
//! backward search (`backward.rs`) pulls boxes from the solved position, two expansions
//! (one from each of its lists) per forward one; a position both have stored joins
//! their paths into a solution.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::backward::{Backward, Step};
use super::board::Board;
use super::budget::Budget;
use super::corral::Corrals;
use super::expand::{Child, Detail, Expander};
use super::goalroom::{ordered_goal_groups, GoalGroup, GoalRooms, Macro};
use super::grow;
use super::packing::Packing;
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
pub(super) const WEIGHT: u64 = 5;

/// What each area of free floor that holds work, beyond the first, adds to the
/// priority: FESS's connectivity feature. A position whose boxes cut the floor into
/// separate busy areas needs pushes to open them again, which the matching bound does
/// not see; fewer areas first. 10 (two bound units) measured best of 5, 10, 15 and 30.
const AREA_WEIGHT: u64 = 10;

/// What a push onto a room's goal out of its packing order adds to its child's place
/// in every list: ten bound units. Such a box may block the goals behind it, yet a
/// solution may park it there a while (Microban 153's does, which a cut of those
/// pushes, used until session 43, dropped: the pruning pass ran out of positions).
const OUT_OF_ORDER_WEIGHT: u64 = 50;

/// The priority of a position: `WEIGHT · bound + pushes`, plus [`AREA_WEIGHT`] per busy
/// area beyond the first.
pub(super) fn priority(weighted: u64, areas: u32) -> u64 {
    weighted + AREA_WEIGHT * u64::from(areas.saturating_sub(1))
}

/// The second key: among equal priorities fewer busy areas first, then the smaller bound.
fn tie(bound: u32, areas: u32) -> u32 {
    (areas.min(0xffff) << 16) | bound.min(0xffff)
}

/// Backward expansions per forward one: one from each of the backward search's two
/// lists, so its priority list keeps the share it had alone (session 40).
const BACKWARD_STEPS: usize = 2;

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
    if let Some(why) = budget.starting(table.bytes()) {
        return Greedy::Stopped(why);
    }
    let Some(bound) = expander.bound(board, boxes) else {
        return Greedy::Exhausted;
    };
    let region = expander.region(board, boxes, player);
    let hash = zobrist.boxes(boxes) ^ zobrist.player_at(region);
    let root = table.insert(hash, boxes, region as u16, NONE, (0, 0), (0, 0), bound);
    if bound == 0 {
        return Greedy::Found(Vec::new());
    }
    // The goal groups' packing orders, for both the packing list and the goal rooms.
    let groups = ordered_goal_groups(board, boxes);
    let mut open = Open::new(board, boxes, &groups);
    let start = Ranked {
        bound,
        pushes: 0,
        areas: 1,
        boxes,
        player: region,
        out_of_order: false,
    };
    open.push(board, root, start);
    let mut expanded: u64 = 0;
    // Expand from the real player cell of the root; later nodes' regions are normalised,
    // and any cell of the region reaches the same pushes.
    let mut position = Vec::new();
    let mut plans = corrals.then(|| Plans::new(board, boxes, &groups));
    // Pulls from the solved position, [`BACKWARD_STEPS`] expansions per forward one,
    // until the two searches store the same position.
    let mut backward = Backward::new(board, &zobrist, boxes);
    while let Some(node) = open.pop() {
        expanded += 1;
        let progress = Progress {
            positions: stored(&table, backward.as_ref()),
            lower_bound: bound,
        };
        let bytes = || {
            table.bytes()
                + open.bytes()
                + expander.bytes()
                + backward.as_ref().map_or(0, Backward::bytes)
        };
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
        let mut frontier = Frontier {
            table: &mut table,
            open: &mut open,
            zobrist: &zobrist,
            expander: &mut expander,
            node,
            backward: backward.as_ref(),
            met: None,
        };
        let found = match plans.as_mut() {
            Some(plans) => plans.expand(board, &mut frontier, &position, at, pruned),
            None => frontier.expand(board, &position, at, None, pruned),
        };
        let met = frontier.met;
        let joined = match (found, backward.as_mut()) {
            (Some(id), _) => Some((id, met)),
            (None, Some(back)) => {
                let mut joined = None;
                for _ in 0..BACKWARD_STEPS {
                    match back.step(board, &zobrist, &table) {
                        Step::Expanded => {}
                        Step::Meet { forward, backward } => {
                            joined = Some((forward, Some(backward)));
                            break;
                        }
                        // Nothing but provably lost positions was dropped backwards: no
                        // solved position leads back to the start, whatever this pass
                        // pruned.
                        Step::Exhausted => {
                            *pruned = false;
                            return Greedy::Exhausted;
                        }
                    }
                }
                joined
            }
            (None, None) => None,
        };
        if let Some((id, met)) = joined {
            // The positions to the first solution, exact (not rounded to a report).
            on_event(Event::Progress(Progress {
                positions: stored(&table, backward.as_ref()),
                lower_bound: bound,
            }));
            let mut pushes = table.pushes_to(id);
            if let (Some(node), Some(back)) = (met, &backward) {
                pushes.extend(back.pushes_from(board, node));
            }
            return Greedy::Found(pushes);
        }
    }
    Greedy::Exhausted
}

/// The positions both searches stored.
fn stored(table: &Table, backward: Option<&Backward>) -> u64 {
    (table.len() + backward.map_or(0, Backward::len)) as u64
}

/// One open list: (key, [`tie`], [`newest_first`] of the node), smallest first.
type Heap = BinaryHeap<Reverse<(u64, u32, u32)>>;

/// Where a feature that comes before the priority sits in a list's key: above any
/// priority (the bound is at most 2¹⁶ and the pushes fit in 32 bits).
const FIRST: u32 = 40;

/// Where a feature before that one sits.
const SECOND: u32 = 48;

/// The open lists (multi-heuristic best-first, Röger & Helmert 2010; the features are
/// FESS's): every position is stored once and queued in three lists, popped in turn —
/// the [`priority`]; the boxes not yet packed (see [`Packing`]) first, then the
/// obstruction of the rooms' next packing step, then the priority; the busy areas
/// first, then the priority. One ordering alone stalls on a plateau where its key no
/// longer falls; taking turns keeps each list's best position coming. A position one list popped is skipped when another pops it again.
/// A child of a push onto a room's goal out of its order comes [`OUT_OF_ORDER_WEIGHT`]
/// later in each.
struct Open {
    lists: [Heap; 3],
    turn: usize,
    /// Per table id: expanded already.
    expanded: grow::Column<bool>,
    packing: Packing,
    boxes: u32,
}

impl Open {
    fn new(board: &Board, boxes: &[u16], groups: &[GoalGroup]) -> Open {
        Open {
            lists: Default::default(),
            turn: 0,
            expanded: grow::Column::new(),
            packing: Packing::new(board, groups),
            boxes: boxes.len() as u32,
        }
    }

    fn bytes(&self) -> usize {
        self.lists.iter().map(|h| h.capacity() * 16).sum::<usize>() + self.expanded.bytes()
    }

    /// Queues stored position `id`, ranked by `position`, in every list.
    fn push(&mut self, board: &Board, id: u32, position: Ranked<'_>) {
        let Ranked {
            bound,
            pushes,
            areas,
            boxes,
            player,
            out_of_order,
        } = position;
        let mut priority = priority(WEIGHT * u64::from(bound) + u64::from(pushes), areas);
        if out_of_order {
            priority += OUT_OF_ORDER_WEIGHT;
        }
        let tie = tie(bound, areas);
        let order = newest_first(id);
        let index = id as usize;
        self.expanded.grow_to(index + 1, false);
        let (packed, obstruction) = self.packing.ranked(board, boxes, player);
        let unpacked = self.boxes.saturating_sub(packed);
        let packing = (u64::from(unpacked) << SECOND) | (u64::from(obstruction.min(0xff)) << FIRST);
        let keys = [
            priority,
            packing | priority,
            (u64::from(areas) << FIRST) | priority,
        ];
        for (list, key) in self.lists.iter_mut().zip(keys) {
            grow::room_in_heap(list);
            list.push(Reverse((key, tie, order)));
        }
    }

    /// Queues a stored child as [`Open::push`] does; returns it instead when it is
    /// solved.
    fn queue(&mut self, board: &Board, id: u32, position: Ranked<'_>) -> Option<u32> {
        if position.bound == 0 {
            return Some(id);
        }
        self.push(board, id, position);
        None
    }

    /// The next position to expand: the best of the next list in turn not expanded yet
    /// (an empty list passes its turn).
    fn pop(&mut self) -> Option<u32> {
        for _ in 0..self.lists.len() {
            self.turn += 1;
            let list = &mut self.lists[self.turn % self.lists.len()];
            while let Some(Reverse((_, _, order))) = list.pop() {
                let id = newest_first(order);
                if !std::mem::replace(&mut self.expanded[id as usize], true) {
                    return Some(id);
                }
            }
        }
        None
    }
}

/// What the open lists rank a stored position by.
struct Ranked<'a> {
    bound: u32,
    /// The pushes made to get there.
    pushes: u32,
    /// Its busy areas (see [`priority`]).
    areas: u32,
    boxes: &'a [u16],
    /// A cell of the player's region.
    player: usize,
    /// Made by a push onto a room's goal out of its packing order.
    out_of_order: bool,
}

/// The pruning pass's plans and tests; the complete search has none.
struct Plans {
    /// Goal macros cut the other pushes.
    rooms: GoalRooms,
    /// Tunnel macros drop the positions inside a tunnel.
    tunnels: Tunnels,
    /// Corral deadlocks (exact; still counted as pruning here, as when they were not).
    corrals: Corrals,
}

impl Plans {
    fn new(board: &Board, boxes: &[u16], groups: &[GoalGroup]) -> Plans {
        Plans {
            rooms: GoalRooms::new(board, groups, boxes),
            tunnels: Tunnels::new(board),
            corrals: Corrals::new(board),
        }
    }

    /// Expands the frontier's node (`position`, the player at `at`): nothing when a
    /// corral next to the box just pushed is lost, only the goal macros when there are
    /// some, else the pushes (PI-corral pruned, those onto a room's goal out of its
    /// order ranked later, tunnel macros in place of the pushes they extend). Returns a solved child.
    fn expand(
        &mut self,
        board: &Board,
        frontier: &mut Frontier<'_>,
        position: &[u16],
        at: usize,
        pruned: &mut bool,
    ) -> Option<u32> {
        let node = frontier.node as usize;
        if frontier.table.parent[node] != NONE {
            let (from, dir) = frontier.table.push[node];
            let pushed = board.step(usize::from(from), usize::from(dir));
            if self.corrals.lost(board, position, at, pushed) {
                *pruned = true;
                return None;
            }
        }
        let macros = self.rooms.macros(board, position, at);
        if !macros.is_empty() {
            // The goal cut: with a box ready for its room's next goal, only the macros
            // are tried (Rolling Stone); that may drop a solution, as PI corrals may.
            *pruned = true;
            // Goal macros and the advisor's fill a room's next layer: in order.
            return macros
                .iter()
                .find_map(|m| frontier.add_macro(board, m, false));
        }
        let found = frontier.expand(board, position, at, Some(self), pruned);
        if found.is_some() {
            return found;
        }
        let ready = frontier.open.packing.ready(board, position, at);
        let advice = self.rooms.advice(board, position, at, &ready);
        advice
            .iter()
            .find_map(|m| frontier.add_macro(board, m, false))
    }
}

/// The table and open list, and the node being expanded, for adding its children.
struct Frontier<'a> {
    table: &'a mut Table,
    open: &'a mut Open,
    zobrist: &'a Zobrist,
    expander: &'a mut Expander,
    node: u32,
    /// The backward search, whose positions a child may meet.
    backward: Option<&'a Backward>,
    /// The backward node a returned child met (then it is not solved itself).
    met: Option<u32>,
}

impl Frontier<'_> {
    /// Stores and queues the node's pushes, those of the pruning pass's `plans` as it
    /// allows; returns a solved child.
    fn expand(
        &mut self,
        board: &Board,
        position: &[u16],
        at: usize,
        mut plans: Option<&mut Plans>,
        pruned: &mut bool,
    ) -> Option<u32> {
        *pruned |=
            self.expander
                .expand(board, position, at, Detail::RegionAndAreas, plans.is_some());
        let children = std::mem::take(&mut self.expander.children);
        let base = self.zobrist.boxes(position);
        let mut found = None;
        for child in &children {
            let start = child.boxes;
            let boxes = &self.expander.child_boxes[start..start + position.len()];
            let push = (usize::from(child.push.0), usize::from(child.push.1));
            let to = board.step(push.0, push.1);
            let out_of_order = plans.as_ref().is_some_and(|p| p.rooms.out_of_order(to));
            let tunnel = plans.as_mut().and_then(|p| {
                let rooms = &p.rooms;
                p.tunnels
                    .extend(board, boxes, push, |cell| rooms.out_of_order(cell))
            });
            found = match tunnel {
                Some(m) => {
                    *pruned = true;
                    self.add_macro(board, &m, out_of_order)
                }
                None => self.add_push(board, base, position.len(), child, out_of_order),
            };
            if found.is_some() {
                break;
            }
        }
        self.expander.children = children;
        found
    }

    /// Stores and queues one push's child (`base`: the hash of the node's `n` boxes;
    /// `out_of_order`: the push fills a room's goal out of its order), unless the table
    /// has it; returns it when it is solved.
    fn add_push(
        &mut self,
        board: &Board,
        base: u64,
        n: usize,
        child: &Child,
        out_of_order: bool,
    ) -> Option<u32> {
        let boxes = &self.expander.child_boxes[child.boxes..child.boxes + n];
        let hash = self
            .zobrist
            .after_push(board, base, child.push, child.region);
        if self.table.find(hash, boxes, child.region).is_some() {
            return None;
        }
        let pushes = self.table.pushes[self.node as usize] + 1;
        let id = self.table.insert(
            hash,
            boxes,
            child.region,
            self.node,
            child.push,
            (pushes, 0),
            child.bound,
        );
        self.met = self
            .backward
            .and_then(|b| b.find(hash, boxes, child.region));
        if self.met.is_some() {
            return Some(id);
        }
        let ranked = Ranked {
            bound: child.bound,
            pushes,
            areas: child.areas,
            boxes,
            player: usize::from(child.region),
            out_of_order,
        };
        self.open.queue(board, id, ranked)
    }

    /// Stores the macro's last position as a child of the node (its earlier positions
    /// as hidden links, so the solution lists every push) and queues it, later when its
    /// first push fills a room's goal `out_of_order`; returns it when it is solved.
    fn add_macro(&mut self, board: &Board, m: &Macro, out_of_order: bool) -> Option<u32> {
        let region = self.expander.region(board, &m.boxes, m.player) as u16;
        let hash = self.zobrist.boxes(&m.boxes) ^ self.zobrist.player_at(usize::from(region));
        if self.table.find(hash, &m.boxes, region).is_some() {
            return None;
        }
        let bound = self.expander.bound_walled(board, &m.boxes)?;
        let (last, links) = m.pushes.split_last()?;
        let mut parent = self.node;
        let mut pushes = self.table.pushes[self.node as usize];
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
            bound,
        );
        self.met = self.backward.and_then(|b| b.find(hash, &m.boxes, region));
        if self.met.is_some() {
            return Some(id);
        }
        let areas = self.expander.busy_areas(board, &m.boxes, m.player);
        let ranked = Ranked {
            bound,
            pushes,
            areas,
            boxes: &m.boxes,
            player: usize::from(region),
            out_of_order,
        };
        self.open.queue(board, id, ranked)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::sokoban::board::testing::puzzle;
    use crate::sokoban::path;
    use crate::sokoban::replay::replay;

    /// A column of three goals filled from the top, entered from below and from the
    /// right. Under the pruning pass's own cuts (PI corrals, goal macros) this level has
    /// no solution that fills the column in order: a box must wait on the entrance goal
    /// first. Cutting such pushes made that pass run out of positions (found among
    /// generated levels); ranked later, they keep the solution.
    #[test]
    fn the_pruning_pass_keeps_a_box_parked_on_a_goal_out_of_order() {
        let level = puzzle(&[
            "#########",
            "#.#   # #",
            "#.#  #  #",
            "#.$    ##",
            "# $$    #",
            "##  ## ##",
            "#@  #   #",
            "##      #",
            "#########",
        ]);
        let (board, start) = Board::new(&level);
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let cancel = AtomicBool::new(false);
        let deadline = Instant::now() + Duration::from_secs(3600);
        let mut budget = Budget::new(deadline, 1 << 30, &cancel);
        let corrals = true;
        let (answer, _) = run(
            &board,
            &boxes,
            start.player,
            corrals,
            &mut budget,
            &mut |_| {},
        );
        let Greedy::Found(pushes) = answer else {
            panic!("the pruning pass found no solution");
        };
        let solution = path::solution(&board, &start.boxes, start.player, &pushes, false);
        assert_eq!(
            replay(&level, &solution.lurd),
            Ok((solution.pushes, solution.moves, true))
        );
    }
}
