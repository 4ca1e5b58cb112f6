//! The difficulty map in the editor: the `box here: 12 pushes · 40 moves` line added to
//! the hover on a cell, and `boxls/difficulty`, the map as data for the previews. The
//! map is computed off the request loop by `design.rs` (cached by grid content); a
//! request waiting for it ends with `ContentModified` once its maze is edited or its
//! document closed (`maze_watch.rs`).

use std::sync::Arc;

use tokio::sync::watch;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, Position, Uri};

use super::design::{Answer, Question};
use super::grid_key::GridKey;
use super::hover;
use super::maze_watch::{fingerprint, Watched};
use super::protocol::{
    Difficulty as DifficultyRequest, DifficultyParams, DifficultyResult, Request,
};
use super::view::{Dead, View};
use super::Backend;
use crate::design::{Difficulty, MAX_CELLS};
use crate::ide::{cell_at, cell_hover, level_cell_at};

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
fn with_line(hover: Option<Hover>, line: Option<String>) -> Option<Hover> {
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

/// The valid maze at a position: its number, its grid and the cell under the
/// position (if the position is on one).
struct MapTarget {
    /// The maze's number, or the level's.
    maze: usize,
    /// A level of a Sokoban document.
    level: bool,
    key: GridKey,
    cell: Option<usize>,
}

/// The valid maze at `offset` of the view (within the design limit), or in a Sokoban
/// document the level there if it has one box and one goal (the same maze, written as
/// a level); with `cell_only`, only when the offset is on one of its cells.
fn map_target(view: &View, offset: usize, cell_only: bool) -> Option<MapTarget> {
    let limit = MAX_CELLS.min(view.config.max_cells);
    if let Some(levels) = view.levels() {
        let level = levels.level_at(offset)?;
        let cell = level_cell_at(level, offset);
        if cell_only && cell.is_none() {
            return None;
        }
        let grid = Arc::new(level.board.to_grid()?);
        return (grid.cell_count() <= limit).then(|| MapTarget {
            maze: level.index,
            level: true,
            key: GridKey::new(&grid),
            cell,
        });
    }
    let file = view.file();
    let (maze, grid, cell) = match cell_at(&file, offset) {
        Some((maze, grid, cell)) => (maze, grid, Some(cell)),
        None if cell_only => return None,
        None => {
            let (maze, _) = file.maze_at(offset)?;
            (maze, maze.grid.as_ref()?, None)
        }
    };
    (grid.cell_count() <= limit).then(|| MapTarget {
        maze: maze.index,
        level: false,
        key: GridKey::new(grid),
        cell,
    })
}

impl Backend {
    /// The map of the target's maze, waited for unless the maze changes first (then
    /// `ContentModified`, see `maze_watch.rs`); `Ok(None)` if the search was cancelled.
    async fn map_of(
        &self,
        uri: &Uri,
        target: &MapTarget,
        changes: watch::Receiver<i32>,
    ) -> Result<Option<Answer>> {
        let grid = fingerprint(target.key.grid());
        let watched = Watched::new(uri.clone(), target.maze, grid, changes);
        let watched = match target.level {
            true => watched.in_levels(),
            false => watched,
        };
        self.answer_unless_changed(watched, &target.key, Question::Map)
            .await
    }

    /// `textDocument/hover`: the IDE layer's hover of the version asked about, and on
    /// a free cell of a valid maze the `box here: …` line from its difficulty map
    /// (waited for).
    ///
    /// If that maze is edited, or the document closed, while the map is awaited, the
    /// answer is `ContentModified`, not the hover without its line: the rest of it (the
    /// cell, whether it is dead) describes a maze that is no longer there, and a hover
    /// missing its line would pass for complete. VS Code's and Neovim's clients drop
    /// `ContentModified` silently, and the next hover is about the maze as it is. An
    /// edit elsewhere in the document leaves the wait (and the hover's text) be.
    pub(super) async fn hover_with_difficulty(
        &self,
        uri: &Uri,
        position: Position,
    ) -> Result<Option<Hover>> {
        // Subscribed before the view, so that no change after it goes unseen.
        let Some(changes) = self.state().documents().changes(uri) else {
            return Ok(None);
        };
        let Some(view) = self.state().view(uri, Dead::At(position)).await? else {
            return Ok(None);
        };
        let offset = view.offset(position);
        let hover = self.guarded("textDocument/hover", || hover::hover(&view, offset))?;
        // The map has no line for rock or the player's start: no search to wait for.
        let target = map_target(&view, offset, true).filter(|target| {
            let (grid, cell) = (target.key.grid(), target.cell);
            cell.is_some_and(|cell| grid.walls.get(cell) == Some(&false) && cell != grid.player)
        });
        let Some(target) = hover.as_ref().and(target) else {
            return Ok(hover);
        };
        let line = match self.map_of(uri, &target, changes).await? {
            Some(Answer::Map(map)) => target.cell.and_then(|cell| cell_hover(*map.get(cell)?)),
            // A failed search leaves the hover without its line.
            _ => None,
        };
        Ok(with_line(hover, line))
    }
}

/// `boxls/difficulty`; `ContentModified` if the maze is edited, or the document
/// closed, while its map is awaited (the answer's `version` and `maze` would no
/// longer hold).
pub(super) async fn difficulty(
    backend: &Backend,
    params: DifficultyParams,
) -> Result<Option<DifficultyResult>> {
    let uri = &params.text_document.uri;
    let (changes, view) = backend.state().changes_and_view(uri).await?;
    let Some(target) = map_target(&view, view.offset(params.position), false) else {
        return Ok(None);
    };
    match backend.map_of(uri, &target, changes).await? {
        Some(Answer::Map(map)) => {
            let grid = target.key.grid();
            backend.guarded(DifficultyRequest::METHOD, || {
                Some(result(
                    view.version,
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
