//! Zobrist keys: a position's hash is the xor of one random word per box cell and one
//! for the player's cell, so a push updates it with three xors.

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

    #[inline]
    pub fn box_at(&self, cell: usize) -> u64 {
        self.boxes[cell]
    }

    #[inline]
    pub fn player_at(&self, cell: usize) -> u64 {
        self.player[cell]
    }
}
