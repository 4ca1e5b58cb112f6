//! The difficulty map in the editor: the `box here: 12 pushes · 40 moves` line added to
//! the hover on a cell, and `boxls/difficulty`, the map as data for the previews. The
//! map is computed off the request loop by `design.rs` (cached by grid content).

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    Hover, HoverContents, MarkupContent, Position, TextDocumentIdentifier, Uri,
};

use super::design::{Answer, Question};
use super::solves::GridKey;
use super::Backend;
use crate::design::{Difficulty, MAX_CELLS};
use crate::ide::{cell_at, cell_hover};

/// `boxls/difficulty`: the difficulty map of the maze at a position.
pub const DIFFICULTY: &str = "boxls/difficulty";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DifficultyParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
}

/// For each cell, the optimum if the box started there (the maze's S and T kept).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DifficultyResult {
    pub version: i32,
    pub maze: usize,
    pub rows: usize,
    pub cols: usize,
    /// One string per row, one letter per cell: `#` rock, `S` the player's start, `T`
    /// the target, `x` free but unsolvable with the box there, `.` solvable.
    pub kinds: Vec<String>,
    /// Per row, per cell: the optimal pushes with the box there (`null` unless `.`).
    pub pushes: Vec<Vec<Option<u64>>>,
    /// Likewise the optimal moves.
    pub moves: Vec<Vec<Option<u64>>>,
    /// The most pushes of any cell (0 when none is solvable).
    pub max_pushes: u64,
}

fn letter(difficulty: Difficulty) -> char {
    match difficulty {
        Difficulty::Rock => '#',
        Difficulty::Player => 'S',
        Difficulty::Target => 'T',
        Difficulty::Unsolvable => 'x',
        Difficulty::Solved { .. } => '.',
    }
}

fn result(
    version: i32,
    maze: usize,
    rows: usize,
    cols: usize,
    map: &[Difficulty],
) -> DifficultyResult {
    let solved = |cell: &Difficulty| match *cell {
        Difficulty::Solved { pushes, moves } => Some((pushes, moves)),
        _ => None,
    };
    let by_row = |value: fn((u64, u64)) -> u64| {
        map.chunks(cols.max(1))
            .map(|row| row.iter().map(|cell| solved(cell).map(value)).collect())
            .collect()
    };
    DifficultyResult {
        version,
        maze,
        rows,
        cols,
        kinds: map
            .chunks(cols.max(1))
            .map(|row| row.iter().copied().map(letter).collect())
            .collect(),
        pushes: by_row(|(pushes, _)| pushes),
        moves: by_row(|(_, moves)| moves),
        max_pushes: map
            .iter()
            .filter_map(solved)
            .map(|(p, _)| p)
            .max()
            .unwrap_or(0),
    }
}

/// The hover with the difficulty line appended (as its own paragraph).
pub fn with_line(hover: Option<Hover>, line: Option<String>) -> Option<Hover> {
    let (mut hover, line) = match (hover, line) {
        (Some(hover), Some(line)) => (hover, line),
        (hover, _) => return hover,
    };
    if let HoverContents::Markup(MarkupContent { value, .. }) = &mut hover.contents {
        value.push_str("\n\n");
        value.push_str(&line);
    }
    Some(hover)
}

/// The valid maze at a position: the document version, its number, its grid and the
/// cell under the position (if the position is on one).
struct MapTarget {
    version: i32,
    maze: usize,
    key: GridKey,
    cell: Option<usize>,
}

impl Backend {
    /// The valid maze at `position` (within the design limit); with `cell_only`, only
    /// when the position is on one of its cells.
    fn map_grid(
        &self,
        uri: &Uri,
        position: Position,
        cell_only: bool,
    ) -> Result<Option<MapTarget>> {
        let Some(view) = self.view(uri)? else {
            return Ok(None);
        };
        let offset = view.offset(position);
        let file = view.file();
        let (maze, grid, cell) = match cell_at(&file, offset) {
            Some((maze, grid, cell)) => (maze, grid, Some(cell)),
            None if cell_only => return Ok(None),
            None => match file.maze_at(offset) {
                Some((maze, _)) => match &maze.grid {
                    Some(grid) => (maze, grid, None),
                    None => return Ok(None),
                },
                None => return Ok(None),
            },
        };
        if grid.cell_count() > MAX_CELLS.min(view.config.max_cells) {
            return Ok(None);
        }
        Ok(Some(MapTarget {
            version: view.version,
            maze: maze.index,
            key: GridKey::new(grid),
            cell,
        }))
    }

    /// `box here: …` for the cell at `position`, from the difficulty map (waited for).
    pub(super) async fn difficulty_line(&self, uri: &Uri, position: Position) -> Option<String> {
        let target = self.map_grid(uri, position, true).ok()??;
        match self.design.answer(&target.key, Question::Map).await? {
            Answer::Map(map) => cell_hover(*map.get(target.cell?)?),
            _ => None,
        }
    }

    pub(super) async fn difficulty(
        &self,
        params: DifficultyParams,
    ) -> Result<Option<DifficultyResult>> {
        let uri = &params.text_document.uri;
        if self.view(uri)?.is_none() {
            return Err(Error::invalid_params("document is not open"));
        }
        let Some(target) = self.map_grid(uri, params.position, false)? else {
            return Ok(None);
        };
        match self.design.answer(&target.key, Question::Map).await {
            Some(Answer::Map(map)) => {
                let grid = target.key.grid();
                self.guarded(DIFFICULTY, || {
                    Some(result(
                        target.version,
                        target.maze,
                        grid.rows,
                        grid.cols,
                        &map,
                    ))
                })
            }
            Some(Answer::Failed(message)) => Err(Error {
                code: ErrorCode::InternalError,
                message: message.to_string().into(),
                data: None,
            }),
            _ => Err(Error::internal_error()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::difficulty_map;
    use crate::maze::Grid;

    #[test]
    fn the_map_as_data_tells_rock_from_unsolvable() {
        let grid = Grid::from_rows(&["#####", "#S.B#", "#..T#", "#####"]).expect("valid");
        let map = difficulty_map(&grid).expect("small");
        let answer = serde_json::to_value(result(3, 1, grid.rows, grid.cols, &map)).expect("json");
        assert_eq!(
            answer["kinds"],
            serde_json::json!(["#####", "#Sxx#", "#x.T#", "#####"])
        );
        assert_eq!(answer["pushes"][2][2], 1);
        assert_eq!(answer["moves"][2][2], 2);
        assert_eq!(answer["pushes"][1][2], serde_json::Value::Null);
        assert_eq!(answer["maxPushes"], 1);
    }
}
