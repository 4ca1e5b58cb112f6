//! The board of a level as written (cells with their source ranges), and the
//! [`Position`] the checks and solvers read: walls, goals, boxes and the player.

use std::ops::Range;

use super::rle::decode_row;
use crate::maze::{Grid, MAX_CELLS};

/// One cell of a board as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Past the end of a shorter row: outside the level.
    Void,
    Floor,
    Wall,
    Goal,
    Box,
    BoxOnGoal,
    Player,
    PlayerOnGoal,
    /// A character that is not a cell (reported; read as a wall).
    Unknown,
}

impl Cell {
    pub fn from_char(c: char) -> Cell {
        match c {
            ' ' | '-' | '_' => Cell::Floor,
            '#' => Cell::Wall,
            '.' => Cell::Goal,
            '$' => Cell::Box,
            '*' => Cell::BoxOnGoal,
            '@' => Cell::Player,
            '+' => Cell::PlayerOnGoal,
            _ => Cell::Unknown,
        }
    }

    /// Walls, unknown characters and the void stop the player and the boxes.
    pub fn is_wall(self) -> bool {
        matches!(self, Cell::Wall | Cell::Unknown | Cell::Void)
    }

    pub fn has_box(self) -> bool {
        matches!(self, Cell::Box | Cell::BoxOnGoal)
    }

    pub fn has_goal(self) -> bool {
        matches!(self, Cell::Goal | Cell::BoxOnGoal | Cell::PlayerOnGoal)
    }

    pub fn has_player(self) -> bool {
        matches!(self, Cell::Player | Cell::PlayerOnGoal)
    }

    /// The XSB character (floor as a space, the void as nothing drawn: a space).
    pub fn symbol(self) -> char {
        match self {
            Cell::Void | Cell::Floor => ' ',
            Cell::Wall => '#',
            Cell::Goal => '.',
            Cell::Box => '$',
            Cell::BoxOnGoal => '*',
            Cell::Player => '@',
            Cell::PlayerOnGoal => '+',
            Cell::Unknown => '?',
        }
    }
}

/// What is wrong with a row's text, at the characters concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowProblem {
    UnknownCharacter(Range<usize>, char),
    /// Digits with no cell character after them.
    StrayCount(Range<usize>),
    /// `0#`: a run of nothing.
    ZeroCount(Range<usize>),
    /// A run past `MAX_ROW_CELLS` (65,536 cells).
    TooLong(Range<usize>),
    /// More cells than [`MAX_CELLS`] in all: the board is left empty.
    BoardTooLarge(Range<usize>),
}

/// A level's board: `height` rows of `width` cells, row-major, the rows' common
/// indentation of spaces removed (as the Sokoban tools read it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Cell>,
    /// Each cell's source range (a run's cells share the run's token); a void cell
    /// has the empty range at its row's end.
    pub spans: Vec<Range<usize>>,
    /// Each row's text (a line, or a `|`-separated part of one), trailing blanks excluded.
    pub rows: Vec<Range<usize>>,
    /// The leading spaces every row has, not part of the board.
    pub indent: usize,
    pub problems: Vec<RowProblem>,
}

/// The four directions in LURD order of their letters `u d l r`: (row, column) steps.
pub const DIRECTIONS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

impl Board {
    /// The board made of the rows `text[row]`, in order.
    pub fn from_rows(text: &str, rows: Vec<Range<usize>>) -> Board {
        let mut problems = Vec::new();
        let decoded: Vec<_> = rows
            .iter()
            .map(|row| {
                let row = decode_row(text, row.clone());
                problems.extend(row.problems.iter().cloned());
                row.cells
            })
            .collect();
        let indent = decoded
            .iter()
            .map(|cells| cells.iter().take_while(|(c, _)| *c == ' ').count())
            .min()
            .unwrap_or(0);
        let width = decoded
            .iter()
            .map(|cells| cells.len().saturating_sub(indent))
            .max()
            .unwrap_or(0);
        let mut board = Board {
            width,
            height: rows.len(),
            cells: Vec::new(),
            spans: Vec::new(),
            rows,
            indent,
            problems,
        };
        if width.saturating_mul(board.height) as u64 > MAX_CELLS {
            let first = board.rows.first().cloned().unwrap_or(0..0);
            board.problems.push(RowProblem::BoardTooLarge(first));
            board.width = 0;
            board.height = 0;
            return board;
        }
        for (cells, row) in decoded.iter().zip(&board.rows) {
            let written = cells.get(indent..).unwrap_or(&[]);
            for (c, span) in written {
                board.cells.push(Cell::from_char(*c));
                board.spans.push(span.clone());
            }
            for _ in written.len()..width {
                board.cells.push(Cell::Void);
                board.spans.push(row.end..row.end);
            }
        }
        board
    }

    /// `(row, column)`, both 0-based, of a cell index.
    pub fn coords(&self, cell: usize) -> (usize, usize) {
        (cell / self.width.max(1), cell % self.width.max(1))
    }

    fn where_(&self, pick: impl Fn(Cell) -> bool) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&i| pick(self.cells[i]))
            .collect()
    }

    pub fn boxes(&self) -> Vec<usize> {
        self.where_(Cell::has_box)
    }

    pub fn goals(&self) -> Vec<usize> {
        self.where_(Cell::has_goal)
    }

    pub fn players(&self) -> Vec<usize> {
        self.where_(Cell::has_player)
    }

    /// The board as a `.box` maze, when it is one: one player, one box, one goal.
    pub fn to_grid(&self) -> Option<Grid> {
        self.position()?.to_grid()
    }

    /// The position to check and solve, when the board has exactly one player.
    pub fn position(&self) -> Option<Position> {
        let [player] = self.players()[..] else {
            return None;
        };
        Some(Position {
            width: self.width,
            height: self.height,
            walls: self.cells.iter().map(|c| c.is_wall()).collect(),
            goals: self.cells.iter().map(|c| c.has_goal()).collect(),
            boxes: self.boxes(),
            player,
        })
    }

    /// The board drawn back as XSB rows (void cells as spaces, trailing ones dropped).
    pub fn to_rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.width.max(1))
            .map(|row| {
                let drawn: String = row.iter().map(|c| c.symbol()).collect();
                drawn.trim_end().to_string()
            })
            .collect()
    }
}

/// Walls, goals, boxes and the player: what the checks and the solvers read. Cells
/// past the edges count as walls. The very data the Sokoban solver takes, so a level
/// goes to it as it is.
pub type Position = crate::sokoban::Puzzle;

impl Position {
    /// The cell one step from `cell` in `direction` (an index into the board's
    /// `DIRECTIONS`: up, down, left, right), `None` past an edge.
    pub fn step(&self, cell: usize, direction: usize) -> Option<usize> {
        let (dr, dc) = DIRECTIONS[direction];
        let row = (cell / self.width).checked_add_signed(dr)?;
        let col = (cell % self.width).checked_add_signed(dc)?;
        (row < self.height && col < self.width).then(|| row * self.width + col)
    }

    /// The cell one step away when it is not a wall.
    pub fn open_step(&self, cell: usize, direction: usize) -> Option<usize> {
        self.step(cell, direction).filter(|&next| !self.walls[next])
    }

    pub fn is_solved(&self) -> bool {
        self.boxes.iter().all(|&b| self.goals[b])
    }

    /// A `.box` maze as a one-box level: its target is the goal.
    pub fn from_grid(grid: &Grid) -> Position {
        let mut goals = vec![false; grid.cell_count()];
        goals[grid.target] = true;
        Position {
            width: grid.cols,
            height: grid.rows,
            walls: grid.walls.clone(),
            goals,
            boxes: vec![grid.boxed],
            player: grid.player,
        }
    }

    /// A one-box level as a `.box` maze (its goal the target), when it can be one: one
    /// box, one goal, the player, box and goal on three cells.
    pub fn to_grid(&self) -> Option<Grid> {
        let mut goals = (0..self.goals.len()).filter(|&cell| self.goals[cell]);
        let (Some(target), None) = (goals.next(), goals.next()) else {
            return None;
        };
        let [boxed] = self.boxes[..] else {
            return None;
        };
        let apart = boxed != target && self.player != boxed && self.player != target;
        (apart && self.walls.len() == self.width * self.height).then(|| Grid {
            rows: self.height,
            cols: self.width,
            walls: self.walls.clone(),
            player: self.player,
            boxed,
            target,
        })
    }

    /// The cells the player can walk to from `from` without pushing (boxes block).
    pub fn walkable_from(&self, from: usize, boxes: &[bool]) -> Vec<bool> {
        let mut seen = vec![false; self.walls.len()];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(cell) = stack.pop() {
            for direction in 0..4 {
                if let Some(next) = self.open_step(cell, direction) {
                    if !seen[next] && !boxes[next] {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_share_their_indent_and_short_rows_end_in_void() {
        let text = "  ###\n  #@$.#\n    #";
        let rows = vec![0..5, 6..13, 14..19];
        let board = Board::from_rows(text, rows);
        assert_eq!((board.width, board.height, board.indent), (5, 3, 2));
        assert_eq!(board.to_rows(), ["###", "#@$.#", "  #"]);
        assert_eq!(board.cells[3], Cell::Void);
        assert_eq!(board.spans[3], 5..5);
        assert_eq!(board.spans[6], 9..10);
        let position = board.position().unwrap();
        assert_eq!((position.player, position.boxes.clone()), (6, vec![7]));
        assert!(position.goals[8] && position.walls[3]);
    }

    #[test]
    fn a_one_box_level_is_a_maze_and_back() {
        let position = |text: &str| {
            let rows = text.split('\n').scan(0, |start, row| {
                let range = *start..*start + row.len();
                *start += row.len() + 1;
                Some(range)
            });
            Board::from_rows(text, rows.collect()).position().unwrap()
        };
        let level = position("######\n#@$ .#\n######");
        let grid = level.to_grid().expect("one box, one goal");
        assert_eq!((grid.rows, grid.cols), (3, 6));
        assert_eq!((grid.player, grid.boxed, grid.target), (7, 8, 10));
        assert_eq!(Position::from_grid(&grid), level);
        // Two boxes, a box on its goal, or two goals: no maze.
        assert_eq!(position("#######\n#@$$..#\n#######").to_grid(), None);
        assert_eq!(position("#####\n#@* #\n#####").to_grid(), None);
        assert_eq!(position("######\n#@$..#\n######").to_grid(), None);
    }
}
