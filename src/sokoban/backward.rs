//! The backward search: best-first over pulls, from the solved position (every goal
//! holding a box, the player in any area) back to the start. A level whose goals fill
//! in one hard order is often easy backwards — pulling boxes out of a full goal room is
//! what the room's packing order reverses — and hard forwards; the reverse holds for
//! levels whose start is a tangle.
//!
//! Positions are stored as the forward search stores them (boxes sorted, the player's
//! region normalised to its smallest cell, the same Zobrist hashes), so one position
//! is recognised in either table. Pulls are bounded by the matching of boxes to their
//! starting cells on pull distances ([`Board::reversed`]); a box pulled onto a cell
//! from which no starting cell can be reached is dropped (exact, as dead squares are).
//! Two open lists taken in turn: the priority, and the boxes off their starting cells
//! first (then the priority). The priority list is a search of its own: it takes only
//! the children of its own expansions, so the other list's positions (boxes parked on
//! their starts early, with a low bound) never draw it off its dive; the other list
//! takes every child.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::areas::Areas;
use super::board::Board;
use super::freeze::{BOX, EMPTY};
use super::greedy::{priority, WEIGHT};
use super::grow::{self, Column};
use super::matching::{Distances, Matcher};
use super::reach::{joined_around, Reach};
use super::table::{Table, NONE};
use super::zobrist::Zobrist;

/// The lists: the priority, and the boxes off their starting cells first.
const PRIORITY: usize = 0;
const HOME: usize = 1;

/// One open list: (key, bound, `u32::MAX - id`), smallest first.
type Heap = BinaryHeap<Reverse<(u64, u32, u32)>>;

/// Where the boxes off their starting cells sit in the second list's key: above any
/// priority, as the forward search's list features (`greedy::FIRST`).
const FIRST: u32 = 40;

/// The backward search's own state: the reversed board, its table and open lists.
pub struct Backward {
    reverse: Board,
    table: Table,
    /// [`PRIORITY`], then [`HOME`]: popped in turn (session 39: on its own the priority
    /// list stalls where the matching no longer falls; the second list drives boxes
    /// home). The priority list holds the roots and its own expansions' children; the
    /// home list every position (session 40: when the priority list took the home
    /// list's children too, they drew it off its dive, and XSokoban 43 was lost).
    open: [Heap; 2],
    turn: usize,
    /// Per table id: the lists that expanded it (a bit per list). The priority list
    /// expands a position once for itself, even after the home list did (its children
    /// are then queued in the priority list as stored already); the home list once in
    /// all (a child of the priority list's expansion is queued in both).
    expanded: Column<u8>,
    /// Per table id: the lists it is queued in (a bit per list), and its busy areas
    /// (to queue it in the priority list later).
    queued: Column<u8>,
    areas_of: Column<u8>,
    /// The list the position being expanded came from.
    current: usize,
    /// Set by `consider`: the stored position a child is, if stored already.
    found: Option<u32>,
    matcher: Matcher,
    occupancy: Vec<u8>,
    reach: Reach,
    after: Reach,
    /// Scratch: the expanded position's boxes, its pulls, one child's boxes.
    parent: Vec<u16>,
    pulls: Vec<Pull>,
    child: Vec<u16>,
    /// The unreached areas of the position being expanded, for its children's counts.
    areas: Areas,
    /// Whether `areas` labels the position being expanded (labelled on the first pull
    /// that needs them).
    labelled: bool,
    /// The smallest cell of the player's region in the position being expanded.
    smallest: usize,
}

/// What one backward expansion came to.
pub enum Step {
    Expanded,
    /// A child is the forward search's node `forward`: a solution joins the two paths.
    Meet {
        forward: u32,
        backward: u32,
    },
    /// No position left: no solved position leads back to the start (a proof: only
    /// provably lost positions are dropped, and every solution ends in a root).
    Exhausted,
}

/// One pull: the box at `from` moves to `to` (where the player stood), the player one
/// cell further.
struct Pull {
    index: usize,
    from: usize,
    to: usize,
    dir: usize,
}

impl Backward {
    /// The backward search of the level whose start has `boxes`, its roots queued:
    /// every goal with a box, the player in each area of the free floor next to a box.
    /// `None` when goals outnumber boxes (the solved positions are then many: which
    /// goals stay empty is not known).
    pub fn new(board: &Board, zobrist: &Zobrist, boxes: &[u16]) -> Option<Backward> {
        if boxes.len() != board.goals.len() {
            return None;
        }
        let starts: Vec<usize> = boxes.iter().map(|&b| usize::from(b)).collect();
        let reverse = board.reversed(&starts);
        let mut search = Backward {
            table: Table::new(boxes.len()),
            open: Default::default(),
            turn: 0,
            expanded: Column::new(),
            queued: Column::new(),
            areas_of: Column::new(),
            current: PRIORITY,
            found: None,
            matcher: Matcher::new(),
            occupancy: vec![EMPTY; board.len()],
            reach: Reach::new(board.len()),
            after: Reach::new(board.len()),
            parent: Vec::new(),
            pulls: Vec::new(),
            child: Vec::new(),
            areas: Areas::new(board),
            labelled: false,
            smallest: 0,
            reverse,
        };
        search.add_roots(board, zobrist);
        Some(search)
    }

    fn place(&mut self, boxes: &[u16], value: u8) {
        for &b in boxes {
            self.occupancy[usize::from(b)] = value;
        }
    }

    /// The solved positions: boxes on every goal, the player in each area of free
    /// floor that borders a box.
    fn add_roots(&mut self, board: &Board, zobrist: &Zobrist) {
        let goals: Vec<u16> = board.goals.iter().map(|&g| g as u16).collect();
        let Some(bound) = self.matcher.bound(&self.reverse, &goals) else {
            return;
        };
        self.place(&goals, BOX);
        let mut seen = vec![false; board.len()];
        let mut starts = Vec::new();
        for cell in 0..board.len() {
            if !board.floor[cell] || self.occupancy[cell] != EMPTY || seen[cell] {
                continue;
            }
            let region = self.reach.explore(board, &self.occupancy, cell);
            let mut borders_box = false;
            for (c, seen) in seen.iter_mut().enumerate() {
                if self.reach.reached(c) {
                    *seen = true;
                    borders_box |= (0..4).any(|d| self.occupancy[board.step(c, d)] == BOX);
                }
            }
            if borders_box {
                starts.push(region);
            }
        }
        self.place(&goals, EMPTY);
        let hash = zobrist.boxes(&goals);
        for region in starts {
            let id = self.table.insert(
                hash ^ zobrist.player_at(region),
                &goals,
                region as u16,
                NONE,
                (0, 0),
                (0, 0),
                bound,
            );
            self.queue(id, bound, 0, 1, (1 << PRIORITY) | (1 << HOME));
        }
    }

    /// Queues stored position `id` in the lists of `lists` (a bit per list) it is not
    /// in yet: the priority list on the forward search's priority, `5·bound + pulls`
    /// plus 10 per busy area beyond the player's (areas of the reversed board: a start
    /// cell inside, or a box off its start beside it); the home list on the boxes off
    /// their starting cells, then that priority.
    fn queue(&mut self, id: u32, bound: u32, pulls: u32, areas: u32, lists: u8) {
        let index = id as usize;
        if self.expanded.len() <= index {
            self.expanded.grow_to(index + 1, 0);
            self.queued.grow_to(index + 1, 0);
            self.areas_of.grow_to(index + 1, 0);
        }
        let lists = lists & !self.queued[index];
        self.queued[index] |= lists;
        self.areas_of[index] = areas.min(u32::from(u8::MAX)) as u8;
        let key = priority(WEIGHT * u64::from(bound) + u64::from(pulls), areas);
        let order = u32::MAX - id;
        if lists & (1 << PRIORITY) != 0 {
            grow::room_in_heap(&mut self.open[PRIORITY]);
            self.open[PRIORITY].push(Reverse((key, bound, order)));
        }
        if lists & (1 << HOME) != 0 {
            let boxes = self.table.boxes(id);
            let home = boxes
                .iter()
                .filter(|&&b| self.reverse.goal[usize::from(b)])
                .count();
            let away = (boxes.len() - home) as u64;
            grow::room_in_heap(&mut self.open[HOME]);
            self.open[HOME].push(Reverse(((away << FIRST) | key, bound, order)));
        }
    }

    /// The next position to expand: the best of the next list in turn that list may
    /// still expand (an empty list passes its turn).
    fn pop(&mut self) -> Option<u32> {
        for _ in 0..self.open.len() {
            self.turn += 1;
            let which = self.turn % self.open.len();
            // The priority list skips what it expanded itself; the home list what
            // either did (the priority list's children are queued in it anyway).
            let done = if which == PRIORITY {
                1 << PRIORITY
            } else {
                0xff
            };
            while let Some(Reverse((_, _, order))) = self.open[which].pop() {
                let id = u32::MAX - order;
                let expanded = &mut self.expanded[id as usize];
                if *expanded & done == 0 {
                    *expanded |= 1 << which;
                    self.current = which;
                    return Some(id);
                }
            }
        }
        None
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes()
            + self.open.iter().map(|h| h.capacity() * 16).sum::<usize>()
            + self.expanded.bytes()
            + self.queued.bytes()
            + self.areas_of.bytes()
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Expands the best open position: [`Step::Meet`] when a child is a position the
    /// forward search stored in `forward` (its root, the start, included).
    pub fn step(&mut self, board: &Board, zobrist: &Zobrist, forward: &Table) -> Step {
        let Some(node) = self.pop() else {
            return Step::Exhausted;
        };
        let mut boxes = std::mem::take(&mut self.parent);
        boxes.clear();
        boxes.extend_from_slice(self.table.boxes(node));
        let at = usize::from(self.table.player[node as usize]);
        self.place(&boxes, BOX);
        self.smallest = self.reach.explore(board, &self.occupancy, at);
        self.labelled = false;
        self.list_pulls(board, &boxes);
        self.matcher
            .prepare(&self.reverse, Distances::of(&self.reverse), &boxes);
        let base = zobrist.boxes(&boxes);
        let made = self.table.pushes[node as usize] + 1;
        let mut step = Step::Expanded;
        // The lists this expansion's children go to: both from the priority list's,
        // the home list alone from its own.
        let lists: u8 = if self.current == PRIORITY {
            (1 << PRIORITY) | (1 << HOME)
        } else {
            1 << HOME
        };
        let pulls = std::mem::take(&mut self.pulls);
        for pull in &pulls {
            self.child.clear();
            self.child.extend_from_slice(&boxes);
            self.child[pull.index] = pull.to as u16;
            self.child.sort_unstable();
            self.found = None;
            let Some((hash, region, bound, areas)) = self.consider(board, zobrist, base, pull)
            else {
                // Stored already, maybe from the home list alone: the priority list's
                // own search goes on through it (with the pulls of its first path).
                if let Some(id) = self.found.filter(|_| lists & (1 << PRIORITY) != 0) {
                    let i = id as usize;
                    if self
                        .queued
                        .get(i)
                        .is_some_and(|&q| q & (1 << PRIORITY) == 0)
                    {
                        let bound = self.table.bound[i];
                        let pulls = self.table.pushes[i];
                        let areas = u32::from(self.areas_of[i]);
                        self.queue(id, bound, pulls, areas, lists);
                    }
                }
                continue;
            };
            let id = self.table.insert(
                hash,
                &self.child,
                region,
                node,
                (pull.from as u16, pull.dir as u8),
                (made, 0),
                bound,
            );
            if let Some(met) = forward.find(hash, &self.child, region) {
                step = Step::Meet {
                    forward: met,
                    backward: id,
                };
                break;
            }
            self.queue(id, bound, made, areas, lists);
        }
        self.place(&boxes, EMPTY);
        self.parent = boxes;
        self.pulls = pulls;
        step
    }

    /// A pull's child (its boxes in `child`, the parent's on the board and prepared in
    /// the matcher): its hash, normalised player cell, bound and busy areas, or `None`
    /// when it is stored already or dead.
    fn consider(
        &mut self,
        board: &Board,
        zobrist: &Zobrist,
        base: u64,
        pull: &Pull,
    ) -> Option<(u64, u16, u32, u32)> {
        self.occupancy[pull.from] = EMPTY;
        self.occupancy[pull.to] = BOX;
        let player = board.step(pull.to, pull.dir);
        // Most pulls change the player's region only next to the pulled box: then
        // neither the region nor the unreached areas need a flood.
        let local = self.region_after_pull(board, pull);
        debug_assert!(
            local.is_none_or(|cell| cell == self.after.explore(board, &self.occupancy, player))
        );
        let region = match local {
            Some(cell) => cell,
            None => self.after.explore(board, &self.occupancy, player),
        } as u16;
        let hash = base
            ^ zobrist.boxes(&[pull.from as u16, pull.to as u16])
            ^ zobrist.player_at(usize::from(region));
        self.found = self.table.find(hash, &self.child, region);
        let fresh = self.found.is_none();
        let bound = fresh
            .then(|| {
                self.matcher.bound_moved(
                    &self.reverse,
                    Distances::of(&self.reverse),
                    &self.child,
                    pull.index,
                    pull.to,
                )
            })
            .flatten();
        let areas = bound.map(|_| {
            self.label_parent(pull);
            let (parent, after) = (&self.reach, &self.after);
            let areas = 1 + match local {
                // `to` was in the region and `from` borders no unreached area.
                Some(_) => self.areas.labelled(),
                None => self.areas.after_move(
                    &self.reverse,
                    &self.occupancy,
                    parent,
                    after,
                    pull.from,
                    pull.to,
                ),
            };
            debug_assert_eq!(areas, {
                self.after.explore(board, &self.occupancy, player);
                1 + self
                    .areas
                    .count(&self.reverse, &self.occupancy, &self.after)
            });
            areas
        });
        self.occupancy[pull.to] = EMPTY;
        self.occupancy[pull.from] = BOX;
        Some((hash, region, bound?, areas?))
    }

    /// Labels the parent's unreached areas in `areas` on the first call of an expansion
    /// (one whose pulls all give stored or dead children needs no labels): the parent
    /// put back for it, the child of `pull` on the board.
    fn label_parent(&mut self, pull: &Pull) {
        if self.labelled {
            return;
        }
        self.occupancy[pull.to] = EMPTY;
        self.occupancy[pull.from] = BOX;
        self.areas
            .label(&self.reverse, &self.occupancy, &self.reach);
        self.occupancy[pull.from] = EMPTY;
        self.occupancy[pull.to] = BOX;
        self.labelled = true;
    }

    /// The child's normalised player cell from the parent's region (`reach`), when
    /// `pull` (the child on the board) changes that region only locally; `None` when
    /// that is not sure (the caller floods). The freed cell `from` must border no
    /// unreached area of the parent (else that area may join the region), and the free
    /// cells round `to` (now a box; `from` among them) must form one group joined
    /// through free corners (else `to` may cut the region in two), and `to` must not be
    /// the region's smallest cell. Then the region is the parent's less `to`, plus
    /// `from`, and no unreached area changes (none borders `from`, and `to` borders
    /// none): the parent's busy areas stand.
    fn region_after_pull(&self, board: &Board, pull: &Pull) -> Option<usize> {
        let free = |c: usize| board.floor[c] && self.occupancy[c] == EMPTY;
        for d in 0..4 {
            let c = board.step(pull.from, d);
            if c != pull.to && free(c) && !self.reach.reached(c) {
                return None;
            }
        }
        if pull.to == self.smallest {
            return None;
        }
        joined_around(board, pull.to, free).then_some(self.smallest.min(pull.from))
    }

    /// The node holding exactly this position, if the backward search stored it.
    pub fn find(&self, hash: u64, boxes: &[u16], region: u16) -> Option<u32> {
        self.table.find(hash, boxes, region)
    }

    /// Lists in `pulls` those the player can make (`reach` explored): standing next to
    /// a box, with free floor behind, onto a cell from which the box can still reach a
    /// start.
    fn list_pulls(&mut self, board: &Board, boxes: &[u16]) {
        self.pulls.clear();
        for (index, &b) in boxes.iter().enumerate() {
            let from = usize::from(b);
            for dir in 0..4 {
                let to = board.step(from, dir);
                let beyond = board.step(to, dir);
                if self.reach.reached(to)
                    && board.floor[beyond]
                    && self.occupancy[beyond] == EMPTY
                    && self.reverse.live[to]
                {
                    self.pulls.push(Pull {
                        index,
                        from,
                        to,
                        dir,
                    });
                }
            }
        }
    }

    /// The forward pushes from the start to the solved position that reverse the pulls
    /// from a root to `node`: each pull of a box from `x` in direction `d` is a push of
    /// the box at `x + d` in direction `d ^ 1`, in the opposite order.
    pub fn pushes_from(&self, board: &Board, node: u32) -> Vec<(usize, usize)> {
        let mut pushes = self.table.pushes_to(node);
        pushes.reverse();
        for (from, dir) in &mut pushes {
            *from = board.step(*from, *dir);
            *dir ^= 1;
        }
        pushes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::testing::puzzle;
    use crate::sokoban::path;
    use crate::sokoban::replay;

    /// Runs the backward search alone until it meets a forward table holding only the
    /// start; returns the LURD of the joined pushes, or `None` when it runs out.
    fn solve_backwards(rows: &[&str]) -> Option<String> {
        let level = puzzle(rows);
        let (board, start) = Board::new(&level);
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let zobrist = Zobrist::new(board.len());
        let mut occupancy = vec![EMPTY; board.len()];
        for &b in &start.boxes {
            occupancy[b] = BOX;
        }
        let region = Reach::new(board.len()).explore(&board, &occupancy, start.player);
        let mut forward = Table::new(boxes.len());
        let hash = zobrist.boxes(&boxes) ^ zobrist.player_at(region);
        forward.insert(hash, &boxes, region as u16, NONE, (0, 0), (0, 0), 0);
        let mut backward = Backward::new(&board, &zobrist, &boxes)?;
        loop {
            match backward.step(&board, &zobrist, &forward) {
                Step::Expanded => {}
                Step::Exhausted => return None,
                Step::Meet {
                    forward: met,
                    backward: node,
                } => {
                    assert_eq!(met, 0, "the only forward node is the start");
                    let pushes = backward.pushes_from(&board, node);
                    let solution =
                        path::solution(&board, &start.boxes, start.player, &pushes, false);
                    assert_eq!(
                        replay(&level, &solution.lurd),
                        Ok((solution.pushes, solution.moves, true))
                    );
                    return Some(solution.lurd);
                }
            }
        }
    }

    #[test]
    fn pulls_from_the_goals_reach_the_start_and_replay_forwards() {
        let rows = ["#######", "#.  $ #", "# ## @#", "#.  $ #", "#######"];
        assert!(solve_backwards(&rows).is_some());
    }

    #[test]
    fn a_filled_dead_end_is_unpacked_backwards_in_order() {
        // The goals end a corridor: the deepest must be filled first, which backwards is
        // the last box pulled out.
        let rows = [
            "#########",
            "#...   @#",
            "####$$$ #",
            "#       #",
            "#########",
        ];
        let lurd = solve_backwards(&rows).expect("solvable");
        assert!(lurd.chars().filter(char::is_ascii_uppercase).count() >= 9);
    }

    #[test]
    fn a_start_no_pull_sequence_reaches_exhausts_the_backward_search() {
        // The box in the corner can never leave it: no box pulled from a goal gets
        // there, so no solved position leads back to the start.
        let rows = ["######", "#$  .#", "#  @ #", "#.  $#", "######"];
        assert_eq!(solve_backwards(&rows), None);
    }

    #[test]
    fn reversed_distances_are_pushes_from_the_start() {
        // A box at the start cell (col 2) pushed right twice reaches col 4; pulled back
        // from col 4 it takes two pulls.
        let rows = ["#######", "#@ $ .#", "#######"];
        let (board, start) = Board::new(&puzzle(&rows));
        let reverse = board.reversed(&start.boxes);
        let two_right = board.step(board.step(start.boxes[0], 3), 3);
        assert_eq!(reverse.goal_distances(two_right), &[2]);
        // One push left (the player at col 3) takes it to col 1: one pull back.
        let one_left = board.step(start.boxes[0], 2);
        assert_eq!(reverse.goal_distances(one_left), &[1]);
    }
}
