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
use super::Cancelled;

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

pub struct Search<'a> {
    board: &'a Board,
    blocks: &'a Blocks,
    cancel: &'a AtomicBool,
    pub walker: Walker,
    moves: Vec<u32>,
    /// For each state, the side its layer's entry came in on, or [`FROM_START`].
    parent: Vec<u8>,
    finalized: Vec<u64>,
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
    pub fn new(board: &'a Board, blocks: &'a Blocks, cancel: &'a AtomicBool) -> Search<'a> {
        let states = board.len() * 4;
        Search {
            board,
            blocks,
            cancel,
            walker: Walker::new(board.len()),
            moves: vec![UNREACHED; states],
            parent: vec![FROM_START; states],
            finalized: vec![0; states.div_ceil(64)],
        }
    }

    pub fn run(&mut self) -> Result<Ending, Cancelled> {
        let mut layer = self.start();
        if layer.is_empty() {
            return Ok(Ending::BoxUnreachable);
        }
        let mut pushes = 0u64;
        while !layer.is_empty() {
            self.check_cancel()?;
            for &s in &layer {
                self.finalized[s / 64] |= 1 << (s % 64);
            }
            pushes += 1;
            let (entries, found) = self.push_all(&layer);
            if let Some((last, moves)) = found {
                return Ok(Ending::Found(Found {
                    pushes,
                    moves,
                    last,
                }));
            }
            layer = self.expand(&entries)?;
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

    fn is_final(&self, s: State) -> bool {
        self.finalized[s / 64] & (1 << (s % 64)) != 0
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
            .search(board, board.player, board.boxed, &targets);
        let mut layer = Vec::new();
        for (side, cell) in sides {
            if cell == usize::MAX {
                continue;
            }
            if let Some(dist) = self.walker.distance(cell) {
                let s = state(board.boxed, side);
                self.moves[s] = dist;
                self.parent[s] = FROM_START;
                layer.push(s);
            }
        }
        layer
    }

    /// Every push out of the layer's states. Returns the next layer's entries
    /// (state, moves) and the best push onto the target, if any.
    fn push_all(&self, layer: &[State]) -> (Vec<Entry>, Option<(State, u64)>) {
        let board = self.board;
        let mut entries = Vec::new();
        let mut found: Option<(State, u64)> = None;
        for &s in layer {
            let (cell, side) = (s / 4, s % 4);
            let next = board.step(cell, opposite(side));
            if !board.is_free(next) {
                continue;
            }
            let moves = self.moves[s].saturating_add(1);
            if next == board.target {
                if found.is_none_or(|(_, best)| u64::from(moves) < best) {
                    found = Some((s, u64::from(moves)));
                }
            } else if !self.is_final(state(next, side)) {
                entries.push((state(next, side), moves));
            }
        }
        (entries, found)
    }

    /// Settles the layer reached by `entries`: each entry, then the walks from it to the
    /// other sides of its box cell.
    fn expand(&mut self, entries: &[Entry]) -> Result<Vec<State>, Cancelled> {
        let mut layer = Vec::with_capacity(entries.len());
        for &(s, moves) in entries {
            self.relax(s, moves, (s % 4) as u8, &mut layer);
        }
        for (done, &(s, moves)) in entries.iter().enumerate() {
            if done % 4096 == 4095 {
                self.check_cancel()?;
            }
            self.walk_around(s, moves, &mut layer);
        }
        Ok(layer)
    }

    fn walk_around(&mut self, entry: State, moves: u32, layer: &mut Vec<State>) {
        let board = self.board;
        let (cell, side) = (entry / 4, entry % 4);
        let mut distances: [Option<u32>; 4] = [None; 4];
        let mut searched: Vec<usize> = Vec::new();
        for (other, distance) in distances.iter_mut().enumerate() {
            let around = board.step(cell, other);
            if other == side
                || !board.is_free(around)
                || self.is_final(state(cell, other))
                || !self.blocks.connected_around(cell, side, other)
            {
                continue;
            }
            *distance = local_detour(board, cell, side, other);
            if distance.is_none() {
                searched.push(around);
            }
        }
        if !searched.is_empty() {
            self.walker
                .search(board, board.step(cell, side), cell, &searched);
            for (other, distance) in distances.iter_mut().enumerate() {
                let around = board.step(cell, other);
                if distance.is_none() && searched.contains(&around) {
                    *distance = self.walker.distance(around);
                }
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
    }

    fn relax(&mut self, s: State, moves: u32, parent: u8, layer: &mut Vec<State>) {
        if self.is_final(s) {
            return;
        }
        if self.moves[s] == UNREACHED {
            layer.push(s);
        } else if moves >= self.moves[s] {
            return;
        }
        self.moves[s] = moves;
        self.parent[s] = parent;
    }

    /// The move string of a found solution.
    pub fn path(&mut self, found: &Found) -> String {
        let board = self.board;
        let mut pieces: Vec<Vec<u8>> = vec![vec![PUSH_LETTERS[opposite(found.last % 4)]]];
        let mut s = found.last;
        loop {
            let (cell, side) = (s / 4, s % 4);
            let parent = self.parent[s];
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

/// The walk from side `from` to side `to` of the box at `cell` when it is as short as
/// any walk can be: 2 round a free corner, or 4 round one free side of the box. Grid
/// walks between two sides have even length and a path of 2 between opposite sides
/// would cross the box, so these are exact; `None` means "search".
fn local_detour(board: &Board, cell: usize, from: usize, to: usize) -> Option<u32> {
    let start = board.step(cell, from);
    if to != opposite(from) {
        return board.is_free(board.step(start, to)).then_some(2);
    }
    let end = board.step(cell, to);
    let across = if from < 2 { [2, 3] } else { [0, 1] };
    across
        .into_iter()
        .any(|dir| {
            board.is_free(board.step(start, dir))
                && board.is_free(board.step(cell, dir))
                && board.is_free(board.step(end, dir))
        })
        .then_some(4)
}

/// The four sides of `cell` as (direction, neighbour), with `usize::MAX` for rock.
pub fn free_sides(board: &Board, cell: usize) -> [(usize, usize); 4] {
    std::array::from_fn(|dir| {
        let n = board.step(cell, dir);
        (dir, if board.is_free(n) { n } else { usize::MAX })
    })
}
