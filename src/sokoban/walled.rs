//! Push distances with the boxes frozen on goals as walls. A box frozen on its goal
//! (`freeze.rs`: blocked on both axes by walls, dead-square pairs or other frozen
//! boxes) never moves again in any solution, so the other boxes' pushes happen on a
//! board where it is a wall: their push distances can only grow (or become infinite),
//! its goal is taken, and the matching bound on those distances is still a lower bound.
//! No finite matching then proves the position lost — a box put on a goal that walls
//! off the room's door or its last goals. The tables are computed on demand, one per
//! set of frozen boxes, and cached (in a goal room the set grows along a path, so few
//! sets are met); the cache is emptied when it outgrows [`CACHE_BYTES`].

use std::collections::HashMap;
use std::rc::Rc;

use super::board::Board;
use super::matching::Distances;

/// The cache's bytes before it is emptied (tables are recomputed on demand: a table
/// costs one pull search per goal).
const CACHE_BYTES: usize = 32 << 20;

/// One table: its id (never 0, the board's own) and distances, laid out as
/// [`Board::distance`].
#[derive(Clone)]
pub struct Walled {
    pub id: u64,
    pub table: Rc<Vec<u16>>,
}

impl Walled {
    pub fn distances(&self) -> Distances<'_> {
        Distances {
            id: self.id,
            table: &self.table,
        }
    }
}

pub struct WalledTables {
    cache: HashMap<Vec<u16>, Walled>,
    bytes: usize,
    next_id: u64,
    /// Scratch of the pull searches: the frozen cells.
    wall: Vec<bool>,
}

impl WalledTables {
    pub fn new(board: &Board) -> WalledTables {
        WalledTables {
            cache: HashMap::new(),
            bytes: 0,
            next_id: 1,
            wall: vec![false; board.len()],
        }
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The table of `frozen` (sorted cells of boxes frozen on goals, not empty).
    pub fn get(&mut self, board: &Board, frozen: &[u16]) -> Walled {
        if let Some(w) = self.cache.get(frozen) {
            return w.clone();
        }
        let table = self.compute(board, frozen);
        let size = table.len() * 2 + frozen.len() * 2 + 64;
        if self.bytes + size > CACHE_BYTES {
            self.cache.clear();
            self.bytes = 0;
        }
        // Ids are never reused (64 bits), so a matcher's warm start never takes one
        // table's costs for another's.
        let id = self.next_id;
        self.next_id += 1;
        let w = Walled {
            id,
            table: Rc::new(table),
        };
        self.bytes += size;
        self.cache.insert(frozen.to_vec(), w.clone());
        w
    }

    /// The pull searches of `Board::pull_distances` with the frozen cells as walls; a
    /// frozen box's cell keeps distance 0 to its own goal and nothing else (no pull
    /// starts from it), and no other cell reaches a frozen goal.
    fn compute(&mut self, board: &Board, frozen: &[u16]) -> Vec<u16> {
        for &f in frozen {
            self.wall[usize::from(f)] = true;
        }
        let wall = &self.wall;
        let open = |cell: usize| board.floor[cell] && !wall[cell];
        let distance = board.distances(|cell, dir| {
            let to = board.step(cell, dir);
            (!wall[cell] && open(to) && open(board.step(to, dir))).then_some(to)
        });
        for &f in frozen {
            self.wall[usize::from(f)] = false;
        }
        distance
    }
}
