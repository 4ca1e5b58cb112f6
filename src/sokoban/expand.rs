//! Successor generation shared by both searches: every push the player can reach,
//! minus those onto dead squares, into freeze deadlocks or into positions whose
//! boxes cannot all be matched to goals; each child comes with its walking cost and
//! its lower bound.

use super::board::Board;
use super::freeze::{frozen_off_goal, BOX, EMPTY};
use super::matching::Matcher;
use super::reach::Reach;

/// One legal, not provably lost, push.
pub struct Child {
    /// Start of the child's boxes (sorted) in [`Expander::child_boxes`].
    pub boxes: usize,
    /// The player's cell after the push: the pushed box's old cell.
    pub player: u16,
    /// The smallest cell the player can reach after the push (its normalised position).
    pub region: u16,
    pub push: (u16, u8),
    /// Walks before the push.
    pub walk: u32,
    pub bound: u32,
}

pub struct Expander {
    pub occupancy: Vec<u8>,
    pub reach: Reach,
    after: Reach,
    matcher: Matcher,
    pub children: Vec<Child>,
    pub child_boxes: Vec<u16>,
    scratch: Vec<u16>,
}

impl Expander {
    pub fn new(board: &Board) -> Expander {
        Expander {
            occupancy: vec![EMPTY; board.len()],
            reach: Reach::new(board.len()),
            after: Reach::new(board.len()),
            matcher: Matcher::new(),
            children: Vec::new(),
            child_boxes: Vec::new(),
            scratch: Vec::new(),
        }
    }

    pub fn bound(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        self.matcher.bound(board, boxes)
    }

    /// The normalised player cell of a position.
    pub fn region(&mut self, board: &Board, boxes: &[u16], player: usize) -> usize {
        self.place(boxes, BOX);
        let region = self.reach.explore(board, &self.occupancy, player);
        self.place(boxes, EMPTY);
        region
    }

    fn place(&mut self, boxes: &[u16], value: u8) {
        for &b in boxes {
            self.occupancy[usize::from(b)] = value;
        }
    }

    /// Fills [`Expander::children`] with the pushes available from `boxes`/`player`.
    /// `regions`: also work out each child's normalised player cell.
    pub fn expand(&mut self, board: &Board, boxes: &[u16], player: usize, regions: bool) {
        self.children.clear();
        self.child_boxes.clear();
        self.place(boxes, BOX);
        self.reach.explore(board, &self.occupancy, player);
        for (index, &b) in boxes.iter().enumerate() {
            let from = usize::from(b);
            for dir in 0..4 {
                let side = board.step(from, dir ^ 1);
                let to = board.step(from, dir);
                if !self.reach.reached(side)
                    || !board.floor[to]
                    || self.occupancy[to] != EMPTY
                    || !board.live[to]
                {
                    continue;
                }
                self.occupancy[from] = EMPTY;
                self.occupancy[to] = BOX;
                if !frozen_off_goal(board, &mut self.occupancy, to) {
                    self.consider(board, boxes, index, from, to, dir, regions);
                }
                self.occupancy[to] = EMPTY;
                self.occupancy[from] = BOX;
            }
        }
        self.place(boxes, EMPTY);
    }

    #[allow(clippy::too_many_arguments)]
    fn consider(
        &mut self,
        board: &Board,
        boxes: &[u16],
        index: usize,
        from: usize,
        to: usize,
        dir: usize,
        regions: bool,
    ) {
        self.scratch.clear();
        self.scratch.extend_from_slice(boxes);
        self.scratch[index] = to as u16;
        self.scratch.sort_unstable();
        let Some(bound) = self.matcher.bound(board, &self.scratch) else {
            return;
        };
        let region = if regions {
            self.after.explore(board, &self.occupancy, from) as u16
        } else {
            from as u16
        };
        let side = board.step(from, dir ^ 1);
        let start = self.child_boxes.len();
        self.child_boxes.extend_from_slice(&self.scratch);
        self.children.push(Child {
            boxes: start,
            player: from as u16,
            region,
            push: (from as u16, dir as u8),
            walk: self.reach.distance[side],
            bound,
        });
    }
}
