//! FESS's packing feature for the fast search: how many boxes sit on goals in an
//! order the goals can be filled in.
//!
//! Each connected group of goals gets the layers of `goalroom`'s pull search (the
//! goals of the solved group pulled out, those that leave first filled last); a group
//! whose boxes cannot all leave is one layer. A position's packing counts, per group,
//! the goals of its full deeper layers and the filled goals of the first layer not
//! full: a box on a shallower goal before the deeper ones are full may block them and
//! does not count.
//!
//! Beside it, the obstruction of a room's next packing step: each cell has a route to
//! the room's next layer (the fewest pushes of a lone box, with where the player pushes
//! from and walks); a position's obstruction is the fewest boxes on the route of one of
//! its boxes, one more when the player cannot get to that route's first push. The
//! matching bound draws boxes next to a room in any order, where they wait on each
//! other's way in; the packing list ranks a position whose next step is free before one
//! that first has to clear it, and a box with a free route is what the goal rooms'
//! packing advisor pushes home.

use super::board::Board;
use super::freeze::{BOX, EMPTY};
use super::goalroom::{GoalGroup, MIN_GOALS};
use super::reach::Reach;

pub struct Packing {
    /// Per cell: the index of its group's layer in `layer_sizes` (goals only).
    layer_of: Vec<u32>,
    /// Per group: its layers' indices in `layer_sizes`, first to fill first.
    groups: Vec<std::ops::Range<usize>>,
    layer_sizes: Vec<u32>,
    /// Per layer of a room (a group of at least [`MIN_GOALS`] with a packing order): the
    /// routes to its goals; `None` for other groups' layers.
    routes: Vec<Option<Routes>>,
    /// Scratch: filled goals per layer.
    filled: Vec<u32>,
    /// Scratch: box occupancy of the position being ranked.
    occupancy: Vec<u8>,
    /// Scratch: the player's region in the position being ranked.
    reach: Reach,
    /// Scratch: (first push, boxes on the route) per box of [`Packing::ranked`].
    sides: Vec<(usize, u32)>,
}

/// The route work a level may take: its floor cells squared, times the layers of the
/// rooms given routes (a floor of 1,000 cells: 16 layers). Past it a room gets no
/// routes and its obstruction is 0, as for a group of goals: on a large level the pull
/// trees and the routes grow with the floor squared per layer.
const ROUTES_BUDGET: usize = 1 << 24;

impl Packing {
    pub fn new(board: &Board, goal_groups: &[GoalGroup]) -> Packing {
        let mut layer_of = vec![u32::MAX; board.len()];
        let mut groups = Vec::new();
        let mut layer_sizes = Vec::new();
        let mut routes = Vec::new();
        let floor = board.floor.iter().filter(|&&f| f).count();
        let mut budget = ROUTES_BUDGET;
        for GoalGroup { cells, layers } in goal_groups {
            let ordered = layers.as_ref();
            // Each layer's pull tree walks the floor from every state, and each cell's
            // route may cross the floor: its cost grows with the floor squared.
            let cost = ordered.map_or(usize::MAX, |layers| {
                (floor * floor).saturating_mul(layers.len())
            });
            let room = cells.len() >= MIN_GOALS && cost <= budget;
            if room {
                budget -= cost;
            }
            let layers = ordered.cloned().unwrap_or_else(|| vec![cells.clone()]);
            let first = layer_sizes.len();
            for (k, goals) in layers.iter().enumerate() {
                for &g in goals {
                    layer_of[g] = layer_sizes.len() as u32;
                }
                layer_sizes.push(goals.len() as u32);
                routes.push(room.then(|| {
                    let deeper: Vec<usize> = layers[..k].iter().flatten().copied().collect();
                    Routes::new(board, goals, &deeper)
                }));
            }
            groups.push(first..layer_sizes.len());
        }
        let filled = vec![0; layer_sizes.len()];
        Packing {
            layer_of,
            groups,
            layer_sizes,
            routes,
            filled,
            occupancy: vec![EMPTY; board.len()],
            reach: Reach::new(board.len()),
            sides: Vec::new(),
        }
    }

    /// The boxes of `boxes` packed in order, and the obstruction: per room, the fewest
    /// boxes in the way of one box off the goals to the room's next layer, plus one when
    /// the player can get to the first push of none of those routes (see [`Routes`]),
    /// summed. Ranks every child, so the player's walk stops at the first such push.
    pub fn ranked(&mut self, board: &Board, boxes: &[u16], player: usize) -> (u32, u32) {
        self.count_filled(boxes);
        let packed = self.packed_of_filled();
        if self.routes.iter().all(Option::is_none) {
            self.filled.fill(0);
            return (packed, 0);
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = BOX;
        }
        let mut obstruction = 0;
        for group in 0..self.groups.len() {
            let Some(k) = self.next_layer(group) else {
                continue;
            };
            let Some(routes) = &self.routes[k] else {
                continue;
            };
            // (first push, boxes on the route) of each box off the goals with a route.
            self.sides.clear();
            for &b in boxes {
                let b = usize::from(b);
                if self.layer_of[b] == u32::MAX {
                    if let Some(n) = routes.boxes_on_route(b, &self.occupancy) {
                        self.sides.push((usize::from(routes.side[b]), n));
                    }
                }
            }
            let Some(fewest) = self.sides.iter().map(|&(_, n)| n).min() else {
                continue;
            };
            let firsts = &self.sides;
            let wanted = |c: usize| firsts.iter().any(|&(side, n)| side == c && n == fewest);
            let reached = self
                .reach
                .reaches_any(board, &self.occupancy, player, wanted);
            obstruction += fewest + u32::from(!reached);
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = EMPTY;
        }
        self.filled.fill(0);
        (packed, obstruction)
    }

    /// The first layer of `group` not full (as `filled` counts), when the group is a
    /// room (its layers have routes).
    fn next_layer(&self, group: usize) -> Option<usize> {
        let mut layers = self.groups[group].clone();
        self.routes[layers.start].as_ref()?;
        layers.find(|&k| self.filled[k] < self.layer_sizes[k])
    }

    /// The boxes off the goals whose route to their room's next layer is free and
    /// starts where the `player` can get: a packing step, the other boxes where they are.
    pub fn ready(&mut self, board: &Board, boxes: &[u16], player: usize) -> Vec<usize> {
        let mut ready = Vec::new();
        if self.routes.iter().all(Option::is_none) {
            return ready;
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = BOX;
        }
        self.count_filled(boxes);
        let mut explored = false;
        for group in 0..self.groups.len() {
            let Some(k) = self.next_layer(group) else {
                continue;
            };
            let Some(routes) = &self.routes[k] else {
                continue;
            };
            for &b in boxes {
                let b = usize::from(b);
                let off_goals = self.layer_of[b] == u32::MAX;
                if !off_goals || routes.boxes_on_route(b, &self.occupancy) != Some(0) {
                    continue;
                }
                if !explored {
                    self.reach.explore(board, &self.occupancy, player);
                    explored = true;
                }
                if self.reach.reached(usize::from(routes.side[b])) {
                    ready.push(b);
                }
            }
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = EMPTY;
        }
        self.filled.fill(0);
        ready
    }

    /// Counts in `filled` the boxes of `boxes` on each layer's goals (all 0 before).
    fn count_filled(&mut self, boxes: &[u16]) {
        for &b in boxes {
            let layer = self.layer_of[usize::from(b)];
            if layer != u32::MAX {
                self.filled[layer as usize] += 1;
            }
        }
    }

    /// The boxes packed in order (see the module doc), from the counts in `filled`.
    fn packed_of_filled(&self) -> u32 {
        let mut packed = 0;
        for group in &self.groups {
            for k in group.clone() {
                packed += self.filled[k];
                if self.filled[k] < self.layer_sizes[k] {
                    break;
                }
            }
        }
        packed
    }
}

/// The obstruction of one room layer: per cell, the cells a lone box there and the
/// player use on the fewest pushes to the layer's goals (the deeper layers full, no
/// other box): the box's cells, where the player pushes from and walks between pushes.
/// A box waiting on that route must move out of the way first; a position whose next
/// packing step is free is closer to it than the matching bound says.
struct Routes {
    /// Per cell: its route's range in `cells` (empty when no route).
    start: Vec<u32>,
    cells: Vec<u16>,
    /// Per cell with a route: where the player stands for its first push.
    side: Vec<u16>,
}

/// A pull-search state: the box's cell · 4 + the direction of the player from it.
type State = usize;

const NO_STATE: State = usize::MAX;

impl Routes {
    /// The routes of every cell to the layer's `goals`, the `deeper` goals holding boxes.
    fn new(board: &Board, goals: &[usize], deeper: &[usize]) -> Routes {
        let tree = PullTree::new(board, goals, deeper);
        let mut start = Vec::with_capacity(board.len() + 1);
        let mut cells = Vec::new();
        let mut side = vec![0; board.len()];
        let mut on_route = vec![false; board.len()];
        for (cell, &state) in tree.nearest.iter().enumerate() {
            start.push(cells.len() as u32);
            if state != NO_STATE {
                side[cell] = board.step(cell, state % 4) as u16;
                cells.extend(tree.route(board, state, &mut on_route));
            }
        }
        start.push(cells.len() as u32);
        Routes { start, cells, side }
    }

    /// The boxes (`occupancy`) on the route of the box at `cell`; `None` without a route.
    fn boxes_on_route(&self, cell: usize, occupancy: &[u8]) -> Option<u32> {
        let range = self.start[cell] as usize..self.start[cell + 1] as usize;
        if range.is_empty() {
            return None;
        }
        let on_route = self.cells[range]
            .iter()
            .filter(|&&c| occupancy[usize::from(c)] == BOX);
        Some(on_route.count() as u32)
    }
}

/// Breadth-first pulls from a layer's goals (the deeper layers' goals holding boxes, no
/// other box): forwards, the fewest pushes of a lone box from any cell onto the layer.
struct PullTree {
    /// Per state: the state it was pulled from, towards the goals.
    parent: Vec<State>,
    /// Per state: the cells the player walked to pull into it.
    walk: Vec<Vec<usize>>,
    /// Per cell: its first state reached (one of its nearest), or [`NO_STATE`].
    nearest: Vec<State>,
}

impl PullTree {
    fn new(board: &Board, goals: &[usize], deeper: &[usize]) -> PullTree {
        let cells = board.len();
        let mut occupancy = vec![EMPTY; cells];
        for &g in deeper {
            occupancy[g] = BOX;
        }
        let mut parent = vec![NO_STATE; cells * 4];
        let mut seen = vec![false; cells * 4];
        let mut walk = vec![Vec::new(); cells * 4];
        let mut queue = Vec::new();
        for &g in goals {
            for d in 0..4 {
                let p = board.step(g, d);
                if board.floor[p] && occupancy[p] == EMPTY && !seen[g * 4 + d] {
                    seen[g * 4 + d] = true;
                    queue.push(g * 4 + d);
                }
            }
        }
        let mut reach = Reach::new(cells);
        let mut head = 0;
        while head < queue.len() {
            let state = queue[head];
            head += 1;
            let (b, player) = (state / 4, board.step(state / 4, state % 4));
            occupancy[b] = BOX;
            reach.explore(board, &occupancy, player);
            occupancy[b] = EMPTY;
            for e in 0..4 {
                // The player stands at `stand` and steps back to `back`, drawing the box.
                let stand = board.step(b, e);
                let back = board.step(stand, e);
                let next = stand * 4 + e;
                let free = board.floor[back] && occupancy[back] == EMPTY;
                if reach.reached(stand) && free && !seen[next] {
                    seen[next] = true;
                    parent[next] = state;
                    walk[next] = walked(board, &reach, player, stand);
                    queue.push(next);
                }
            }
        }
        let mut nearest = vec![NO_STATE; cells];
        for &state in &queue {
            if nearest[state / 4] == NO_STATE {
                nearest[state / 4] = state;
            }
        }
        PullTree {
            parent,
            walk,
            nearest,
        }
    }

    /// The sorted cells of the route from `state` to the goals but its own box cell:
    /// the box's cells, where the player pushes from and walks (`on_route`: scratch,
    /// all false before and after).
    fn route(&self, board: &Board, state: State, on_route: &mut [bool]) -> Vec<u16> {
        let cell = state / 4;
        let mut cells = Vec::new();
        let mut at = state;
        while at != NO_STATE {
            let (b, player) = (at / 4, board.step(at / 4, at % 4));
            for c in [b, player].into_iter().chain(self.walk[at].iter().copied()) {
                if c != cell && !on_route[c] {
                    on_route[c] = true;
                    cells.push(c);
                }
            }
            at = self.parent[at];
        }
        for &c in &cells {
            on_route[c] = false;
        }
        cells.sort_unstable();
        cells.into_iter().map(|c| c as u16).collect()
    }
}

/// The cells of the walk the last `reach` search (from `from`) found to `to`, both ends
/// included.
fn walked(board: &Board, reach: &Reach, from: usize, to: usize) -> Vec<usize> {
    let mut cells = vec![from];
    let mut at = from;
    for dir in reach.path_to(board, to) {
        at = board.step(at, dir);
        cells.push(at);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::testing::{puzzle, room};
    use crate::sokoban::goalroom::ordered_goal_groups;

    /// Three goals in a row along a wall, entered from the right: the leftmost first.
    #[test]
    fn counts_goals_filled_in_order() {
        let (board, start) = Board::new(&puzzle(&["#######", "#...  #", "#@ $$$#", "#######"]));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut packing = Packing::new(&board, &ordered_goal_groups(&board, &boxes));
        let goals = &board.goals;
        let packed = |packing: &mut Packing, cells: &[usize]| {
            let boxes: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
            packing.ranked(&board, &boxes, start.player).0
        };
        assert_eq!(packed(&mut packing, &[]), 0);
        assert_eq!(packed(&mut packing, &[goals[0]]), 1);
        assert_eq!(packed(&mut packing, &[goals[0], goals[1]]), 2);
        // The entrance goal before the inner ones blocks them: not packed.
        assert_eq!(packed(&mut packing, &[goals[2]]), 0);
        assert_eq!(packed(&mut packing, &[goals[0], goals[2]]), 1);
        assert_eq!(start.boxes.len(), 3);
    }

    /// A goal column filled from the bottom: a box comes along row 3, the player pushes
    /// it in from the right and up from below.
    const COLUMN: [&str; 6] = [
        "#######", "#.#####", "#.#####", "#.  $@#", "#     #", "#######",
    ];

    /// The padded cell of row `r`, column `c` of [`COLUMN`].
    fn at(board: &Board, r: usize, c: usize) -> u16 {
        ((r + 1) * board.step(0, 1) + c + 1) as u16
    }

    fn ranked(board: &Board, packing: &mut Packing, boxes: &[u16], player: u16) -> (u32, u32) {
        let mut boxes = boxes.to_vec();
        boxes.sort_unstable();
        packing.ranked(board, &boxes, usize::from(player))
    }

    #[test]
    fn a_box_on_the_route_or_the_first_push_out_of_reach_obstructs() {
        let (board, start) = Board::new(&puzzle(&COLUMN));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut packing = Packing::new(&board, &ordered_goal_groups(&board, &boxes));
        let at = |r, c| at(&board, r, c);
        let runner = at(3, 4);
        // Its route is free and the player stands at its first push.
        assert_eq!(ranked(&board, &mut packing, &[runner], at(3, 5)), (0, 0));
        assert_eq!(
            packing.ready(&board, &[runner], usize::from(at(3, 5))),
            [usize::from(runner)]
        );
        // A box where the player walks from the right of the column to below it.
        let walk = at(4, 2);
        assert_eq!(
            ranked(&board, &mut packing, &[runner, walk], at(3, 5)),
            (0, 1)
        );
        // A box on the box's own way.
        let way = at(3, 3);
        assert_eq!(
            ranked(&board, &mut packing, &[runner, way], at(3, 5)),
            (0, 1)
        );
        // Free, but the player is shut off from the push: one more.
        let door = at(4, 5);
        assert_eq!(
            ranked(&board, &mut packing, &[runner, door], at(4, 1)),
            (0, 1)
        );
        assert!(packing
            .ready(&board, &[runner, door], usize::from(at(4, 1)))
            .is_empty());
        // With the first goal filled, the next box's route ends one lower.
        let first = at(1, 1);
        assert_eq!(
            ranked(&board, &mut packing, &[first, runner], at(3, 5)),
            (1, 0)
        );
    }

    /// Three goals along the top wall of a room far too large for routes.
    #[test]
    fn a_room_on_a_huge_floor_gets_no_routes() {
        let side = 130;
        let top = ["...", "  $", "@ $", "  $"].map(String::from);
        let (board, start) = Board::new(&room(side, side, &top));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        // A room with a packing order, so only the budget leaves it without routes.
        let groups = ordered_goal_groups(&board, &boxes);
        assert!(groups[0].layers.is_some());
        let mut packing = Packing::new(&board, &groups);
        assert!(packing.routes.iter().all(Option::is_none));
        assert_eq!(packing.ranked(&board, &boxes, start.player), (0, 0));
        assert!(packing.ready(&board, &boxes, start.player).is_empty());
    }
}
