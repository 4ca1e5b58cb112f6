//! Corral deadlocks: a bounded sub-search on the boxes around an area the player cannot
//! reach, every other box taken off the board; "lost" is a proof, so both searches use it.
//!
//! A corral is a connected area of empty floor the player cannot reach; its barrier,
//! the boxes next to it. Taking the other boxes away only frees the player and the
//! barrier boxes, so any solution of the level, its pushes of the barrier boxes kept,
//! is play of the smaller problem that ends with those boxes on goals. When the
//! sub-search runs out of positions before the player gets into the area or the
//! barrier boxes are all on goals, the position is lost. Its positions are pruned only
//! as the full search's are (dead squares, freeze deadlocks, the matching bound of the
//! barrier boxes), and its visited set and the cache compare positions in full (the
//! hash only places them), so "lost" is a proof: the optimal search may drop the
//! position without losing optimality. The optimal search tests only the corrals next
//! to the box just pushed; the fast search every corral of the position (since session
//! 39: a push can lose an area it does not touch, by locking a box that seals it).
//! Each area is tested alone, then merged with
//! the other unreachable areas next to its barrier (more boxes kept, so more often lost;
//! only getting into the first area counts); in the fast search, then widened by the
//! boxes next to the barrier's boxes (what may hold them in place). Results are cached
//! by the barrier, the player's region and the area, and by the barrier, the player's
//! cell and the area (asked first: no flood of the region on a hit).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::board::Board;
use super::freeze::{frozen_goals, frozen_off_goal, BOX, EMPTY, WALL};
use super::matching::Matcher;
use super::reach::Reach;
use super::zobrist::Zobrist;

/// Positions a sub-search may expand before it gives up (the corral may be fine).
const SUB_POSITIONS: usize = 400;

/// Barriers of more boxes are not tested: their sub-searches rarely finish.
const MAX_BARRIER: usize = 10;

/// Areas are merged while their barrier stays at most this large.
const MAX_MERGED: usize = 6;

/// Cached answers before the cache is emptied (a bound on its memory).
const MAX_CACHED: usize = 1 << 20;

pub struct Corrals {
    occupancy: Vec<u8>,
    /// Where the player walks in the position tested (read while its areas are found).
    reach: Reach,
    /// Where the player walks in a sub-problem (kept apart, so `reach` stays valid).
    sub_reach: Reach,
    /// Per cell: the stamp of the area it was last flooded into.
    area: Vec<u32>,
    generation: u32,
    /// The flooded cells: the area tested first, then the areas merged in.
    cells: Vec<usize>,
    /// How many of `cells` are the area tested.
    entered: usize,
    barrier: Vec<u16>,
    matcher: Matcher,
    zobrist: Zobrist,
    /// Per sub-problem (barrier, player region, area): whether it was proved lost.
    cache: HashMap<Key, bool, Keys>,
    /// The same answers by the player's cell instead of its region (barrier, player
    /// cell, area): asked first, it spares the flood of the sub-problem's region that
    /// the cache's key needs (the cell determines the region as well).
    by_cell: HashMap<Key, bool, Keys>,
    /// The sub-search's positions (boxes, player region) seen.
    seen: HashSet<Key, Keys>,
    /// Sub-search positions to expand: the boxes, then the player's cell.
    stack: Vec<u16>,
    boxes: Vec<u16>,
    /// Positions a sub-search may expand ([`SUB_POSITIONS`] unless chosen).
    cap: usize,
    /// Whether a third pass tests sub-problems widened by the boxes next to the
    /// barrier (the fast search only: not measured in the optimal one).
    blockers: bool,
    /// Whether every area next to a box is tested, not only those next to the box
    /// just pushed (the fast search only, session 39: not measured in the optimal one).
    every_area: bool,
    /// The boxes frozen on goals in the position tested: walls in every sub-problem
    /// (no solution ever moves them), so they are no barrier box.
    fixed: Vec<u16>,
    /// The other boxes of the position tested.
    movable: Vec<u16>,
    /// Each set of frozen boxes met, numbered: the number is part of a sub-problem's
    /// cache key (the same barrier, region and area with other walls is another
    /// sub-problem).
    fixed_ids: HashMap<Vec<u16>, u16>,
}

/// Sets of frozen boxes numbered before the numbering and the cache are emptied.
const MAX_FIXED_SETS: usize = 1 << 12;

/// What a sub-problem holds besides the area's barrier.
#[derive(Clone, Copy)]
enum Widen {
    Alone,
    /// The other unreached areas next to the barrier and their boxes.
    Merged,
    /// The boxes next to the barrier's boxes.
    Blockers,
}

/// Cells a [`Key`] holds: a barrier at its largest, the player's region, the area and
/// the number of the frozen boxes' set.
const KEY_CELLS: usize = MAX_BARRIER + 3;

/// Fills a [`Key`]'s unused cells (no padded board has this many cells).
const UNUSED: u16 = u16::MAX;

/// A sub-search position or a sub-problem, compared in full: its cells in a fixed order,
/// then [`UNUSED`]. The Zobrist hash only picks the bucket, so two different keys are
/// never taken for one, and "seen" and "cached" are exact.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    hash: u64,
    cells: [u16; KEY_CELLS],
}

impl Key {
    /// `None` when the cells do not fit (never with barriers of at most
    /// [`MAX_BARRIER`] boxes; the caller then gives up the test).
    fn new(hash: u64, boxes: &[u16], extra: &[u16]) -> Option<Key> {
        let mut cells = [UNUSED; KEY_CELLS];
        let used = boxes.len() + extra.len();
        if used > KEY_CELLS {
            return None;
        }
        cells[..boxes.len()].copy_from_slice(boxes);
        cells[boxes.len()..used].copy_from_slice(extra);
        Some(Key { hash, cells })
    }
}

impl std::hash::Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// The keys carry Zobrist hashes already: used as they are.
type Keys = BuildHasherDefault<KeyHasher>;

#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

impl Corrals {
    /// The fast search's test: also the sub-problems widened by the boxes next to the
    /// barrier ([`Widen::Blockers`]), and the areas next to every box.
    pub fn new(board: &Board) -> Corrals {
        Corrals {
            blockers: true,
            every_area: true,
            ..Corrals::with_cap(board, SUB_POSITIONS)
        }
    }

    /// Sub-searches that give up after `cap` positions.
    pub fn with_cap(board: &Board, cap: usize) -> Corrals {
        Corrals {
            cap,
            blockers: false,
            every_area: false,
            occupancy: vec![EMPTY; board.len()],
            reach: Reach::new(board.len()),
            sub_reach: Reach::new(board.len()),
            area: vec![0; board.len()],
            generation: 0,
            cells: Vec::new(),
            entered: 0,
            barrier: Vec::new(),
            matcher: Matcher::new(),
            zobrist: Zobrist::new(board.len()),
            cache: HashMap::default(),
            by_cell: HashMap::default(),
            seen: HashSet::default(),
            stack: Vec::new(),
            boxes: Vec::new(),
            fixed: Vec::new(),
            movable: Vec::new(),
            fixed_ids: HashMap::new(),
        }
    }

    /// Bytes held by the cache and the visited set (hash tables: an entry and a
    /// control byte per bucket).
    pub fn bytes(&self) -> usize {
        let entry = std::mem::size_of::<(Key, bool)>() + 1;
        (self.cache.capacity() + self.by_cell.capacity() + self.seen.capacity()) * entry
    }

    /// Whether a corral next to the box at `pushed` (in the fast search's test, next to
    /// any box) makes the position (`boxes`, the player at `player`) lost.
    pub fn lost(&mut self, board: &Board, boxes: &[u16], player: usize, pushed: usize) -> bool {
        if self.generation > u32::MAX - 16 {
            self.area.iter_mut().for_each(|s| *s = 0);
            self.generation = 0;
        }
        self.place(boxes, BOX);
        let mut fixed = std::mem::take(&mut self.fixed);
        if !frozen_goals(board, &mut self.occupancy, boxes, &mut fixed) {
            // A frozen set with a box off its goal.
            self.place(boxes, EMPTY);
            self.fixed = fixed;
            return true;
        }
        fixed.sort_unstable();
        self.place(&fixed, WALL);
        let fixed_id = self.fixed_id(&fixed);
        let mut movable = std::mem::take(&mut self.movable);
        movable.clear();
        movable.extend(boxes.iter().filter(|b| fixed.binary_search(b).is_err()));
        self.reach.explore(board, &self.occupancy, player);
        // Each area alone first (a small sub-problem finishes soonest), then merged with
        // its neighbours: merging hides the areas it takes in from their own test.
        let lost = self.pass(board, &movable, player, pushed, Widen::Alone, fixed_id)
            || self.pass(board, &movable, player, pushed, Widen::Merged, fixed_id)
            || self.blockers
                && self.pass(board, &movable, player, pushed, Widen::Blockers, fixed_id);
        self.place(&movable, EMPTY);
        self.place(&fixed, EMPTY);
        self.fixed = fixed;
        self.movable = movable;
        lost
    }

    /// The number of the set of frozen boxes `fixed` (sorted).
    fn fixed_id(&mut self, fixed: &[u16]) -> u16 {
        if let Some(&id) = self.fixed_ids.get(fixed) {
            return id;
        }
        if self.fixed_ids.len() >= MAX_FIXED_SETS {
            // The numbers start again: no cached answer may keep an old one.
            self.fixed_ids.clear();
            self.cache.clear();
            self.by_cell.clear();
        }
        let id = self.fixed_ids.len() as u16;
        self.fixed_ids.insert(fixed.to_vec(), id);
        id
    }

    /// One test of each area next to `pushed`, `merged` with its neighbours or alone;
    /// expects the position placed and explored, and leaves it so.
    fn pass(
        &mut self,
        board: &Board,
        boxes: &[u16],
        player: usize,
        pushed: usize,
        widen: Widen,
        fixed_id: u16,
    ) -> bool {
        // Every area flooded in this pass has a stamp above `base`.
        let base = self.generation;
        // The areas next to the pushed box; in the fast search, next to every box (an
        // area a push never touched can be lost by it: XSokoban 9's pocket at the foot
        // of its column is closed from the start and lost once a box lands beside the
        // pair that seals it). An area met again has this pass's stamp: tested once.
        let seeds = if self.every_area { boxes } else { &[][..] };
        let cells = std::iter::once(pushed).chain(seeds.iter().map(|&b| usize::from(b)));
        for (seed, dir) in cells.flat_map(|s| (0..4).map(move |d| (s, d))) {
            let start = board.step(seed, dir);
            let fresh = board.floor[start]
                && self.occupancy[start] == EMPTY
                && !self.reach.reached(start)
                && self.area[start] <= base;
            let widened = |c: &mut Corrals| match widen {
                Widen::Alone => true,
                Widen::Merged => c.merge(board),
                Widen::Blockers => c.add_blockers(board),
            };
            if !fresh || !self.flood(board, start) || !widened(self) {
                continue;
            }
            let lost = self.corral_lost(board, boxes, player, fixed_id);
            // The sub-search used the occupancy: the position's boxes back in place.
            self.place(boxes, BOX);
            if lost {
                return true;
            }
        }
        false
    }

    fn place(&mut self, boxes: &[u16], value: u8) {
        for &b in boxes {
            self.occupancy[usize::from(b)] = value;
        }
    }

    /// Floods the unreached area at `start` under a fresh stamp (cells in `cells`, the
    /// boxes next to it in `barrier`); whether it is worth a sub-search: some barrier box
    /// off its goal (else the sub-problem is solved as it stands), and a barrier small
    /// enough. Only this area's cells (`cells[..entered]`) count as getting in, also
    /// after [`Corrals::merge`].
    fn flood(&mut self, board: &Board, start: usize) -> bool {
        self.generation += 1;
        self.cells.clear();
        self.barrier.clear();
        self.flood_area(board, start);
        self.entered = self.cells.len();
        self.barrier.sort_unstable();
        let busy = self.barrier.iter().any(|&b| !board.goal[usize::from(b)]);
        busy && self.barrier.len() <= MAX_BARRIER
    }

    /// Merges in the other unreached areas next to the barrier's boxes, while it stays
    /// at most [`MAX_MERGED`] boxes: their boxes hold the first barrier in place, and a
    /// sub-problem with more boxes is more often lost (but more often too big to finish,
    /// so the area alone is tested first). Whether any box was added.
    fn merge(&mut self, board: &Board) -> bool {
        let before = self.barrier.len();
        let mut next = 0;
        while next < self.barrier.len() && before <= MAX_MERGED {
            let b = usize::from(self.barrier[next]);
            next += 1;
            for d in 0..4 {
                let to = board.step(b, d);
                let fresh = board.floor[to]
                    && self.occupancy[to] == EMPTY
                    && !self.reach.reached(to)
                    && self.area[to] != self.generation;
                if !fresh {
                    continue;
                }
                let (cells, boxes) = (self.cells.len(), self.barrier.len());
                self.flood_area(board, to);
                if self.barrier.len() > MAX_MERGED {
                    self.cells.truncate(cells);
                    self.barrier.truncate(boxes);
                }
            }
        }
        self.barrier.sort_unstable();
        self.barrier.len() > before
    }

    /// Adds the boxes next to the barrier's boxes, while it stays at most
    /// [`MAX_MERGED`] boxes: a box off the area may be what holds a barrier box in
    /// place (taken away, it would let the barrier open). Still a subset of the
    /// position's boxes, so "lost" stays a proof. Whether any box was added.
    fn add_blockers(&mut self, board: &Board) -> bool {
        let before = self.barrier.len();
        for i in 0..before {
            let b = usize::from(self.barrier[i]);
            for d in 0..4 {
                let to = board.step(b, d);
                if self.occupancy[to] == BOX
                    && !self.barrier.contains(&(to as u16))
                    && self.barrier.len() < MAX_MERGED
                {
                    self.barrier.push(to as u16);
                }
            }
        }
        self.barrier.sort_unstable();
        self.barrier.len() > before
    }

    /// Adds the unreached area at `start` to `cells` (stamped with the current
    /// generation) and the boxes next to it to `barrier`.
    fn flood_area(&mut self, board: &Board, start: usize) {
        let generation = self.generation;
        let mut head = self.cells.len();
        self.cells.push(start);
        self.area[start] = generation;
        while head < self.cells.len() {
            let cell = self.cells[head];
            head += 1;
            for d in 0..4 {
                let to = board.step(cell, d);
                if !board.floor[to] || self.occupancy[to] == WALL {
                    continue;
                }
                if self.occupancy[to] != EMPTY {
                    if !self.barrier.contains(&(to as u16)) {
                        self.barrier.push(to as u16);
                    }
                } else if self.area[to] != generation {
                    self.area[to] = generation;
                    self.cells.push(to);
                }
            }
        }
    }

    /// The sub-search on the barrier alone, cached; the occupancy is left empty (or as
    /// it was, when the answer is known by the player's cell).
    fn corral_lost(&mut self, board: &Board, boxes: &[u16], player: usize, fixed_id: u16) -> bool {
        let barrier = std::mem::take(&mut self.barrier);
        let area = self.cells[0];
        let by_cell = Key::new(
            self.zobrist.boxes(&barrier)
                ^ self.zobrist.player_at(player).rotate_left(2)
                ^ self.zobrist.player_at(area).rotate_left(1)
                ^ u64::from(fixed_id).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            &barrier,
            &[player as u16, area as u16, fixed_id],
        );
        if let Some(&lost) = by_cell.and_then(|k| self.by_cell.get(&k)) {
            self.barrier = barrier;
            return lost;
        }
        let lost = self.corral_lost_by_region(board, boxes, player, fixed_id, barrier);
        if let Some(key) = by_cell {
            if self.by_cell.len() >= MAX_CACHED {
                self.by_cell.clear();
            }
            self.by_cell.insert(key, lost);
        }
        lost
    }

    /// [`Corrals::corral_lost`] by the cache keyed on the player's region (`barrier`
    /// taken out of `self.barrier`, put back).
    fn corral_lost_by_region(
        &mut self,
        board: &Board,
        boxes: &[u16],
        player: usize,
        fixed_id: u16,
        barrier: Vec<u16>,
    ) -> bool {
        self.place(boxes, EMPTY);
        self.place(&barrier, BOX);
        let region = self.sub_reach.explore(board, &self.occupancy, player);
        let area = self.cells[0];
        let hash = self.zobrist.boxes(&barrier)
            ^ self.zobrist.player_at(region)
            ^ self.zobrist.player_at(area).rotate_left(1)
            ^ u64::from(fixed_id).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // The area is the unreached floor around `area` once the barrier and the frozen
        // boxes are placed, so the four determine the sub-problem.
        let key = Key::new(hash, &barrier, &[region as u16, area as u16, fixed_id]);
        let lost = match key.map(|k| (k, self.cache.get(&k))) {
            None => false,
            Some((_, Some(&lost))) => lost,
            Some((key, None)) => {
                self.place(&barrier, EMPTY);
                let lost = self.exhausted(board, &barrier, player);
                if self.cache.len() >= MAX_CACHED {
                    self.cache.clear();
                }
                self.cache.insert(key, lost);
                lost
            }
        };
        self.place(&barrier, EMPTY);
        self.barrier = barrier;
        lost
    }

    /// Depth-first over the barrier's pushes from (`barrier`, `player`), no other box
    /// on the board: whether every position was seen without the player entering the
    /// area (`cells`) or every barrier box on a goal, within the cap.
    fn exhausted(&mut self, board: &Board, barrier: &[u16], player: usize) -> bool {
        let n = barrier.len();
        self.seen.clear();
        self.stack.clear();
        self.stack.extend_from_slice(barrier);
        self.stack.push(player as u16);
        let mut expanded = 0;
        while self.stack.len() > n {
            let at = self.stack.len() - n - 1;
            self.boxes.clear();
            self.boxes.extend_from_slice(&self.stack[at..at + n]);
            let player = usize::from(self.stack[at + n]);
            self.stack.truncate(at);
            if self.boxes.iter().all(|&b| board.goal[usize::from(b)]) {
                return false;
            }
            let boxes = std::mem::take(&mut self.boxes);
            let open = self.expand(board, &boxes, player, &mut expanded);
            self.boxes = boxes;
            if open {
                return false;
            }
        }
        true
    }

    /// Pushes the children of one sub-search position onto the stack; true when the
    /// position answers the question (the area entered, or the cap reached).
    fn expand(
        &mut self,
        board: &Board,
        boxes: &[u16],
        player: usize,
        expanded: &mut usize,
    ) -> bool {
        self.place(boxes, BOX);
        let region = self.sub_reach.explore(board, &self.occupancy, player);
        let hash = self.zobrist.boxes(boxes) ^ self.zobrist.player_at(region);
        let key = Key::new(hash, boxes, &[region as u16]);
        let entered = self.cells[..self.entered]
            .iter()
            .any(|&c| self.sub_reach.reached(c));
        // A key that does not fit cannot be marked seen: give up (not lost).
        let done = if entered || *expanded >= self.cap || key.is_none() {
            true
        } else if !key.is_some_and(|k| self.seen.insert(k)) {
            false
        } else {
            *expanded += 1;
            self.push_children(board, boxes);
            false
        };
        self.place(boxes, EMPTY);
        done
    }

    /// Every legal, not provably lost push of the sub-problem, onto the stack.
    fn push_children(&mut self, board: &Board, boxes: &[u16]) {
        for (index, &b) in boxes.iter().enumerate() {
            let from = usize::from(b);
            for dir in 0..4 {
                let side = board.step(from, dir ^ 1);
                let to = board.step(from, dir);
                if !self.sub_reach.reached(side)
                    || !board.floor[to]
                    || self.occupancy[to] != EMPTY
                    || !board.live[to]
                {
                    continue;
                }
                self.occupancy[from] = EMPTY;
                self.occupancy[to] = BOX;
                let frozen = frozen_off_goal(board, &mut self.occupancy, to);
                self.occupancy[to] = EMPTY;
                self.occupancy[from] = BOX;
                if frozen {
                    continue;
                }
                let start = self.stack.len();
                self.stack.extend_from_slice(boxes);
                self.stack[start + index] = to as u16;
                self.stack[start..].sort_unstable();
                debug_assert_eq!(
                    self.matcher.feasible(board, &self.stack[start..]),
                    Matcher::new().bound(board, &self.stack[start..]).is_some()
                );
                if !self.matcher.feasible(board, &self.stack[start..]) {
                    self.stack.truncate(start);
                    continue;
                }
                self.stack.push(from as u16);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::testing::puzzle;

    /// Whether the corral next to the first box is lost, the player where the rows say.
    fn lost(rows: &[&str]) -> bool {
        let (board, start) = Board::new(&puzzle(rows));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        Corrals::new(&board).lost(&board, &boxes, start.player, start.boxes[0])
    }

    #[test]
    fn a_box_the_player_can_never_get_behind_is_lost() {
        // Pushed right once it still blocks the area; twice it is in a corner.
        let rows = ["########", "#.@ $  #", "#.  ####", "########"];
        assert!(lost(&rows));
    }

    #[test]
    fn a_barrier_held_by_a_box_off_the_area_is_lost_with_its_blockers() {
        // The pocket right of the first box: its barrier alone opens (the box below the
        // pocket pushed left), but the box below the first holds both, and the only
        // other pushes go into the pocket's dead corner. No box is frozen.
        let rows = [
            "#########",
            "#       #",
            "#    # ##",
            "#   $ # #",
            "#   $$  #",
            "#  @    #",
            "# ...   #",
            "#########",
        ];
        assert!(lost(&rows));
        let (board, start) = Board::new(&puzzle(&rows));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut alone = Corrals::with_cap(&board, SUB_POSITIONS);
        assert!(!alone.lost(&board, &boxes, start.player, start.boxes[0]));
    }

    #[test]
    fn boxes_frozen_on_goals_are_walls_of_the_sub_problem() {
        // The pocket left of the top row holds a goal. The box below it can go up
        // into it but no further; the boxes on the top row's goals are frozen (the
        // right one holds the left one, the wall above both), so the left one never
        // goes into the pocket either. Taken off the board, the right one would let
        // the left one through; as a wall it does not: lost.
        let rows = ["########", "#. **  #", "##$# @ #", "#      #", "########"];
        let (board, start) = Board::new(&puzzle(&rows));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut alone = Corrals::with_cap(&board, SUB_POSITIONS);
        assert!(alone.lost(&board, &boxes, start.player, start.boxes[0]));
    }

    #[test]
    fn a_box_on_a_goal_that_can_move_is_no_wall() {
        // The same without the right box: the left one goes into the pocket and the
        // player follows it in.
        let rows = ["########", "#. *   #", "##$# @ #", "#      #", "########"];
        let (board, start) = Board::new(&puzzle(&rows));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut alone = Corrals::with_cap(&board, SUB_POSITIONS);
        assert!(!alone.lost(&board, &boxes, start.player, start.boxes[0]));
    }

    /// A pocket right of the upper box, sealed by the wall and the box below it: the
    /// three boxes round it never move again (the player cannot get into the pocket to
    /// push them out, a push into it is into a dead corner, and each of the three
    /// holds another). The first box, the one just pushed (onto its goal in the
    /// corner), is not next to the pocket: only the test of every area sees it.
    const SEALED: [&str; 7] = [
        "##########",
        "#....#####",
        "###.######",
        "#*  $ ####",
        "#   $$ ###",
        "#  @   ###",
        "##########",
    ];

    #[test]
    fn a_corral_away_from_the_pushed_box_is_tested() {
        assert!(lost(&SEALED));
    }

    #[test]
    fn a_corral_away_from_the_pushed_box_may_open() {
        // Without the box below the upper one, the box under the pocket is pushed left
        // and the player walks into the pocket.
        let mut rows = SEALED;
        rows[4] = "#    $ ###";
        assert!(!lost(&rows));
    }

    #[test]
    fn a_corral_the_player_can_enter_is_not_lost() {
        // Pushed right twice, the box lets the player into the area.
        let rows = ["#########", "#.@ $   #", "#.  ### #", "#########"];
        assert!(!lost(&rows));
    }
}
