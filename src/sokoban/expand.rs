//! Successor generation shared by both searches: every push the player can reach,
//! minus those onto dead squares, into freeze deadlocks or into positions whose
//! boxes cannot all be matched to goals; each child comes with its walking cost and
//! its lower bound. For the fast search, optionally only one PI corral's pushes.

use super::areas::Areas;
use super::board::Board;
use super::freeze::{frozen, frozen_goals, BOX, EMPTY};
use super::matching::{Distances, Matcher};
use super::reach::{joined_around, Reach};
use super::walled::{Walled, WalledTables};

/// One legal, not provably lost, push.
pub struct Child {
    /// Start of the child's boxes (sorted) in [`Expander::child_boxes`].
    pub boxes: usize,
    /// The player's cell after the push: the pushed box's old cell.
    pub player: u16,
    /// The smallest cell the player can reach after the push (its normalised position).
    pub region: u16,
    pub push: (u16, u8),
    /// Walks before the push.
    pub walk: u32,
    pub bound: u32,
    /// The player's area and the areas it cannot reach that hold work, after the push
    /// (see [`Reach::busy_areas`]; with [`Detail::RegionAndAreas`] only, 0 otherwise).
    pub areas: u32,
}

/// What [`Expander::expand`] works out for each child besides its boxes and bound.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Its normalised player cell (the optimal search's dominance test).
    Region,
    /// That and its busy areas (the fast search's priority).
    RegionAndAreas,
}

pub struct Expander {
    pub occupancy: Vec<u8>,
    pub reach: Reach,
    after: Reach,
    matcher: Matcher,
    pub children: Vec<Child>,
    pub child_boxes: Vec<u16>,
    scratch: Vec<u16>,
    /// The smallest cell of the player's region in the position being expanded.
    smallest: usize,
    corrals: Corrals,
    /// The unreached areas of the position being expanded, for its children's counts.
    areas: Areas,
    /// Push distances with the boxes frozen on goals as walls, per set of such boxes.
    walled: WalledTables,
    /// The matcher of children whose pushed box froze on a goal (a full solve on
    /// another table: `matcher` keeps the parent's for the other children).
    side: Matcher,
    /// The boxes frozen on goals in the position being expanded.
    frozen_now: Vec<u16>,
    /// Scratch: those of a child.
    frozen_child: Vec<u16>,
}

/// Scratch space of the PI-corral test: per cell, the stamp of the corral area it was
/// flooded into and of the corral whose barrier it is a box of.
struct Corrals {
    area: Vec<u32>,
    barrier: Vec<u32>,
    generation: u32,
    stack: Vec<usize>,
    cells: Vec<usize>,
    boxes: Vec<usize>,
}

impl Expander {
    pub fn new(board: &Board) -> Expander {
        Expander {
            occupancy: vec![EMPTY; board.len()],
            reach: Reach::new(board.len()),
            after: Reach::new(board.len()),
            matcher: Matcher::new(),
            children: Vec::new(),
            child_boxes: Vec::new(),
            scratch: Vec::new(),
            smallest: 0,
            corrals: Corrals {
                area: vec![0; board.len()],
                barrier: vec![0; board.len()],
                generation: 0,
                stack: Vec::new(),
                cells: Vec::new(),
                boxes: Vec::new(),
            },
            areas: Areas::new(board),
            walled: WalledTables::new(board),
            side: Matcher::new(),
            frozen_now: Vec::new(),
            frozen_child: Vec::new(),
        }
    }

    /// The matching bound of a position on the push distances with its boxes frozen on
    /// goals as walls; `None` when it is lost (no matching, or a frozen box off its goal).
    pub fn bound_walled(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        self.place(boxes, BOX);
        let bound = self.bound_walled_placed(board, boxes);
        self.place(boxes, EMPTY);
        bound
    }

    /// [`Expander::bound_walled`] of `boxes` already placed in the occupancy, solved in
    /// full by `side` (`matcher` keeps the parent prepared for the other children).
    fn bound_walled_placed(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        if !frozen_goals(board, &mut self.occupancy, boxes, &mut self.frozen_child) {
            return None;
        }
        self.frozen_child.sort_unstable();
        let walled =
            (!self.frozen_child.is_empty()).then(|| self.walled.get(board, &self.frozen_child));
        let dist = walled
            .as_ref()
            .map_or(Distances::of(board), |w| w.distances());
        self.side.bound_on(board, dist, boxes)
    }

    /// Bytes held by the walled tables' cache.
    pub fn bytes(&self) -> usize {
        self.walled.bytes()
    }

    pub fn bound(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        self.matcher.bound(board, boxes)
    }

    /// The player's area and the areas it cannot reach that hold work, in a position
    /// (see [`Reach::busy_areas`]).
    pub fn busy_areas(&mut self, board: &Board, boxes: &[u16], player: usize) -> u32 {
        self.place(boxes, BOX);
        self.after.explore(board, &self.occupancy, player);
        let count = self.areas_around_after(board);
        self.place(boxes, EMPTY);
        count
    }

    /// [`Expander::busy_areas`] of the position on the board, `after` explored from
    /// the player.
    fn areas_around_after(&mut self, board: &Board) -> u32 {
        1 + self.areas.count(board, &self.occupancy, &self.after)
    }

    /// The normalised player cell of a position.
    pub fn region(&mut self, board: &Board, boxes: &[u16], player: usize) -> usize {
        self.place(boxes, BOX);
        let region = self.reach.explore(board, &self.occupancy, player);
        self.place(boxes, EMPTY);
        region
    }

    fn place(&mut self, boxes: &[u16], value: u8) {
        for &b in boxes {
            self.occupancy[usize::from(b)] = value;
        }
    }

    /// Fills [`Expander::children`] with the pushes available from `boxes`/`player`.
    /// `detail`: what else to work out for each child (see [`Detail`]).
    /// `corrals`: keep only the pushes of one PI corral's barrier, when there is one
    /// (see [`Expander::pi_corral`]); returns whether that removed any push.
    pub fn expand(
        &mut self,
        board: &Board,
        boxes: &[u16],
        player: usize,
        detail: Detail,
        corrals: bool,
    ) -> bool {
        self.children.clear();
        self.child_boxes.clear();
        self.place(boxes, BOX);
        self.smallest = self.reach.explore(board, &self.occupancy, player);
        if detail == Detail::RegionAndAreas {
            // A push that changes the player's region only locally leaves the other
            // areas as they are, but for the one the box enters.
            self.areas.label(board, &self.occupancy, &self.reach);
        }
        // The boxes frozen on goals are walls for every child: their table.
        if !frozen_goals(board, &mut self.occupancy, boxes, &mut self.frozen_now) {
            // Lost (a frozen set with a box off its goal): no child.
            self.place(boxes, EMPTY);
            return false;
        }
        self.frozen_now.sort_unstable();
        let walled: Option<Walled> =
            (!self.frozen_now.is_empty()).then(|| self.walled.get(board, &self.frozen_now));
        let dist = walled
            .as_ref()
            .map_or(Distances::of(board), |w| w.distances());
        self.matcher.prepare(board, dist, boxes);
        for (index, &b) in boxes.iter().enumerate() {
            let from = usize::from(b);
            for dir in 0..4 {
                let side = board.step(from, dir ^ 1);
                let to = board.step(from, dir);
                if !self.reach.reached(side)
                    || !board.floor[to]
                    || self.occupancy[to] != EMPTY
                    || !board.live[to]
                {
                    continue;
                }
                self.occupancy[from] = EMPTY;
                self.occupancy[to] = BOX;
                match frozen(board, &mut self.occupancy, to) {
                    Some(true) => {}
                    froze => {
                        let froze = froze.is_some();
                        self.consider(board, dist, boxes, index, (from, to, dir), froze, detail);
                    }
                }
                self.occupancy[to] = EMPTY;
                self.occupancy[from] = BOX;
            }
        }
        let pruned = corrals && self.pi_corral(board, boxes);
        self.place(boxes, EMPTY);
        pruned
    }

    /// PI-corral pruning (Junghanns and Schaeffer). A corral is a connected area of
    /// empty floor the player cannot reach; its barrier, the boxes next to it. It is a
    /// PI corral when every push of a barrier box the player can make goes into the
    /// area, and no push along or away from it could become possible later, after
    /// other boxes moved (I), and every push of a barrier box into the area is one the
    /// player can make (P): the player must enter it eventually, only through those pushes, so
    /// they can come first. Pushes into dead squares or freeze deadlocks (not among
    /// the children) are never part of a solution and count as impossible. A corral
    /// with nothing to do (barrier on goals, no goal inside) is skipped. Of the PI
    /// corrals, the one with the fewest pushes wins, and only its pushes stay (none: a
    /// corral deadlock). Safe for finding a solution, not for proving there is none:
    /// the caller treats a search exhausted with it as inconclusive.
    fn pi_corral(&mut self, board: &Board, boxes: &[u16]) -> bool {
        let c = &mut self.corrals;
        if c.generation > u32::MAX - 8 * boxes.len() as u32 - 8 {
            c.area.iter_mut().for_each(|s| *s = 0);
            c.barrier.iter_mut().for_each(|s| *s = 0);
            c.generation = 0;
        }
        // Every area flooded in this call has a stamp above `base`.
        let base = c.generation;
        let everything_matters = board.goals.len() == boxes.len();
        let mut best: Option<(usize, u32)> = None;
        for &b in boxes {
            let b = usize::from(b);
            for dir in 0..4 {
                let start = board.step(b, dir);
                if !board.floor[start]
                    || self.occupancy[start] != EMPTY
                    || self.reach.reached(start)
                    || self.corrals.area[start] > base
                {
                    continue;
                }
                let has_goal = self.flood_corral(board, start);
                let c = &self.corrals;
                let generation = c.generation;
                let busy =
                    has_goal && everything_matters || c.boxes.iter().any(|&x| !board.goal[x]);
                if !busy {
                    continue;
                }
                // P: every push of a barrier box into the area can be made.
                let p = c.boxes.iter().all(|&x| {
                    (0..4).all(|d| {
                        let to = board.step(x, d);
                        c.area[to] != generation
                            || !board.live[to]
                            || self.reach.reached(board.step(x, d ^ 1))
                    })
                });
                if !p {
                    continue;
                }
                // I, later too: no barrier box can ever be pushed along or away from the
                // area before one is pushed into it. Another box may still move off the
                // cell behind or ahead of a barrier box, so only walls, the area, other
                // barrier boxes and dead targets rule such a push out; a push the player
                // cannot make now but may after other pushes would otherwise open the
                // area without entering it (XSokoban 9's start: a dead cell between two
                // boxes no push can reach yet was taken for a corral deadlock).
                let outward = c.boxes.iter().any(|&x| {
                    (0..4).any(|d| {
                        let (side, to) = (board.step(x, d ^ 1), board.step(x, d));
                        let open = |cell: usize| {
                            board.floor[cell]
                                && c.area[cell] != generation
                                && c.barrier[cell] != generation
                        };
                        open(side) && open(to) && board.live[to]
                    })
                });
                if outward {
                    continue;
                }
                // I: every push of a barrier box the player can make goes into the area.
                let mut count = 0u32;
                let mut inward = true;
                for child in &self.children {
                    let from = usize::from(child.push.0);
                    if c.barrier[from] != generation {
                        continue;
                    }
                    if c.area[board.step(from, usize::from(child.push.1))] != generation {
                        inward = false;
                        break;
                    }
                    count += 1;
                }
                if inward && best.is_none_or(|(_, n)| count < n) {
                    best = Some((c.cells[0], count));
                }
            }
        }
        let Some((cell, _)) = best else {
            return false;
        };
        // Mark the winner's barrier again (its stamps may have been overwritten).
        self.flood_corral(board, cell);
        let c = &self.corrals;
        let generation = c.generation;
        let before = self.children.len();
        self.children
            .retain(|child| c.barrier[usize::from(child.push.0)] == generation);
        self.children.len() < before
    }

    /// Floods the empty area at `start` under a fresh stamp: its cells in
    /// `corrals.cells`, its barrier boxes in `corrals.boxes` (stamped in
    /// `corrals.barrier`); whether it holds a goal.
    fn flood_corral(&mut self, board: &Board, start: usize) -> bool {
        let c = &mut self.corrals;
        c.generation += 1;
        let generation = c.generation;
        c.cells.clear();
        c.boxes.clear();
        c.stack.clear();
        c.stack.push(start);
        c.area[start] = generation;
        let mut has_goal = false;
        while let Some(cell) = c.stack.pop() {
            c.cells.push(cell);
            has_goal |= board.goal[cell];
            for d in 0..4 {
                let to = board.step(cell, d);
                if !board.floor[to] {
                    continue;
                }
                if self.occupancy[to] == EMPTY {
                    if c.area[to] != generation {
                        c.area[to] = generation;
                        c.stack.push(to);
                    }
                } else if c.barrier[to] != generation {
                    c.barrier[to] = generation;
                    c.boxes.push(to);
                }
            }
        }
        has_goal
    }

    /// The smallest cell of the player's region after the push of the box at `from` to
    /// `to` (direction `dir`), worked out from the parent's region without a search
    /// when the push changes it only locally: `from` joins it and `to` leaves it. `None`
    /// when that is not sure (the caller searches): a neighbour of `from` outside the
    /// parent's region may open up an area, the box at `to` may cut the region in two
    /// (its free neighbours are not joined around it), or `to` was its smallest cell.
    fn region_after(&self, board: &Board, from: usize, to: usize, dir: usize) -> Option<usize> {
        let free = |c: usize| board.floor[c] && self.occupancy[c] == EMPTY;
        // `from`'s neighbours other than `to` and the player's side: in the region or blocked.
        for d in [dir ^ 2, dir ^ 3] {
            let c = board.step(from, d);
            if free(c) && !self.reach.reached(c) {
                return None;
            }
        }
        if self.reach.reached(to) {
            if to == self.smallest {
                return None;
            }
            if !joined_around(board, to, free) {
                return None;
            }
        }
        Some(self.smallest.min(from))
    }

    /// The child's normalised player cell, the push (`from` to `to`, direction `dir`)
    /// shown on the board: from the parent's region when it changes only locally
    /// ([`Expander::region_after`]), else by a search.
    fn region_of_child(&mut self, board: &Board, from: usize, to: usize, dir: usize) -> u16 {
        let local = self.region_after(board, from, to, dir);
        debug_assert!(
            local.is_none_or(|cell| cell == self.after.explore(board, &self.occupancy, from))
        );
        let cell = local.unwrap_or_else(|| self.after.explore(board, &self.occupancy, from));
        cell as u16
    }

    /// The child's normalised player cell and busy areas ([`Expander::busy_areas`]),
    /// the push (`from` to `to`, direction `dir`) shown on the board. When the player's
    /// region changes only locally ([`Expander::region_after`]) no area the player cannot
    /// reach borders the box's old or new cell, so the parent's areas stand — unless the
    /// box entered one of them, which then loses that cell and is flooded again from
    /// its neighbours (it may fall apart).
    fn region_and_areas(
        &mut self,
        board: &Board,
        from: usize,
        to: usize,
        dir: usize,
    ) -> (u16, u32) {
        let local = self.region_after(board, from, to, dir);
        let Some(cell) = local else {
            let cell = self.after.explore(board, &self.occupancy, from);
            let (parent, after) = (&self.reach, &self.after);
            let areas = 1 + self
                .areas
                .after_move(board, &self.occupancy, parent, after, from, to);
            debug_assert_eq!(areas, self.areas_around_after(board));
            return (cell as u16, areas);
        };
        let areas = 1 + self
            .areas
            .after_local_move(board, &self.occupancy, &self.reach, from, to);
        debug_assert!({
            let full = self.after.explore(board, &self.occupancy, from);
            full == cell && self.areas_around_after(board) == areas
        });
        (cell as u16, areas)
    }

    /// Adds the child of the push `from` → `to` (direction `dir`) of box `index`,
    /// unless it is lost; `dist`: the parent's distances (its frozen boxes as walls);
    /// `froze`: the pushed box is frozen on its goal now (the child on the board).
    #[allow(clippy::too_many_arguments)]
    fn consider(
        &mut self,
        board: &Board,
        dist: Distances<'_>,
        boxes: &[u16],
        index: usize,
        (from, to, dir): (usize, usize, usize),
        froze: bool,
        detail: Detail,
    ) {
        self.scratch.clear();
        self.scratch.extend_from_slice(boxes);
        self.scratch[index] = to as u16;
        self.scratch.sort_unstable();
        let bound = if froze {
            // More boxes frozen on goals: the child's own table, solved in full.
            let child = std::mem::take(&mut self.scratch);
            let bound = self.bound_walled_placed(board, &child);
            self.scratch = child;
            bound
        } else {
            // A push that froze nothing leaves the frozen boxes as they were (a frozen
            // box cannot be pushed, and a box that can move blocks none).
            debug_assert!({
                let mut now = Vec::new();
                frozen_goals(board, &mut self.occupancy, &self.scratch, &mut now);
                now.sort_unstable();
                now == self.frozen_now
            });
            let bound = self
                .matcher
                .bound_moved(board, dist, &self.scratch, index, to);
            debug_assert_eq!(bound, Matcher::new().bound_on(board, dist, &self.scratch));
            bound
        };
        let Some(bound) = bound else {
            return;
        };
        let (region, areas) = match detail {
            Detail::Region => (self.region_of_child(board, from, to, dir), 0),
            Detail::RegionAndAreas => self.region_and_areas(board, from, to, dir),
        };
        let side = board.step(from, dir ^ 1);
        let start = self.child_boxes.len();
        self.child_boxes.extend_from_slice(&self.scratch);
        self.children.push(Child {
            boxes: start,
            player: from as u16,
            region,
            push: (from as u16, dir as u8),
            walk: self.reach.distance[side],
            bound,
            areas,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::testing::puzzle;

    /// A child: the pushed box's cell and the direction, and its bound.
    type Pushed = ((u16, u8), u32);

    /// The children of the level's start.
    fn children(rows: &[&str]) -> (Board, Vec<Pushed>) {
        let (board, start) = Board::new(&puzzle(rows));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut expander = Expander::new(&board);
        expander.expand(&board, &boxes, start.player, Detail::Region, false);
        let children = expander
            .children
            .iter()
            .map(|c| (c.push, c.bound))
            .collect();
        (board, children)
    }

    #[test]
    fn a_box_frozen_on_a_goal_where_the_player_must_stand_loses_the_position() {
        // Pushed up, the lower box freezes on the corner goal; the upper box can then
        // only go right with the player on that corner: no goal for it. The freeze test
        // of the pushed box does not see the upper box, nor does the board's matching
        // (its distance to the right goal is 2 on the empty board).
        let rows = ["#######", "#.$ . #", "#$    #", "#@    #", "#######"];
        let (board, children) = children(&rows);
        let lower = board.step(board.goals[0], 1) as u16;
        let upper = board.step(board.goals[0], 3);
        assert_eq!(board.goal_distances(upper)[1], 2);
        assert!(!children.iter().any(|&(push, _)| push == (lower, 0)));
    }

    #[test]
    fn a_box_frozen_on_a_goal_out_of_the_way_keeps_the_position() {
        // The same push, the upper box one cell further right: it goes right from the
        // free cell beside it, and the child stays with its bound (one push left).
        let rows = ["#######", "#. $. #", "#$    #", "#@    #", "#######"];
        let (board, children) = children(&rows);
        let lower = board.step(board.goals[0], 1) as u16;
        assert!(children.contains(&((lower, 0), 1)));
    }
}
