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
use super::board::{self, opposite, sides_in, Board, PUSH_LETTERS};
use super::round::Round;
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

pub struct Search<'a> {
    board: &'a Board,
    cancel: &'a AtomicBool,
    /// The walks between the box's sides, and the walker for the others.
    round: Round<'a>,
    /// Per cell: bits 0–3 the settled sides, [`FREE`], and from bit 8 two bits per
    /// side for the side its push came in on (the side itself when the state was
    /// entered directly, or reached by the walk from the start). A state's moves are
    /// never needed once it is settled (the entries carry them), so this is all the
    /// search keeps per cell: reading a cell's ring for its detours also brings in the
    /// lines the pushes out of it check.
    cells: Vec<u16>,
    /// The best push onto the target out of the layer being settled: (from, moves).
    found: Option<(State, u32)>,
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
            cancel,
            round: Round::new(board, cancel),
            cells: board
                .free
                .iter()
                .map(|&free| u16::from(free) * FREE)
                .collect(),
            found: None,
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
        self.round
            .walker()
            .search(board, board.player, board.boxed, &targets, usize::MAX);
        let mut reached = false;
        for (side, cell) in sides {
            if cell == usize::MAX {
                continue;
            }
            if let Some(distance) = self.round.walker().distance(cell) {
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
            let distances = self.round.distances(cell, from, ring, wanted)?;
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

    /// The eight cells around an interior `cell` as a ring ([`board::ring`]); set bits are free.
    fn ring(&self, cell: usize) -> u8 {
        board::ring(self.board.width, cell, |at| self.cells[at] & FREE != 0)
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

    /// Whether the search settled a state with the box on board cell `cell`.
    pub fn box_reached(&self, cell: usize) -> bool {
        self.cells.get(cell).is_some_and(|&bits| bits & 0xF != 0)
    }

    pub fn into_blocks(self) -> Option<Blocks> {
        self.round.into_blocks()
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
                let walk =
                    self.round
                        .walker()
                        .path(board, board.player, board.step(cell, side), cell);
                pieces.push(walk.unwrap_or_else(unconnected));
                break;
            }
            let entered = usize::from(self.cells[cell] >> (PARENTS + 2 * side)) & 3;
            if entered != side {
                let from = board.step(cell, entered);
                let walk = self
                    .round
                    .walker()
                    .path(board, from, board.step(cell, side), cell);
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

/// The four sides of `cell` as (direction, neighbour), with `usize::MAX` for rock.
pub fn free_sides(board: &Board, cell: usize) -> [(usize, usize); 4] {
    std::array::from_fn(|dir| {
        let n = board.step(cell, dir);
        (dir, if board.is_free(n) { n } else { usize::MAX })
    })
}
