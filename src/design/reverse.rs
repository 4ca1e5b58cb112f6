//! The reverse search from one target: for every (box cell, player side) state, the
//! optimal (pushes, moves) still to go, in one pass over all states.
//!
//! `togo(b, s)`: the player stands on side `s` of the box at `b` and may walk first.
//! `first_push(b, s)`: the same, but the next move is the push from side `s`, which
//! takes the box to `b' = b - s` and leaves the player on side `s` of `b'`, so
//! `first_push(b, s) = (1, 1) + togo(b', s)` (just `(1, 1)` when `b'` is the target), and
//! `togo(b, s) = min over sides s2 connected to s round b of (0, walk(s, s2)) +
//! first_push(b, s2)`. Every solution of the forward puzzle splits into walks with the
//! box still and pushes, and a walk between two cells costs its shortest length, so
//! these equations are the forward optimum read backwards; all costs are positive, so
//! they have one solution, which the layers below compute.
//!
//! Pushes come in layers, exactly as in the forward solver: a state first given a
//! `togo` in layer k has k pushes to go, and its moves are the minimum over the layer's
//! first pushes into it of walk + moves. A state given a value in an earlier layer is
//! never reopened: any side it connects to got its value in that layer too.
//!
//! The buffers are flat and reused from one target to the next (a hardest-placement
//! search runs one search per free cell): per state its `togo`, which holds the moves
//! of the layer's pending first push until the state is settled (a layer's pushes are
//! all the same), per cell masks of the settled and pending sides, and the settled
//! states in layer order, which also gives the deepest layers at once.

use super::sides::{free_sides, SideWalks, UNREACHED};
use crate::solver::board::{opposite, sides_in, Board, NORTH, SOUTH, WEST};

/// (pushes, moves) to go, `moves` in the low 32 bits: compares lexicographically.
pub type Cost = u64;

/// No way to bring the box to the target from this state.
pub const NEVER: Cost = u64::MAX;

pub fn cost(pushes: u32, moves: u32) -> Cost {
    u64::from(pushes) << 32 | u64::from(moves)
}

pub fn pushes(cost: Cost) -> u32 {
    (cost >> 32) as u32
}

pub fn moves(cost: Cost) -> u32 {
    cost as u32
}

/// Reusable buffers for reverse searches over one board.
pub struct Reverse {
    /// Per cell, its free sides as a mask (0 for rock): one byte read answers "can the
    /// player stand beyond this cell".
    open: Vec<u8>,
    /// `togo` per state `cell * 4 + side`, meaningful where `settled` says so (zeroed,
    /// not filled, so a search that reaches few cells touches few pages); for a state
    /// with a first push pending in the layer being settled, that push's moves.
    togo: Vec<Cost>,
    /// Per cell, the sides whose state has its `togo`.
    settled: Vec<u8>,
    /// Per cell, the sides with a pending first push.
    pending_sides: Vec<u8>,
    /// Cells with pending first pushes.
    touched: Vec<u32>,
    /// Every settled state, layer by layer; layer k is `order[starts[k]..starts[k + 1]]`.
    order: Vec<u32>,
    starts: Vec<usize>,
    target: usize,
    width: usize,
}

impl Reverse {
    pub fn new(board: &Board) -> Reverse {
        let open = (0..board.len())
            .map(|cell| {
                if board.is_free(cell) {
                    free_sides(board, cell)
                } else {
                    0
                }
            })
            .collect();
        Reverse {
            open,
            togo: vec![0; board.len() * 4],
            settled: vec![0; board.len()],
            pending_sides: vec![0; board.len()],
            touched: Vec::new(),
            order: Vec::new(),
            starts: Vec::new(),
            target: usize::MAX,
            width: board.width,
        }
    }

    /// Runs the search for `target`, replacing the previous one.
    pub fn run<S: SideWalks>(
        &mut self,
        board: &Board,
        sides: &mut S,
        target: usize,
    ) -> Result<(), S::Error> {
        for &state in &self.order {
            self.settled[state as usize / 4] = 0;
        }
        self.order.clear();
        self.starts.clear();
        self.target = target;
        self.starts.push(0);
        for side in sides_in(self.open[target]) {
            self.togo[target * 4 + side] = 0;
            self.order.push((target * 4 + side) as u32);
        }
        self.settled[target] = self.open[target];
        self.starts.push(self.order.len());
        let mut layer = 0;
        while self.starts[layer] < self.starts[layer + 1] {
            self.expand(board, sides, layer)?;
            self.starts.push(self.order.len());
            layer += 1;
        }
        // The last layer is empty: drop its bound.
        self.starts.pop();
        Ok(())
    }

    /// From the states of layer `layer`, the first pushes into them, then the next layer.
    fn expand<S: SideWalks>(
        &mut self,
        board: &Board,
        sides: &mut S,
        layer: usize,
    ) -> Result<(), S::Error> {
        for i in self.starts[layer]..self.starts[layer + 1] {
            let state = self.order[i] as usize;
            let (after, side) = (state / 4, state % 4);
            // Before the push the box was on side `side` of `after` (where the player is
            // now), the player one beyond.
            let before = board.step(after, side);
            // A first push from a settled state adds nothing: the sides it connects to
            // were settled in its layer.
            if before == self.target
                || self.open[before] & (1 << side) == 0
                || self.settled[before] & (1 << side) != 0
            {
                continue;
            }
            // Each first push has exactly one state after it: it is set once per layer.
            if self.pending_sides[before] == 0 {
                self.touched.push(before as u32);
            }
            self.pending_sides[before] |= 1 << side;
            // Its moves wait in the state's own `togo`, not yet settled: `settle` reads
            // them before it settles the state (the walk from a side to itself is 0).
            self.togo[before * 4 + side] = u64::from(moves(self.togo[state]) + 1);
        }
        let pushes = layer as u32 + 1;
        for i in 0..self.touched.len() {
            let cell = self.touched[i] as usize;
            self.settle(sides, cell, pushes)?;
            self.pending_sides[cell] = 0;
        }
        self.touched.clear();
        Ok(())
    }

    /// Gives every still open side of `cell` its `togo` from the cell's pending first pushes.
    fn settle<S: SideWalks>(
        &mut self,
        sides: &mut S,
        cell: usize,
        pushes: u32,
    ) -> Result<(), S::Error> {
        let open = self.open[cell] & !self.settled[cell];
        if open == 0 {
            return Ok(());
        }
        let from_sides = self.pending_sides[cell];
        let pending: [u32; 4] = std::array::from_fn(|side| self.togo[cell * 4 + side] as u32);
        let mut best = [u64::MAX; 4];
        for from in sides_in(from_sides) {
            let walks = sides.walks_from(cell, from, open & !(1 << from))?;
            for side in sides_in(open) {
                let walk = if side == from { 0 } else { walks[side] };
                if walk != UNREACHED {
                    best[side] = best[side].min(u64::from(pending[from]) + u64::from(walk));
                }
            }
        }
        for side in sides_in(open) {
            if best[side] != u64::MAX {
                // Moves stay below 2³² (see `MAX_CELLS`).
                self.togo[cell * 4 + side] = cost(pushes, best[side] as u32);
                self.settled[cell] |= 1 << side;
                self.order.push((cell * 4 + side) as u32);
            }
        }
        Ok(())
    }

    /// `togo` of the state (`cell`, `side`), [`NEVER`] when the box cannot reach the
    /// target from it.
    pub fn togo(&self, cell: usize, side: usize) -> Cost {
        if self.settled[cell] & (1 << side) == 0 {
            NEVER
        } else {
            self.togo[cell * 4 + side]
        }
    }

    /// The optimum to go when the next move is the push from side `side` of the box at
    /// `cell` (the player standing there), [`NEVER`] when that push is impossible or
    /// leads nowhere.
    pub fn first_push(&self, cell: usize, side: usize) -> Cost {
        let open = self.open[cell];
        if open & (1 << side) == 0 || open & (1 << opposite(side)) == 0 {
            return NEVER;
        }
        let after = self.step_to(cell, opposite(side));
        if after == self.target {
            return cost(1, 1);
        }
        match self.togo(after, side) {
            NEVER => NEVER,
            togo => togo + cost(1, 1),
        }
    }

    /// [`Board::step`], without the board at hand.
    fn step_to(&self, cell: usize, dir: usize) -> usize {
        match dir {
            NORTH => cell - self.width,
            SOUTH => cell + self.width,
            WEST => cell - 1,
            _ => cell + 1,
        }
    }

    /// The number of layers: the most pushes any state needs, plus one.
    pub fn layers(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether the search settled a state with the box at `cell`: whether the box can
    /// reach the target from there at all.
    pub fn reached(&self, cell: usize) -> bool {
        self.settled[cell] != 0
    }

    /// The states settled in layer `layer` (that many pushes to go), as (cell, side).
    pub fn layer(&self, layer: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.order[self.starts[layer]..self.starts[layer + 1]]
            .iter()
            .map(|&state| (state as usize / 4, state as usize % 4))
    }
}
