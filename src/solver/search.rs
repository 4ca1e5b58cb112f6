//! The exact search: fewest pushes, then fewest moves, over (box cell, player side) states.
//!
//! Pushes advance in layers (every push adds exactly one), so no priority queue is
//! needed: a state first reached in layer k has exactly k pushes, and within a layer
//! its moves are the minimum over the layer's entries at that box cell of
//! `entry moves + walk distance`. Walks between sides satisfy the triangle inequality,
//! so one walk per entry suffices. A state is final only once its whole layer is done,
//! which is what keeps the fewest-moves tie-break exact.

use std::sync::atomic::{AtomicBool, Ordering};

use super::blocks::Blocks;
use super::board::{opposite, Board, PUSH_LETTERS};
use super::walk::Walker;
use super::{poll, Cancelled, Solution};

const UNREACHED: u32 = u32::MAX;
/// Parent marker of layer-0 states: reached by walking from the player's start.
const FROM_START: u8 = 4;

/// A state index: `box_cell * 4 + side`, where `side` is the direction from the box to
/// the player.
type State = usize;

/// A state entered by a push, with its moves so far.
type Entry = (State, u32);

fn state(cell: usize, side: usize) -> State {
    cell * 4 + side
}

/// An optimal end: the box was pushed onto the target from `last`.
pub struct Found {
    pub pushes: u64,
    pub moves: u64,
    last: State,
}

/// Cells a walk round the box may visit before the biconnected blocks are consulted.
const NEAR: usize = 128;
/// Boards at least this large compute their blocks up front.
const EAGER_BLOCKS: usize = 1 << 16;

pub struct Search<'a> {
    board: &'a Board,
    /// Computed on first need: most mazes never need them.
    blocks: Option<Blocks>,
    cancel: &'a AtomicBool,
    pub walker: Walker,
    /// The four states of each box cell together: settling a cell touches one record.
    slots: Vec<Slot>,
}

#[derive(Clone, Copy)]
struct Slot {
    moves: [u32; 4],
    /// For each state, the side its layer's entry came in on, or [`FROM_START`].
    parent: [u8; 4],
    /// Bit `side`: the state is final (its layer is done).
    finals: u8,
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
    pub fn new(board: &'a Board, cancel: &'a AtomicBool) -> Result<Search<'a>, Cancelled> {
        // Large mazes will need the blocks; computing them before the state arrays
        // exist keeps the peak memory down (their depth-first search is transient).
        let blocks = if board.len() >= EAGER_BLOCKS {
            Some(Blocks::new(board, cancel)?)
        } else {
            None
        };
        let fresh = Slot {
            moves: [UNREACHED; 4],
            parent: [FROM_START; 4],
            finals: 0,
        };
        Ok(Search {
            board,
            blocks,
            cancel,
            walker: Walker::new(board.len()),
            slots: vec![fresh; board.len()],
        })
    }

    pub fn run(&mut self) -> Result<Ending, Cancelled> {
        let mut layer = self.start();
        if layer.is_empty() {
            return Ok(Ending::BoxUnreachable);
        }
        let mut pushes = 0u64;
        let mut entries = Vec::new();
        while !layer.is_empty() {
            self.check_cancel()?;
            for &s in &layer {
                self.slots[s / 4].finals |= 1 << (s % 4);
            }
            pushes += 1;
            if let Some((last, moves)) = self.push_all(&layer, &mut entries) {
                return Ok(Ending::Found(Found {
                    pushes,
                    moves,
                    last,
                }));
            }
            layer.clear();
            // Memory order: entries at neighbouring cells share cache lines. The entries
            // arrive as a few sorted runs (one per side and part of the layer), which
            // the stable sort merges in near-linear time.
            entries.sort_by_key(|&(s, _)| s);
            self.expand(&entries, &mut layer)?;
        }
        Ok(Ending::Exhausted)
    }

    fn check_cancel(&self) -> Result<(), Cancelled> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }

    fn moves(&self, s: State) -> u32 {
        self.slots[s / 4].moves[s % 4]
    }

    fn is_final(&self, s: State) -> bool {
        self.slots[s / 4].finals & (1 << (s % 4)) != 0
    }

    /// Layer 0: the sides of the box the player can walk to from the start.
    fn start(&mut self) -> Vec<State> {
        let board = self.board;
        let sides = free_sides(board, board.boxed);
        let targets: Vec<usize> = sides
            .iter()
            .map(|&(_, c)| c)
            .filter(|&c| c != usize::MAX)
            .collect();
        self.walker
            .search(board, board.player, board.boxed, &targets, usize::MAX);
        let mut layer = Vec::new();
        for (side, cell) in sides {
            if cell == usize::MAX {
                continue;
            }
            if let Some(dist) = self.walker.distance(cell) {
                let s = state(board.boxed, side);
                self.slots[s / 4].moves[s % 4] = dist;
                self.slots[s / 4].parent[s % 4] = FROM_START;
                layer.push(s);
            }
        }
        layer
    }

    /// Every push out of the layer's states: fills `entries` with the next layer's
    /// entries (state, moves) and returns the best push onto the target, if any.
    fn push_all(&self, layer: &[State], entries: &mut Vec<Entry>) -> Option<(State, u64)> {
        let board = self.board;
        entries.clear();
        let mut found: Option<(State, u64)> = None;
        for &s in layer {
            let (cell, side) = (s / 4, s % 4);
            let next = board.step(cell, opposite(side));
            if !board.is_free(next) {
                continue;
            }
            let moves = self.moves(s).saturating_add(1);
            if next == board.target {
                if found.is_none_or(|(_, best)| u64::from(moves) < best) {
                    found = Some((s, u64::from(moves)));
                }
            } else if !self.is_final(state(next, side)) {
                entries.push((state(next, side), moves));
            }
        }
        found
    }

    /// Settles the layer reached by `entries`: each entry, then the walks from it to the
    /// other sides of its box cell.
    fn expand(&mut self, entries: &[Entry], layer: &mut Vec<State>) -> Result<(), Cancelled> {
        for &(s, moves) in entries {
            self.relax(s, moves, (s % 4) as u8, layer);
        }
        for (done, &(s, moves)) in entries.iter().enumerate() {
            poll(self.cancel, done)?;
            self.walk_around(s, moves, layer)?;
        }
        Ok(())
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

    /// Relaxes the other sides of an entry's box cell: O(1) detours first, then a walk
    /// of at most [`NEAR`] cells, then the blocks decide whether a long walk can succeed.
    fn walk_around(
        &mut self,
        entry: State,
        moves: u32,
        layer: &mut Vec<State>,
    ) -> Result<(), Cancelled> {
        let board = self.board;
        let (cell, side) = (entry / 4, entry % 4);
        let start = board.step(cell, side);
        let mut distances: [Option<u32>; 4] = [None; 4];
        // Sides whose distance needs a walk, as (side, cell), in direction order.
        let mut far = Sides::default();
        for (other, distance) in distances.iter_mut().enumerate() {
            let around = board.step(cell, other);
            if other == side || !board.is_free(around) || self.is_final(state(cell, other)) {
                continue;
            }
            *distance = local_detour(board, cell, side, other);
            // Once the blocks exist, a side they say is cut off costs nothing.
            let cut_off = || {
                self.blocks
                    .as_ref()
                    .is_some_and(|b| !b.connected_around(cell, side, other))
            };
            if distance.is_none() && !cut_off() {
                far.push(other, around);
            }
        }
        if far.len > 0 {
            if !self.walker.search(board, start, cell, far.cells(), NEAR) {
                let mut unreached = Sides::default();
                for &(other, around) in far.entries() {
                    if self.walker.distance(around).is_none() {
                        unreached.push(other, around);
                    }
                }
                let blocks = self.blocks()?;
                let mut reachable = Sides::default();
                for &(other, around) in unreached.entries() {
                    if blocks.connected_around(cell, side, other) {
                        reachable.push(other, around);
                    }
                }
                if reachable.len > 0 {
                    self.walker
                        .search(board, start, cell, reachable.cells(), usize::MAX);
                }
            }
            for &(other, around) in far.entries() {
                distances[other] = self.walker.distance(around);
            }
        }
        for (other, distance) in distances.into_iter().enumerate() {
            if let Some(distance) = distance {
                self.relax(
                    state(cell, other),
                    moves.saturating_add(distance),
                    side as u8,
                    layer,
                );
            }
        }
        Ok(())
    }

    fn relax(&mut self, s: State, moves: u32, parent: u8, layer: &mut Vec<State>) {
        if self.is_final(s) {
            return;
        }
        let slot = &mut self.slots[s / 4];
        if slot.moves[s % 4] == UNREACHED {
            layer.push(s);
        } else if moves >= slot.moves[s % 4] {
            return;
        }
        slot.moves[s % 4] = moves;
        slot.parent[s % 4] = parent;
    }

    /// The solution a search found: counts and move string.
    pub fn solution(&mut self, found: &Found) -> Solution {
        Solution {
            pushes: found.pushes,
            moves: found.moves,
            path: self.path(found),
        }
    }

    /// The move string of a found solution.
    fn path(&mut self, found: &Found) -> String {
        let board = self.board;
        let mut pieces: Vec<Vec<u8>> = vec![vec![PUSH_LETTERS[opposite(found.last % 4)]]];
        let mut s = found.last;
        loop {
            let (cell, side) = (s / 4, s % 4);
            let parent = self.slots[s / 4].parent[s % 4];
            if parent == FROM_START {
                let walk = self
                    .walker
                    .path(board, board.player, board.step(cell, side), cell);
                pieces.push(walk.unwrap_or_default());
                break;
            }
            let entered = usize::from(parent);
            if entered != side {
                let from = board.step(cell, entered);
                let walk = self.walker.path(board, from, board.step(cell, side), cell);
                pieces.push(walk.unwrap_or_default());
            }
            pieces.push(vec![PUSH_LETTERS[opposite(entered)]]);
            s = state(board.step(cell, entered), entered);
        }
        let bytes: Vec<u8> = pieces.into_iter().rev().flatten().collect();
        String::from_utf8(bytes).unwrap_or_default()
    }
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

/// The walk from side `from` to side `to` of the box at `cell` when a short local
/// detour settles it exactly; `None` means "search".
///
/// Grid walks between two sides have even length. Perpendicular sides: 2 round a free
/// corner; with the corner blocked no walk of 4 exists (the only length-2 path is
/// through the corner and every length-4 one needs the corner or the box), so a free
/// 6-step walk — back round the box, or round the blocked corner — is optimal.
/// Opposite sides: a walk of 2 would cross the box, so 4 round a free side is optimal.
fn local_detour(board: &Board, cell: usize, from: usize, to: usize) -> Option<u32> {
    let start = board.step(cell, from);
    let (back_from, back_to) = (opposite(from), opposite(to));
    if to != back_from {
        if board.is_free(board.step(start, to)) {
            return Some(2);
        }
        let round_the_box = [back_to, back_from, back_from, to, to, from];
        let round_the_corner = [from, to, to, back_from, back_from, back_to];
        return (open_walk(board, start, &round_the_box)
            || open_walk(board, start, &round_the_corner))
        .then_some(6);
    }
    let across = if from < 2 { [2, 3] } else { [0, 1] };
    across
        .into_iter()
        .any(|dir| open_walk(board, start, &[dir, to, to, opposite(dir)]))
        .then_some(4)
}

/// Whether every cell of the walk from `start` along `dirs` is free (it never steps
/// off a rock cell, so it never leaves the padded board).
fn open_walk(board: &Board, start: usize, dirs: &[usize]) -> bool {
    let mut at = start;
    dirs.iter().all(|&dir| {
        at = board.step(at, dir);
        board.is_free(at)
    })
}

/// The four sides of `cell` as (direction, neighbour), with `usize::MAX` for rock.
pub fn free_sides(board: &Board, cell: usize) -> [(usize, usize); 4] {
    std::array::from_fn(|dir| {
        let n = board.step(cell, dir);
        (dir, if board.is_free(n) { n } else { usize::MAX })
    })
}
