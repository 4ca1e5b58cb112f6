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
//! first (then the priority).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::board::Board;
use super::freeze::{BOX, EMPTY};
use super::greedy::{priority, WEIGHT};
use super::matching::{Distances, Matcher};
use super::reach::Reach;
use super::table::{Table, NONE};
use super::zobrist::Zobrist;

/// TEMPORARY (session 40 measurements): a numeric environment knob.
pub fn knob(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One open list: (key, bound, `u32::MAX - id`), smallest first.
type Heap = BinaryHeap<Reverse<(u64, u32, u32)>>;

/// Where the boxes off their starting cells sit in the second list's key: above any
/// priority, as the forward search's list features (`greedy::FIRST`).
const FIRST: u32 = 40;

/// The backward search's own state: the reversed board, its table and open lists.
pub struct Backward {
    reverse: Board,
    table: Table,
    /// The priority; the boxes off their starting cells first, then the priority. Each
    /// position is queued in both, popped in turn, expanded once (session 39: on its
    /// own the priority list stalls where the matching no longer falls; the second
    /// list drives boxes home).
    open: [Heap; 2],
    turn: usize,
    /// Per table id: the lists that expanded it (a bit per list).
    expanded: Vec<u8>,
    /// Per table id: the lists it is queued in, and its busy areas.
    queued: Vec<u8>,
    areas_of: Vec<u8>,
    /// TEMPORARY knob: 0 every list takes every child; 1 the priority list only its own
    /// expansions' children; 2 each list only its own.
    pure: usize,
    /// The list the position being expanded came from.
    current: usize,
    /// Set by `consider`: the stored position a child is, if stored already.
    found: Option<u32>,
    /// TEMPORARY knob (session 40): how many lists (1: the priority alone, main).
    lists: usize,
    /// TEMPORARY diagnostics: per table id, the list that expanded it (+1), and the
    /// expansions per list.
    pub by_list: Vec<u8>,
    pub pops: [u64; 2],
    matcher: Matcher,
    occupancy: Vec<u8>,
    reach: Reach,
    after: Reach,
    /// Scratch: the expanded position's boxes, its pulls, one child's boxes.
    parent: Vec<u16>,
    pulls: Vec<Pull>,
    child: Vec<u16>,
    /// Scratch of the busy-area counts, over the floor's cells.
    areas: Reach,
    floor_cells: Vec<usize>,
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
            expanded: Vec::new(),
            queued: Vec::new(),
            areas_of: Vec::new(),
            pure: knob("BOXLS_BW_PURE", 0),
            current: 0,
            found: None,
            lists: knob("BOXLS_BW_LIST", 2),
            by_list: Vec::new(),
            pops: [0; 2],
            matcher: Matcher::new(),
            occupancy: vec![EMPTY; board.len()],
            reach: Reach::new(board.len()),
            after: Reach::new(board.len()),
            parent: Vec::new(),
            pulls: Vec::new(),
            child: Vec::new(),
            areas: Reach::new(board.len()),
            floor_cells: (0..board.len()).filter(|&c| board.floor[c]).collect(),
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
                bound as u16,
            );
            self.queue(id, bound, 0, 1, 3);
        }
    }

    /// Queues stored position `id` in both lists: on the forward search's priority,
    /// `5·bound + pulls` plus 10 per busy area beyond the player's (areas of the
    /// reversed board: a start cell inside, or a box off its start beside it); and on
    /// the boxes off their starting cells, then that priority.
    fn queue(&mut self, id: u32, bound: u32, pulls: u32, areas: u32, mask: u8) {
        let key = priority(WEIGHT * u64::from(bound) + u64::from(pulls), areas);
        let index = id as usize;
        if self.expanded.len() <= index {
            self.expanded.resize(index + 1, 0);
            self.queued.resize(index + 1, 0);
            self.areas_of.resize(index + 1, 0);
        }
        let mask = mask & !self.queued[index];
        self.queued[index] |= mask;
        self.areas_of[index] = areas.min(255) as u8;
        let boxes = self.table.boxes(id);
        let home = boxes
            .iter()
            .filter(|&&b| self.reverse.goal[usize::from(b)])
            .count();
        let away = (boxes.len() - home) as u64;
        let order = u32::MAX - id;
        if mask & 1 != 0 {
            self.open[0].push(Reverse((key, bound, order)));
        }
        if self.lists > 1 && mask & 2 != 0 {
            self.open[1].push(Reverse(((away << FIRST) | key, bound, order)));
        }
    }

    /// The next position to expand: the best of the next list in turn not expanded
    /// yet (an empty list passes its turn).
    fn pop(&mut self) -> Option<u32> {
        for _ in 0..self.lists {
            self.turn += 1;
            let which = self.turn % self.lists;
            let list = &mut self.open[which];
            while let Some(Reverse((_, _, order))) = list.pop() {
                let id = u32::MAX - order;
                // Shared lists: expanded once; own lists: once per list (the priority
                // list's own search goes on through a position the other expanded).
                let seen = match self.pure {
                    0 => 0xff,
                    1 if which == 1 => 0xff,
                    _ => 1 << which,
                };
                let e = &mut self.expanded[id as usize];
                if *e & seen == 0 {
                    *e |= 1 << which;
                    self.current = which;
                    if self.by_list.len() <= id as usize {
                        self.by_list.resize(id as usize + 1, 0);
                    }
                    self.by_list[id as usize] = which as u8 + 1;
                    self.pops[which] += 1;
                    return Some(id);
                }
            }
        }
        None
    }

    /// TEMPORARY diagnostics: the path from a root to `node`, one line per position
    /// (pulls, bound, boxes off their starts, the list that expanded it).
    pub fn diag(&self, node: u32) -> String {
        let mut lines = Vec::new();
        let mut id = node;
        while id != NONE {
            let boxes = self.table.boxes(id);
            let away = boxes
                .iter()
                .filter(|&&b| !self.reverse.goal[usize::from(b)])
                .count();
            let list = self.by_list.get(id as usize).copied().unwrap_or(0);
            lines.push(format!(
                "  id {id} pulls {} bound {} away {away} list {list}",
                self.table.pushes[id as usize], self.table.bound[id as usize]
            ));
            id = self.table.parent[id as usize];
        }
        lines.reverse();
        lines.push(format!(
            "  starts {:?} root {:?} ",
            self.reverse.goals,
            self.table.boxes(0)
        ));
        format!("pops {:?}\n{}", self.pops, lines.join("\n"))
    }

    /// TEMPORARY diagnostics: the path from a root to `node` as lines `hash region
    /// boxes…`, root first.
    pub fn path_lines(&self, node: u32) -> String {
        let mut lines = Vec::new();
        let mut id = node;
        while id != NONE {
            let boxes: Vec<String> = self.table.boxes(id).iter().map(|b| b.to_string()).collect();
            lines.push(format!(
                "{} {} {}",
                self.table.hash[id as usize],
                self.table.player[id as usize],
                boxes.join(" ")
            ));
            id = self.table.parent[id as usize];
        }
        lines.reverse();
        lines.join("\n")
    }

    /// TEMPORARY diagnostics: which positions of a dumped path this search holds.
    pub fn check(&self, text: &str) -> String {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let v: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
            if v.len() < 2 {
                continue;
            }
            let boxes: Vec<u16> = v[2..].iter().map(|&b| b as u16).collect();
            let found = self.table.find(v[0], &boxes, v[1] as u16);
            let tag = match found {
                None => "-".to_string(),
                Some(id) => {
                    let e = self.expanded.get(id as usize).copied().unwrap_or(0) != 0;
                    let l = self.by_list.get(id as usize).copied().unwrap_or(0);
                    format!("{id}{}", if e { format!("e{l}") } else { String::new() })
                }
            };
            out.push(format!("{i}:{tag}"));
        }
        let mut best_away = usize::MAX;
        let mut hist = std::collections::BTreeMap::new();
        for id in 0..self.table.len() {
            if self.expanded.get(id).copied().unwrap_or(0) == 0 {
                continue;
            }
            let away = self
                .table
                .boxes(id as u32)
                .iter()
                .filter(|&&b| !self.reverse.goal[usize::from(b)])
                .count();
            best_away = best_away.min(away);
            *hist
                .entry((away, self.by_list.get(id).copied().unwrap_or(0)))
                .or_insert(0u64) += 1;
        }
        format!(
            "pops {:?} best away {best_away} expanded by (away, list): {hist:?}\n{}",
            self.pops,
            out.join(" ")
        )
    }

    pub fn bytes(&self) -> usize {
        self.table.bytes()
            + self.open.iter().map(|h| h.capacity() * 16).sum::<usize>()
            + self.expanded.capacity()
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
        self.reach.explore(board, &self.occupancy, at);
        self.list_pulls(board, &boxes);
        self.matcher
            .prepare(&self.reverse, Distances::of(&self.reverse), &boxes);
        let base = zobrist.boxes(&boxes);
        let made = self.table.pushes[node as usize] + 1;
        let mut step = Step::Expanded;
        let pulls = std::mem::take(&mut self.pulls);
        for pull in &pulls {
            self.child.clear();
            self.child.extend_from_slice(&boxes);
            self.child[pull.index] = pull.to as u16;
            self.child.sort_unstable();
            // The lists this expansion's children go to.
            let mask: u8 = match (self.pure, self.current) {
                (0, _) | (1, 0) => 3,
                (_, which) => 1 << which,
            };
            self.found = None;
            let Some((hash, region, bound, areas)) = self.consider(board, zobrist, base, pull)
            else {
                // Stored already (by another list's expansion): queued in this one too.
                if let Some(id) = self.found {
                    let i = id as usize;
                    if self.pure != 0 && i < self.queued.len() && self.queued[i] & mask != mask {
                        let bound = u32::from(self.table.bound[i]);
                        let pulls = self.table.pushes[i];
                        let areas = u32::from(self.areas_of[i]);
                        self.queue(id, bound, pulls, areas, mask);
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
                bound as u16,
            );
            if let Some(met) = forward.find(hash, &self.child, region) {
                step = Step::Meet {
                    forward: met,
                    backward: id,
                };
                break;
            }
            self.queue(id, bound, made, areas, mask);
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
        let region = self.after.explore(board, &self.occupancy, player) as u16;
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
            let cells = &self.floor_cells;
            1 + self
                .areas
                .busy_areas(&self.reverse, &self.occupancy, cells, &self.after)
        });
        self.occupancy[pull.to] = EMPTY;
        self.occupancy[pull.from] = BOX;
        Some((hash, region, bound?, areas?))
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
