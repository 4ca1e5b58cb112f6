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

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::board::Board;
use super::freeze::{BOX, EMPTY, WALL};
use super::greedy::{priority, WEIGHT};
use super::matching::{Distances, Matcher};
use super::reach::Reach;
use super::table::{Table, NONE};
use super::zobrist::Zobrist;

/// The backward search's own state: the reversed board, its table and open list.
pub struct Backward {
    reverse: Board,
    table: Table,
    open: Vec<BinaryHeap<Reverse<(u64, u32, u32)>>>,
    turn: usize,
    /// Per table id: expanded already (a position is queued in every list).
    expanded: Vec<bool>,
    /// TEMPORARY knobs (session 39 measurements).
    freeze: bool,
    second: u8,
    share: usize,
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
            open: Vec::new(),
            turn: 0,
            expanded: Vec::new(),
            freeze: std::env::var("BOXLS_BW_FREEZE").map_or(true, |v| v != "0"),
            share: std::env::var("BOXLS_BW_SHARE")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2),
            second: std::env::var("BOXLS_BW_LIST")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
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
        let lists = [1, 2, 2, 3][usize::from(search.second.min(3))];
        search.open = (0..lists).map(|_| BinaryHeap::new()).collect();
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
        // A box no pull can ever move off a goal that is no start: nothing leads back.
        let lost = goals.iter().any(|&g| {
            matches!(pull_frozen(&self.reverse, &mut self.occupancy, usize::from(g)), Some(true))
        });
        if lost {
            self.place(&goals, EMPTY);
            return;
        }
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
            self.queue(id, bound, 0, 1);
        }
    }

    /// Queues stored position `id` on the forward search's priority: `5·bound +
    /// pulls`, plus 10 per busy area beyond the player's (areas of the reversed board:
    /// a start cell inside, or a box off its start beside it).
    fn queue(&mut self, id: u32, bound: u32, pulls: u32, areas: u32) {
        let key = priority(WEIGHT * u64::from(bound) + u64::from(pulls), areas);
        let index = id as usize;
        if self.expanded.len() <= index {
            self.expanded.resize(index + 1, false);
        }
        let order = u32::MAX - id;
        self.open[0].push(Reverse((key, bound, order)));
        let boxes = self.table.boxes(id);
        let on = boxes
            .iter()
            .filter(|&&b| self.reverse.goal[usize::from(b)])
            .count();
        let off = (boxes.len() - on) as u64;
        let keys: &[u64] = match self.second {
            0 => &[],
            1 => &[u64::from(areas)],
            2 => &[off],
            _ => &[u64::from(areas), off],
        };
        for (list, &first) in self.open[1..].iter_mut().zip(keys) {
            list.push(Reverse(((first << 40) | key, bound, order)));
        }
    }

    /// The next position: the best of the next list in turn not expanded yet.
    fn pop(&mut self) -> Option<u32> {
        for _ in 0..self.open.len() {
            self.turn += 1;
            let n = self.open.len();
            let pick = if n == 2 && self.share > 2 {
                usize::from(self.turn % self.share == 0)
            } else {
                self.turn % n
            };
            let list = &mut self.open[pick];
            while let Some(Reverse((_, _, order))) = list.pop() {
                let id = u32::MAX - order;
                if !std::mem::replace(&mut self.expanded[id as usize], true) {
                    return Some(id);
                }
            }
        }
        None
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
            let Some((hash, region, bound, areas)) = self.consider(board, zobrist, base, pull)
            else {
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
            self.queue(id, bound, made, areas);
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
        let fresh = self.table.find(hash, &self.child, region).is_none()
            && !(self.freeze
                && matches!(pull_frozen(&self.reverse, &mut self.occupancy, pull.to), Some(true)));
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

/// Pull freezes, the backward search's freeze deadlocks: `None` when the box at `cell`
/// may still be pulled; otherwise whether the set of boxes found that can never be
/// pulled again holds one off its starting cell (a goal of `reverse`) — then no pull
/// sequence reaches the start, and the position is lost backwards. A pull in direction
/// `d` needs the cell `cell + d` (the player's, where the box goes) and `cell + 2d` (the
/// player's next) free, and `cell + d` live on the reversed board; a box is frozen when
/// no pull on either axis is left, the boxes of the set taken as walls (more walls only
/// block more, so the set as a whole never moves). `occupancy` is left as found.
pub fn pull_frozen(reverse: &Board, occupancy: &mut [u8], cell: usize) -> Option<bool> {
    let mut off_start = !reverse.goal[cell];
    occupancy[cell] = WALL;
    let mut frozen = true;
    for axis in [0, 2] {
        match pull_blocked(reverse, occupancy, cell, axis) {
            Some(off) => off_start |= off,
            None => {
                frozen = false;
                break;
            }
        }
    }
    occupancy[cell] = BOX;
    frozen.then_some(off_start)
}

/// `None` when the box at `cell` can be pulled along `axis` (0: vertical, 2:
/// horizontal); otherwise whether the boxes blocking it include one off its start.
fn pull_blocked(reverse: &Board, occupancy: &mut [u8], cell: usize, axis: usize) -> Option<bool> {
    let mut off_start = false;
    for dir in [axis, axis + 1] {
        let to = reverse.step(cell, dir);
        let beyond = reverse.step(to, dir);
        let solid = |c: usize, occupancy: &[u8]| !reverse.floor[c] || occupancy[c] == WALL;
        if solid(to, occupancy) || solid(beyond, occupancy) || !reverse.live[to] {
            continue;
        }
        // A box in the way blocks this pull only when it is frozen itself.
        let mut held = None;
        for side in [to, beyond] {
            if occupancy[side] == BOX {
                if let Some(off) = pull_frozen(reverse, occupancy, side) {
                    held = Some(off);
                    break;
                }
            }
        }
        off_start |= held?;
    }
    Some(off_start)
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

    /// The pull freeze of the box at `at` (a column of the one-row corridor `row`,
    /// walled above and below), with boxes at the columns `boxes` and the starts at
    /// `starts`.
    fn pull_freeze(row: &str, starts: &[usize], boxes: &[usize], at: usize) -> Option<bool> {
        let wall = "#".repeat(row.len());
        let (board, start) = Board::new(&puzzle(&[&wall, row, &wall]));
        // Padded cells: the row is the second of the level, its first column at 1.
        let cell = |col: usize| start.player - row.find('@').unwrap_or(0) + col;
        let starts: Vec<usize> = starts.iter().map(|&c| cell(c)).collect();
        let reverse = board.reversed(&starts);
        let mut occupancy = vec![EMPTY; board.len()];
        for &b in boxes {
            occupancy[cell(b)] = BOX;
        }
        let frozen = pull_frozen(&reverse, &mut occupancy, cell(at));
        let unchanged = boxes.iter().all(|&b| occupancy[cell(b)] == BOX);
        assert!(unchanged, "the occupancy is left as found");
        frozen
    }

    #[test]
    fn two_boxes_walled_two_cells_apart_are_pull_frozen() {
        // Columns 2 and 3 of a four-cell corridor: neither has two free cells to back
        // into on either side, so neither is ever pulled; lost when one is off a start.
        let row = "#@ . #";
        assert_eq!(pull_freeze(row, &[1, 4], &[2, 3], 2), Some(true));
        assert_eq!(pull_freeze(row, &[2, 4], &[2, 3], 2), Some(true));
        // Both on starts: frozen, but where the start has them.
        assert_eq!(pull_freeze(row, &[2, 3], &[2, 3], 3), Some(false));
    }

    #[test]
    fn a_box_with_room_to_back_into_is_not_pull_frozen() {
        // A fifth cell: the right box is pulled onto the start at column 4 (the player
        // backing into the fifth), and then the left one can move too.
        assert_eq!(pull_freeze("#@ .  #", &[1, 4], &[2, 3], 2), None);
        assert_eq!(pull_freeze("#@ .  #", &[1, 4], &[2], 2), None);
        // A pull only onto a cell from which no start is reachable does not count.
        assert_eq!(pull_freeze("#@ . #", &[1, 4], &[2], 2), Some(true));
    }
}
