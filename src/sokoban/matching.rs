//! The lower bound: a minimum-cost perfect matching of boxes to goals on push
//! distances (the Hungarian method with potentials, O(n²m)). Every box needs its own
//! goal and at least its push distance to it, so no solution has fewer pushes; when no
//! matching of finite cost exists, the position is dead.
//!
//! A position's children differ from it by one box, so after [`Matcher::prepare`] on
//! the parent each child's bound is one Hungarian phase ([`Matcher::bound_moved`]):
//! the parent's potentials stay feasible for every other row, the moved box's row is
//! unassigned and re-added. Exact (the same value as a full solve) when boxes and goals
//! are as many; otherwise a full solve. The parent itself starts from the last prepared
//! position the same way: its rows whose box did not move keep their potentials and
//! goals, and only the moved boxes' rows are re-added (the search pops a child of the
//! last expanded position most of the time, so that is one or two phases, not n).
//! Most pushes do not even need the phase: when the moved box's goal stays the cheapest
//! for it against the column potentials, the old assignment is still optimal
//! ([`Matcher::keep_goal`]), and the bound is the parent's with that one cost changed.
//!
//! Tests that only ask whether every box can have a goal of its own take Kuhn's
//! augmenting paths instead, without costs ([`Kuhn`]; the level's deadlock check too).

use super::board::{Board, FAR};

/// The push distances a matching is solved on: the board's, or those with some boxes
/// frozen on goals as walls (`walled.rs`). `id` names the table (0: the board's), so a
/// warm start never mixes two tables' costs.
#[derive(Clone, Copy)]
pub struct Distances<'a> {
    pub id: u64,
    /// `table[cell * goals + g]`, as [`Board::distance`].
    pub table: &'a [u16],
}

impl<'a> Distances<'a> {
    pub fn of(board: &'a Board) -> Distances<'a> {
        Distances {
            id: 0,
            table: &board.distance,
        }
    }

    #[inline]
    fn row(&self, board: &Board, cell: usize) -> &'a [u16] {
        let n = board.goals.len();
        &self.table[cell * n..cell * n + n]
    }
}

/// Reused buffers, so a bound costs no allocation.
pub struct Matcher {
    cost: Vec<i32>,
    u: Vec<i32>,
    v: Vec<i32>,
    owner: Vec<usize>,
    way: Vec<usize>,
    min: Vec<i32>,
    used: Vec<bool>,
    /// The last prepared parent: its rows' costs, potentials and assignment, when every
    /// goal has a box ([`Matcher::prepare`]).
    base: Option<Base>,
    /// Whether `cost` holds `base`'s rows, as [`Matcher::bound_moved`] needs (a full
    /// solve in between overwrites them; `base` still serves the next warm start).
    base_ready: bool,
    /// Scratch of the warm start: per row of `base`, the row of the same box now, or 0.
    remap: Vec<usize>,
    /// Scratch of the warm start: the rows of boxes that moved.
    moved: Vec<usize>,
    /// [`Matcher::feasible`]'s matching.
    kuhn: Kuhn,
}

struct Base {
    /// The distance table's id.
    id: u64,
    /// The boxes, in row order.
    boxes: Vec<u16>,
    cost: Vec<i32>,
    u: Vec<i32>,
    v: Vec<i32>,
    owner: Vec<usize>,
    /// The matching's cost (below [`INFINITE`]: a dead parent is never kept).
    total: i32,
}

/// Stands for an impossible pairing: larger than any sum of real distances.
const INFINITE: i32 = 1 << 24;

/// Column potentials below minus this are reset by a full solve (see [`Matcher::prepare`]).
const DRIFT: i32 = 1 << 28;

impl Matcher {
    pub fn new() -> Matcher {
        Matcher {
            cost: Vec::new(),
            u: Vec::new(),
            v: Vec::new(),
            owner: Vec::new(),
            way: Vec::new(),
            min: Vec::new(),
            used: Vec::new(),
            base: None,
            base_ready: false,
            remap: Vec::new(),
            moved: Vec::new(),
            kuhn: Kuhn::default(),
        }
    }

    /// Solves the parent `boxes` and keeps its potentials for [`Matcher::bound_moved`];
    /// when boxes and goals are as many, warm-started from the last prepared parent.
    pub fn prepare(&mut self, board: &Board, dist: Distances<'_>, boxes: &[u16]) {
        let n = boxes.len();
        let m = board.goals.len();
        let mut base = self.base.take();
        self.base_ready = false;
        if n == 0 || n != m {
            return;
        }
        // Potentials drift down over many warm starts: far below the costs' range, a
        // full solve starts them afresh before any sum could overflow.
        let warm =
            |b: &&Base| b.id == dist.id && b.boxes.len() == n && b.v.iter().all(|&v| v > -DRIFT);
        let bound = match base.as_ref().filter(warm) {
            Some(last) => self.warm_start(board, dist, boxes, last),
            None => self.bound_on(board, dist, boxes),
        };
        debug_assert_eq!(bound, Matcher::new().bound_on(board, dist, boxes));
        if bound.is_none() {
            return;
        }
        let b = base.get_or_insert_with(|| Base {
            id: 0,
            boxes: Vec::new(),
            cost: Vec::new(),
            u: Vec::new(),
            v: Vec::new(),
            owner: Vec::new(),
            total: 0,
        });
        b.id = dist.id;
        b.boxes.clear();
        b.boxes.extend_from_slice(boxes);
        b.cost.clone_from(&self.cost);
        b.u.clone_from(&self.u);
        b.v.clone_from(&self.v);
        b.owner.clone_from(&self.owner);
        b.total = bound.map_or(0, |b| b as i32);
        self.base = base;
        self.base_ready = true;
    }

    /// The bound of `boxes` (as many as goals, sorted as `last.boxes` are) from `last`'s
    /// solution: the rows of boxes that stayed keep their potentials and goals (their
    /// costs are the same, so the potentials stay feasible and their edges tight), every
    /// column keeps its potential (all at most 0, so a new row's 0 is feasible), and the
    /// rows of moved boxes are added by one phase each. The result is optimal as a full
    /// solve is.
    fn warm_start(
        &mut self,
        board: &Board,
        dist: Distances<'_>,
        boxes: &[u16],
        last: &Base,
    ) -> Option<u32> {
        let n = boxes.len();
        let m = board.goals.len();
        self.fill_costs(board, dist, boxes);
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clone_from(&last.v);
        self.way.clear();
        self.way.resize(m + 1, 0);
        self.remap.clear();
        self.remap.resize(n + 1, 0);
        self.moved.clear();
        let (mut i, mut j) = (0, 0);
        while i < n {
            match last.boxes.get(j).map(|b| boxes[i].cmp(b)) {
                Some(std::cmp::Ordering::Equal) => {
                    self.remap[j + 1] = i + 1;
                    self.u[i + 1] = last.u[j + 1];
                    i += 1;
                    j += 1;
                }
                Some(std::cmp::Ordering::Greater) => j += 1,
                _ => {
                    self.moved.push(i + 1);
                    i += 1;
                }
            }
        }
        self.owner.clear();
        self.owner.resize(m + 1, 0);
        for col in 1..=m {
            self.owner[col] = self.remap[last.owner[col]];
        }
        for k in 0..self.moved.len() {
            self.phase(self.moved[k], m);
        }
        let total = self.total(m);
        (total < INFINITE).then_some(total as u32)
    }

    /// The cost rows of `boxes`: push distances, [`INFINITE`] for "never".
    fn fill_costs(&mut self, board: &Board, dist: Distances<'_>, boxes: &[u16]) {
        self.cost.clear();
        for &b in boxes {
            for &d in dist.row(board, usize::from(b)) {
                self.cost
                    .push(if d == FAR { INFINITE } else { i32::from(d) });
            }
        }
    }

    /// The bound of the prepared parent with its box `index` (in the order given to
    /// [`Matcher::prepare`]) moved to `to`; without a prepared parent, of `boxes` (the
    /// child's boxes) solved in full.
    pub fn bound_moved(
        &mut self,
        board: &Board,
        dist: Distances<'_>,
        boxes: &[u16],
        index: usize,
        to: usize,
    ) -> Option<u32> {
        if !self.base_ready {
            return self.bound_on(board, dist, boxes);
        }
        let Some(base) = self.base.take() else {
            return self.bound_on(board, dist, boxes);
        };
        debug_assert_eq!(base.id, dist.id);
        let m = board.goals.len();
        let row = index + 1;
        if let Some(total) = Matcher::keep_goal(board, dist, &base, m, row, to) {
            self.base = Some(base);
            return (total < INFINITE).then_some(total as u32);
        }
        for (c, &d) in self.cost[index * m..index * m + m]
            .iter_mut()
            .zip(dist.row(board, to))
        {
            *c = if d == FAR { INFINITE } else { i32::from(d) };
        }
        self.u.clone_from(&base.u);
        self.v.clone_from(&base.v);
        self.owner.clone_from(&base.owner);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for owner in &mut self.owner[1..] {
            if *owner == row {
                *owner = 0;
            }
        }
        // Every column's potential is at most 0 and every cost at least 0: a zero row
        // potential is feasible, as for a row met for the first time.
        self.u[row] = 0;
        self.phase(row, m);
        let total = self.total(m);
        let span = index * m..index * m + m;
        self.cost[span.clone()].copy_from_slice(&base.cost[span]);
        self.base = Some(base);
        (total < INFINITE).then_some(total as u32)
    }

    /// The child's matching cost without a phase, when the moved box's (`row`, now at
    /// `to`) goal in the parent's assignment is still its cheapest against the column
    /// potentials: then its row potential can be set to make that edge tight and every
    /// other edge of the row stays feasible, the other rows are untouched, so the same
    /// assignment is optimal (complementary slackness; every column is assigned, since
    /// boxes and goals are as many). `None`: a phase is needed.
    fn keep_goal(
        board: &Board,
        dist: Distances<'_>,
        base: &Base,
        m: usize,
        row: usize,
        to: usize,
    ) -> Option<i32> {
        let goal = base.owner[1..].iter().position(|&r| r == row)? + 1;
        let distances = dist.row(board, to);
        let cost = |col: usize| match distances[col - 1] {
            FAR => INFINITE,
            d => i32::from(d),
        };
        let kept = cost(goal) - base.v[goal];
        if (1..=m).any(|col| cost(col) - base.v[col] < kept) {
            return None;
        }
        let old = base.cost[(row - 1) * m + goal - 1];
        Some(base.total - old + cost(goal))
    }

    /// The matching bound of `boxes`, or `None` when some box can reach no goal left free
    /// by the others (a bipartite deadlock).
    pub fn bound(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        self.bound_on(board, Distances::of(board), boxes)
    }

    /// Whether [`Matcher::bound`] of `boxes` is `Some`: every box has a goal of its own
    /// at a finite push distance. Augmenting paths over the finite pairs only (Kuhn),
    /// O(n·pairs) without the costs: what a test that needs no bound pays.
    pub fn feasible(&mut self, board: &Board, boxes: &[u16]) -> bool {
        let m = board.goals.len();
        if boxes.len() > m {
            return false;
        }
        self.kuhn.clear(m);
        let goals_of = |i: usize| {
            let row = Distances::of(board).row(board, usize::from(boxes[i]));
            row.iter()
                .enumerate()
                .filter(|&(_, &d)| d != FAR)
                .map(|(g, _)| g)
        };
        (0..boxes.len()).all(|i| self.kuhn.add(i, &goals_of))
    }

    /// [`Matcher::bound`] on the distances `dist`.
    pub fn bound_on(&mut self, board: &Board, dist: Distances<'_>, boxes: &[u16]) -> Option<u32> {
        // The cost rows are rebuilt: a prepared parent's no longer stand.
        self.base_ready = false;
        let n = boxes.len();
        let m = board.goals.len();
        if n > m {
            return None;
        }
        if n == 0 {
            return Some(0);
        }
        self.fill_costs(board, dist, boxes);
        let total = self.assign(n, m);
        (total < INFINITE).then_some(total as u32)
    }

    /// Classic potentials formulation: rows (boxes) 1..=n, columns (goals) 1..=m, n ≤ m.
    fn assign(&mut self, n: usize, m: usize) -> i32 {
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.owner.clear();
        self.owner.resize(m + 1, 0);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for row in 1..=n {
            self.phase(row, m);
        }
        self.total(m)
    }

    /// One phase: adds `row` (unassigned, with a feasible potential) to the assignment
    /// along a shortest augmenting path, keeping the potentials feasible.
    fn phase(&mut self, row: usize, m: usize) {
        {
            self.owner[0] = row;
            let mut col0 = 0;
            self.min.clear();
            self.min.resize(m + 1, i32::MAX);
            self.used.clear();
            self.used.resize(m + 1, false);
            loop {
                self.used[col0] = true;
                let row0 = self.owner[col0];
                let mut delta = i32::MAX;
                let mut col1 = 0;
                for col in 1..=m {
                    if self.used[col] {
                        continue;
                    }
                    let reduced = self.cost[(row0 - 1) * m + col - 1] - self.u[row0] - self.v[col];
                    if reduced < self.min[col] {
                        self.min[col] = reduced;
                        self.way[col] = col0;
                    }
                    if self.min[col] < delta {
                        delta = self.min[col];
                        col1 = col;
                    }
                }
                for col in 0..=m {
                    if self.used[col] {
                        self.u[self.owner[col]] += delta;
                        self.v[col] -= delta;
                    } else {
                        self.min[col] -= delta;
                    }
                }
                col0 = col1;
                if self.owner[col0] == 0 {
                    break;
                }
            }
            loop {
                let col1 = self.way[col0];
                self.owner[col0] = self.owner[col1];
                col0 = col1;
                if col0 == 0 {
                    break;
                }
            }
        }
    }

    fn total(&self, m: usize) -> i32 {
        let mut total: i32 = 0;
        for col in 1..=m {
            let row = self.owner[col];
            if row != 0 {
                total = total.saturating_add(self.cost[(row - 1) * m + col - 1]);
            }
        }
        total
    }
}

/// A maximum matching of rows (boxes) to columns (goals) without costs, grown a row at
/// a time by Kuhn's augmenting paths: O(rows·pairs), what a test that only asks whether
/// every row can have a column of its own pays.
#[derive(Default)]
pub struct Kuhn {
    /// Per column, 1 + the row matched to it, or 0.
    owner: Vec<usize>,
    /// Per column, the path search that last visited it (numbered from 1 since the
    /// last [`Kuhn::clear`]), so no array is cleared per row.
    seen: Vec<usize>,
    search: usize,
}

impl Kuhn {
    /// Starts an empty matching over `columns` columns.
    pub fn clear(&mut self, columns: usize) {
        self.owner.clear();
        self.owner.resize(columns, 0);
        self.seen.clear();
        self.seen.resize(columns, 0);
        self.search = 0;
    }

    /// Matches `row` along an augmenting path, `columns_of(r)` being the columns row `r`
    /// may take, tried in that order; whether one was found. The rows matched before
    /// stay matched (maybe to other columns), so a row left out now stays out.
    pub fn add<F, I>(&mut self, row: usize, columns_of: &F) -> bool
    where
        F: Fn(usize) -> I,
        I: IntoIterator<Item = usize>,
    {
        self.search += 1;
        self.augment(row, columns_of)
    }

    fn augment<F, I>(&mut self, row: usize, columns_of: &F) -> bool
    where
        F: Fn(usize) -> I,
        I: IntoIterator<Item = usize>,
    {
        for col in columns_of(row) {
            if self.seen[col] == self.search {
                continue;
            }
            self.seen[col] = self.search;
            let owner = self.owner[col];
            if owner == 0 || self.augment(owner - 1, columns_of) {
                self.owner[col] = row + 1;
                return true;
            }
        }
        false
    }

    /// The row matched to column `col`, if any.
    pub fn owner(&self, col: usize) -> Option<usize> {
        self.owner[col].checked_sub(1)
    }
}
