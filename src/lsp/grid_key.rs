//! [`GridKey`]: a maze's content as the key its solve, dead squares and cached results
//! are found by — the parse's own grid (shared, never copied) with its hash computed
//! once, when the maze is read.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::maze::Grid;

/// A maze's content with its hash computed once: every lookup after that hashes one
/// word, and equal keys of the same parse compare by pointer.
#[derive(Debug, Clone)]
pub struct GridKey {
    hash: u64,
    grid: Arc<Grid>,
}

impl GridKey {
    /// The key of the parse's grid: the same allocation, so a document's grids are held
    /// once however many documents, solves and cache entries refer to them.
    pub fn new(grid: &Arc<Grid>) -> GridKey {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        grid.hash(&mut hasher);
        GridKey {
            hash: hasher.finish(),
            grid: grid.clone(),
        }
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }
}

impl Hash for GridKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl PartialEq for GridKey {
    fn eq(&self, other: &GridKey) -> bool {
        self.hash == other.hash && (Arc::ptr_eq(&self.grid, &other.grid) || self.grid == other.grid)
    }
}

impl Eq for GridKey {}
