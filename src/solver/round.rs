//! Walks between the sides of the box, exactly and as cheaply as each case allows:
//! detours within the ring of eight cells, the bit-parallel window, bounded walks, and
//! only when those cannot tell, the biconnected blocks and a walk as long as it takes.
//!
//! The forward solver asks for these walks cell by cell as its layers reach them, and
//! so does the difficulty map's reverse search (`crate::design`): most boards never
//! need the blocks at all.

use std::sync::atomic::AtomicBool;

use super::blocks::Blocks;
use super::board::{corner_bit, sides_in, Board};
use super::walk::{Walk, Walker};
use super::window::BitBoard;
use super::Cancelled;

const UNREACHED: u32 = u32::MAX;

/// Cells a walk round the box may visit before other means are tried.
const NEAR: usize = 128;

/// The side walks of one board, with what they have computed so far.
pub struct Round<'a> {
    board: &'a Board,
    cancel: &'a AtomicBool,
    /// Computed on first need: most mazes never need them.
    blocks: Option<Blocks>,
    walker: Walker,
    /// For walks of up to twelve steps without a [`Walker`]; built on first need.
    bits: Option<BitBoard>,
    /// Cells that walks past [`NEAR`] may still visit before the blocks are computed:
    /// a few long detours are cheaper than the blocks, many are not.
    walk_budget: usize,
}

impl<'a> Round<'a> {
    pub fn new(board: &'a Board, cancel: &'a AtomicBool) -> Round<'a> {
        Round {
            board,
            cancel,
            blocks: None,
            walker: Walker::new(board.len()),
            bits: None,
            walk_budget: board.len() / 8,
        }
    }

    /// The walker the side walks use, for other walks over the same board.
    pub fn walker(&mut self) -> &mut Walker {
        &mut self.walker
    }

    pub fn into_blocks(self) -> Option<Blocks> {
        self.blocks
    }

    /// The walk distances from side `from` of the box at `cell` to each side in the
    /// mask `wanted` ([`UNREACHED`] where there is no way round): O(1) detours first,
    /// then the bit-parallel search of the window round the box, then a walk of at most
    /// [`NEAR`] cells, then the same backwards, then a longer walk while
    /// [`Round::walk_budget`] lasts, and only then the blocks and a walk as long as it
    /// takes.
    pub fn distances(
        &mut self,
        cell: usize,
        from: usize,
        ring: u8,
        wanted: u8,
    ) -> Result<[u32; 4], Cancelled> {
        let mut distances = [UNREACHED; 4];
        let mut near = 0u8;
        for to in sides_in(wanted) {
            match local_detour(ring, from, to) {
                Some(distance) => distances[to] = distance,
                None if self.cut_off(cell, from, to) => {}
                None => near |= 1 << to,
            }
        }
        if near == 0 {
            return Ok(distances);
        }
        let far = self.window_distances(cell, from, near, &mut distances);
        if far.len > 0 {
            self.walked_distances(cell, from, &far, &mut distances)?;
        }
        Ok(distances)
    }

    /// Fills in the distances to the sides in `near` that the window round the box
    /// answers; returns the others.
    fn window_distances(
        &mut self,
        cell: usize,
        from: usize,
        near: u8,
        distances: &mut [u32; 4],
    ) -> Sides {
        let board = self.board;
        let mut far = Sides::default();
        let bits = self.bits.get_or_insert_with(|| BitBoard::new(board));
        for (to, answer) in bits.distances(cell, from, near).into_iter().enumerate() {
            match answer {
                _ if near & (1 << to) == 0 => {}
                Some(distance) => distances[to] = distance.unwrap_or(UNREACHED),
                None => far.push(to, board.step(cell, to)),
            }
        }
        far
    }

    /// Fills in the distances to the `far` sides by walking: bounded walks both ways and
    /// within the budget, then the blocks and a walk as long as it takes (at once, when
    /// the blocks are already known).
    fn walked_distances(
        &mut self,
        cell: usize,
        from: usize,
        far: &Sides,
        distances: &mut [u32; 4],
    ) -> Result<(), Cancelled> {
        let board = self.board;
        let start = board.step(cell, from);
        // With the blocks known, the far sides are all reachable (the others were
        // dropped): a bounded walk first would only be repeated.
        let limit = if self.blocks.is_some() {
            usize::MAX
        } else {
            NEAR
        };
        let walk = self.walker.search(board, start, cell, far.cells(), limit);
        let mut undecided = Sides::default();
        for &(to, around) in far.entries() {
            match self.walker.distance(around) {
                Some(distance) => distances[to] = distance,
                None if walk == Walk::Stopped => undecided.push(to, around),
                None => {}
            }
        }
        // The walk from `from` ran out of room; from the other side, or with more room
        // while the budget lasts, it may not.
        let mut long = Sides::default();
        for &(to, around) in undecided.entries() {
            let decided = if self.blocks.is_none() {
                self.walk_distance(around, start, cell, NEAR)
                    .or_else(|| self.budgeted_distance(start, around, cell))
            } else {
                None
            };
            match decided {
                Some(distance) => distances[to] = distance,
                None if self.blocks()?.connected_around(cell, from, to) => long.push(to, around),
                None => {}
            }
        }
        if long.len > 0 {
            self.walker
                .search(board, start, cell, long.cells(), usize::MAX);
            for &(to, around) in long.entries() {
                distances[to] = self.walker.distance(around).unwrap_or(UNREACHED);
            }
        }
        Ok(())
    }

    /// The walk distance between two cells round the box at `obstacle` ([`UNREACHED`]
    /// for none), or `None` if a walk of `limit` cells cannot tell.
    fn walk_distance(
        &mut self,
        from: usize,
        to: usize,
        obstacle: usize,
        limit: usize,
    ) -> Option<u32> {
        match self.walker.search(self.board, from, obstacle, &[to], limit) {
            Walk::Reached => Some(self.walker.distance(to).unwrap_or(UNREACHED)),
            Walk::Exhausted => Some(UNREACHED),
            Walk::Stopped => None,
        }
    }

    /// [`Round::walk_distance`] with what is left of [`Round::walk_budget`].
    fn budgeted_distance(&mut self, from: usize, to: usize, obstacle: usize) -> Option<u32> {
        let distance = self.walk_distance(from, to, obstacle, self.walk_budget);
        self.walk_budget = self.walk_budget.saturating_sub(self.walker.visited());
        distance
    }

    /// Whether the blocks, if already computed, say the player cannot get from side
    /// `from` of the box at `cell` to side `to`.
    fn cut_off(&self, cell: usize, from: usize, to: usize) -> bool {
        self.blocks
            .as_ref()
            .is_some_and(|blocks| !blocks.connected_around(cell, from, to))
    }

    /// The biconnected blocks, computed the first time they are needed.
    pub fn blocks(&mut self) -> Result<&Blocks, Cancelled> {
        match &mut self.blocks {
            Some(blocks) => Ok(blocks),
            slot @ None => Ok(slot.insert(Blocks::new(self.board, self.cancel)?)),
        }
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

/// The walk from side `from` to side `to` of a box whose ring of eight cells is `ring`,
/// when a detour within the ring settles it exactly; `None` means "search further".
///
/// Grid walks between two sides have even length. Perpendicular sides: 2 round a free
/// corner; with the corner blocked no walk of 4 exists (the only length-2 path is
/// through the corner and every length-4 one needs the corner or the box), so the
/// 6-step walk back round the box is optimal when it is free. Opposite sides: a walk of
/// 2 would cross the box, so 4 round a free side is optimal. One lookup in [`DETOURS`].
pub(crate) fn local_detour(ring: u8, from: usize, to: usize) -> Option<u32> {
    match DETOURS[usize::from(ring)][from][to] {
        0 => None,
        distance => Some(u32::from(distance)),
    }
}

/// [`local_detour`]'s answers within the ring, per ring and pair of sides (0: unknown).
static DETOURS: [[[u8; 4]; 4]; 256] = detours();

const fn detours() -> [[[u8; 4]; 4]; 256] {
    let mut table = [[[0; 4]; 4]; 256];
    let mut ring = 0;
    while ring < 256 {
        let mut from = 0;
        while from < 4 {
            let mut to = 0;
            while to < 4 {
                if from != to {
                    table[ring][from][to] = ring_detour(ring as u8, from, to);
                }
                to += 1;
            }
            from += 1;
        }
        ring += 1;
    }
    table
}

/// The shortest detour from side `from` to side `to` that stays in the ring, if it is
/// provably optimal (see [`local_detour`]); 0 otherwise.
const fn ring_detour(ring: u8, from: usize, to: usize) -> u8 {
    let (back_from, back_to) = (from ^ 1, to ^ 1);
    if to != back_from {
        if is_set(ring, corner_bit(from, to)) {
            return 2;
        }
        let round_the_box = is_set(ring, corner_bit(from, back_to))
            && is_set(ring, back_to)
            && is_set(ring, corner_bit(back_from, back_to))
            && is_set(ring, back_from)
            && is_set(ring, corner_bit(back_from, to));
        return if round_the_box { 6 } else { 0 };
    }
    let across = if from < 2 { [2, 3] } else { [0, 1] };
    let mut i = 0;
    while i < 2 {
        let dir = across[i];
        if is_set(ring, corner_bit(from, dir))
            && is_set(ring, dir)
            && is_set(ring, corner_bit(to, dir))
        {
            return 4;
        }
        i += 1;
    }
    0
}

const fn is_set(ring: u8, bit: usize) -> bool {
    ring & (1 << bit) != 0
}
