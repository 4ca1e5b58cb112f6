//! Deterministic maze generators for the differential tests and the solver bench.
//!
//! The generator's splitmix64 (`boxls::gen::rng`) drives every choice, so a seed names a maze.
//! Rock styles: random rock at a given density, perfect-maze corridors (recursive
//! backtracker) with optional loops knocked in, and open rooms with sparse pillars.
//! S, B and T go on distinct free cells: anywhere, inside the largest open region, or
//! by pulling the box away from T with random reverse moves (always solvable).

use boxls::maze::Grid;

pub use boxls::gen::rng::Rng;

/// How the rock of a maze is laid out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Style {
    /// Each cell is rock with this probability.
    Scatter(f64),
    /// A perfect maze of one-cell corridors, then up to this many walls knocked out.
    Corridors { loops: usize },
    /// Open floor (walled in when big enough) with pillars at this density.
    Rooms(f64),
}

/// Every style the tests mix, in a fixed order.
pub const STYLES: [Style; 8] = [
    Style::Scatter(0.15),
    Style::Scatter(0.3),
    Style::Scatter(0.45),
    Style::Corridors { loops: 0 },
    Style::Corridors { loops: 3 },
    Style::Corridors { loops: 12 },
    Style::Rooms(0.04),
    Style::Rooms(0.1),
];

/// Where S, B and T go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Placement {
    /// Any free cells.
    Anywhere,
    /// Free cells of the largest open region.
    Region,
    /// T in the largest region, then the box pulled away from it: solvable.
    Pulled,
}

/// A maze of the given style, size (`rows * cols >= 3`) and placement.
pub fn generate(
    rng: &mut Rng,
    style: Style,
    placement: Placement,
    (rows, cols): (usize, usize),
) -> Grid {
    assert!(
        rows * cols >= 3,
        "a {rows}x{cols} maze has no room for S, B and T"
    );
    let mut walls = match style {
        Style::Scatter(density) => scatter(rng, rows, cols, density),
        Style::Corridors { loops } => corridors(rng, rows, cols, loops),
        Style::Rooms(density) => rooms(rng, rows, cols, density),
    };
    while walls.iter().filter(|&&wall| !wall).count() < 3 {
        let cell = rng.below(walls.len());
        walls[cell] = false;
    }
    let shape = Shape { rows, cols };
    let [player, boxed, target] = place(rng, &walls, shape, placement);
    Grid {
        rows,
        cols,
        walls,
        player,
        boxed,
        target,
    }
}

/// A maze of a random style from [`STYLES`] and a random placement.
pub fn mixed(rng: &mut Rng, size: (usize, usize)) -> Grid {
    let style = rng.pick(&STYLES);
    let placement = rng.pick(&[
        Placement::Anywhere,
        Placement::Region,
        Placement::Region,
        Placement::Pulled,
        Placement::Pulled,
    ]);
    generate(rng, style, placement, size)
}

/// A random size with both sides in `1..=max` and room for S, B and T.
pub fn size(rng: &mut Rng, max: usize) -> (usize, usize) {
    loop {
        let (rows, cols) = (rng.between(1, max), rng.between(1, max));
        if rows * cols >= 3 {
            return (rows, cols);
        }
    }
}

/// Grid dimensions, for moving between row-major cells.
#[derive(Clone, Copy)]
struct Shape {
    rows: usize,
    cols: usize,
}

impl Shape {
    fn len(self) -> usize {
        self.rows * self.cols
    }

    /// The neighbour of `cell` in direction `dir` (north, south, west, east; `dir ^ 1`
    /// is the opposite), if it is inside the grid.
    fn step(self, cell: usize, dir: usize) -> Option<usize> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let (r, c) = match dir {
            0 => (r.checked_sub(1)?, c),
            1 => (r + 1, c),
            2 => (r, c.checked_sub(1)?),
            _ => (r, c + 1),
        };
        (r < self.rows && c < self.cols).then_some(r * self.cols + c)
    }

    fn neighbours(self, cell: usize) -> impl Iterator<Item = usize> {
        (0..4).filter_map(move |dir| self.step(cell, dir))
    }
}

fn scatter(rng: &mut Rng, rows: usize, cols: usize, density: f64) -> Vec<bool> {
    (0..rows * cols).map(|_| rng.chance(density)).collect()
}

/// Recursive backtracker over the cells at even coordinates; the cell between two
/// carved lattice neighbours becomes corridor too.
fn corridors(rng: &mut Rng, rows: usize, cols: usize, loops: usize) -> Vec<bool> {
    let mut walls = vec![true; rows * cols];
    let lattice = Shape {
        rows: rows.div_ceil(2),
        cols: cols.div_ceil(2),
    };
    let to_grid = |cell: usize| (cell / lattice.cols * 2, cell % lattice.cols * 2);
    let mut seen = vec![false; lattice.len()];
    let start = rng.below(lattice.len());
    seen[start] = true;
    let (r, c) = to_grid(start);
    walls[r * cols + c] = false;
    let mut stack = vec![start];
    while let Some(&cell) = stack.last() {
        let unseen: Vec<usize> = lattice.neighbours(cell).filter(|&n| !seen[n]).collect();
        if unseen.is_empty() {
            stack.pop();
            continue;
        }
        let next = rng.pick(&unseen);
        seen[next] = true;
        let ((r0, c0), (r1, c1)) = (to_grid(cell), to_grid(next));
        walls[(r0 + r1) / 2 * cols + (c0 + c1) / 2] = false;
        walls[r1 * cols + c1] = false;
        stack.push(next);
    }
    knock_loops(rng, &mut walls, Shape { rows, cols }, loops);
    walls
}

/// Clears up to `loops` rock cells that separate two corridor cells in a straight line.
fn knock_loops(rng: &mut Rng, walls: &mut [bool], shape: Shape, loops: usize) {
    let free = |walls: &[bool], cell: Option<usize>| cell.is_some_and(|cell| !walls[cell]);
    let mut knocked = 0;
    for _ in 0..loops * 20 {
        if knocked == loops {
            break;
        }
        let cell = rng.below(shape.len());
        let vertical = free(walls, shape.step(cell, 0)) && free(walls, shape.step(cell, 1));
        let horizontal = free(walls, shape.step(cell, 2)) && free(walls, shape.step(cell, 3));
        if walls[cell] && (vertical || horizontal) {
            walls[cell] = false;
            knocked += 1;
        }
    }
}

fn rooms(rng: &mut Rng, rows: usize, cols: usize, density: f64) -> Vec<bool> {
    let bordered = rows >= 5 && cols >= 5;
    (0..rows * cols)
        .map(|cell| {
            let (r, c) = (cell / cols, cell % cols);
            let border = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
            (bordered && border) || rng.chance(density)
        })
        .collect()
}

/// `[player, box, target]` on distinct free cells (there are at least three).
fn place(rng: &mut Rng, walls: &[bool], shape: Shape, placement: Placement) -> [usize; 3] {
    let region = largest_region(walls, shape);
    let pulled = match placement {
        Placement::Pulled => pull_from_target(rng, walls, shape, &region),
        _ => None,
    };
    pulled.unwrap_or_else(|| {
        let mut cells = if placement != Placement::Anywhere && region.len() >= 3 {
            region
        } else {
            (0..walls.len()).filter(|&cell| !walls[cell]).collect()
        };
        std::array::from_fn(|_| cells.swap_remove(rng.below(cells.len())))
    })
}

/// Starts from the solved position (box on T, player beside it) and plays random
/// reverse moves: walks anywhere the player can reach, and runs of pulls that drag the
/// box along. Played backwards, the walks are walks and the pulls are pushes, so the
/// maze is solvable. Tries a few targets; `None` if the box never came off T.
fn pull_from_target(
    rng: &mut Rng,
    walls: &[bool],
    shape: Shape,
    region: &[usize],
) -> Option<[usize; 3]> {
    (0..10).find_map(|_| {
        let target = rng.pick(region);
        pull_from(rng, walls, shape, target)
    })
}

fn pull_from(rng: &mut Rng, walls: &[bool], shape: Shape, target: usize) -> Option<[usize; 3]> {
    let free = |cell: Option<usize>| cell.filter(|&cell| !walls[cell]);
    let (mut player, mut boxed) = (target, target);
    for _ in 0..rng.between(1, 8) {
        let reach = reachable(walls, shape, player, boxed);
        let handles: Vec<(usize, usize)> = (0..4)
            .filter_map(|dir| {
                let side = free(shape.step(boxed, dir)).filter(|&side| reach[side])?;
                free(shape.step(side, dir)).map(|_| (side, dir))
            })
            .collect();
        if handles.is_empty() {
            break;
        }
        let (side, dir) = rng.pick(&handles);
        player = side;
        for _ in 0..rng.between(1, 4) {
            let Some(behind) = free(shape.step(player, dir)) else {
                break;
            };
            (boxed, player) = (player, behind);
        }
    }
    let reach = reachable(walls, shape, player, boxed);
    let spots: Vec<usize> = (0..walls.len())
        .filter(|&cell| reach[cell] && cell != target)
        .collect();
    (boxed != target && !spots.is_empty()).then(|| [rng.pick(&spots), boxed, target])
}

/// The cells the player can walk to from `from` with the box on `boxed`.
fn reachable(walls: &[bool], shape: Shape, from: usize, boxed: usize) -> Vec<bool> {
    let mut seen = vec![false; walls.len()];
    seen[from] = true;
    let mut queue = vec![from];
    while let Some(cell) = queue.pop() {
        for n in shape.neighbours(cell) {
            if !walls[n] && n != boxed && !seen[n] {
                seen[n] = true;
                queue.push(n);
            }
        }
    }
    seen
}

/// The cells of the largest 4-connected set of free cells (the first one on ties).
fn largest_region(walls: &[bool], shape: Shape) -> Vec<usize> {
    let mut seen = vec![false; walls.len()];
    let mut best: Vec<usize> = Vec::new();
    for start in 0..walls.len() {
        if walls[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut region = vec![start];
        let mut next = 0;
        while let Some(&cell) = region.get(next) {
            next += 1;
            for n in shape.neighbours(cell) {
                if !walls[n] && !seen[n] {
                    seen[n] = true;
                    region.push(n);
                }
            }
        }
        if region.len() > best.len() {
            best = region;
        }
    }
    best
}

/// One maze as `.box` text: header then rows.
pub fn render(grid: &Grid) -> String {
    let mut text = format!("{} {}\n", grid.rows, grid.cols);
    for row in grid.to_rows() {
        text.push_str(&row);
        text.push('\n');
    }
    text
}

/// A whole `.box` file: every maze, then the `0 0` terminator.
pub fn render_file(grids: &[Grid]) -> String {
    let mut text: String = grids.iter().map(render).collect();
    text.push_str("0 0\n");
    text
}
