//! The exact search: fewest pushes, then fewest moves, over (box cell, player side) states.
//!
//! Pushes advance in layers (every push adds exactly one), so no priority queue is
//! needed: a state first reached in layer k has exactly k pushes, and its moves are the
//! minimum over the layer's entries at that box cell of `entry moves + walk distance`.
//! Walks between sides satisfy the triangle inequality, so one walk per entry suffices.
//!
//! A layer is settled one box cell at a time, in memory order: all of a cell's entries
//! are known together, so each state is written once, already final, and the pushes out
//! of it go straight into the next layer's per-side lists — which come out sorted,
//! because a push shifts every cell of a side by the same offset.

use std::sync::atomic::AtomicBool;

use super::blocks::Blocks;
use super::board::{corner_bit, opposite, sides_in, Board, EAST, NORTH, PUSH_LETTERS, SOUTH, WEST};
use super::walk::{Walk, Walker};
use super::window::BitBoard;
use super::{poll, Cancelled, Solution};

const UNREACHED: u32 = u32::MAX;
/// The bit of [`Search::cells`] for a free cell.
const FREE: u16 = 1 << 4;
/// The first of [`Search::cells`]'s parent bits.
const PARENTS: usize = 8;

/// A state index: `box_cell * 4 + side`, where `side` is the direction from the box to
/// the player.
type State = usize;

fn state(cell: usize, side: usize) -> State {
    cell * 4 + side
}

/// A box cell entered by a push, with the moves so far; the side is the list it is in.
#[derive(Clone, Copy)]
struct Entry {
    cell: u32,
    moves: u32,
}

/// One layer's entries, one list per player side, each sorted by cell.
type Layer = [Vec<Entry>; 4];

/// An optimal end: the box was pushed onto the target from `last`.
pub struct Found {
    pub pushes: u64,
    pub moves: u64,
    last: State,
}

/// Cells a walk round the box may visit before other means are tried.
const NEAR: usize = 128;

pub struct Search<'a> {
    board: &'a Board,
    /// Computed on first need: most mazes never need them.
    blocks: Option<Blocks>,
    cancel: &'a AtomicBool,
    walker: Walker,
    /// For walks of up to twelve steps without a [`Walker`]; built on first need.
    bits: Option<BitBoard>,
    /// Per cell: bits 0–3 the settled sides, [`FREE`], and from bit 8 two bits per
    /// side for the side its push came in on (the side itself when the state was
    /// entered directly, or reached by the walk from the start). A state's moves are
    /// never needed once it is settled (the entries carry them), so this is all the
    /// search keeps per cell: reading a cell's ring for its detours also brings in the
    /// lines the pushes out of it check.
    cells: Vec<u16>,
    /// The best push onto the target out of the layer being settled: (from, moves).
    found: Option<(State, u32)>,
    /// Cells that walks past [`NEAR`] may still visit before the blocks are computed:
    /// a few long detours are cheaper than the blocks, many are not.
    walk_budget: usize,
}

/// How the search ended.
pub enum Ending {
    Found(Found),
    /// The player reaches no side of the box.
    BoxUnreachable,
    /// Every reachable state was explored without reaching the target.
    Exhausted,
}

impl<'a> Search<'a> {
    pub fn new(board: &'a Board, cancel: &'a AtomicBool) -> Search<'a> {
        Search {
            board,
            blocks: None,
            cancel,
            walker: Walker::new(board.len()),
            bits: None,
            cells: board
                .free
                .iter()
                .map(|&free| u16::from(free) * FREE)
                .collect(),
            found: None,
            walk_budget: board.len() / 8,
        }
    }

    pub fn run(&mut self) -> Result<Ending, Cancelled> {
        let mut next = Layer::default();
        if !self.start(&mut next) {
            return Ok(Ending::BoxUnreachable);
        }
        let mut current = Layer::default();
        // The pushes of the entries in `next`.
        let mut pushes = 1u64;
        loop {
            if let Some((last, moves)) = self.found {
                return Ok(Ending::Found(Found {
                    pushes,
                    moves: u64::from(moves),
                    last,
                }));
            }
            if next.iter().all(Vec::is_empty) {
                return Ok(Ending::Exhausted);
            }
            std::mem::swap(&mut current, &mut next);
            next.iter_mut().for_each(Vec::clear);
            self.settle_layer(&current, &mut next)?;
            pushes += 1;
        }
    }

    /// Layer 0: the sides of the box the player can walk to from the start.
    fn start(&mut self, next: &mut Layer) -> bool {
        let board = self.board;
        let sides = free_sides(board, board.boxed);
        let targets: Vec<usize> = sides
            .iter()
            .map(|&(_, c)| c)
            .filter(|&c| c != usize::MAX)
            .collect();
        self.walker
            .search(board, board.player, board.boxed, &targets, usize::MAX);
        let mut reached = false;
        for (side, cell) in sides {
            if cell == usize::MAX {
                continue;
            }
            if let Some(distance) = self.walker.distance(cell) {
                self.settle(board.boxed, side, distance, side, next);
                reached = true;
            }
        }
        reached
    }

    /// Settles every box cell the layer's entries reach, in cell order (a merge of the
    /// four sorted side lists), filling `next` with the pushes out of them.
    fn settle_layer(&mut self, layer: &Layer, next: &mut Layer) -> Result<(), Cancelled> {
        let mut heads = [0usize; 4];
        for done in 0.. {
            poll(self.cancel, done)?;
            let fronts: [Option<Entry>; 4] =
                std::array::from_fn(|side| layer[side].get(heads[side]).copied());
            let Some(cell) = fronts.iter().flatten().map(|e| e.cell).min() else {
                break;
            };
            let mut entered = [UNREACHED; 4];
            for (side, front) in fronts.iter().enumerate() {
                if let Some(entry) = front.filter(|e| e.cell == cell) {
                    entered[side] = entry.moves;
                    heads[side] += 1;
                }
            }
            self.settle_cell(cell as usize, entered, next)?;
        }
        Ok(())
    }

    /// Settles the states of one box cell from the moves of the pushes that entered it
    /// this layer (per side, [`UNREACHED`] for none).
    fn settle_cell(
        &mut self,
        cell: usize,
        entered: [u32; 4],
        next: &mut Layer,
    ) -> Result<(), Cancelled> {
        let ring = self.ring(cell);
        // Free sides not settled by an earlier layer. An entry into a settled state adds
        // nothing: whatever it walks to was reached from that state's layer already.
        let open = ring & 0xF & !(self.cells[cell] as u8);
        let mut best = [UNREACHED; 4];
        let mut parent = [0, 1, 2, 3];
        for side in sides_in(open) {
            best[side] = entered[side];
        }
        for from in sides_in(open).filter(|&side| entered[side] != UNREACHED) {
            let wanted = open & !(1 << from);
            let distances = self.distances(cell, from, ring, wanted)?;
            for to in sides_in(wanted) {
                let moves = entered[from].saturating_add(distances[to]);
                if distances[to] != UNREACHED && moves < best[to] {
                    best[to] = moves;
                    parent[to] = from;
                }
            }
        }
        for side in sides_in(open).filter(|&side| best[side] != UNREACHED) {
            self.settle(cell, side, best[side], parent[side], next);
        }
        Ok(())
    }

    /// The eight cells around an interior `cell` as a ring: the four sides at their
    /// direction's bit, the corners at [`corner_bit`]; set bits are free.
    fn ring(&self, cell: usize) -> u8 {
        let width = self.board.width;
        let (above, below) = (cell - width, cell + width);
        let bit = |at: usize, shift: usize| (((self.cells[at] & FREE) >> 4) as u8) << shift;
        bit(above, NORTH)
            | bit(below, SOUTH)
            | bit(cell - 1, WEST)
            | bit(cell + 1, EAST)
            | bit(above - 1, corner_bit(NORTH, WEST))
            | bit(above + 1, corner_bit(NORTH, EAST))
            | bit(below - 1, corner_bit(SOUTH, WEST))
            | bit(below + 1, corner_bit(SOUTH, EAST))
    }

    /// Settles a state and queues the push out of it with its moves.
    fn settle(&mut self, cell: usize, side: usize, moves: u32, parent: usize, next: &mut Layer) {
        self.cells[cell] |= 1 << side | (parent as u16) << (PARENTS + 2 * side);
        let board = self.board;
        let to = board.step(cell, opposite(side));
        let mark = self.cells[to];
        if mark & FREE == 0 {
            return;
        }
        let moves = moves.saturating_add(1);
        if to == board.target {
            if self.found.is_none_or(|(_, best)| moves < best) {
                self.found = Some((state(cell, side), moves));
            }
        } else if mark & (1 << side) == 0 {
            next[side].push(Entry {
                cell: to as u32,
                moves,
            });
        }
    }

    /// The walk distances from side `from` of the box at `cell` to each side in the
    /// mask `wanted` ([`UNREACHED`] where there is no way round): O(1) detours first,
    /// then the bit-parallel search of the window round the box, then a walk of at most
    /// [`NEAR`] cells, then the same backwards, then a longer walk while
    /// [`Search::walk_budget`] lasts, and only then the blocks and a walk as long as it
    /// takes.
    fn distances(
        &mut self,
        cell: usize,
        from: usize,
        ring: u8,
        wanted: u8,
    ) -> Result<[u32; 4], Cancelled> {
        let mut distances = [UNREACHED; 4];
        let mut near = 0u8;
        for to in sides_in(wanted) {
            match local_detour(ring, from, to) {
                Some(distance) => distances[to] = distance,
                None if self.cut_off(cell, from, to) => {}
                None => near |= 1 << to,
            }
        }
        if near == 0 {
            return Ok(distances);
        }
        let far = self.window_distances(cell, from, near, &mut distances);
        if far.len > 0 {
            self.walked_distances(cell, from, &far, &mut distances)?;
        }
        Ok(distances)
    }

    /// Fills in the distances to the sides in `near` that the window round the box
    /// answers; returns the others.
    fn window_distances(
        &mut self,
        cell: usize,
        from: usize,
        near: u8,
        distances: &mut [u32; 4],
    ) -> Sides {
        let board = self.board;
        let mut far = Sides::default();
        let bits = self.bits.get_or_insert_with(|| BitBoard::new(board));
        for (to, answer) in bits.distances(cell, from, near).into_iter().enumerate() {
            match answer {
                _ if near & (1 << to) == 0 => {}
                Some(distance) => distances[to] = distance.unwrap_or(UNREACHED),
                None => far.push(to, board.step(cell, to)),
            }
        }
        far
    }

    /// Fills in the distances to the `far` sides by walking: bounded walks both ways and
    /// within the budget, then the blocks and a walk as long as it takes (at once, when
    /// the blocks are already known).
    fn walked_distances(
        &mut self,
        cell: usize,
        from: usize,
        far: &Sides,
        distances: &mut [u32; 4],
    ) -> Result<(), Cancelled> {
        let board = self.board;
        let start = board.step(cell, from);
        // With the blocks known, the far sides are all reachable (the others were
        // dropped): a bounded walk first would only be repeated.
        let limit = if self.blocks.is_some() {
            usize::MAX
        } else {
            NEAR
        };
        let walk = self.walker.search(board, start, cell, far.cells(), limit);
        let mut undecided = Sides::default();
        for &(to, around) in far.entries() {
            match self.walker.distance(around) {
                Some(distance) => distances[to] = distance,
                None if walk == Walk::Stopped => undecided.push(to, around),
                None => {}
            }
        }
        // The walk from `from` ran out of room; from the other side, or with more room
        // while the budget lasts, it may not.
        let mut long = Sides::default();
        for &(to, around) in undecided.entries() {
            let decided = if self.blocks.is_none() {
                self.walk_distance(around, start, cell, NEAR)
                    .or_else(|| self.budgeted_distance(start, around, cell))
            } else {
                None
            };
            match decided {
                Some(distance) => distances[to] = distance,
                None if self.blocks()?.connected_around(cell, from, to) => long.push(to, around),
                None => {}
            }
        }
        if long.len > 0 {
            self.walker
                .search(board, start, cell, long.cells(), usize::MAX);
            for &(to, around) in long.entries() {
                distances[to] = self.walker.distance(around).unwrap_or(UNREACHED);
            }
        }
        Ok(())
    }

    /// The walk distance between two cells round the box at `obstacle` ([`UNREACHED`]
    /// for none), or `None` if a walk of `limit` cells cannot tell.
    fn walk_distance(
        &mut self,
        from: usize,
        to: usize,
        obstacle: usize,
        limit: usize,
    ) -> Option<u32> {
        match self.walker.search(self.board, from, obstacle, &[to], limit) {
            Walk::Reached => Some(self.walker.distance(to).unwrap_or(UNREACHED)),
            Walk::Exhausted => Some(UNREACHED),
            Walk::Stopped => None,
        }
    }

    /// [`Search::walk_distance`] with what is left of [`Search::walk_budget`].
    fn budgeted_distance(&mut self, from: usize, to: usize, obstacle: usize) -> Option<u32> {
        let distance = self.walk_distance(from, to, obstacle, self.walk_budget);
        self.walk_budget = self.walk_budget.saturating_sub(self.walker.visited());
        distance
    }

    /// Whether the blocks, if already computed, say the player cannot get from side
    /// `from` of the box at `cell` to side `to`.
    fn cut_off(&self, cell: usize, from: usize, to: usize) -> bool {
        self.blocks
            .as_ref()
            .is_some_and(|blocks| !blocks.connected_around(cell, from, to))
    }

    /// The biconnected blocks, computed the first time they are needed.
    fn blocks(&mut self) -> Result<&Blocks, Cancelled> {
        match &mut self.blocks {
            Some(blocks) => Ok(blocks),
            slot @ None => Ok(slot.insert(Blocks::new(self.board, self.cancel)?)),
        }
    }

    pub fn into_blocks(self) -> Option<Blocks> {
        self.blocks
    }

    /// The solution a search found: counts and move string.
    pub fn solution(&mut self, found: &Found) -> Solution {
        Solution {
            pushes: found.pushes,
            moves: found.moves,
            path: self.path(found),
        }
    }

    /// The move string of a found solution, rebuilt backwards from its last push.
    fn path(&mut self, found: &Found) -> String {
        let board = self.board;
        let mut pieces: Vec<Vec<u8>> = vec![vec![PUSH_LETTERS[opposite(found.last % 4)]]];
        let (mut cell, mut side) = (found.last / 4, found.last % 4);
        // Pushes before the one onto the target: when none are left, this is a state of
        // layer 0, reached by the walk from the start.
        let mut pushes_before = found.pushes - 1;
        loop {
            if pushes_before == 0 {
                let walk = self
                    .walker
                    .path(board, board.player, board.step(cell, side), cell);
                pieces.push(walk.unwrap_or_else(unconnected));
                break;
            }
            let entered = usize::from(self.cells[cell] >> (PARENTS + 2 * side)) & 3;
            if entered != side {
                let from = board.step(cell, entered);
                let walk = self.walker.path(board, from, board.step(cell, side), cell);
                pieces.push(walk.unwrap_or_else(unconnected));
            }
            pieces.push(vec![PUSH_LETTERS[opposite(entered)]]);
            (cell, side) = (board.step(cell, entered), entered);
            pushes_before -= 1;
        }
        // Every piece is ASCII move letters.
        pieces.into_iter().rev().flatten().map(char::from).collect()
    }
}

/// A walk the search relied on is missing when the path is rebuilt: a solver bug.
/// Failing loudly beats printing a wrong move string (the server turns the panic into
/// an `internal-error` diagnostic).
#[cold]
fn unconnected() -> Vec<u8> {
    panic!("solver bug: no walk between two sides the search connected")
}

/// Up to four sides of a box cell, without allocating: (direction, side cell).
#[derive(Default)]
struct Sides {
    sides: [(usize, usize); 4],
    cells: [usize; 4],
    len: usize,
}

impl Sides {
    fn push(&mut self, side: usize, cell: usize) {
        self.sides[self.len] = (side, cell);
        self.cells[self.len] = cell;
        self.len += 1;
    }

    fn entries(&self) -> &[(usize, usize)] {
        &self.sides[..self.len]
    }

    fn cells(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

/// The walk from side `from` to side `to` of a box whose ring of eight cells is `ring`,
/// when a detour within the ring settles it exactly; `None` means "search further".
///
/// Grid walks between two sides have even length. Perpendicular sides: 2 round a free
/// corner; with the corner blocked no walk of 4 exists (the only length-2 path is
/// through the corner and every length-4 one needs the corner or the box), so the
/// 6-step walk back round the box is optimal when it is free. Opposite sides: a walk of
/// 2 would cross the box, so 4 round a free side is optimal. One lookup in [`DETOURS`].
pub(crate) fn local_detour(ring: u8, from: usize, to: usize) -> Option<u32> {
    match DETOURS[usize::from(ring)][from][to] {
        0 => None,
        distance => Some(u32::from(distance)),
    }
}

/// [`local_detour`]'s answers within the ring, per ring and pair of sides (0: unknown).
static DETOURS: [[[u8; 4]; 4]; 256] = detours();

const fn detours() -> [[[u8; 4]; 4]; 256] {
    let mut table = [[[0; 4]; 4]; 256];
    let mut ring = 0;
    while ring < 256 {
        let mut from = 0;
        while from < 4 {
            let mut to = 0;
            while to < 4 {
                if from != to {
                    table[ring][from][to] = ring_detour(ring as u8, from, to);
                }
                to += 1;
            }
            from += 1;
        }
        ring += 1;
    }
    table
}

/// The shortest detour from side `from` to side `to` that stays in the ring, if it is
/// provably optimal (see [`local_detour`]); 0 otherwise.
const fn ring_detour(ring: u8, from: usize, to: usize) -> u8 {
    let (back_from, back_to) = (from ^ 1, to ^ 1);
    if to != back_from {
        if is_set(ring, corner_bit(from, to)) {
            return 2;
        }
        let round_the_box = is_set(ring, corner_bit(from, back_to))
            && is_set(ring, back_to)
            && is_set(ring, corner_bit(back_from, back_to))
            && is_set(ring, back_from)
            && is_set(ring, corner_bit(back_from, to));
        return if round_the_box { 6 } else { 0 };
    }
    let across = if from < 2 { [2, 3] } else { [0, 1] };
    let mut i = 0;
    while i < 2 {
        let dir = across[i];
        if is_set(ring, corner_bit(from, dir))
            && is_set(ring, dir)
            && is_set(ring, corner_bit(to, dir))
        {
            return 4;
        }
        i += 1;
    }
    0
}

const fn is_set(ring: u8, bit: usize) -> bool {
    ring & (1 << bit) != 0
}

/// The four sides of `cell` as (direction, neighbour), with `usize::MAX` for rock.
pub fn free_sides(board: &Board, cell: usize) -> [(usize, usize); 4] {
    std::array::from_fn(|dir| {
        let n = board.step(cell, dir);
        (dir, if board.is_free(n) { n } else { usize::MAX })
    })
}
