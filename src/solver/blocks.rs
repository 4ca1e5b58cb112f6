//! Biconnected components (Tarjan, articulation points, not bridges): which sides of a
//! cell stay connected to each other when that cell is blocked by the box.
//!
//! Two free neighbours `a` and `c` of a cell `v` are connected in the graph without `v`
//! exactly when the edges `v-a` and `v-c` lie in the same biconnected block. That
//! answers "can the player get around the box" in O(1) without searching.

use std::sync::atomic::AtomicBool;

use super::board::{opposite, Board, EAST, NORTH, SOUTH, WEST};
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
    /// One iterative depth-first search; each cell's labels are worked out when it is
    /// finished, from what its frame and its neighbours' discovery times already say.
    pub fn new(board: &Board, cancel: &AtomicBool) -> Result<Blocks, Cancelled> {
        let mut disc = vec![UNVISITED; board.len()];
        let mut labels = vec![0; board.len()];
        let mut time = 0u32;
        let mut stack: Vec<Frame> = Vec::new();
        for root in 0..board.len() {
            poll(cancel, root)?;
            if !board.is_free(root) || disc[root] != UNVISITED {
                continue;
            }
            disc[root] = time;
            stack.push(Frame::new(root, time, NO_PARENT));
            time += 1;
            let mut finished = 0usize;
            while let Some(top) = stack.last_mut() {
                if let Some(dir) = top.next_direction() {
                    let w = board.step(top.cell as usize, dir);
                    if !board.is_free(w) || usize::from(top.parent_dir) == dir {
                        continue;
                    }
                    if disc[w] == UNVISITED {
                        top.children |= 1 << dir;
                        disc[w] = time;
                        stack.push(Frame::new(w, time, opposite(dir) as u8));
                        time += 1;
                    } else {
                        top.low = top.low.min(disc[w]);
                    }
                    continue;
                }
                let Some(frame) = stack.pop() else { break };
                finished += 1;
                poll(cancel, finished)?;
                let v = frame.cell as usize;
                labels[v] = frame.labels(board, &disc);
                if let Some(parent) = stack.last_mut() {
                    parent.low = parent.low.min(frame.low);
                    if frame.low >= disc[parent.cell as usize] {
                        parent.separate |= 1 << opposite(usize::from(frame.parent_dir));
                    }
                }
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

/// A cell on the depth-first search's stack: 12 bytes, as the stack can hold most of
/// the board.
struct Frame {
    cell: u32,
    /// The smallest discovery time reachable from the cell's subtree by one back edge.
    low: u32,
    /// The next direction to look at; 4 when done.
    next_dir: u8,
    /// Direction to the DFS parent, or [`NO_PARENT`] for a root.
    parent_dir: u8,
    /// Directions of tree edges to children.
    children: u8,
    /// Directions of children whose subtree has no back edge above the cell: each is a
    /// block of its own. Without any, all the cell's edges are in one block (most cells).
    separate: u8,
}

impl Frame {
    fn new(cell: usize, disc: u32, parent_dir: u8) -> Frame {
        Frame {
            cell: cell as u32,
            low: disc,
            next_dir: 0,
            parent_dir,
            children: 0,
            separate: 0,
        }
    }

    /// Along rows first: the search then snakes through memory in order instead of
    /// jumping a row's width at every step.
    fn next_direction(&mut self) -> Option<usize> {
        const ORDER: [usize; 4] = [EAST, WEST, SOUTH, NORTH];
        let dir = ORDER.get(usize::from(self.next_dir))?;
        self.next_dir += 1;
        Some(*dir)
    }

    /// Packs, for each direction, the smallest direction whose edge shares its block.
    fn labels(&self, board: &Board, disc: &[u32]) -> u8 {
        if self.separate == 0 {
            return 0;
        }
        let v = self.cell as usize;
        let child_key = |dir: usize| {
            if self.separate & (1 << dir) != 0 {
                dir as u8
            } else {
                PARENT_BLOCK
            }
        };
        let mut keys = [PARENT_BLOCK; 4];
        for (dir, key) in keys.iter_mut().enumerate() {
            let w = board.step(v, dir);
            if self.children & (1 << dir) != 0 {
                *key = child_key(dir);
            } else if board.is_free(w) && disc[w] > disc[v] {
                // A back edge from a descendant: it belongs to the block of the child
                // whose subtree holds it, the last child discovered before it (the
                // children's subtrees are consecutive runs of discovery times).
                let holder = (0..4)
                    .filter(|&c| self.children & (1 << c) != 0)
                    .filter(|&c| disc[board.step(v, c)] <= disc[w])
                    .max_by_key(|&c| disc[board.step(v, c)]);
                if let Some(c) = holder {
                    *key = child_key(c);
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
    use crate::solver::board::random_grids;

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
        for grid in random_grids(0x2545_f491_4f6c_dd1d, 300, 9, 45) {
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
