//! Goal rooms and their packing order for the fast search: goal macros that push a box
//! from a room's entrance straight onto a goal the room may take next, and a cut of the
//! pushes that fill its goals out of that order; and FESS's packing advisor, the same
//! push search for a box anywhere on the board whose way in is free (`packing.rs`).
//!
//! A room is a connected group of goal cells (at least [`MIN_GOALS`]); its entrances are
//! the floor cells next to it that are not goals. Its order comes from pulling the boxes
//! out of the solved room (no other box on the board, the player anywhere outside it):
//! the boxes that can leave first form the last layer to fill, and so on; a box has
//! left when pulls take it back to where one of the starting boxes stands. Taking boxes
//! away only frees space, so a box that could leave stays able to, and the goals of one
//! layer can be filled in any order once the deeper layers are full. A macro and the
//! cut are a plan, not a proof: the search that uses them treats running out of
//! positions as inconclusive.

use std::collections::{HashSet, VecDeque};

use super::board::Board;
use super::freeze::{frozen_off_goal, BOX, EMPTY};
use super::reach::Reach;

/// The cells one macro's push search may walk the player over: each state of the box
/// walks the floor, so on an open 60×60 room one search cost a tenth of a second and one
/// position, a macro per box, 17 s past a 1 s limit. The given collections' largest
/// levels need at most a third of it (states × floor, 4 · 400 · 400).
const PUSH_WORK: usize = 1 << 21;

/// Smaller goal groups get no macros: their fill order rarely matters.
pub const MIN_GOALS: usize = 3;

/// No room at this cell.
const NO_ROOM: u16 = u16::MAX;

/// One goal room: its goals in layers, the first layer to fill first.
struct Room {
    layers: Vec<Vec<usize>>,
}

/// A macro: the pushes (box cell before the push, direction), first first, that take
/// one box to its goal, and where the player ends.
pub struct Macro {
    pub pushes: Vec<(usize, usize)>,
    /// The sorted boxes after the last push.
    pub boxes: Vec<u16>,
    pub player: usize,
}

pub struct GoalRooms {
    rooms: Vec<Room>,
    /// Per cell: the room it is a goal of, or [`NO_ROOM`].
    goal_room: Vec<u16>,
    /// Per goal cell of a room: its layer.
    layer: Vec<u16>,
    /// Per cell: the room it is an entrance of (first found), or [`NO_ROOM`].
    entrance_room: Vec<u16>,
    /// Scratch: box occupancy of the position being expanded.
    occupancy: Vec<u8>,
    search: PushSearch,
    /// Per room, for the position last given to [`GoalRooms::macros`]: the layer it
    /// fills now, when its filled goals are the deeper layers and part of that one.
    next: Vec<Option<u16>>,
}

impl GoalRooms {
    /// The rooms of `board` whose whole packing order the pull search finds and whose
    /// goals the starting `boxes` fill as that order allows (a room that starts
    /// otherwise is meant to be rearranged, and the order would mislead).
    pub fn new(board: &Board, groups: &[GoalGroup], boxes: &[u16]) -> GoalRooms {
        let mut goal_room = vec![NO_ROOM; board.len()];
        let mut entrance_room = vec![NO_ROOM; board.len()];
        let mut layer = vec![0u16; board.len()];
        let mut rooms = Vec::new();
        for GoalGroup { cells, layers } in groups {
            if cells.len() < MIN_GOALS || rooms.len() >= usize::from(NO_ROOM) {
                continue;
            }
            let Some(layers) = layers.clone() else {
                continue;
            };
            if !filled_in_order(&layers, boxes) {
                continue;
            }
            for (k, goals) in layers.iter().enumerate() {
                for &g in goals {
                    layer[g] = k as u16;
                }
            }
            let id = rooms.len() as u16;
            for &cell in cells {
                goal_room[cell] = id;
                for dir in 0..4 {
                    let next = board.step(cell, dir);
                    if board.floor[next] && !board.goal[next] && entrance_room[next] == NO_ROOM {
                        entrance_room[next] = id;
                    }
                }
            }
            rooms.push(Room { layers });
        }
        let rooms_len = rooms.len();
        GoalRooms {
            rooms,
            goal_room,
            entrance_room,
            occupancy: vec![EMPTY; board.len()],
            search: PushSearch::new(board.len()),
            next: vec![None; rooms_len],
            layer,
        }
    }

    /// The goal macros of a position: for each room whose filled goals are its deeper
    /// layers and part of the next, each box at one of its entrances pushed to an empty
    /// goal of that layer along the fewest pushes that stay on the room and its
    /// entrances, when such pushes exist and end in no freeze deadlock. Also records each room's layer for
    /// [`GoalRooms::out_of_order`].
    pub fn macros(&mut self, board: &Board, boxes: &[u16], player: usize) -> Vec<Macro> {
        let mut found = Vec::new();
        if self.rooms.is_empty() {
            return found;
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = BOX;
        }
        for room in 0..self.rooms.len() {
            self.next[room] = None;
            let Some((layer, candidates)) = self.next_layer(board, boxes, room as u16) else {
                continue;
            };
            self.next[room] = Some(layer);
            let target = (room as u16, layer);
            for from in candidates {
                if let Some(m) = self.push_to(board, boxes, player, from, target, Anywhere::No) {
                    found.push(m);
                }
            }
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = EMPTY;
        }
        found
    }

    /// FESS's packing advisor: for each room whose filled goals are its deeper layers and
    /// part of the next, each of the `ready` boxes (off the goals, away from the
    /// entrances) pushed, the other boxes fixed, along the fewest pushes anywhere on the
    /// board to an empty goal of that layer. A goal macro starts only at an entrance, and
    /// the pushes that bring a box there need not lower the bound or any feature the
    /// search ranks by; the advice takes the whole packing step in one child, beside the
    /// position's pushes (not a cut).
    pub fn advice(
        &mut self,
        board: &Board,
        boxes: &[u16],
        player: usize,
        ready: &[usize],
    ) -> Vec<Macro> {
        let mut found = Vec::new();
        if self.rooms.is_empty() || ready.is_empty() {
            return found;
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = BOX;
        }
        for room in 0..self.rooms.len() {
            let Some((layer, _)) = self.next_layer(board, boxes, room as u16) else {
                continue;
            };
            let target = (room as u16, layer);
            for &from in ready {
                if board.goal[from] || self.entrance_room[from] != NO_ROOM {
                    continue;
                }
                if let Some(m) = self.push_to(board, boxes, player, from, target, Anywhere::Yes) {
                    found.push(m);
                }
            }
        }
        for &b in boxes {
            self.occupancy[usize::from(b)] = EMPTY;
        }
        found
    }

    /// Whether a push onto `cell` fills a goal of a room out of its order (the rooms as
    /// of the last [`GoalRooms::macros`]).
    pub fn out_of_order(&self, cell: usize) -> bool {
        let room = self.goal_room[cell];
        room != NO_ROOM && self.next[usize::from(room)].is_some_and(|k| k != self.layer[cell])
    }

    /// The layer the room fills now and the boxes at its entrances, when its filled
    /// goals are the deeper layers and part of that one.
    fn next_layer(&self, board: &Board, boxes: &[u16], room: u16) -> Option<(u16, Vec<usize>)> {
        let layers = &self.rooms[usize::from(room)].layers;
        let full = |goals: &Vec<usize>| goals.iter().all(|&g| self.occupancy[g] == BOX);
        let current = layers.iter().position(|goals| !full(goals))?;
        let shallower_empty = layers[current + 1..]
            .iter()
            .flatten()
            .all(|&g| self.occupancy[g] == EMPTY);
        if !shallower_empty {
            return None;
        }
        let at_entrance = boxes
            .iter()
            .map(|&b| usize::from(b))
            .filter(|&b| self.entrance_room[b] == room && !board.goal[b])
            .collect();
        Some((current as u16, at_entrance))
    }

    /// Breadth-first over (box cell, last push direction) for the box at `from`, the
    /// other boxes fixed, to an empty goal of the room's `layer`; the box stays on the
    /// room's goals and entrances.
    fn push_to(
        &mut self,
        board: &Board,
        boxes: &[u16],
        player: usize,
        from: usize,
        (room, layer): (u16, u16),
        anywhere: Anywhere,
    ) -> Option<Macro> {
        self.search.begin();
        self.search.queue.push(from * 4);
        self.search.came[from * 4] = (START, self.search.generation);
        let mut head = 0;
        let mut found = None;
        let mut work = PUSH_WORK;
        // The moving box stands only where the state being expanded has it.
        self.occupancy[from] = EMPTY;
        while head < self.search.queue.len() {
            let state = self.search.queue[head];
            head += 1;
            let cell = state / 4;
            if self.goal_room[cell] == room && self.layer[cell] == layer {
                found = Some(state);
                break;
            }
            // The player: where the position has it for the first state, else where
            // the box's last push left it.
            let at = if head == 1 {
                player
            } else {
                board.step(cell, (state % 4) ^ 1)
            };
            self.occupancy[cell] = BOX;
            self.search.reach.explore(board, &self.occupancy, at);
            let Some(left) = work.checked_sub(self.search.reach.visited()) else {
                // Past its work the macro is dropped: a plan, never needed for a solution.
                self.occupancy[cell] = EMPTY;
                break;
            };
            work = left;
            for dir in 0..4 {
                let Some(to) = self.push_target(board, cell, dir, room, anywhere) else {
                    continue;
                };
                let next = to * 4 + dir;
                if self.search.came[next].1 != self.search.generation {
                    self.search.came[next] = (state, self.search.generation);
                    self.search.queue.push(next);
                }
            }
            self.occupancy[cell] = EMPTY;
        }
        self.occupancy[from] = BOX;
        found.and_then(|state| self.finish(board, boxes, from, state))
    }

    /// Where pushing the box at `cell` in `dir` takes it, if the player (last explored
    /// reach) can get behind it and the target is free, live and on the room or its
    /// entrances (`anywhere`: or elsewhere).
    fn push_target(
        &self,
        board: &Board,
        cell: usize,
        dir: usize,
        room: u16,
        anywhere: Anywhere,
    ) -> Option<usize> {
        let side = board.step(cell, dir ^ 1);
        let to = board.step(cell, dir);
        let allowed = anywhere == Anywhere::Yes
            || self.goal_room[to] == room
            || self.entrance_room[to] == room;
        let free = board.floor[to] && self.occupancy[to] == EMPTY && board.live[to];
        (self.search.reach.reached(side) && free && allowed).then_some(to)
    }

    /// The macro ending in `state`, unless the box ends frozen with a box off its goal.
    fn finish(&mut self, board: &Board, boxes: &[u16], from: usize, state: usize) -> Option<Macro> {
        let target = state / 4;
        let mut pushes = Vec::new();
        let mut s = state;
        while self.search.came[s].0 != START {
            let (cell, dir) = (s / 4, s % 4);
            pushes.push((board.step(cell, dir ^ 1), dir));
            s = self.search.came[s].0;
        }
        pushes.reverse();
        self.occupancy[from] = EMPTY;
        self.occupancy[target] = BOX;
        let frozen = frozen_off_goal(board, &mut self.occupancy, target);
        self.occupancy[target] = EMPTY;
        self.occupancy[from] = BOX;
        if frozen {
            return None;
        }
        let player = pushes.last().map(|&(cell, _)| cell)?;
        let mut after: Vec<u16> = boxes
            .iter()
            .map(|&b| {
                if usize::from(b) == from {
                    target as u16
                } else {
                    b
                }
            })
            .collect();
        after.sort_unstable();
        Some(Macro {
            pushes,
            boxes: after,
            player,
        })
    }
}

/// Where a macro's box may go: only on its room and the room's entrances, or anywhere.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Anywhere {
    No,
    Yes,
}

/// The first state of a push search (no state before it).
const START: usize = usize::MAX;

/// Scratch space of the macro push search, stamped so no search clears it.
struct PushSearch {
    reach: Reach,
    /// Per state (cell · 4 + direction of the last push): the state before, and the
    /// stamp of the search that set it.
    came: Vec<(usize, u32)>,
    generation: u32,
    queue: Vec<usize>,
}

impl PushSearch {
    fn new(cells: usize) -> PushSearch {
        PushSearch {
            reach: Reach::new(cells),
            came: vec![(START, 0); cells * 4],
            generation: 0,
            queue: Vec::new(),
        }
    }

    fn begin(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.came.iter_mut().for_each(|c| c.1 = 0);
            self.generation = 1;
        }
        self.queue.clear();
    }
}

/// Whether the goals `boxes` fill are the deeper layers and part of the next.
fn filled_in_order(layers: &[Vec<usize>], boxes: &[u16]) -> bool {
    let filled = |g: usize| boxes.contains(&(g as u16));
    let current = layers
        .iter()
        .position(|goals| !goals.iter().all(|&g| filled(g)));
    current.is_none_or(|k| layers[k + 1..].iter().flatten().all(|&g| !filled(g)))
}

/// The board's groups of goals 4-connected through goals, each a room candidate.
pub(super) fn goal_groups(board: &Board) -> Vec<Vec<usize>> {
    let mut seen = vec![false; board.len()];
    let mut groups = Vec::new();
    for &goal in &board.goals {
        if !seen[goal] {
            groups.push(goal_group(board, goal, &mut seen));
        }
    }
    groups
}

/// The goals 4-connected to `goal` through goals, marked in `seen`.
fn goal_group(board: &Board, goal: usize, seen: &mut [bool]) -> Vec<usize> {
    let mut cells = vec![goal];
    seen[goal] = true;
    let mut head = 0;
    while head < cells.len() {
        let cell = cells[head];
        head += 1;
        for dir in 0..4 {
            let to = board.step(cell, dir);
            if board.goal[to] && !seen[to] {
                seen[to] = true;
                cells.push(to);
            }
        }
    }
    cells
}

/// A connected group of goals and its packing order, first layer to fill first, when
/// [`packing_layers`] finds one within the level's [`ORDER_WORK`].
pub struct GoalGroup {
    pub cells: Vec<usize>,
    pub layers: Option<Vec<Vec<usize>>>,
}

/// The cells the pull searches that order a level's goal groups may visit in all.
/// Each box of a group may walk the player over the floor once per state it is pulled
/// to, for every layer: on a level of thousands of goals that is hours of start-up
/// before the first position, which no time limit would stop. Past it a group has no
/// order (one layer, no macros). Counted in cells, not time, so the same level always
/// gets the same orders: 2²³ cells take about 60 ms; the levels of the three given
/// collections visit at most 204,184 (Sasquatch).
const ORDER_WORK: usize = 1 << 23;

/// The board's goal groups with their packing orders for boxes starting at `start`,
/// computed once for the search's rooms and packing feature.
pub fn ordered_goal_groups(board: &Board, start: &[u16]) -> Vec<GoalGroup> {
    ordered_within(board, start, ORDER_WORK)
}

/// [`ordered_goal_groups`] with `work` cells to visit.
fn ordered_within(board: &Board, start: &[u16], mut work: usize) -> Vec<GoalGroup> {
    goal_groups(board)
        .into_iter()
        .map(|cells| {
            let layers = packing_layers(board, &cells, start, &mut work);
            GoalGroup { cells, layers }
        })
        .collect()
}

/// The layers of a room, first to fill first: start from every goal of it holding a
/// box (no other box on the board), pull out every box that can leave, and repeat; the
/// removals, last first. `None` when some box cannot leave, or when the pulls would
/// visit more than `work` cells (what they visit is taken from it). A box leaves when
/// pulls take it back to a cell one of the `start` boxes off the room stands on (off the
/// room's goals when there is none, or when that finds no order): a box pulled only
/// into a pocket next to the room came through no door a box can use.
fn packing_layers(
    board: &Board,
    cells: &[usize],
    start: &[u16],
    work: &mut usize,
) -> Option<Vec<Vec<usize>>> {
    // No order back to the starting cells (no box can get back to one): off the goals.
    layers_to(board, cells, start, work).or_else(|| layers_to(board, cells, &[], work))
}

/// [`packing_layers`], a box leaving at a starting cell of `start` (none: off the goals).
fn layers_to(
    board: &Board,
    cells: &[usize],
    start: &[u16],
    work: &mut usize,
) -> Option<Vec<Vec<usize>>> {
    let mut occupancy = vec![EMPTY; board.len()];
    let mut walk = Reach::new(board.len());
    // Where the boxes come from: the starting cells off the room's goals.
    let mut source = vec![false; board.len()];
    let mut sources = 0;
    for &b in start {
        let b = usize::from(b);
        if !cells.contains(&b) {
            source[b] = true;
            sources += 1;
        }
    }
    for &c in cells {
        occupancy[c] = BOX;
    }
    let mut left: Vec<usize> = cells.to_vec();
    let mut layers = Vec::new();
    while !left.is_empty() {
        *work = work.checked_sub(board.len())?;
        let outside = player_area(board, &occupancy, cells);
        let pulls = Pulls {
            outside: &outside,
            source: (sources > 0).then_some(&source),
        };
        let mut leaving = Vec::new();
        let mut staying = Vec::new();
        for &b in &left {
            match can_leave(board, &mut occupancy, &mut walk, pulls, b, work)? {
                true => leaving.push(b),
                false => staying.push(b),
            }
        }
        if leaving.is_empty() {
            return None;
        }
        for &b in &leaving {
            occupancy[b] = EMPTY;
        }
        layers.push(leaving);
        left = staying;
    }
    layers.reverse();
    Some(layers)
}

/// Where the player may stand in the reverse play: every free cell connected to a free
/// cell off the room's goals.
fn player_area(board: &Board, occupancy: &[u8], cells: &[usize]) -> Vec<bool> {
    let in_room: HashSet<usize> = cells.iter().copied().collect();
    let mut seen = vec![false; board.len()];
    let mut stack: Vec<usize> = (0..board.len())
        .filter(|&c| board.floor[c] && occupancy[c] == EMPTY && !in_room.contains(&c))
        .collect();
    for &c in &stack {
        seen[c] = true;
    }
    while let Some(cell) = stack.pop() {
        for dir in 0..4 {
            let to = board.step(cell, dir);
            if board.floor[to] && occupancy[to] == EMPTY && !seen[to] {
                seen[to] = true;
                stack.push(to);
            }
        }
    }
    seen
}

/// Where a box leaving a room may be pulled from and to.
#[derive(Clone, Copy)]
struct Pulls<'a> {
    /// Where the player may stand before the first pull.
    outside: &'a [bool],
    /// Where the box has left (without: anywhere off the goals).
    source: Option<&'a Vec<bool>>,
}

/// Whether pulls can take the box at `start` to a `source` cell (without sources: off
/// the goals), other boxes fixed, the player starting anywhere in `outside`; `None` when
/// the player's walks would visit more than `work` cells (what they visit is taken).
fn can_leave(
    board: &Board,
    occupancy: &mut [u8],
    walk: &mut Reach,
    pulls: Pulls<'_>,
    start: usize,
    work: &mut usize,
) -> Option<bool> {
    let Pulls { outside, source } = pulls;
    occupancy[start] = EMPTY;
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    queue.push_back((start, None::<usize>));
    let mut answer = Some(false);
    while let Some((cell, player)) = queue.pop_front() {
        // Where the player can walk, the pulled box at `cell` in its way.
        if let Some(p) = player {
            occupancy[cell] = BOX;
            walk.explore(board, occupancy, p);
            occupancy[cell] = EMPTY;
            match work.checked_sub(walk.visited()) {
                Some(left) => *work = left,
                None => {
                    answer = None;
                    break;
                }
            }
        }
        // With `source`, the box has left when it gets back to a starting box's cell: a
        // box pulled off the goals into a pocket (a door that only the player can use,
        // the box stuck in front of it) has not left, and the goal it came from is not
        // one to fill from there.
        if source.map_or(!board.goal[cell], |s| s[cell]) {
            answer = Some(true);
            break;
        }
        let reached = |c: usize| match player {
            Some(_) => walk.reached(c),
            None => outside[c] && c != cell,
        };
        for dir in 0..4 {
            // The player stands at `cell + dir` and steps back to `cell + 2·dir`,
            // drawing the box one cell in `dir`.
            let stand = board.step(cell, dir);
            let back = board.step(stand, dir);
            if !reached(stand) || !board.floor[back] || occupancy[back] != EMPTY {
                continue;
            }
            if seen.insert((stand, dir)) {
                queue.push_back((stand, Some(back)));
            }
        }
    }
    occupancy[start] = BOX;
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::testing::{puzzle, room};

    /// A goal column filled from the bottom; the box two cells from its entrance.
    const COLUMN: [&str; 6] = [
        "#######", "#.#####", "#.#####", "#.  $@#", "#     #", "#######",
    ];

    #[test]
    fn the_advisor_pushes_a_ready_box_onto_the_next_goal() {
        let (board, start) = Board::new(&puzzle(&COLUMN));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut rooms = GoalRooms::new(&board, &ordered_goal_groups(&board, &boxes), &boxes);
        // Not at an entrance: no goal macro.
        assert!(rooms.macros(&board, &boxes, start.player).is_empty());
        let ready = [start.boxes[0]];
        let advice = rooms.advice(&board, &boxes, start.player, &ready);
        assert_eq!(advice.len(), 1);
        // Three pushes left into the column, two up to its top goal.
        let m = &advice[0];
        assert_eq!(m.pushes.len(), 5);
        assert_eq!(m.boxes, [board.goals[0] as u16]);
        assert!(rooms.advice(&board, &boxes, start.player, &[]).is_empty());
    }

    /// The pull searches that order the rooms stop at their work: the same room has an
    /// order with enough and none with too little, never a partial one.
    #[test]
    fn a_room_past_the_ordering_work_has_no_order() {
        let (board, start) = Board::new(&puzzle(&COLUMN));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let ordered = |work| ordered_within(&board, &boxes, work)[0].layers.clone();
        let layers = ordered(ORDER_WORK).expect("the column has an order");
        // Filled one goal at a time, from the top.
        assert_eq!(layers.len(), 3);
        assert_eq!(ordered(10), None);
        assert_eq!(ordered(0), None);
        let rooms = GoalRooms::new(&board, &ordered_within(&board, &boxes, 0), &boxes);
        assert!(rooms.rooms.is_empty());
    }

    /// On a vast open floor a macro's push search stops at its work: a box far from the
    /// room gets no advice (each state walks the whole floor), one next to it does.
    #[test]
    fn a_push_search_past_its_work_gives_no_macro() {
        let side = 60;
        let mut top = vec!["...".to_string(), "@  $".to_string()];
        top.extend(std::iter::repeat_n(String::new(), side / 2));
        top.push(format!("{}$ $", " ".repeat(side / 2)));
        let (board, start) = Board::new(&room(side, side + 3, &top));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut rooms = GoalRooms::new(&board, &ordered_goal_groups(&board, &boxes), &boxes);
        let (near, far) = (start.boxes[0], start.boxes[1]);
        let advice = rooms.advice(&board, &boxes, start.player, &[near]);
        assert_eq!(advice.len(), 1);
        assert!(rooms
            .advice(&board, &boxes, start.player, &[far])
            .is_empty());
    }
}
