//! Biconnected components (Tarjan, articulation points, not bridges): which sides of a
//! cell stay connected to each other when that cell is blocked by the box.
//!
//! Two free neighbours `a` and `c` of a cell `v` are connected in the graph without `v`
//! exactly when the edges `v-a` and `v-c` lie in the same biconnected block. That
//! answers "can the player get around the box" in O(1) without searching.

use std::sync::atomic::AtomicBool;

use super::board::{opposite, Board};
use super::{poll, Cancelled};

const UNVISITED: u32 = u32::MAX;
const NO_PARENT: u8 = 4;
/// Key of the block containing a vertex's edge to its DFS parent.
const PARENT_BLOCK: u8 = 4;

/// For every cell, the block of each of its four edges, as 2-bit labels.
pub struct Blocks {
    labels: Vec<u8>,
}

impl Blocks {
    pub fn new(board: &Board, cancel: &AtomicBool) -> Result<Blocks, Cancelled> {
        let dfs = Dfs::run(board, cancel)?;
        let mut labels = vec![0; board.len()];
        for (cell, label) in labels.iter_mut().enumerate() {
            poll(cancel, cell)?;
            if board.is_free(cell) {
                *label = dfs.labels(board, cell);
            }
        }
        Ok(Blocks { labels })
    }

    /// Whether the player can walk from the side `a` of `cell` to its side `b` without
    /// entering `cell` (both sides must be free).
    #[inline]
    pub fn connected_around(&self, cell: usize, a: usize, b: usize) -> bool {
        let labels = self.labels[cell];
        (labels >> (2 * a)) & 3 == (labels >> (2 * b)) & 3
    }
}

/// Discovery times, low links and subtree ends of a depth-first search over all free cells.
struct Dfs {
    disc: Vec<u32>,
    low: Vec<u32>,
    /// Largest discovery time in the cell's subtree.
    last: Vec<u32>,
    /// Direction from a cell to its DFS parent.
    parent_dir: Vec<u8>,
}

impl Dfs {
    fn run(board: &Board, cancel: &AtomicBool) -> Result<Dfs, Cancelled> {
        let n = board.len();
        let mut dfs = Dfs {
            disc: vec![UNVISITED; n],
            low: vec![UNVISITED; n],
            last: vec![0; n],
            parent_dir: vec![NO_PARENT; n],
        };
        let mut time = 0u32;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            poll(cancel, root)?;
            if !board.is_free(root) || dfs.disc[root] != UNVISITED {
                continue;
            }
            dfs.discover(root, &mut time);
            stack.push((root, 0));
            while let Some(&mut (v, ref mut next_dir)) = stack.last_mut() {
                if *next_dir < 4 {
                    let dir = *next_dir;
                    *next_dir += 1;
                    let w = board.step(v, dir);
                    if !board.is_free(w) {
                        continue;
                    }
                    if dfs.disc[w] == UNVISITED {
                        dfs.parent_dir[w] = opposite(dir) as u8;
                        dfs.discover(w, &mut time);
                        stack.push((w, 0));
                    } else if usize::from(dfs.parent_dir[v]) != dir {
                        dfs.low[v] = dfs.low[v].min(dfs.disc[w]);
                    }
                } else {
                    stack.pop();
                    poll(cancel, v)?;
                    dfs.last[v] = time - 1;
                    if let Some(&(parent, _)) = stack.last() {
                        dfs.low[parent] = dfs.low[parent].min(dfs.low[v]);
                    }
                }
            }
        }
        Ok(dfs)
    }

    fn discover(&mut self, cell: usize, time: &mut u32) {
        self.disc[cell] = *time;
        self.low[cell] = *time;
        *time += 1;
    }

    fn is_child(&self, board: &Board, v: usize, dir: usize) -> bool {
        let w = board.step(v, dir);
        usize::from(self.parent_dir[w]) == opposite(dir) && self.disc[w] > self.disc[v]
    }

    /// The block key of the edge from `v` to its child in `dir`.
    fn child_block(&self, board: &Board, v: usize, dir: usize) -> u8 {
        let child = board.step(v, dir);
        if self.low[child] >= self.disc[v] {
            dir as u8
        } else {
            PARENT_BLOCK
        }
    }

    /// Packs, for each direction, the smallest direction whose edge shares its block.
    fn labels(&self, board: &Board, v: usize) -> u8 {
        let mut keys = [PARENT_BLOCK; 4];
        for (dir, key) in keys.iter_mut().enumerate() {
            let w = board.step(v, dir);
            if !board.is_free(w) || usize::from(self.parent_dir[v]) == dir {
                continue;
            }
            if self.is_child(board, v, dir) {
                *key = self.child_block(board, v, dir);
            } else if self.disc[w] > self.disc[v] {
                // A back edge from a descendant: it belongs to the block of the child
                // whose subtree holds that descendant.
                let holder = (0..4).find(|&c| {
                    self.is_child(board, v, c) && {
                        let child = board.step(v, c);
                        self.disc[child] <= self.disc[w] && self.disc[w] <= self.last[child]
                    }
                });
                if let Some(c) = holder {
                    *key = self.child_block(board, v, c);
                }
            }
        }
        let mut packed = 0u8;
        for dir in 0..4 {
            let first = keys.iter().position(|&k| k == keys[dir]).unwrap_or(dir);
            packed |= (first as u8) << (2 * dir);
        }
        packed
    }
}
