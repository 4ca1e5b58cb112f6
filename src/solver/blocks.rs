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
    /// Some child's subtree has no back edge above the cell: it may be a cut vertex.
    /// Cells without it have all their edges in one block, which is most cells.
    cut: Vec<bool>,
}

impl Dfs {
    fn run(board: &Board, cancel: &AtomicBool) -> Result<Dfs, Cancelled> {
        let n = board.len();
        let mut dfs = Dfs {
            disc: vec![UNVISITED; n],
            low: vec![UNVISITED; n],
            last: vec![0; n],
            parent_dir: vec![NO_PARENT; n],
            cut: vec![false; n],
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
                        if dfs.low[v] >= dfs.disc[parent] {
                            dfs.cut[parent] = true;
                        }
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
        if !self.cut[v] {
            return 0;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::Grid;

    /// Whether `to` is reachable from `from` on `board` without entering `blocked`.
    fn reachable_without(board: &Board, from: usize, to: usize, blocked: usize) -> bool {
        let mut seen = vec![false; board.len()];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(cell) = stack.pop() {
            if cell == to {
                return true;
            }
            for dir in 0..4 {
                let next = board.step(cell, dir);
                if board.is_free(next) && next != blocked && !seen[next] {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        false
    }

    #[test]
    fn connected_around_agrees_with_a_search_on_random_grids() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let (rows, cols) = (1 + (next() % 9) as usize, 3 + (next() % 9) as usize);
            let density = next() % 45;
            let mut walls: Vec<bool> = (0..rows * cols).map(|_| next() % 100 < density).collect();
            walls[..3].fill(false);
            let grid = Grid {
                rows,
                cols,
                walls,
                player: 0,
                boxed: 1,
                target: 2,
            };
            let board = Board::new(&grid);
            let blocks = Blocks::new(&board, &AtomicBool::new(false)).expect("not cancelled");
            for cell in (0..board.len()).filter(|&c| board.is_free(c)) {
                for a in (0..4).filter(|&a| board.is_free(board.step(cell, a))) {
                    for b in (0..4).filter(|&b| board.is_free(board.step(cell, b))) {
                        let expected = reachable_without(
                            &board,
                            board.step(cell, a),
                            board.step(cell, b),
                            cell,
                        );
                        assert_eq!(
                            blocks.connected_around(cell, a, b),
                            expected,
                            "{:?}",
                            grid.to_rows()
                        );
                    }
                }
            }
        }
    }
}
