//! FESS's packing feature for the fast search: how many boxes sit on goals in an
//! order the goals can be filled in.
//!
//! Each connected group of goals gets the layers of `goalroom`'s pull search (the
//! goals of the solved group pulled out, those that leave first filled last); a group
//! whose boxes cannot all leave is one layer. A position's packing counts, per group,
//! the goals of its full deeper layers and the filled goals of the first layer not
//! full: a box on a shallower goal before the deeper ones are full may block them and
//! does not count.

use super::board::Board;
use super::goalroom::{goal_groups, packing_layers};

pub struct Packing {
    /// Per cell: the index of its group's layer in `layer_sizes` (goals only).
    layer_of: Vec<u32>,
    /// Per group: its layers' indices in `layer_sizes`, first to fill first.
    groups: Vec<std::ops::Range<usize>>,
    layer_sizes: Vec<u32>,
    /// Scratch: filled goals per layer.
    filled: Vec<u32>,
}

impl Packing {
    pub fn new(board: &Board, start: &[u16]) -> Packing {
        let mut layer_of = vec![u32::MAX; board.len()];
        let mut groups = Vec::new();
        let mut layer_sizes = Vec::new();
        for cells in goal_groups(board) {
            let layers = packing_layers(board, &cells, start).unwrap_or_else(|| vec![cells]);
            let first = layer_sizes.len();
            for goals in &layers {
                for &g in goals {
                    layer_of[g] = layer_sizes.len() as u32;
                }
                layer_sizes.push(goals.len() as u32);
            }
            groups.push(first..layer_sizes.len());
        }
        let filled = vec![0; layer_sizes.len()];
        Packing {
            layer_of,
            groups,
            layer_sizes,
            filled,
        }
    }

    /// The boxes of `boxes` packed in order (see the module doc).
    pub fn packed(&mut self, boxes: &[u16]) -> u32 {
        for &b in boxes {
            let layer = self.layer_of[usize::from(b)];
            if layer != u32::MAX {
                self.filled[layer as usize] += 1;
            }
        }
        let mut packed = 0;
        for group in &self.groups {
            for k in group.clone() {
                packed += self.filled[k];
                if self.filled[k] < self.layer_sizes[k] {
                    break;
                }
            }
        }
        self.filled.iter_mut().for_each(|f| *f = 0);
        packed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sokoban::board::testing::puzzle;

    /// Three goals in a row along a wall, entered from the right: the leftmost first.
    #[test]
    fn counts_goals_filled_in_order() {
        let (board, start) = Board::new(&puzzle(&["#######", "#...  #", "#@ $$$#", "#######"]));
        let boxes: Vec<u16> = start.boxes.iter().map(|&b| b as u16).collect();
        let mut packing = Packing::new(&board, &boxes);
        let goals = &board.goals;
        let packed = |packing: &mut Packing, cells: &[usize]| {
            let boxes: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
            packing.packed(&boxes)
        };
        assert_eq!(packed(&mut packing, &[]), 0);
        assert_eq!(packed(&mut packing, &[goals[0]]), 1);
        assert_eq!(packed(&mut packing, &[goals[0], goals[1]]), 2);
        // The entrance goal before the inner ones blocks them: not packed.
        assert_eq!(packed(&mut packing, &[goals[2]]), 0);
        assert_eq!(packed(&mut packing, &[goals[0], goals[2]]), 1);
        assert_eq!(start.boxes.len(), 3);
    }
}
