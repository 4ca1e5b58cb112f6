//! Zobrist keys: a position's hash is the xor of one random word per box cell and one
//! for the player's cell, so a push updates it with three xors.

use super::board::Board;

pub struct Zobrist {
    boxes: Vec<u64>,
    player: Vec<u64>,
}

impl Zobrist {
    pub fn new(cells: usize) -> Zobrist {
        // splitmix64 with a fixed seed: hashes (and so search order) are the same on every run.
        let mut state: u64 = 0x005E_ED0F_B0C5;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let boxes = (0..cells).map(|_| next()).collect();
        let player = (0..cells).map(|_| next()).collect();
        Zobrist { boxes, player }
    }

    #[inline]
    pub fn boxes(&self, boxes: &[u16]) -> u64 {
        boxes.iter().fold(0, |h, &b| h ^ self.boxes[usize::from(b)])
    }

    /// The hash of a child position: `base` (the parent's boxes) with the box of
    /// `push` = (cell, direction) moved one step, and the player at `player`.
    #[inline]
    pub fn after_push(&self, board: &Board, base: u64, push: (u16, u8), player: u16) -> u64 {
        let (from, dir) = (usize::from(push.0), usize::from(push.1));
        let to = board.step(from, dir);
        base ^ self.boxes[from] ^ self.boxes[to] ^ self.player[usize::from(player)]
    }

    #[inline]
    pub fn player_at(&self, cell: usize) -> u64 {
        self.player[cell]
    }
}
