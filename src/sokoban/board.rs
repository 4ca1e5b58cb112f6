//! The fixed context of a search: the padded board, goals, dead squares and push distances.
//!
//! Cells are indices into a grid with a one-cell wall border, so a neighbour never
//! leaves the array. Only the floor the player can reach (boxes treated as floor) counts:
//! nothing, box or player, ever enters any other cell.

use super::Puzzle;

/// Directions `u d l r`; `d ^ 1` is the opposite of `d`.
pub const WALKS: [u8; 4] = *b"udlr";
pub const PUSHES: [u8; 4] = *b"UDLR";

/// Push distances at least this large mean "never".
pub const FAR: u16 = u16::MAX;

pub struct Board {
    /// Padded cells the player can ever stand on or a box can ever occupy.
    pub floor: Vec<bool>,
    pub goal: Vec<bool>,
    /// Padded cells from which a lone box can still be pushed onto some goal.
    pub live: Vec<bool>,
    /// Padded goal cells, in ascending order.
    pub goals: Vec<usize>,
    /// `distance[cell * goals.len() + g]`: fewest pushes of a lone box from `cell` onto
    /// goal `g`, ignoring where the player is (a lower bound), or [`FAR`].
    pub distance: Vec<u16>,
    /// Row offsets for the four directions.
    offsets: [isize; 4],
}

/// The padded view of a puzzle's starting position.
pub struct Start {
    pub boxes: Vec<usize>,
    pub player: usize,
    /// Boxes outside the player's floor and off every goal: they can never move.
    pub stuck_box: bool,
}

impl Board {
    pub fn new(puzzle: &Puzzle) -> (Board, Start) {
        let width = puzzle.width + 2;
        let cells = width * (puzzle.height + 2);
        let pad =
            |cell: usize| (cell / puzzle.width.max(1) + 1) * width + cell % puzzle.width.max(1) + 1;
        let mut open = vec![false; cells];
        let mut goal = vec![false; cells];
        for cell in 0..puzzle.width * puzzle.height {
            open[pad(cell)] = !puzzle.walls.get(cell).copied().unwrap_or(true);
            goal[pad(cell)] = puzzle.goals.get(cell).copied().unwrap_or(false);
        }
        let offsets = [-(width as isize), width as isize, -1, 1];
        let player = pad(puzzle.player);
        let floor = flood(&open, player, &offsets);
        let on_floor: Vec<bool> = goal.iter().zip(&floor).map(|(&g, &f)| g && f).collect();
        let mut boxes = Vec::new();
        let mut stuck_box = false;
        for &cell in &puzzle.boxes {
            let cell = pad(cell);
            if floor[cell] {
                boxes.push(cell);
            } else if !goal[cell] {
                stuck_box = true;
            }
        }
        boxes.sort_unstable();
        let goals: Vec<usize> = (0..cells).filter(|&c| on_floor[c]).collect();
        let mut board = Board {
            floor,
            goal: on_floor,
            live: Vec::new(),
            goals,
            distance: Vec::new(),
            offsets,
        };
        board.distance = board.pull_distances();
        board.live = board.live_cells();
        (
            board,
            Start {
                boxes,
                player,
                stuck_box,
            },
        )
    }

    pub fn len(&self) -> usize {
        self.floor.len()
    }

    /// The neighbour of `cell` in direction `dir` (interior cells only).
    #[inline]
    pub fn step(&self, cell: usize, dir: usize) -> usize {
        (cell as isize + self.offsets[dir]) as usize
    }

    /// Push distances from `cell` to each goal.
    #[inline]
    pub fn goal_distances(&self, cell: usize) -> &[u16] {
        let n = self.goals.len();
        &self.distance[cell * n..cell * n + n]
    }

    /// The board of the backward search (pulls from the solved position): the boxes'
    /// starting cells `starts` are its goals, and its distances are the fewest pulls
    /// taking a lone box from a cell to each of them — the pushes from that start to
    /// the cell. Same floor, same grid.
    pub fn reversed(&self, starts: &[usize]) -> Board {
        let mut goals = starts.to_vec();
        goals.sort_unstable();
        let mut goal = vec![false; self.len()];
        for &s in &goals {
            goal[s] = true;
        }
        let mut board = Board {
            floor: self.floor.clone(),
            goal,
            live: Vec::new(),
            goals,
            distance: Vec::new(),
            offsets: self.offsets,
        };
        let distance = board.distances(|cell, dir| board.step_push(cell, dir));
        board.distance = distance;
        board.live = board.live_cells();
        board
    }

    /// Per cell, whether some goal is at a finite distance from it.
    fn live_cells(&self) -> Vec<bool> {
        (0..self.len())
            .map(|cell| self.goal_distances(cell).iter().any(|&d| d != FAR))
            .collect()
    }

    /// A push of a box at `cell` in direction `dir`, on an empty board: its new cell,
    /// when the player's cell behind it and that cell are floor.
    fn step_push(&self, cell: usize, dir: usize) -> Option<usize> {
        let to = self.step(cell, dir);
        (self.floor[to] && self.floor[self.step(cell, dir ^ 1)]).then_some(to)
    }

    /// A pull of a box at `cell` in direction `dir`, on an empty board: its new cell,
    /// when that cell (the player's) and the one beyond (the player's next) are floor.
    fn step_pull(&self, cell: usize, dir: usize) -> Option<usize> {
        let to = self.step(cell, dir);
        (self.floor[to] && self.floor[self.step(to, dir)]).then_some(to)
    }

    /// For each goal, a breadth-first search of pulls: a box at `x` pulled in direction
    /// `d` moves to `x+d` with the player going from `x+d` to `x+2d`; a pull sequence
    /// reversed is a push sequence onto the goal.
    fn pull_distances(&self) -> Vec<u16> {
        self.distances(|cell, dir| self.step_pull(cell, dir))
    }

    /// For each goal, a breadth-first search from it along `step` (cell, direction) →
    /// the next cell, if any; laid out as [`Board::distance`].
    pub fn distances(&self, step: impl Fn(usize, usize) -> Option<usize>) -> Vec<u16> {
        let n = self.goals.len();
        let mut distance = vec![FAR; self.len() * n];
        let mut queue = Vec::new();
        for (g, &goal) in self.goals.iter().enumerate() {
            distance[goal * n + g] = 0;
            queue.clear();
            queue.push(goal);
            let mut head = 0;
            while head < queue.len() {
                let cell = queue[head];
                head += 1;
                let next_distance = distance[cell * n + g] + 1;
                for dir in 0..4 {
                    let Some(to) = step(cell, dir) else {
                        continue;
                    };
                    if distance[to * n + g] == FAR {
                        distance[to * n + g] = next_distance;
                        queue.push(to);
                    }
                }
            }
        }
        distance
    }
}

/// The cells reachable from `from` through `open` cells.
fn flood(open: &[bool], from: usize, offsets: &[isize; 4]) -> Vec<bool> {
    let mut seen = vec![false; open.len()];
    if !open.get(from).copied().unwrap_or(false) {
        return seen;
    }
    seen[from] = true;
    let mut stack = vec![from];
    while let Some(cell) = stack.pop() {
        for offset in offsets {
            let to = (cell as isize + offset) as usize;
            if open[to] && !seen[to] {
                seen[to] = true;
                stack.push(to);
            }
        }
    }
    seen
}

#[cfg(test)]
pub mod testing {
    use crate::sokoban::Puzzle;

    /// A puzzle from rows of `#` wall, `$` box, `.` goal, `*` box on goal, `@` player
    /// and spaces.
    pub fn puzzle(rows: &[&str]) -> Puzzle {
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let height = rows.len();
        let mut p = Puzzle {
            width,
            height,
            walls: vec![false; width * height],
            goals: vec![false; width * height],
            boxes: Vec::new(),
            player: 0,
        };
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let cell = r * width + c;
                p.walls[cell] = ch == '#';
                p.goals[cell] = ch == '.' || ch == '*';
                if ch == '$' || ch == '*' {
                    p.boxes.push(cell);
                }
                if ch == '@' {
                    p.player = cell;
                }
            }
        }
        p
    }

    /// A room of `width` × `height` floor cells walled round: its first rows are `top`
    /// (each padded with floor to the width), the rest open floor.
    pub fn room(width: usize, height: usize, top: &[String]) -> Puzzle {
        let wall = "#".repeat(width + 2);
        let mut rows = vec![wall.clone()];
        for r in 0..height {
            let inside = top.get(r).map_or("", String::as_str);
            rows.push(format!("#{inside:<width$}#"));
        }
        rows.push(wall);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        puzzle(&rows)
    }
}
