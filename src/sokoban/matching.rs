//! The lower bound: a minimum-cost perfect matching of boxes to goals on push
//! distances (the Hungarian method with potentials, O(n²m)). Every box needs its own
//! goal and at least its push distance to it, so no solution has fewer pushes; when no
//! matching of finite cost exists, the position is dead.

use super::board::{Board, FAR};

/// Reused buffers, so a bound costs no allocation.
pub struct Matcher {
    cost: Vec<i32>,
    u: Vec<i32>,
    v: Vec<i32>,
    owner: Vec<usize>,
    way: Vec<usize>,
    min: Vec<i32>,
    used: Vec<bool>,
}

/// Stands for an impossible pairing: larger than any sum of real distances.
const INFINITE: i32 = 1 << 24;

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
        }
    }

    /// The matching bound of `boxes`, or `None` when some box can reach no goal left free
    /// by the others (a bipartite deadlock).
    pub fn bound(&mut self, board: &Board, boxes: &[u16]) -> Option<u32> {
        let n = boxes.len();
        let m = board.goals.len();
        if n > m {
            return None;
        }
        if n == 0 {
            return Some(0);
        }
        self.cost.clear();
        for &b in boxes {
            for &d in board.goal_distances(usize::from(b)) {
                self.cost
                    .push(if d == FAR { INFINITE } else { i32::from(d) });
            }
        }
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
