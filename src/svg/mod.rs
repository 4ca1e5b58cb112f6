//! Self-contained SVG pictures of a maze and its optimal solution (`boxls render`):
//! the board, dead squares, the box's trail with one arrow per push, and on request the
//! whole solution played move by move with SMIL (no script). Pure: data in, text out.
//!
//! The board is drawn in cell units (one unit per cell, scaled once), so big mazes stay
//! small: rock (or floor, whichever takes fewer rectangles) and dead squares are one
//! path each of merged rectangles, the trail is one polyline, and an animation keeps
//! only the frames where a motion turns.

mod motion;
mod placement;
mod shapes;

use std::fmt::{self, Write as _};

use crate::maze::Grid;
use crate::solver::{replay_frames, Analysis, Frame, Outcome, Solution};
use motion::{keyframes, Clock, Fixed};
use placement::Point;
use shapes::{blocks, path_data};

/// What to draw besides the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Play the solution: the player and the box move, the trail grows, and it loops.
    pub animate: bool,
}

/// The picture of maze number `index` (as in `Maze #k`) with its analysis: the
/// optimal solution's trail, or a note saying why there is none.
pub fn render(grid: &Grid, index: usize, analysis: &Analysis, options: &Options) -> String {
    let story = Story::of(grid, &analysis.outcome);
    let any_dead = analysis.dead.contains(&true);
    let caption = Caption::new(grid, index, &story, any_dead, options.animate);
    let layout = Layout::new(grid, &caption, options.animate && story.is_solved());
    let mut svg = Svg(String::new());
    svg.open(&layout, &caption);
    svg.board(grid, &analysis.dead, &layout);
    let motion = match (&story, options.animate) {
        (Story::Solved { frames, .. }, true) => Some(Clock::new(frames.len() - 1)),
        _ => None,
    };
    if let Story::Solved { frames, .. } = &story {
        svg.trail(grid, frames, &layout, motion.as_ref());
    }
    svg.0.push_str("</g>\n");
    svg.pieces(grid, &story, &layout, motion.as_ref());
    svg.caption(&caption, &layout, motion.as_ref());
    svg.0.push_str("</svg>\n");
    svg.0
}

/// The solution to draw, or why there is none.
enum Story<'a> {
    Solved {
        solution: &'a Solution,
        /// The start, then the position after each move.
        frames: Vec<Frame>,
    },
    Unsolvable(String),
}

impl<'a> Story<'a> {
    fn of(grid: &Grid, outcome: &'a Outcome) -> Story<'a> {
        match outcome {
            Outcome::Solved(solution) => match replay_frames(grid, &solution.path) {
                Ok(frames) => Story::Solved { solution, frames },
                // The solver's own moves always replay; say so rather than draw nonsense.
                Err(illegal) => Story::Unsolvable(format!(
                    "internal error: the solution does not replay ({})",
                    illegal.message
                )),
            },
            Outcome::Unsolvable(reason) => Story::Unsolvable(sentence(&reason.to_string())),
        }
    }

    fn is_solved(&self) -> bool {
        matches!(self, Story::Solved { .. })
    }
}

/// `the player cannot reach the box` → `The player cannot reach the box.`
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

// Colours: a light card that also reads on a dark page.
const PAPER: &str = "#f6f8fa";
const INK: &str = "#1f2328";
const MUTED: &str = "#59636e";
const ROCK: &str = "#3d4756";
const FLOOR: &str = "#ffffff";
const GRID_LINE: &str = "#dfe3e8";
const DEAD: &str = "#f7d4cc";
const DEAD_HATCH: &str = "#e9a596";
const TRAIL: &str = "#e8590c";
const ARROW: &str = "#9c3606";
const BOX_FILL: &str = "#c98a3e";
const BOX_EDGE: &str = "#6e4716";
const PLAYER: &str = "#1f6feb";
const TARGET: &str = "#1a7f37";
const WARNING: &str = "#b42318";

/// Pixels per cell for small boards, and the largest board side in pixels.
const MAX_CELL_PX: f64 = 40.0;
const MAX_BOARD_PX: f64 = 960.0;
/// Grid lines, hatching and push arrows only where a cell is at least this big.
const DETAIL_CELL_PX: f64 = 10.0;
/// Player, box and target never shrink below this, so big boards still show them.
const MIN_PIECE_PX: f64 = 16.0;
const MARGIN: f64 = 20.0;
const MIN_WIDTH: f64 = 440.0;
const CAPTION_PX: f64 = 15.0;
const MOVES_PX: f64 = 13.0;
const LEGEND_PX: f64 = 12.0;
const LINE_GAP: f64 = 8.0;

/// The text under the board.
struct Caption {
    headline: String,
    /// Set when the maze is unsolvable: the headline is a warning and this says why.
    note: Option<String>,
    /// The optimal moves, walks and pushes told apart.
    moves: Option<String>,
    legend: Vec<Key>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Rock,
    Dead,
    Target,
    Box,
    Player,
    Trail,
    /// The trail where cells are big enough for push arrows.
    TrailWithArrows,
    Walk,
}

impl Key {
    fn label(self) -> &'static str {
        match self {
            Key::Rock => "rock",
            Key::Dead => "dead square",
            Key::Target => "target",
            Key::Box => "box",
            Key::Player => "player",
            Key::Trail => "box path",
            Key::TrailWithArrows => "box path, one arrow per push",
            Key::Walk => "player's walk",
        }
    }
}

impl Caption {
    fn new(grid: &Grid, index: usize, story: &Story, any_dead: bool, animate: bool) -> Caption {
        let size = format!("Maze #{index} · {}×{}", grid.rows, grid.cols);
        let mut legend = vec![Key::Rock];
        if any_dead {
            legend.push(Key::Dead);
        }
        legend.extend([Key::Target, Key::Box, Key::Player]);
        match story {
            Story::Solved { solution, .. } => {
                legend.push(if cell_px(grid) >= DETAIL_CELL_PX {
                    Key::TrailWithArrows
                } else {
                    Key::Trail
                });
                if !animate {
                    legend.push(Key::Walk);
                }
                Caption {
                    headline: format!(
                        "{size} · {} · {}",
                        crate::maze::plural(solution.pushes, "push", "pushes"),
                        crate::maze::plural(solution.moves, "move", "moves"),
                    ),
                    note: None,
                    moves: Some(solution.path.clone()),
                    legend,
                }
            }
            Story::Unsolvable(why) => Caption {
                headline: format!("{size} · unsolvable"),
                note: Some(why.clone()),
                moves: None,
                legend,
            },
        }
    }

    /// Text lines under the board, in order (for the height).
    fn lines(&self) -> usize {
        1 + usize::from(self.note.is_some()) + usize::from(self.moves.is_some())
    }
}

/// Where everything goes, in pixels.
struct Layout {
    /// Pixels per cell.
    cell: f64,
    /// How much player, box and target are enlarged (in cells) on a fine board.
    piece: f64,
    width: f64,
    height: f64,
    board_x: f64,
    board_w: f64,
    /// Top of the progress bar (animations) or of the text.
    below_board: f64,
    /// Legend items per line.
    legend_rows: Vec<Vec<(Key, f64)>>,
}

impl Layout {
    fn new(grid: &Grid, caption: &Caption, animated: bool) -> Layout {
        let cell = cell_px(grid);
        let (board_w, board_h) = (grid.cols as f64 * cell, grid.rows as f64 * cell);
        let width = (board_w + 2.0 * MARGIN).max(MIN_WIDTH).ceil();
        let legend_rows = legend_rows(&caption.legend, width - 2.0 * MARGIN);
        let below_board = MARGIN + board_h + 14.0;
        let progress = if animated { 14.0 } else { 0.0 };
        let text = caption.lines() as f64 * (CAPTION_PX + LINE_GAP)
            + legend_rows.len() as f64 * (LEGEND_PX + LINE_GAP + 2.0);
        Layout {
            cell,
            piece: (MIN_PIECE_PX / cell).max(1.0),
            width,
            height: (below_board + progress + text + MARGIN).ceil(),
            board_x: ((width - board_w) / 2.0).max(MARGIN),
            board_w,
            below_board,
            legend_rows,
        }
    }

    fn detailed(&self) -> bool {
        self.cell >= DETAIL_CELL_PX
    }

    /// How wide a piece is drawn: a cell, or more on a fine board.
    fn piece_px(&self) -> f64 {
        self.cell * self.piece
    }

    /// The centre of a cell, in pixels.
    fn centre_px(&self, grid: &Grid, cell: usize) -> Point {
        let (x, y) = centre(grid, cell);
        (self.board_x + x * self.cell, MARGIN + y * self.cell)
    }
}

/// A piece's name (its element id and shape) and the colour of its pin.
#[derive(Clone, Copy)]
struct Piece {
    name: &'static str,
    colour: &'static str,
}

impl Piece {
    const TARGET: Piece = Piece {
        name: "target",
        colour: TARGET,
    };
    const BOX: Piece = Piece {
        name: "box",
        colour: BOX_FILL,
    };
    const PLAYER: Piece = Piece {
        name: "player",
        colour: PLAYER,
    };
}

/// How a piece moves in an animation: its cell and its marker's offset per frame.
struct Track {
    cells: Vec<usize>,
    offsets: Vec<Point>,
    clock: Clock,
}

/// Pixels per cell: big cells for small boards, the longest side at most
/// [`MAX_BOARD_PX`] for big ones.
fn cell_px(grid: &Grid) -> f64 {
    let longest = grid.rows.max(grid.cols) as f64;
    (MAX_BOARD_PX / longest).min(MAX_CELL_PX)
}

/// Splits the legend into lines that fit `room` pixels, with each item's width.
fn legend_rows(keys: &[Key], room: f64) -> Vec<Vec<(Key, f64)>> {
    let mut rows: Vec<Vec<(Key, f64)>> = vec![Vec::new()];
    let mut used = 0.0;
    for &key in keys {
        // Swatch, gap, label at about 0.58em a character, space before the next item.
        let item = LEGEND_PX + 6.0 + key.label().chars().count() as f64 * LEGEND_PX * 0.58 + 16.0;
        if used + item > room && used > 0.0 {
            rows.push(Vec::new());
            used = 0.0;
        }
        if let Some(row) = rows.last_mut() {
            row.push((key, item));
        }
        used += item;
    }
    rows
}

/// The document being written. Writing to a `String` cannot fail, so the results of
/// `write!` are dropped.
struct Svg(String);

impl Svg {
    fn put(&mut self, args: fmt::Arguments) {
        let _ = self.0.write_fmt(args);
    }

    fn open(&mut self, layout: &Layout, caption: &Caption) {
        let title = match &caption.note {
            Some(note) => format!("{} — {}", caption.headline, note),
            None => caption.headline.clone(),
        };
        self.put(format_args!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\">\n\
             <title>{t}</title>\n",
            w = Fixed(layout.width),
            h = Fixed(layout.height),
            t = Escaped(&title),
        ));
        self.put(format_args!(
            "<style>\
             text{{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;fill:{INK}}}\
             .rock{{fill:{ROCK}}}\
             .trail{{fill:none;stroke:{TRAIL};stroke-linecap:round;stroke-linejoin:round}}\
             .moves{{font-family:ui-monospace,'SFMono-Regular','DejaVu Sans Mono',Menlo,Consolas,monospace;fill:{MUTED}}}\
             .push{{fill:{TRAIL};font-weight:700}}\
             </style>\n"
        ));
        self.put(format_args!(
            "<defs>\n\
             <pattern id=\"floor-grid\" width=\"1\" height=\"1\" patternUnits=\"userSpaceOnUse\">\
             <rect width=\"1\" height=\"1\" fill=\"{FLOOR}\"/>\
             <path d=\"M1 0V1H0\" fill=\"none\" stroke=\"{GRID_LINE}\" stroke-width=\"0.05\"/></pattern>\n\
             <pattern id=\"dead-hatch\" width=\"0.35\" height=\"0.35\" patternUnits=\"userSpaceOnUse\" \
             patternTransform=\"rotate(45)\"><rect width=\"0.35\" height=\"0.35\" fill=\"{DEAD}\"/>\
             <rect width=\"0.1\" height=\"0.35\" fill=\"{DEAD_HATCH}\"/></pattern>\n\
             <g id=\"target-shape\"><circle r=\"0.33\" fill=\"none\" stroke=\"{TARGET}\" stroke-width=\"0.09\"/>\
             <circle r=\"0.13\" fill=\"{TARGET}\"/></g>\n\
             <g id=\"box-shape\"><rect x=\"-0.37\" y=\"-0.37\" width=\"0.74\" height=\"0.74\" rx=\"0.08\" \
             fill=\"{BOX_FILL}\" stroke=\"{BOX_EDGE}\" stroke-width=\"0.07\"/>\
             <path d=\"M-0.2 -0.2L0.2 0.2M0.2 -0.2L-0.2 0.2\" stroke=\"{BOX_EDGE}\" stroke-width=\"0.07\" \
             stroke-linecap=\"round\"/></g>\n\
             <g id=\"player-shape\"><circle r=\"0.32\" fill=\"{PLAYER}\" stroke=\"{FLOOR}\" stroke-width=\"0.07\"/>\
             <circle cx=\"-0.1\" cy=\"-0.1\" r=\"0.09\" fill=\"{FLOOR}\" fill-opacity=\"0.55\"/></g>\n\
             </defs>\n\
             <rect width=\"100%\" height=\"100%\" rx=\"10\" fill=\"{PAPER}\"/>\n"
        ));
    }

    /// Floor, dead squares, rock: in cell units, opening the scaled group that the
    /// trail joins and [`render`] closes.
    fn board(&mut self, grid: &Grid, dead: &[bool], layout: &Layout) {
        self.put(format_args!(
            "<g id=\"board\" transform=\"translate({} {}) scale({})\">\n",
            Fixed(layout.board_x),
            Fixed(MARGIN),
            Fixed(layout.cell)
        ));
        let floor_fill = if layout.detailed() {
            "url(#floor-grid)"
        } else {
            FLOOR
        };
        let dead_fill = if layout.detailed() {
            "url(#dead-hatch)"
        } else {
            DEAD
        };
        let rock = blocks(grid, |cell| grid.walls[cell]);
        let floor = blocks(grid, |cell| !grid.walls[cell]);
        // Paint the kind with more rectangles as the background, the other on top.
        if floor.len() < rock.len() {
            self.put(format_args!(
                "<rect class=\"rock\" width=\"{}\" height=\"{}\"/>\n<path id=\"floor\" fill=\"{floor_fill}\" d=\"{}\"/>\n",
                grid.cols,
                grid.rows,
                path_data(&floor)
            ));
        } else {
            self.put(format_args!(
                "<rect id=\"floor\" fill=\"{floor_fill}\" width=\"{}\" height=\"{}\"/>\n<path class=\"rock\" d=\"{}\"/>\n",
                grid.cols,
                grid.rows,
                path_data(&rock)
            ));
        }
        let dead_blocks = blocks(grid, |cell| dead.get(cell) == Some(&true));
        if !dead_blocks.is_empty() {
            self.put(format_args!(
                "<path id=\"dead\" fill=\"{dead_fill}\" d=\"{}\"/>\n",
                path_data(&dead_blocks)
            ));
        }
    }

    /// The box's trail (still inside the board group), one arrow per push.
    fn trail(&mut self, grid: &Grid, frames: &[Frame], layout: &Layout, clock: Option<&Clock>) {
        let cells = box_cells(frames);
        let points = cells.iter().map(|&cell| centre(grid, cell)).fold(
            String::new(),
            |mut points, (x, y)| {
                if !points.is_empty() {
                    points.push(' ');
                }
                let _ = write!(points, "{},{}", Fixed(x), Fixed(y));
                points
            },
        );
        let width = (0.2_f64).max(2.5 / layout.cell);
        if clock.is_none() {
            self.walk(grid, frames, layout);
        }
        let faded = if clock.is_some() {
            " stroke-opacity=\"0.3\""
        } else {
            ""
        };
        self.put(format_args!(
            "<polyline id=\"trail\" class=\"trail\" stroke-width=\"{}\"{faded} points=\"{points}\"/>\n",
            Fixed(width)
        ));
        if layout.detailed() && cells.len() > 1 {
            self.put(format_args!(
                "<path id=\"pushes\" fill=\"{ARROW}\" d=\"{}\"/>\n",
                arrows(grid, &cells)
            ));
        }
        if let Some(clock) = clock {
            self.growing_trail(frames, &points, width, clock);
        }
    }

    /// The player's route, thin and dotted, through the cells where it turns.
    fn walk(&mut self, grid: &Grid, frames: &[Frame], layout: &Layout) {
        let cells: Vec<usize> = frames.iter().map(|frame| frame.player).collect();
        let mut points = String::new();
        for (index, &cell) in cells.iter().enumerate() {
            let turns = index == 0
                || index == cells.len() - 1
                || cell.wrapping_sub(cells[index - 1]) != cells[index + 1].wrapping_sub(cell);
            if turns {
                let (x, y) = centre(grid, cell);
                let _ = write!(
                    points,
                    "{}{},{}",
                    if index == 0 { "" } else { " " },
                    Fixed(x),
                    Fixed(y)
                );
            }
        }
        self.put(format_args!(
            "<polyline id=\"walk\" fill=\"none\" stroke=\"{PLAYER}\" stroke-opacity=\"0.7\" \
             stroke-width=\"{}\" stroke-dasharray=\"0.1 0.12\" stroke-linecap=\"round\" points=\"{points}\"/>\n",
            Fixed((0.06_f64).max(1.0 / layout.cell))
        ));
    }

    /// The trail drawn again on top, revealed push by push as the box moves.
    fn growing_trail(&mut self, frames: &[Frame], points: &str, width: f64, clock: &Clock) {
        let pushes: Vec<u64> = frames
            .iter()
            .scan((0u64, None), |(count, last), frame| {
                if last.is_some_and(|cell| cell != frame.boxed) {
                    *count += 1;
                }
                *last = Some(frame.boxed);
                Some(*count)
            })
            .collect();
        let total = pushes.last().copied().unwrap_or(0);
        if total == 0 {
            return;
        }
        let (times, values) = keyframes(
            clock,
            &pushes,
            |a, b| b - a,
            |done| (total - done).to_string(),
        );
        self.put(format_args!(
            "<polyline id=\"trail-progress\" class=\"trail\" stroke-width=\"{}\" pathLength=\"{total}\" \
             stroke-dasharray=\"{total} {gap}\" stroke-dashoffset=\"{total}\" points=\"{points}\">\
             <animate attributeName=\"stroke-dashoffset\" dur=\"{dur}s\" repeatCount=\"indefinite\" \
             calcMode=\"linear\" keyTimes=\"{times}\" values=\"{values}\"/></polyline>\n",
            Fixed(width),
            gap = total + 1,
            dur = Fixed(clock.duration()),
        ));
    }

    /// Target, box and player, in pixels so that they keep a legible size. On a fine
    /// board they are bigger than a cell, so markers that would cover each other are
    /// moved aside from their cells (each cell keeps a pin), frame by frame when animated.
    fn pieces(&mut self, grid: &Grid, story: &Story, layout: &Layout, clock: Option<&Clock>) {
        let frames = match (story, clock) {
            (Story::Solved { frames, .. }, Some(clock)) => Some((frames, clock)),
            _ => None,
        };
        let size = layout.piece_px();
        let place = |boxed: usize, player: usize| {
            if layout.piece > 1.0 {
                let px = |cell| layout.centre_px(grid, cell);
                placement::offsets([px(grid.target), px(boxed), px(player)], size)
            } else {
                [(0.0, 0.0); 3]
            }
        };
        let still = place(grid.boxed, grid.player);
        let moving: Option<Vec<[Point; 3]>> =
            frames.map(|(frames, _)| frames.iter().map(|f| place(f.boxed, f.player)).collect());
        let track = |pick: fn(&Frame) -> usize, piece: usize| {
            frames.map(|(frames, clock)| Track {
                cells: frames.iter().map(pick).collect(),
                offsets: moving
                    .as_ref()
                    .map(|all| all.iter().map(|o| o[piece]).collect())
                    .unwrap_or_default(),
                clock: *clock,
            })
        };
        self.piece(grid, layout, Piece::TARGET, grid.target, still[0], None);
        self.piece(
            grid,
            layout,
            Piece::BOX,
            grid.boxed,
            still[1],
            track(|f| f.boxed, 1),
        );
        self.piece(
            grid,
            layout,
            Piece::PLAYER,
            grid.player,
            still[2],
            track(|f| f.player, 2),
        );
    }

    /// One piece at `cell`, its marker `offset` from it; with `track`, it moves through
    /// those cells (and its marker through those offsets) on that clock.
    fn piece(
        &mut self,
        grid: &Grid,
        layout: &Layout,
        piece: Piece,
        cell: usize,
        offset: Point,
        track: Option<Track>,
    ) {
        let name = piece.name;
        let (x, y) = layout.centre_px(grid, cell);
        self.put(format_args!(
            "<g id=\"{name}\" transform=\"translate({} {})\">",
            Fixed(x),
            Fixed(y)
        ));
        if let Some(track) = &track {
            let (times, values) = keyframes(
                &track.clock,
                &track.cells,
                |a, b| b as isize - a as isize,
                |cell| {
                    let (x, y) = layout.centre_px(grid, cell);
                    format!("{} {}", Fixed(x), Fixed(y))
                },
            );
            self.translation(&times, &values, &track.clock);
        }
        let scale = layout.piece_px();
        if layout.piece > 1.0 {
            // The exact cell, under the marker: seen when the marker moves aside.
            let pin = layout.cell.max(3.0);
            self.put(format_args!(
                "<rect class=\"pin\" x=\"{p}\" y=\"{p}\" width=\"{w}\" height=\"{w}\" fill=\"{}\" \
                 stroke=\"{FLOOR}\" stroke-width=\"0.75\"/>",
                piece.colour,
                p = Fixed(-pin / 2.0),
                w = Fixed(pin),
            ));
        }
        self.put(format_args!(
            "<g class=\"marker\" transform=\"translate({} {})\">",
            Fixed(offset.0),
            Fixed(offset.1)
        ));
        if let Some(track) = track.filter(|t| t.offsets.iter().any(|o| *o != (0.0, 0.0))) {
            let (times, values) = keyframes(
                &track.clock,
                &track.offsets,
                |a, b| (b.0 - a.0, b.1 - a.1),
                |o| format!("{} {}", Fixed(o.0), Fixed(o.1)),
            );
            self.translation(&times, &values, &track.clock);
        }
        if layout.piece > 1.0 {
            // Enlarged over a fine board: a halo keeps the piece apart from the rock.
            self.put(format_args!(
                "<circle r=\"{}\" fill=\"{FLOOR}\" fill-opacity=\"0.85\"/>",
                Fixed(0.5 * scale)
            ));
        }
        self.put(format_args!(
            "<use href=\"#{name}-shape\" xlink:href=\"#{name}-shape\" transform=\"scale({})\"/></g></g>\n",
            Fixed(scale)
        ));
    }

    fn translation(&mut self, times: &str, values: &str, clock: &Clock) {
        self.put(format_args!(
            "<animateTransform attributeName=\"transform\" type=\"translate\" dur=\"{}s\" \
             repeatCount=\"indefinite\" calcMode=\"linear\" keyTimes=\"{times}\" values=\"{values}\"/>",
            Fixed(clock.duration())
        ));
    }

    /// Progress bar (animations), headline, note or moves, legend.
    fn caption(&mut self, caption: &Caption, layout: &Layout, clock: Option<&Clock>) {
        let left = MARGIN;
        let mut y = layout.below_board;
        if let Some(clock) = clock {
            self.progress_bar(layout, y, clock);
            y += 14.0;
        }
        y += CAPTION_PX;
        let headline_colour = if caption.note.is_some() { WARNING } else { INK };
        self.put(format_args!(
            "<text id=\"headline\" x=\"{}\" y=\"{}\" font-size=\"{CAPTION_PX}\" font-weight=\"600\" \
             style=\"fill:{headline_colour}\">{}</text>\n",
            Fixed(left),
            Fixed(y),
            Escaped(&caption.headline)
        ));
        if let Some(note) = &caption.note {
            y += CAPTION_PX + LINE_GAP;
            self.put(format_args!(
                "<text id=\"note\" x=\"{}\" y=\"{}\" font-size=\"{CAPTION_PX}\">{}</text>\n",
                Fixed(left),
                Fixed(y),
                Escaped(note)
            ));
        }
        if let Some(moves) = &caption.moves {
            y += CAPTION_PX + LINE_GAP;
            let room = ((layout.width - 2.0 * MARGIN) / (MOVES_PX * 0.61)) as usize;
            self.put(format_args!(
                "<text id=\"moves\" class=\"moves\" x=\"{}\" y=\"{}\" font-size=\"{MOVES_PX}\">{}</text>\n",
                Fixed(left),
                Fixed(y),
                MoveSpans(moves, room)
            ));
        }
        for row in &layout.legend_rows {
            y += LEGEND_PX + LINE_GAP + 2.0;
            let mut x = left;
            for &(key, width) in row {
                self.legend_item(key, x, y);
                x += width;
            }
        }
    }

    fn progress_bar(&mut self, layout: &Layout, y: f64, clock: &Clock) {
        let (x, w) = (layout.board_x, layout.board_w);
        // The bar fills at the pace of the moves: pinned at 0 and at full width
        // while the picture holds still, linear in between.
        let (first, last) = clock.span();
        self.put(format_args!(
            "<g id=\"progress\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"4\" rx=\"2\" fill=\"{GRID_LINE}\"/>\
             <rect x=\"{x}\" y=\"{y}\" width=\"0\" height=\"4\" rx=\"2\" fill=\"{TRAIL}\">\
             <animate attributeName=\"width\" dur=\"{dur}s\" repeatCount=\"indefinite\" calcMode=\"linear\" \
             keyTimes=\"0;{first};{last};1\" values=\"0;0;{w};{w}\"/></rect></g>\n",
            first = Fixed(first),
            last = Fixed(last),
            x = Fixed(x),
            y = Fixed(y),
            w = Fixed(w),
            dur = Fixed(clock.duration()),
        ));
    }

    fn legend_item(&mut self, key: Key, x: f64, baseline: f64) {
        let size = LEGEND_PX;
        let (cx, cy) = (x + size / 2.0, baseline - size * 0.36);
        let swatch = match key {
            Key::Rock => format!(
                "<rect class=\"rock\" x=\"{}\" y=\"{}\" width=\"{size}\" height=\"{size}\" rx=\"2\"/>",
                Fixed(x),
                Fixed(cy - size / 2.0)
            ),
            Key::Dead => format!(
                "<g transform=\"translate({} {}) scale({size})\"><rect width=\"1\" height=\"1\" \
                 fill=\"url(#dead-hatch)\"/></g>",
                Fixed(x),
                Fixed(cy - size / 2.0)
            ),
            Key::Target | Key::Box | Key::Player => {
                let name = match key {
                    Key::Target => "target",
                    Key::Box => "box",
                    _ => "player",
                };
                format!(
                    "<use href=\"#{name}-shape\" xlink:href=\"#{name}-shape\" \
                     transform=\"translate({} {}) scale({})\"/>",
                    Fixed(cx),
                    Fixed(cy),
                    Fixed(size * 1.25)
                )
            }
            Key::Walk => format!(
                "<path d=\"M{} {}h{size}\" stroke=\"{PLAYER}\" stroke-opacity=\"0.7\" stroke-width=\"1.5\" \
                 stroke-dasharray=\"2.5 2\"/>",
                Fixed(x),
                Fixed(cy)
            ),
            Key::Trail | Key::TrailWithArrows => format!(
                "<path class=\"trail\" stroke-width=\"3\" d=\"M{} {}h{size}\"/>",
                Fixed(x),
                Fixed(cy)
            ),
        };
        self.put(format_args!(
            "<g class=\"legend\">{swatch}<text x=\"{}\" y=\"{}\" font-size=\"{size}\" style=\"fill:{MUTED}\">{}</text></g>\n",
            Fixed(x + size + 6.0),
            Fixed(baseline),
            key.label()
        ));
    }
}

/// The box's cell at the start and after each push (equal consecutive frames merged).
fn box_cells(frames: &[Frame]) -> Vec<usize> {
    let mut cells: Vec<usize> = frames.iter().map(|frame| frame.boxed).collect();
    cells.dedup();
    cells
}

/// Centre of a cell in cell units.
fn centre(grid: &Grid, cell: usize) -> (f64, f64) {
    let (row, col) = grid.coords(cell);
    (col as f64 + 0.5, row as f64 + 0.5)
}

/// One arrowhead per push, on the edge the box crosses, pointing the way it goes.
fn arrows(grid: &Grid, cells: &[usize]) -> String {
    let mut d = String::new();
    for pair in cells.windows(2) {
        let ((x0, y0), (x1, y1)) = (centre(grid, pair[0]), centre(grid, pair[1]));
        let (dx, dy) = (x1 - x0, y1 - y0);
        let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        // Tip ahead of the edge, two corners behind it on either side.
        let tip = (mx + 0.2 * dx, my + 0.2 * dy);
        let left = (mx - 0.12 * dx - 0.2 * dy, my - 0.12 * dy + 0.2 * dx);
        let right = (mx - 0.12 * dx + 0.2 * dy, my - 0.12 * dy - 0.2 * dx);
        let _ = write!(
            d,
            "M{} {}L{} {}L{} {}z",
            Fixed(tip.0),
            Fixed(tip.1),
            Fixed(left.0),
            Fixed(left.1),
            Fixed(right.0),
            Fixed(right.1)
        );
    }
    d
}

/// The move string as `<tspan>`s, pushes emphasised, cut with `…` to `room` characters.
struct MoveSpans<'a>(&'a str, usize);

impl fmt::Display for MoveSpans<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let MoveSpans(moves, room) = *self;
        let shown = if moves.len() > room {
            &moves[..room.saturating_sub(1)]
        } else {
            moves
        };
        let bytes = shown.as_bytes();
        let mut start = 0;
        while start < bytes.len() {
            let push = bytes[start].is_ascii_uppercase();
            let end = bytes[start..]
                .iter()
                .position(|b| b.is_ascii_uppercase() != push)
                .map_or(bytes.len(), |len| start + len);
            let class = if push { "push" } else { "walk" };
            write!(f, "<tspan class=\"{class}\">{}</tspan>", &shown[start..end])?;
            start = end;
        }
        if shown.len() < moves.len() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// Text with `&`, `<`, `>` and `"` escaped for XML.
struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                _ => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_split_into_walks_and_pushes() {
        assert_eq!(
            MoveSpans("eeNNw", 80).to_string(),
            "<tspan class=\"walk\">ee</tspan><tspan class=\"push\">NN</tspan>\
             <tspan class=\"walk\">w</tspan>"
        );
    }

    #[test]
    fn long_move_strings_are_cut_to_fit() {
        assert_eq!(
            MoveSpans("eeeeEEEE", 5).to_string(),
            "<tspan class=\"walk\">eeee</tspan>…"
        );
        assert_eq!(
            MoveSpans("eeeeE", 5).to_string().matches("tspan").count(),
            4
        );
    }

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(
            Escaped("a<b & \"c\">").to_string(),
            "a&lt;b &amp; &quot;c&quot;&gt;"
        );
    }

    #[test]
    fn reasons_become_sentences() {
        assert_eq!(
            sentence("the player cannot reach the box"),
            "The player cannot reach the box."
        );
        assert_eq!(sentence(""), "");
    }

    #[test]
    fn a_narrow_legend_wraps() {
        let keys = [
            Key::Rock,
            Key::Dead,
            Key::Target,
            Key::Box,
            Key::Player,
            Key::TrailWithArrows,
        ];
        let rows = legend_rows(&keys, 400.0);
        assert_eq!(rows.len(), 2);
        assert!(rows
            .iter()
            .all(|row| row.iter().map(|(_, w)| w).sum::<f64>() <= 400.0));
        assert_eq!(legend_rows(&keys, 2000.0).len(), 1);
    }
}
