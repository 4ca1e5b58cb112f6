//! Self-contained SVG pictures of a maze and its optimal solution (`boxls render`):
//! the board, dead squares, the box's trail with one arrow per push, and on request the
//! whole solution played move by move with SMIL (no script). Pure: data in, text out.
//!
//! The board is drawn in cell units (one unit per cell, scaled once), so big mazes stay
//! small: rock (or floor, whichever takes fewer rectangles) and dead squares are one
//! path each of merged rectangles, the trail is one polyline, and an animation keeps
//! only the frames where a motion turns.

mod board;
mod caption;
mod motion;
mod pieces;
mod placement;
mod scene;
mod shapes;
mod trail;

use std::fmt::{self, Write as _};

use crate::level::{Board, Position};
use crate::maze::Grid;
use crate::solver::Analysis;
use motion::{Clock, Fixed};
use placement::Point;
pub use scene::LevelOutcome;
use scene::{Scene, Story};

/// What to draw besides the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Play the solution: the player and the box move, the trail grows, and it loops.
    pub animate: bool,
}

/// The picture of maze number `index` (as in `Maze #k`) with its analysis: the
/// optimal solution's trail, or a note saying why there is none.
pub fn render(grid: &Grid, index: usize, analysis: &Analysis, options: &Options) -> String {
    draw(&Scene::of_maze(grid, index, analysis), options)
}

/// The picture of a Sokoban level (`position`, read from `board`) called `name` (as in
/// `Level 3 “Title”`) with its answer: every box's trail, or why there is none.
pub fn render_level(
    board: &Board,
    position: &Position,
    name: String,
    outcome: &LevelOutcome,
    options: &Options,
) -> String {
    draw(&Scene::of_level(board, position, name, outcome), options)
}

fn draw(scene: &Scene, options: &Options) -> String {
    let caption = Caption::new(scene, options.animate);
    let layout = Layout::new(scene, &caption, options.animate && scene.is_solved());
    let mut svg = Svg(String::new());
    svg.open(&layout, &caption);
    svg.board(scene, &layout);
    let motion = match (&scene.story, options.animate) {
        (Story::Solved { frames, .. }, true) => Some(Clock::new(frames.len() - 1)),
        _ => None,
    };
    if let Story::Solved { frames, .. } = &scene.story {
        svg.trails(scene, frames, &layout, motion.as_ref());
    }
    svg.0.push_str("</g>\n");
    svg.pieces(scene, &layout, motion.as_ref());
    svg.caption(&caption, &layout, motion.as_ref());
    svg.0.push_str("</svg>\n");
    svg.0
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
    /// A Sokoban level's goals (a `.box` maze has one target).
    Goal,
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
            Key::Goal => "goal",
            Key::Box => "box",
            Key::Player => "player",
            Key::Trail => "box path",
            Key::TrailWithArrows => "box path, one arrow per push",
            Key::Walk => "player's walk",
        }
    }
}

impl Caption {
    fn new(scene: &Scene, animate: bool) -> Caption {
        let mut size = format!("{} · {}×{}", scene.name, scene.rows, scene.cols);
        if !scene.is_single() {
            size += &format!(
                " · {}",
                crate::maze::plural(scene.start.boxes.len() as u64, "box", "boxes")
            );
        }
        let mut legend = vec![Key::Rock];
        if scene.dead.contains(&true) {
            legend.push(Key::Dead);
        }
        let goal = if scene.is_single() {
            Key::Target
        } else {
            Key::Goal
        };
        legend.extend([goal, Key::Box, Key::Player]);
        match &scene.story {
            Story::Solved {
                moves,
                pushes,
                claim,
                ..
            } => {
                legend.push(if cell_px(scene) >= DETAIL_CELL_PX {
                    Key::TrailWithArrows
                } else {
                    Key::Trail
                });
                if !animate {
                    legend.push(Key::Walk);
                }
                Caption {
                    headline: format!(
                        "{size} · {} · {}{claim}",
                        crate::maze::plural(*pushes, "push", "pushes"),
                        crate::maze::plural(moves.len() as u64, "move", "moves"),
                    ),
                    note: None,
                    moves: Some(moves.clone()),
                    legend,
                }
            }
            Story::Unsolved { label, why } => Caption {
                headline: format!("{size} · {label}"),
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
    fn new(scene: &Scene, caption: &Caption, animated: bool) -> Layout {
        let cell = cell_px(scene);
        let (board_w, board_h) = (scene.cols as f64 * cell, scene.rows as f64 * cell);
        // The headline (bold, about 0.6em a character) is not cut at the picture's edge.
        let headline_w = caption.headline.chars().count() as f64 * CAPTION_PX * 0.6;
        let width = (board_w + 2.0 * MARGIN)
            .max(MIN_WIDTH)
            .max(headline_w + 2.0 * MARGIN)
            .ceil();
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
    fn centre_px(&self, scene: &Scene, cell: usize) -> Point {
        let (x, y) = centre(scene, cell);
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
fn cell_px(scene: &Scene) -> f64 {
    let longest = scene.rows.max(scene.cols) as f64;
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
}

/// Centre of a cell in cell units.
fn centre(scene: &Scene, cell: usize) -> (f64, f64) {
    let (row, col) = scene.coords(cell);
    (col as f64 + 0.5, row as f64 + 0.5)
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
    use super::scene::sentence;
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
