//! A request waiting on a search about one maze of a document — the hardest
//! placement's resolve and `boxls.makeHardest` (`hardest.rs`), the hover's `box here:`
//! line and `boxls/difficulty` (`difficulty.rs`), the resolve of *Insert optimal
//! solution* waiting for the maze's solve (`code_actions.rs`): the wait ends with
//! `ContentModified` as soon as that maze is edited or its document closed. Ending it
//! drops the request's ticket, so the search stops unless something else still wants
//! it (`design.rs`, `solves.rs`).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use tokio::sync::watch;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::Uri;

use super::design::{Answer, Question};
use super::grid_key::GridKey;
use super::view::{Dead, View};
use super::Backend;
use crate::maze::{Grid, Maze};

/// A maze's grid as a short opaque string (its hash): what a request remembers of it.
pub fn fingerprint(grid: &Grid) -> String {
    let mut hasher = DefaultHasher::new();
    grid.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// Maze `index` (1-based) of the view, if it is valid.
pub fn valid(view: &View, index: usize) -> Option<(&Maze, &Arc<Grid>)> {
    let maze = view.parsed.mazes.get(index.wrapping_sub(1))?;
    Some((maze, maze.grid.as_ref()?))
}

/// Maze #`index` of `uri` as a request found it (`grid`, a [`fingerprint`]), and the
/// document's changes since.
pub struct Watched {
    uri: Uri,
    index: usize,
    /// A one-box level of a Sokoban document, not a maze.
    level: bool,
    grid: String,
    changes: watch::Receiver<i32>,
}

impl Watched {
    /// `changes` ([`super::documents::Documents::changes`]) must be subscribed before the
    /// request's first look at the document, so that no change after it goes unseen.
    pub fn new(uri: Uri, index: usize, grid: String, changes: watch::Receiver<i32>) -> Watched {
        Watched {
            uri,
            index,
            level: false,
            grid,
            changes,
        }
    }

    /// The watched one is level `index` of a Sokoban document, as a maze
    /// ([`crate::level::Position::to_grid`]).
    pub fn in_levels(self) -> Watched {
        Watched {
            level: true,
            ..self
        }
    }

    fn name(&self) -> String {
        match self.level {
            true => format!("Level {}", self.index),
            false => format!("Maze #{}", self.index),
        }
    }
}

/// Maze `index` (1-based) of the view as a grid — or, with `level`, level `index` of a
/// Sokoban document when it has one box and one goal — if it is one.
fn grid_of(view: &View, index: usize, level: bool) -> Option<Arc<Grid>> {
    match (level, view.levels()) {
        (true, Some(levels)) => {
            let level = levels.levels().get(index.wrapping_sub(1))?;
            level.board.to_grid().map(Arc::new)
        }
        (false, None) => valid(view, index).map(|(_, grid)| grid.clone()),
        _ => None,
    }
}

impl Backend {
    /// The answer to `question` about the watched maze (whose grid is `key`), waited
    /// for — unless the maze is edited or its document closed first: then
    /// `ContentModified` at once, while the search may still run (an error naming the
    /// problem if the server's copy went out of sync). `Ok(None)`: the search was
    /// cancelled.
    pub(super) async fn answer_unless_changed(
        &self,
        watched: Watched,
        key: &GridKey,
        question: Question,
    ) -> Result<Option<Answer>> {
        let design = self.state().background().design().clone();
        self.unless_withdrawn(watched, design.answer(key, question))
            .await
    }

    /// What `wait` comes to — unless the watched maze is edited or its document closed
    /// first: then the error to answer, at once, and `wait` is dropped.
    pub(super) async fn unless_withdrawn<T>(
        &self,
        watched: Watched,
        wait: impl std::future::Future<Output = T>,
    ) -> Result<T> {
        tokio::select! {
            done = wait => Ok(done),
            refusal = self.withdrawn(watched) => Err(refusal),
        }
    }

    /// Returns once the watched maze is no longer the grid it was — edited, or its
    /// document closed or out of sync — with the error to answer.
    async fn withdrawn(&self, mut watched: Watched) -> Error {
        let (index, name) = (watched.index, watched.name());
        loop {
            // Closing the document drops the sender.
            if watched.changes.changed().await.is_err() {
                return closed(&name);
            }
            match self.state().view(&watched.uri, Dead::Skip).await {
                Err(error) => return error,
                Ok(None) => return closed(&name),
                Ok(Some(view)) => {
                    let same = grid_of(&view, index, watched.level)
                        .is_some_and(|grid| fingerprint(&grid) == watched.grid);
                    if !same {
                        return changed(&name);
                    }
                }
            }
        }
    }
}

fn changed(name: &str) -> Error {
    Error {
        code: ErrorCode::ContentModified,
        message: format!("{name} has changed").into(),
        data: None,
    }
}

fn closed(name: &str) -> Error {
    Error {
        code: ErrorCode::ContentModified,
        message: format!("the document of {name} was closed").into(),
        data: None,
    }
}
