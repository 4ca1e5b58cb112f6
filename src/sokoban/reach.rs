//! Where the player can walk between pushes: a breadth-first search over floor cells
//! free of boxes; also the count of the separate areas that hold work (the fast
//! search's connectivity feature). Marks are stamped with a generation number so no
//! search clears an array.

use super::board::Board;
use super::freeze::EMPTY;

pub struct Reach {
    stamp: Vec<u32>,
    generation: u32,
    pub distance: Vec<u32>,
    /// The direction of the last step into each reached cell.
    came: Vec<u8>,
    queue: Vec<usize>,
}

impl Reach {
    pub fn new(cells: usize) -> Reach {
        Reach {
            stamp: vec![0; cells],
            generation: 0,
            distance: vec![0; cells],
            came: vec![0; cells],
            queue: Vec::with_capacity(cells),
        }
    }

    /// Walks from `from` as far as boxes allow; afterwards [`Reach::reached`] and
    /// [`Reach::distance`] describe the region. Returns its smallest cell (the normalised
    /// player position).
    pub fn explore(&mut self, board: &Board, occupancy: &[u8], from: usize) -> usize {
        let generation = self.next_generation();
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from] = generation;
        self.distance[from] = 0;
        let mut smallest = from;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            smallest = smallest.min(cell);
            for dir in 0..4 {
                let to = board.step(cell, dir);
                if board.floor[to] && occupancy[to] == EMPTY && self.stamp[to] != generation {
                    self.stamp[to] = generation;
                    self.distance[to] = self.distance[cell] + 1;
                    self.came[to] = dir as u8;
                    self.queue.push(to);
                }
            }
        }
        smallest
    }

    /// The cells the last [`Reach::explore`] visited: its region's size.
    pub fn visited(&self) -> usize {
        self.queue.len()
    }

    /// How many areas of free floor the player cannot reach (`player` marks where it
    /// can; every such area has a cell in `starts`) hold work: a goal inside, or a box
    /// off its goal next to them. An area sealed by boxes on goals with no goal in it
    /// does not count, so a filled goal room adds nothing. Overwrites the last search.
    pub fn busy_areas(
        &mut self,
        board: &Board,
        occupancy: &[u8],
        starts: &[usize],
        player: &Reach,
    ) -> u32 {
        let mut count = 0;
        self.each_area(
            board,
            occupancy,
            starts,
            player,
            |_, _| {},
            |busy| {
                count += u32::from(busy);
            },
        );
        count
    }

    /// [`Reach::busy_areas`], also labelling the areas: each cell of the `k`-th area
    /// flooded gets `k` in `label`, and `busy[k]` says whether that area holds work.
    pub fn label_busy_areas(
        &mut self,
        board: &Board,
        occupancy: &[u8],
        starts: &[usize],
        player: &Reach,
        label: &mut [u32],
        busy: &mut Vec<bool>,
    ) -> u32 {
        busy.clear();
        let on_cell = |area: u32, cell: usize| label[cell] = area;
        self.each_area(board, occupancy, starts, player, on_cell, |work| {
            busy.push(work)
        });
        busy.iter().filter(|&&b| b).count() as u32
    }

    /// Floods each area of free floor with a cell in `starts` that the player cannot
    /// reach, numbering them from 0: `on_cell(area, cell)` for each of its cells, then
    /// `on_area(whether it holds work)`.
    fn each_area(
        &mut self,
        board: &Board,
        occupancy: &[u8],
        starts: &[usize],
        player: &Reach,
        mut on_cell: impl FnMut(u32, usize),
        mut on_area: impl FnMut(bool),
    ) {
        let generation = self.next_generation();
        let mut area = 0;
        for &start in starts {
            let unseen = self.stamp[start] != generation && !player.reached(start);
            if unseen && occupancy[start] == EMPTY {
                let work = self.flood_busy(board, occupancy, start, |cell| on_cell(area, cell));
                on_area(work);
                area += 1;
            }
        }
    }

    /// Stamps the free area at `start`, showing each of its cells to `visit`; whether it
    /// holds work (see [`Reach::busy_areas`]).
    fn flood_busy(
        &mut self,
        board: &Board,
        occupancy: &[u8],
        start: usize,
        mut visit: impl FnMut(usize),
    ) -> bool {
        let generation = self.generation;
        let mut busy = false;
        self.stamp[start] = generation;
        self.queue.clear();
        self.queue.push(start);
        while let Some(cell) = self.queue.pop() {
            visit(cell);
            busy |= board.goal[cell];
            for dir in 0..4 {
                let to = board.step(cell, dir);
                if !board.floor[to] {
                    continue;
                }
                if occupancy[to] != EMPTY {
                    busy |= !board.goal[to];
                } else if self.stamp[to] != generation {
                    self.stamp[to] = generation;
                    self.queue.push(to);
                }
            }
        }
        busy
    }

    /// Whether the player at `from` can walk to a cell `wanted` says yes to; stops at the
    /// first. Afterwards [`Reach::reached`] holds only for the cells seen so far.
    pub fn reaches_any(
        &mut self,
        board: &Board,
        occupancy: &[u8],
        from: usize,
        wanted: impl Fn(usize) -> bool,
    ) -> bool {
        let generation = self.next_generation();
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from] = generation;
        let mut head = 0;
        while head < self.queue.len() {
            let cell = self.queue[head];
            head += 1;
            if wanted(cell) {
                return true;
            }
            for dir in 0..4 {
                let to = board.step(cell, dir);
                if board.floor[to] && occupancy[to] == EMPTY && self.stamp[to] != generation {
                    self.stamp[to] = generation;
                    self.queue.push(to);
                }
            }
        }
        false
    }

    /// A fresh stamp: no cell is marked with it yet.
    fn next_generation(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.generation
    }

    #[inline]
    pub fn reached(&self, cell: usize) -> bool {
        self.stamp[cell] == self.generation
    }

    /// The walk from the last search's start to `to` (reached), as directions.
    pub fn path_to(&self, board: &Board, mut to: usize) -> Vec<usize> {
        let mut dirs = Vec::new();
        while self.distance[to] > 0 {
            let dir = usize::from(self.came[to]);
            dirs.push(dir);
            to = board.step(to, dir ^ 1);
        }
        dirs.reverse();
        dirs
    }
}

/// Whether the free cells round `cell` (`free` says which) form one group joined
/// through free corners: then a box put on `cell` cuts no region in two. Its four
/// edge neighbours are walked in ring order (up, right, down, left); a free one not
/// joined to the next through a free corner ends a group, and at most one may.
pub fn joined_around(board: &Board, cell: usize, free: impl Fn(usize) -> bool) -> bool {
    let ring = [0usize, 3, 1, 2].map(|d| board.step(cell, d));
    let mut breaks = 0;
    for k in 0..4 {
        if !free(ring[k]) {
            continue;
        }
        // The corner between this neighbour and the next: a step from this one the way
        // the next lies from `cell`.
        let corner = board.step(ring[k], [3, 1, 2, 0][k]);
        if !(free(ring[(k + 1) % 4]) && free(corner)) {
            breaks += 1;
        }
    }
    breaks <= 1
}
