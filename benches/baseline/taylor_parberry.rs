//! The baseline `gen --hardest` is measured against: Taylor & Parberry's generator
//! ("Procedural Generation of Sokoban Levels", 2011) for one box, written for this
//! benchmark only — a room of 3×3 blocks from the paper's 17 templates, a goal at
//! random, and the "farthest state" found by a breadth-first search of pulls.
//!
//! Sources followed (the paper itself is not readable from here): the 17 templates with
//! their borders as two public ports encode them (smartive/rust-sokoban-level-generator,
//! whose README has the 34 ms, and a Python port), the room checks of that port
//! and of tcoxon/zosoko (Java), and the search as the paper is described: breadth-first
//! over (box cells, normalised player position) states, each scored, the best kept.

use boxls::maze::Grid;

/// Blocks a side: 4 × 3 = a 12×12 room, framed by its outer wall into a 14×14 grid.
pub const BLOCKS: usize = 4;
pub const SIDE: usize = BLOCKS * 3 + 2;
const CELLS: usize = SIDE * SIDE;

/// The 17 templates, 5×5: the 3×3 block and its border. `.` floor, `#` wall, `?` any;
/// `s` is floor that the connectivity check treats as wall (the centre of template 10:
/// the ports mark it so; the corner must not be the only link between its two arms).
const TEMPLATES: [[&str; 5]; 17] = [
    ["?????", "?...?", "?...?", "?...?", "?????"],
    ["?????", "?#..?", "?...?", "?...?", "?????"],
    ["???..", "?##..", "?...?", "?...?", "?????"],
    ["?????", "?###?", "?...?", "?...?", "?????"],
    ["?????", "?###?", "?#..?", "?#..?", "?????"],
    ["??.??", "?#..?", "....?", "?..#?", "?????"],
    ["?????", "?#..?", "....?", "?#..?", "?????"],
    ["??.??", "?#..?", "....?", "?#.#?", "??.??"],
    ["??.??", "?#.#?", ".....", "?#.#?", "??.??"],
    ["??.??", "?#.#?", "?#s..", "?###?", "?????"],
    ["?????", "?###?", ".....", "?###?", "?????"],
    ["?????", "?....", "?.#..", "?...?", "?????"],
    ["?????", "?###?", "?###?", "?###?", "?????"],
    ["?????", "?###?", "?#..?", "....?", "..???"],
    ["?.?.?", "?...?", "?#.#?", "?...?", "?.?.?"],
    ["?????", "?###?", "?###?", "?...?", "?...?"],
    ["?????", "?###?", "..#..", "?...?", "?..??"],
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tile {
    Unset,
    Wall,
    Floor,
    /// Floor, but not a link for the connectivity check (see [`TEMPLATES`]).
    Special,
}

/// splitmix64, so a seed names a level.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One generated level and what the farthest-state search said of its start.
pub struct Level {
    pub grid: Grid,
    /// Pulls from the goal to the start: the start's optimal pushes.
    pub depth: u64,
    /// Box lines (runs of pulls in one direction) on the search's path to the start.
    pub box_lines: u64,
    /// The deepest state the search reached (one S can stand in): the most pushes any
    /// start with this goal needs, which the paper's score does not ask for.
    pub deepest: u64,
    /// Rooms thrown away by the checks before this one.
    pub rejected_rooms: u32,
}

/// One Taylor–Parberry level: rooms until one passes the checks, a random goal, the
/// farthest state. A goal the box cannot be pulled from at all has no candidates in
/// the first place (see [`goal_candidates`]), so every level has at least one push.
pub fn generate(seed: u64) -> Level {
    let mut rng = Rng::new(seed);
    let mut rejected_rooms = 0;
    loop {
        let Some(room) = room(&mut rng) else {
            rejected_rooms += 1;
            continue;
        };
        let goals = goal_candidates(&room);
        if !passes_checks(&room) || goals.is_empty() {
            rejected_rooms += 1;
            continue;
        }
        let goal = goals[rng.below(goals.len())];
        let floor: Vec<bool> = room.iter().map(|t| is_floor(*t)).collect();
        if let Some(mut level) = farthest_state(&floor, goal) {
            level.rejected_rooms = rejected_rooms;
            return level;
        }
        rejected_rooms += 1;
    }
}

fn is_floor(tile: Tile) -> bool {
    matches!(tile, Tile::Floor | Tile::Special)
}

/// The template's cell at (row, col) after one of the 8 rotations/reflections.
fn oriented(template: &[&str; 5], orientation: usize, row: usize, col: usize) -> u8 {
    let (r, c) = if orientation & 4 != 0 {
        (col, row)
    } else {
        (row, col)
    };
    let r = if orientation & 1 != 0 { 4 - r } else { r };
    let c = if orientation & 2 != 0 { 4 - c } else { c };
    template[r].as_bytes()[c]
}

/// Blocks filled row by row, each with a random template in a random orientation
/// whose every fixed cell (block and border) agrees with what is already decided —
/// earlier blocks, earlier borders, and the outer wall, where a border asking for
/// floor does not fit. `None` when a block has no template that fits (a dead end for
/// this room; the caller starts another).
fn room(rng: &mut Rng) -> Option<Vec<Tile>> {
    let mut tiles: Vec<Tile> = (0..CELLS)
        .map(|cell| {
            let (r, c) = (cell / SIDE, cell % SIDE);
            if r == 0 || c == 0 || r == SIDE - 1 || c == SIDE - 1 {
                Tile::Wall
            } else {
                Tile::Unset
            }
        })
        .collect();
    for block in 0..BLOCKS * BLOCKS {
        let (top, left) = (block / BLOCKS * 3, block % BLOCKS * 3);
        let choice = pick(rng, |k| fits(&tiles, top, left, &TEMPLATES[k / 8], k % 8))?;
        place(&mut tiles, top, left, &TEMPLATES[choice / 8], choice % 8);
    }
    Some(tiles)
}

/// A (template, orientation) as `template * 8 + orientation`, uniform among those
/// that fit: random draws until one fits, as the ports do, then (rarely) a draw among
/// all that fit, so a block some template fits always gets one.
fn pick(rng: &mut Rng, fits: impl Fn(usize) -> bool) -> Option<usize> {
    let choices = TEMPLATES.len() * 8;
    for _ in 0..choices {
        let k = rng.below(choices);
        if fits(k) {
            return Some(k);
        }
    }
    let fitting: Vec<usize> = (0..choices).filter(|&k| fits(k)).collect();
    (!fitting.is_empty()).then(|| fitting[rng.below(fitting.len())])
}

fn fits(tiles: &[Tile], top: usize, left: usize, template: &[&str; 5], o: usize) -> bool {
    (0..25).all(|k| {
        let want = match oriented(template, o, k / 5, k % 5) {
            b'#' => Tile::Wall,
            b'?' => return true,
            _ => Tile::Floor,
        };
        let have = tiles[(top + k / 5) * SIDE + left + k % 5];
        have == Tile::Unset || (have == Tile::Wall) == (want == Tile::Wall)
    })
}

fn place(tiles: &mut [Tile], top: usize, left: usize, template: &[&str; 5], o: usize) {
    for k in 0..25 {
        let cell = (top + k / 5) * SIDE + left + k % 5;
        match oriented(template, o, k / 5, k % 5) {
            b'#' => tiles[cell] = Tile::Wall,
            b'.' if tiles[cell] == Tile::Unset => tiles[cell] = Tile::Floor,
            b's' => tiles[cell] = Tile::Special,
            _ => {}
        }
    }
}

fn neighbours(cell: usize) -> [usize; 4] {
    [cell - SIDE, cell + 1, cell + SIDE, cell - 1]
}

/// The paper's rejections: room for a player, a box, a goal and one more floor; one
/// connected floor; no 3×4 or 4×3 open space; no dead end (a floor walled on three
/// sides).
fn passes_checks(tiles: &[Tile]) -> bool {
    let floors: Vec<usize> = (0..CELLS).filter(|&c| is_floor(tiles[c])).collect();
    floors.len() >= 4 && connected(tiles, &floors) && !open_space(tiles) && !dead_end(tiles)
}

/// Every floor reached from the first without passing through a `Special` cell.
fn connected(tiles: &[Tile], floors: &[usize]) -> bool {
    let Some(&first) = floors.iter().find(|&&c| tiles[c] == Tile::Floor) else {
        return false;
    };
    let mut seen = [false; CELLS];
    let mut stack = vec![first];
    seen[first] = true;
    while let Some(cell) = stack.pop() {
        for next in neighbours(cell) {
            if !seen[next] && is_floor(tiles[next]) {
                seen[next] = true;
                if tiles[next] == Tile::Floor {
                    stack.push(next);
                }
            }
        }
    }
    floors.iter().all(|&c| seen[c])
}

fn open_space(tiles: &[Tile]) -> bool {
    let all_floor = |top: usize, left: usize, h: usize, w: usize| {
        (top..top + h).all(|r| (left..left + w).all(|c| is_floor(tiles[r * SIDE + c])))
    };
    (0..SIDE).any(|top| {
        (0..SIDE).any(|left| {
            (top + 3 <= SIDE && left + 4 <= SIDE && all_floor(top, left, 3, 4))
                || (top + 4 <= SIDE && left + 3 <= SIDE && all_floor(top, left, 4, 3))
        })
    })
}

fn dead_end(tiles: &[Tile]) -> bool {
    (0..CELLS).any(|cell| {
        is_floor(tiles[cell])
            && neighbours(cell)
                .iter()
                .filter(|&&n| tiles[n] == Tile::Wall)
                .count()
                >= 3
    })
}

/// Floors with two floors in a line on some side: the box on the goal can be pulled
/// at least once (the Rust port's rule for where a goal may go).
fn goal_candidates(tiles: &[Tile]) -> Vec<usize> {
    (0..CELLS)
        .filter(|&cell| is_floor(tiles[cell]))
        .filter(|&cell| {
            neighbours(cell).iter().any(|&n| {
                let beyond = n as isize * 2 - cell as isize;
                is_floor(tiles[n])
                    && (0..CELLS as isize).contains(&beyond)
                    && is_floor(tiles[beyond as usize])
            })
        })
        .collect()
}

/// For each box cell, each floor's player region with the box there, named by the
/// region's first cell (the normalised player position); `NONE` for walls and the box.
struct Regions {
    floor: Vec<bool>,
    by_box: Vec<Option<Vec<u16>>>,
}

const NONE: u16 = u16::MAX;

impl Regions {
    fn of(&mut self, boxed: usize) -> &[u16] {
        let floor = &self.floor;
        self.by_box[boxed].get_or_insert_with(|| {
            let mut label = vec![NONE; CELLS];
            for first in 0..CELLS {
                if !floor[first] || first == boxed || label[first] != NONE {
                    continue;
                }
                label[first] = first as u16;
                let mut stack = vec![first];
                while let Some(cell) = stack.pop() {
                    for next in neighbours(cell) {
                        if floor[next] && next != boxed && label[next] == NONE {
                            label[next] = first as u16;
                            stack.push(next);
                        }
                    }
                }
            }
            label
        })
    }
}

/// A state of the search: the box's cell and the player's region.
#[derive(Clone, Copy)]
struct State {
    boxed: usize,
    region: u16,
    depth: u64,
    box_lines: u64,
    /// The direction of the pull that reached it (4: none yet).
    last: usize,
}

/// The farthest-state search: breadth-first over pulls from every state with the box
/// on the goal and the player in any region next to it, each state reached first
/// through its breadth-first parent. Its score is box lines plus box swaps, the swaps
/// always 0 with one box; ties go to the deeper state, then the first found. The
/// player starts on the region's first cell that is not the goal (a region that is
/// the goal alone cannot hold S, so its states are passed over).
pub fn farthest_state(floor: &[bool], goal: usize) -> Option<Level> {
    let mut regions = Regions {
        floor: floor.to_vec(),
        by_box: vec![None; CELLS],
    };
    let mut seen = vec![false; CELLS * CELLS];
    let mut queue = Vec::new();
    let goal_regions = regions.of(goal).to_vec();
    for n in neighbours(goal) {
        let region = goal_regions[n];
        if region != NONE && !seen[goal * CELLS + region as usize] {
            seen[goal * CELLS + region as usize] = true;
            queue.push(State {
                boxed: goal,
                region,
                depth: 0,
                box_lines: 0,
                last: 4,
            });
        }
    }
    let mut best: Option<(State, usize)> = None;
    let mut deepest = 0;
    let mut next = 0;
    while next < queue.len() {
        let state = queue[next];
        next += 1;
        let here = regions.of(state.boxed).to_vec();
        if state.depth > 0 {
            if let Some(player) = (0..CELLS).find(|&c| here[c] == state.region && c != goal) {
                deepest = state.depth;
                let better = best
                    .is_none_or(|(b, _)| (state.box_lines, state.depth) > (b.box_lines, b.depth));
                if better {
                    best = Some((state, player));
                }
            }
        }
        for (dir, &to) in neighbours(state.boxed).iter().enumerate() {
            // The player stands on `to` (in its region) and steps back to `beyond`.
            if here[to] != state.region || !floor[neighbours(to)[dir]] {
                continue;
            }
            let beyond = neighbours(to)[dir];
            let region = regions.of(to)[beyond];
            if !seen[to * CELLS + region as usize] {
                seen[to * CELLS + region as usize] = true;
                queue.push(State {
                    boxed: to,
                    region,
                    depth: state.depth + 1,
                    box_lines: state.box_lines + u64::from(dir != state.last),
                    last: dir,
                });
            }
        }
    }
    let (start, player) = best?;
    Some(Level {
        grid: Grid {
            rows: SIDE,
            cols: SIDE,
            walls: floor.iter().map(|f| !f).collect(),
            player,
            boxed: start.boxed,
            target: goal,
        },
        depth: start.depth,
        box_lines: start.box_lines,
        deepest,
        rejected_rooms: 0,
    })
}
