//! The areas of free floor the player cannot reach, labelled in the position being
//! expanded so that each child's count of busy ones ([`Reach::busy_areas`]) comes from
//! the few cells its one box move touched, not from a flood of the whole floor. The
//! forward search's pushes (`expand.rs`) and the backward search's pulls
//! (`backward.rs`) count their children's areas with it.

use super::board::Board;
use super::freeze::EMPTY;
use super::reach::Reach;

pub struct Areas {
    /// Scratch of the floods.
    flood: Reach,
    floor_cells: Vec<usize>,
    /// Per free cell the player cannot reach in the labelled position, its area's index
    /// in `busy` (other cells hold stale values).
    area_of: Vec<u32>,
    /// Per area of the labelled position, whether it holds work.
    busy: Vec<bool>,
    /// How many of them do.
    busy_count: u32,
    /// Scratch: the cells a move may have joined to or cut from an area.
    around: Vec<usize>,
}

impl Areas {
    pub fn new(board: &Board) -> Areas {
        Areas {
            flood: Reach::new(board.len()),
            floor_cells: (0..board.len()).filter(|&c| board.floor[c]).collect(),
            area_of: vec![0; board.len()],
            busy: Vec::new(),
            busy_count: 0,
            around: Vec::new(),
        }
    }

    /// The busy areas the player cannot reach in the position on the board (`player`
    /// explored from the player), flooded over the whole floor.
    pub fn count(&mut self, board: &Board, occupancy: &[u8], player: &Reach) -> u32 {
        let cells = &self.floor_cells;
        self.flood.busy_areas(board, occupancy, cells, player)
    }

    /// Labels the unreached areas of the position on the board (`player` explored from
    /// the player): the parent whose children [`Areas::after_move`] and
    /// [`Areas::after_local_move`] count.
    pub fn label(&mut self, board: &Board, occupancy: &[u8], player: &Reach) {
        self.busy_count = self.flood.label_busy_areas(
            board,
            occupancy,
            &self.floor_cells,
            player,
            &mut self.area_of,
            &mut self.busy,
        );
    }

    /// The labelled position's busy unreached areas.
    pub fn labelled(&self) -> u32 {
        self.busy_count
    }

    /// The busy areas the player cannot reach after the box at `from` moved to `to`
    /// (the child on the board, `after` explored from the player), from the labelled
    /// parent's (`parent`: the player's region there). `to` was free and `from` is now:
    /// an unreached area of the parent that holds neither cell nor borders either keeps
    /// its cells and its border, so it stands as it was (its work too); every other
    /// unreached cell of the child lies in `from`, in a parent area at `to` or next to
    /// either cell, or in a piece of the parent's region cut off at `to`, so the areas
    /// it forms are flooded from `from` and the free neighbours of both. The same count
    /// as flooding every area, without looking at the floor the move did not touch.
    pub fn after_move(
        &mut self,
        board: &Board,
        occupancy: &[u8],
        parent: &Reach,
        after: &Reach,
        from: usize,
        to: usize,
    ) -> u32 {
        let mut count = self.busy_count;
        // The parent areas forgotten so far: `to`'s and its and `from`'s neighbours'.
        let mut gone = [u32::MAX; 9];
        let mut n = 0;
        let mut forget = |area: u32, busy: &[bool]| {
            if !gone[..n].contains(&area) {
                gone[n] = area;
                n += 1;
                count -= u32::from(busy[area as usize]);
            }
        };
        // `to` was free: it may have been (all of) an unreached area.
        if !parent.reached(to) {
            forget(self.area_of[to], &self.busy);
        }
        self.around.clear();
        // Left by a pull, `from` may lie outside the player's new region (the flood
        // skips it when a push left the player there).
        self.around.push(from);
        for cell in [from, to] {
            for d in 0..4 {
                let c = board.step(cell, d);
                if c == from || c == to || !board.floor[c] || occupancy[c] != EMPTY {
                    continue;
                }
                if !parent.reached(c) {
                    forget(self.area_of[c], &self.busy);
                }
                self.around.push(c);
            }
        }
        count + self.flood.busy_areas(board, occupancy, &self.around, after)
    }

    /// The busy areas the player cannot reach after the box at `from` moved to `to`
    /// when the move changed the player's region only locally (the child on the
    /// board): `from` joined the region (`parent`: the parent's) and borders no
    /// unreached area, and `to` cut no piece off it. Then only the area the box
    /// entered, if any, changes: it loses `to` and is flooded again from its
    /// neighbours (it may fall apart).
    pub fn after_local_move(
        &mut self,
        board: &Board,
        occupancy: &[u8],
        parent: &Reach,
        from: usize,
        to: usize,
    ) -> u32 {
        if parent.reached(to) {
            return self.busy_count;
        }
        let entered = u32::from(self.busy[self.area_of[to] as usize]);
        self.around.clear();
        for dir in 0..4 {
            let cell = board.step(to, dir);
            if board.floor[cell] && cell != from {
                self.around.push(cell);
            }
        }
        let pieces = self
            .flood
            .busy_areas(board, occupancy, &self.around, parent);
        self.busy_count - entered + pieces
    }
}
