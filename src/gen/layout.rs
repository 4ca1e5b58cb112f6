//! Wall layouts per family, all walled in by a border of rock, with every free cell in
//! one connected region (smaller regions are filled in).

use super::rng::Rng;
use super::Family;

/// Row-major walls of a `rows × cols` layout (`rows, cols >= 3`); `percent` is the
/// family's rock density (pillars, cave fill or loops knocked out).
pub fn layout(rng: &mut Rng, family: Family, rows: usize, cols: usize, percent: u32) -> Vec<bool> {
    let mut walls = match family {
        Family::Open => open(rng, rows, cols, percent),
        Family::Rooms => rooms(rng, rows, cols, percent),
        Family::Caves => caves(rng, rows, cols, percent),
        Family::Corridors | Family::Traps => corridors(rng, rows, cols, percent),
    };
    keep_largest_region(&mut walls, rows, cols);
    walls
}

/// The rock density a family uses when none is given.
pub fn default_percent(family: Family) -> u32 {
    match family {
        Family::Open => 8,
        Family::Rooms => 3,
        Family::Caves => 36,
        Family::Corridors | Family::Traps => 15,
    }
}

fn border(rows: usize, cols: usize) -> Vec<bool> {
    (0..rows * cols)
        .map(|cell| {
            let (r, c) = (cell / cols, cell % cols);
            r == 0 || c == 0 || r == rows - 1 || c == cols - 1
        })
        .collect()
}

/// Open floor with pillars.
fn open(rng: &mut Rng, rows: usize, cols: usize, percent: u32) -> Vec<bool> {
    let mut walls = border(rows, cols);
    for wall in walls.iter_mut().filter(|w| !**w) {
        *wall = rng.percent(percent);
    }
    walls
}

/// Recursive division into rooms joined by one-cell doors, then pillars.
fn rooms(rng: &mut Rng, rows: usize, cols: usize, percent: u32) -> Vec<bool> {
    let mut walls = border(rows, cols);
    divide(rng, &mut walls, cols, (1, 1, rows - 2, cols - 2));
    for wall in walls.iter_mut() {
        if !*wall && rng.percent(percent) {
            *wall = true;
        }
    }
    walls
}

/// Splits the room (top, left, height, width) with a wall at an even offset and a door
/// at an odd one, so doors never land in a later wall.
fn divide(
    rng: &mut Rng,
    walls: &mut [bool],
    cols: usize,
    (top, left, height, width): (usize, usize, usize, usize),
) {
    if height.max(width) < 5 || height.min(width) < 2 {
        return;
    }
    let across = if height == width {
        rng.below(2) == 0
    } else {
        height > width
    };
    if across {
        // A horizontal wall on row top + at (at odd, so rooms keep odd sizes).
        let at = 1 + 2 * rng.below((height - 1) / 2);
        let door = 2 * rng.below(width.div_ceil(2));
        for c in 0..width {
            walls[(top + at) * cols + left + c] = c != door;
        }
        divide(rng, walls, cols, (top, left, at, width));
        divide(
            rng,
            walls,
            cols,
            (top + at + 1, left, height - at - 1, width),
        );
    } else {
        let at = 1 + 2 * rng.below((width - 1) / 2);
        let door = 2 * rng.below(height.div_ceil(2));
        for r in 0..height {
            walls[(top + r) * cols + left + at] = r != door;
        }
        divide(rng, walls, cols, (top, left, height, at));
        divide(
            rng,
            walls,
            cols,
            (top, left + at + 1, height, width - at - 1),
        );
    }
}

/// Random fill smoothed by a cellular automaton (rock with five of eight rock
/// neighbours, or four when already rock).
fn caves(rng: &mut Rng, rows: usize, cols: usize, percent: u32) -> Vec<bool> {
    let mut walls = open(rng, rows, cols, percent);
    for _ in 0..4 {
        let before = walls.clone();
        for r in 1..rows - 1 {
            for c in 1..cols - 1 {
                let rock = (r - 1..=r + 1)
                    .flat_map(|rr| (c - 1..=c + 1).map(move |cc| (rr, cc)))
                    .filter(|&(rr, cc)| (rr, cc) != (r, c) && before[rr * cols + cc])
                    .count();
                let cell = r * cols + c;
                walls[cell] = rock >= 5 || (before[cell] && rock >= 4);
            }
        }
    }
    walls
}

/// A perfect maze of one-cell corridors on the odd cells (recursive backtracker), then
/// `percent`% of its inner walls between two corridors knocked out to make loops.
fn corridors(rng: &mut Rng, rows: usize, cols: usize, percent: u32) -> Vec<bool> {
    let mut walls = vec![true; rows * cols];
    let (lr, lc) = ((rows - 1) / 2, (cols - 1) / 2);
    if lr == 0 || lc == 0 {
        return open(rng, rows, cols, 0);
    }
    let at = |cell: usize| (1 + cell / lc * 2) * cols + 1 + cell % lc * 2;
    let mut seen = vec![false; lr * lc];
    let start = rng.below(lr * lc);
    seen[start] = true;
    walls[at(start)] = false;
    let mut stack = vec![start];
    while let Some(&cell) = stack.last() {
        let (r, c) = (cell / lc, cell % lc);
        let mut unseen = Vec::with_capacity(4);
        if r > 0 && !seen[cell - lc] {
            unseen.push(cell - lc);
        }
        if r + 1 < lr && !seen[cell + lc] {
            unseen.push(cell + lc);
        }
        if c > 0 && !seen[cell - 1] {
            unseen.push(cell - 1);
        }
        if c + 1 < lc && !seen[cell + 1] {
            unseen.push(cell + 1);
        }
        if unseen.is_empty() {
            stack.pop();
            continue;
        }
        let next = unseen[rng.below(unseen.len())];
        seen[next] = true;
        walls[(at(cell) + at(next)) / 2] = false;
        walls[at(next)] = false;
        stack.push(next);
    }
    for r in 1..rows - 1 {
        for c in 1..cols - 1 {
            let cell = r * cols + c;
            let between = (r % 2 == 1 && c % 2 == 0 && c + 1 < cols - 1)
                || (r % 2 == 0 && c % 2 == 1 && r + 1 < rows - 1);
            if walls[cell] && between && rng.percent(percent) {
                walls[cell] = false;
            }
        }
    }
    walls
}

/// Fills every free region but the largest (the first in row-major order among equals).
fn keep_largest_region(walls: &mut [bool], rows: usize, cols: usize) {
    let mut region = vec![usize::MAX; walls.len()];
    let mut sizes = Vec::new();
    for start in 0..walls.len() {
        if walls[start] || region[start] != usize::MAX {
            continue;
        }
        let id = sizes.len();
        let mut stack = vec![start];
        region[start] = id;
        let mut size = 0;
        while let Some(cell) = stack.pop() {
            size += 1;
            let (r, c) = (cell / cols, cell % cols);
            let neighbours = [
                (r > 0).then(|| cell - cols),
                (r + 1 < rows).then(|| cell + cols),
                (c > 0).then(|| cell - 1),
                (c + 1 < cols).then(|| cell + 1),
            ];
            for n in neighbours.into_iter().flatten() {
                if !walls[n] && region[n] == usize::MAX {
                    region[n] = id;
                    stack.push(n);
                }
            }
        }
        sizes.push(size);
    }
    let keep = (0..sizes.len()).max_by_key(|&id| (sizes[id], std::cmp::Reverse(id)));
    for (cell, wall) in walls.iter_mut().enumerate() {
        if !*wall && Some(region[cell]) != keep {
            *wall = true;
        }
    }
}
