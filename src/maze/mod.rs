//! The `.box` format: plain data types for mazes and diagnostics, and the parser.
//!
//! Everything here works on byte ranges into the source text. This module never
//! does I/O and never imports anything LSP-related; the CLI and the server convert
//! byte ranges to their own notions of position.

mod diagnostic;
mod format;
mod incremental;
mod lines;
mod parse;

pub use diagnostic::{plural, Code, Diagnostic, DiagnosticCode, Fix, Severity, TextEdit};
pub(crate) use format::whole_lines_edit;
pub use format::{format, format_edit};
pub use incremental::Splice;
pub use lines::{first_line_break, line_spans, LineSpan};
pub use parse::{parse, MazeParser, ParsedFile, MAX_CELLS};

use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::Arc;

/// One maze as it appears in the file, valid or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Maze {
    /// 1-based position of the maze in the file (`Maze #k`).
    pub index: usize,
    /// The header line's content (without its line break).
    pub header: Range<usize>,
    /// Rows and columns the header declares, when it could be read.
    pub declared: Option<(usize, usize)>,
    /// Content ranges of the rows that belong to this maze (trailing blanks excluded).
    pub rows: Vec<Range<usize>>,
    /// The `; solution:` comment recorded for this maze, if any.
    pub solution: Option<SolutionLine>,
    /// From the header's first byte to the end of the maze's last line (rows or solution).
    pub extent: Range<usize>,
    /// The playable grid, present only when the maze has no structural error. Shared:
    /// the server keys its solves by this same allocation instead of a copy.
    pub grid: Option<Arc<Grid>>,
}

/// A `; solution: <moves>` comment line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolutionLine {
    /// The whole line's content.
    pub line: Range<usize>,
    /// Just the move string (may be empty).
    pub moves: Range<usize>,
}

/// A structurally valid maze: `rows * cols` cells, exactly one player, box and target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// Row-major; `true` is rock.
    pub walls: Vec<bool>,
    pub player: usize,
    pub boxed: usize,
    pub target: usize,
}

/// The server keys its solve cache by grid and looks every maze up after each
/// keystroke, so hashing must be cheap: the derived `Hash` feeds the hasher one `bool`
/// at a time; this packs 64 cells into each word it feeds. Equal grids hash equally.
impl Hash for Grid {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.rows, self.cols, self.player, self.boxed, self.target).hash(state);
        state.write_usize(self.walls.len());
        for chunk in self.walls.chunks(64) {
            let word = chunk
                .iter()
                .fold(0u64, |word, &wall| (word << 1) | u64::from(wall));
            state.write_u64(word);
        }
    }
}

impl Grid {
    /// Builds a grid from rows of `# . S B T` characters (anything else is rock).
    ///
    /// Returns `None` unless the rows are rectangular and S, B, T occur exactly once.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Option<Grid> {
        let cols = rows.first()?.as_ref().len();
        let mut walls = Vec::with_capacity(rows.len() * cols);
        let (mut player, mut boxed, mut target) = (Vec::new(), Vec::new(), Vec::new());
        for row in rows {
            let row = row.as_ref().as_bytes();
            if row.len() != cols {
                return None;
            }
            for &byte in row {
                let index = walls.len();
                match byte {
                    b'S' => player.push(index),
                    b'B' => boxed.push(index),
                    b'T' => target.push(index),
                    _ => {}
                }
                walls.push(!matches!(byte, b'.' | b'S' | b'B' | b'T'));
            }
        }
        match (&player[..], &boxed[..], &target[..]) {
            ([player], [boxed], [target]) => Some(Grid {
                rows: rows.len(),
                cols,
                walls,
                player: *player,
                boxed: *boxed,
                target: *target,
            }),
            _ => None,
        }
    }

    /// `(row, column)`, both 0-based, of a cell index.
    pub fn coords(&self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    pub fn cell_count(&self) -> usize {
        self.rows * self.cols
    }

    /// The maze drawn back as rows of `# . S B T`.
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| self.symbol(r * self.cols + c))
                    .collect()
            })
            .collect()
    }

    fn symbol(&self, cell: usize) -> char {
        if cell == self.player {
            'S'
        } else if cell == self.boxed {
            'B'
        } else if cell == self.target {
            'T'
        } else if self.walls[cell] {
            '#'
        } else {
            '.'
        }
    }
}
