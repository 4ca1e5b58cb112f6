//! The transposition table: every position the search has generated, stored once in
//! flat arrays (boxes sorted, player cell, cost, parent, the push that made it) and
//! found again through an open-addressing index on its Zobrist hash. Equal hashes are
//! compared in full, so two positions are never confused.

use super::grow::Column;

/// No node: the empty index slot and the root's parent.
pub const NONE: u32 = u32::MAX;

/// The player cell of a hidden node (no real cell: the padded grid is smaller).
const HIDDEN: u16 = u16::MAX;

pub struct Table {
    pub box_count: usize,
    boxes: Column<u16>,
    pub player: Column<u16>,
    pub hash: Column<u64>,
    pub parent: Column<u32>,
    /// The pushed box's cell before the push, and the direction.
    pub push: Column<(u16, u8)>,
    pub pushes: Column<u32>,
    pub moves: Column<u32>,
    pub bound: Column<u32>,
    slots: Vec<u32>,
}

impl Table {
    pub fn new(box_count: usize) -> Table {
        Table {
            box_count,
            boxes: Column::new(),
            player: Column::new(),
            hash: Column::new(),
            parent: Column::new(),
            push: Column::new(),
            pushes: Column::new(),
            moves: Column::new(),
            bound: Column::new(),
            slots: vec![NONE; 1024],
        }
    }

    pub fn len(&self) -> usize {
        self.player.len()
    }

    /// Bytes held now (capacity, not length: what the allocator really gave out).
    pub fn bytes(&self) -> usize {
        self.boxes.bytes()
            + self.player.bytes()
            + self.hash.bytes()
            + self.parent.bytes()
            + self.push.bytes()
            + self.pushes.bytes()
            + self.moves.bytes()
            + self.bound.bytes()
            + self.slots.capacity() * 4
    }

    pub fn boxes(&self, node: u32) -> &[u16] {
        let start = node as usize * self.box_count;
        &self.boxes[start..start + self.box_count]
    }

    /// The node holding exactly this position, if any.
    pub fn find(&self, hash: u64, boxes: &[u16], player: u16) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let node = self.slots[slot];
            if node == NONE {
                return None;
            }
            let i = node as usize;
            if self.hash[i] == hash && self.player[i] == player && self.boxes(node) == boxes {
                return Some(node);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Stores a new position (the caller has checked it is not there yet).
    #[allow(clippy::too_many_arguments)]
    pub fn insert(
        &mut self,
        hash: u64,
        boxes: &[u16],
        player: u16,
        parent: u32,
        push: (u16, u8),
        cost: (u32, u32),
        bound: u32,
    ) -> u32 {
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let node = self.push_node(hash, boxes, player, parent, push, cost, bound);
        self.index(node);
        node
    }

    /// Stores a position the search passes through inside a macro: it only links the
    /// macro's pushes for [`Table::pushes_to`], so it is never indexed (never found, so
    /// the search may still reach and expand that position on its own). Only its parent
    /// and push are read; `boxes` fills its slot (the macro's last position will do).
    pub fn insert_hidden(
        &mut self,
        boxes: &[u16],
        parent: u32,
        push: (u16, u8),
        pushes: u32,
    ) -> u32 {
        self.push_node(0, boxes, HIDDEN, parent, push, (pushes, 0), 0)
    }

    /// Appends a node to the flat arrays, unindexed.
    #[allow(clippy::too_many_arguments)]
    fn push_node(
        &mut self,
        hash: u64,
        boxes: &[u16],
        player: u16,
        parent: u32,
        push: (u16, u8),
        cost: (u32, u32),
        bound: u32,
    ) -> u32 {
        let node = self.len() as u32;
        self.boxes.extend_from_slice(boxes);
        self.player.push(player);
        self.hash.push(hash);
        self.parent.push(parent);
        self.push.push(push);
        self.pushes.push(cost.0);
        self.moves.push(cost.1);
        self.bound.push(bound);
        node
    }

    fn index(&mut self, node: u32) {
        let mask = self.slots.len() - 1;
        let mut slot = self.hash[node as usize] as usize & mask;
        while self.slots[slot] != NONE {
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = node;
    }

    fn grow(&mut self) {
        self.slots = vec![NONE; self.slots.len() * 2];
        for node in 0..self.len() as u32 {
            if self.player[node as usize] != HIDDEN {
                self.index(node);
            }
        }
    }

    /// The pushes from the root to `node`, first push first.
    pub fn pushes_to(&self, mut node: u32) -> Vec<(usize, usize)> {
        let mut pushes = Vec::new();
        while self.parent[node as usize] != NONE {
            let (from, dir) = self.push[node as usize];
            pushes.push((usize::from(from), usize::from(dir)));
            node = self.parent[node as usize];
        }
        pushes.reverse();
        pushes
    }
}
