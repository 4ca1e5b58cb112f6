//! The document store: `uri -> Document { version, rope, text, parsed mazes, what is
//! known of each maze }` behind one `std::sync::Mutex` that is never held across an
//! `.await`.

use std::collections::HashMap;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::diagnostics::{Converted, Fresh};
use super::position::{byte_range, Encoding};
use super::semantic_tokens::{FreshTokens, SectionTokens};
use super::solves::GridKey;
use crate::ide::{DeadSquares, MazeStatus};
use crate::maze::{parse, Maze, ParsedFile, Splice};

/// One open document. Cloning is cheap (everything in it is shared).
///
/// The rope answers position questions; the text and its parse follow every change
/// directly, so a keystroke costs one maze's parse, not the whole file's. Beside each
/// maze of the parse sit its key (hashed once, when the maze is read) and its status,
/// kept across versions: an edit replaces only the entries of the mazes it re-read.
#[derive(Clone)]
pub struct Document {
    pub version: i32,
    pub rope: Rope,
    pub text: Arc<String>,
    pub parsed: Arc<ParsedFile>,
    /// One per maze: its grid's key, `None` for an invalid maze.
    pub keys: Arc<Vec<Option<GridKey>>>,
    /// One per maze: what is known of its solve.
    pub statuses: Arc<Vec<MazeStatus>>,
    /// One per maze: its diagnostics and tokens as last sent, while still valid.
    pub kept: Arc<Vec<Kept>>,
}

/// What a maze's section of the document was last sent as: its diagnostics (see
/// `diagnostics.rs`) and semantic tokens (see `semantic_tokens.rs`), each with lines
/// counted from the maze's header line, so edits elsewhere leave them valid.
#[derive(Debug, Clone, Default)]
pub struct Kept {
    pub diagnostics: Converted,
    pub tokens: Option<SectionTokens>,
}

impl Document {
    pub fn new(version: i32, text: &str) -> Document {
        let parsed = parse(text);
        let (keys, statuses) = unsolved(&parsed.mazes);
        let kept = vec![Kept::default(); keys.len()];
        Document {
            version,
            rope: Rope::from_str(text),
            text: Arc::new(text.to_string()),
            parsed: Arc::new(parsed),
            keys: Arc::new(keys),
            statuses: Arc::new(statuses),
            kept: Arc::new(kept),
        }
    }

    /// The mazes whose solve is still to be looked up or waited for.
    pub fn unsettled(&self) -> Vec<(usize, GridKey)> {
        self.statuses
            .iter()
            .zip(self.keys.iter())
            .enumerate()
            .filter(|(_, (status, _))| !status.is_settled())
            .filter_map(|(index, (_, key))| Some((index, key.clone()?)))
            .collect()
    }

    /// Records a solve's result for maze `index`, if that maze still has `key`.
    pub fn settle(&mut self, index: usize, key: &GridKey, status: MazeStatus) {
        if self.keys.get(index).and_then(Option::as_ref) == Some(key) {
            Arc::make_mut(&mut self.statuses)[index] = status;
            Arc::make_mut(&mut self.kept)[index] = Kept::default();
        }
    }

    /// Keeps conversions made for `version` from `statuses`.
    pub fn keep_converted(&mut self, version: i32, statuses: &[MazeStatus], fresh: Fresh) {
        self.keep(version, statuses, fresh, |kept, diagnostics| {
            kept.diagnostics = Some(diagnostics)
        });
    }

    /// Keeps mazes' tokens made for `version` from `statuses` (dead squares included).
    pub fn keep_tokens(&mut self, version: i32, statuses: &[MazeStatus], fresh: FreshTokens) {
        self.keep(version, statuses, fresh, |kept, tokens| {
            kept.tokens = Some(tokens)
        });
    }

    /// Stores what was made for `version` from `statuses`, for each maze whose status is
    /// still the one it was made from.
    fn keep<T>(
        &mut self,
        version: i32,
        statuses: &[MazeStatus],
        fresh: Vec<(usize, T)>,
        store: impl Fn(&mut Kept, T),
    ) {
        if version != self.version {
            return;
        }
        let kept = Arc::make_mut(&mut self.kept);
        for (index, made) in fresh {
            if let (Some(slot), true) = (
                kept.get_mut(index),
                self.statuses.get(index) == statuses.get(index),
            ) {
                store(slot, made);
            }
        }
    }

    /// Records maze `index`'s dead squares, if it still has `key`.
    pub fn set_dead(&mut self, index: usize, key: &GridKey, dead: DeadSquares) {
        if self.keys.get(index).and_then(Option::as_ref) == Some(key) {
            Arc::make_mut(&mut self.statuses)[index].set_dead(dead);
            Arc::make_mut(&mut self.kept)[index].tokens = None;
        }
    }

    /// Forgets every solve result (after the limits changed): all are looked up again.
    pub fn unsettle(&mut self) {
        let (_, statuses) = unsolved(&self.parsed.mazes);
        self.kept = Arc::new(vec![Kept::default(); statuses.len()]);
        self.statuses = Arc::new(statuses);
    }

    /// The mazes (index and key) whose lines overlap `bytes` and whose dead squares are
    /// not known yet.
    pub fn lacking_dead(&self, bytes: Range<usize>) -> Vec<(usize, GridKey)> {
        let mazes = &self.parsed.mazes;
        let first = mazes.partition_point(|maze| maze.extent.end < bytes.start);
        let last = mazes.partition_point(|maze| maze.extent.start <= bytes.end);
        (first..last.max(first))
            .filter(|&index| self.statuses[index].lacks_dead())
            .filter_map(|index| Some((index, self.keys[index].clone()?)))
            .collect()
    }

    /// Applies LSP content changes in order, reparsing incrementally after each.
    /// `fail_halfway` is a test hook: a panic after the rope has changed.
    pub fn apply(
        &mut self,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
        fail_halfway: bool,
    ) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let bytes = byte_range(&self.rope, range, encoding);
                    self.edit(bytes, &change.text, fail_halfway);
                }
                None => *self = Document::new(version, &change.text),
            }
        }
        self.version = version;
    }

    /// Replaces `bytes` (clamped to char boundaries by `byte_range`) with `new_text` in
    /// the rope, the text and the parse alike.
    fn edit(&mut self, bytes: Range<usize>, new_text: &str, fail_halfway: bool) {
        let start = self.rope.byte_to_char(bytes.start);
        let end = self.rope.byte_to_char(bytes.end);
        self.rope.remove(start..end);
        self.rope.insert(start, new_text);
        if fail_halfway {
            panic!("injected panic while applying an edit");
        }
        // Views share the text and the parse only while they answer a request; if one
        // still does, `make_mut` copies rather than changing what it sees.
        let text = Arc::make_mut(&mut self.text);
        text.replace_range(bytes.clone(), new_text);
        let parsed = Arc::make_mut(&mut self.parsed);
        let splice = parsed.update(text, bytes, new_text.len());
        self.follow(splice);
    }

    /// Replaces the keys, statuses and conversions of the mazes a reparse re-read.
    fn follow(&mut self, splice: Splice) {
        let replaced = splice.start..splice.start + splice.removed;
        let inserted = &self.parsed.mazes[splice.start..splice.start + splice.inserted];
        let (keys, statuses) = unsolved(inserted);
        let fresh = vec![Kept::default(); keys.len()];
        Arc::make_mut(&mut self.keys).splice(replaced.clone(), keys);
        Arc::make_mut(&mut self.statuses).splice(replaced.clone(), statuses);
        let kept = Arc::make_mut(&mut self.kept);
        kept.splice(replaced, fresh);
        // The first maze after the edit may share its header's line with the edit's
        // end (an edit in the blanks before a header), which moves its columns.
        if let Some(first_moved) = kept.get_mut(splice.start + splice.inserted) {
            *first_moved = Kept::default();
        }
    }

    /// Checks that the rope, the text and the incremental parse agree: the whole-file
    /// work the server otherwise avoids, for `boxls/documentText` (tests, debugging).
    pub fn check(&self) -> Result<(), &'static str> {
        if self.rope != self.text.as_str() {
            return Err("the rope and the text disagree");
        }
        if *self.parsed != parse(&self.text) {
            return Err("the incremental parse differs from a full parse");
        }
        let (keys, _) = unsolved(&self.parsed.mazes);
        let lengths = [self.statuses.len(), self.kept.len()];
        if *self.keys != keys || lengths != [keys.len(); 2] {
            return Err("the mazes' keys do not follow the parse");
        }
        Ok(())
    }
}

/// Keys and first statuses for freshly read mazes: `Solving` until looked up.
fn unsolved(mazes: &[Maze]) -> (Vec<Option<GridKey>>, Vec<MazeStatus>) {
    mazes
        .iter()
        .map(|maze| match &maze.grid {
            Some(grid) => (Some(GridKey::new(grid)), MazeStatus::Solving),
            None => (None, MazeStatus::Invalid),
        })
        .unzip()
}

#[derive(Default)]
pub struct Documents {
    map: Mutex<HashMap<Uri, Document>>,
}

impl Documents {
    fn lock(&self) -> MutexGuard<'_, HashMap<Uri, Document>> {
        // A panic elsewhere while holding the lock leaves consistent data (every update
        // replaces whole values), so a poisoned lock is still usable.
        self.map
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn open(&self, uri: Uri, version: i32, text: &str) {
        self.lock().insert(uri, Document::new(version, text));
    }

    /// Applies changes as one transaction: if applying them panics, the document is
    /// left exactly as it was (rebuilt from its rope, which is cheap to keep) and the
    /// error says so.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
        fail_halfway: bool,
    ) -> Result<(), &'static str> {
        let mut documents = self.lock();
        let Some(document) = documents.get_mut(uri) else {
            return Err("didChange for a document that is not open");
        };
        // Cloning a rope is O(1) (shared nodes); the text and parse are not kept, so
        // the edit below still changes them in place.
        let (old_rope, old_version) = (document.rope.clone(), document.version);
        let applied = catch_unwind(AssertUnwindSafe(|| {
            document.apply(version, changes, encoding, fail_halfway)
        }));
        if applied.is_err() {
            *document = Document::new(old_version, &old_rope.to_string());
            return Err("an edit could not be applied and was dropped (internal error)");
        }
        Ok(())
    }

    pub fn close(&self, uri: &Uri) -> bool {
        self.lock().remove(uri).is_some()
    }

    pub fn get(&self, uri: &Uri) -> Option<Document> {
        self.lock().get(uri).cloned()
    }

    /// Runs `change` on an open document, under the lock (so without `.await`).
    pub fn update<T>(&self, uri: &Uri, change: impl FnOnce(&mut Document) -> T) -> Option<T> {
        self.lock().get_mut(uri).map(change)
    }

    /// Runs `change` on every open document.
    pub fn update_all(&self, mut change: impl FnMut(&mut Document)) {
        for document in self.lock().values_mut() {
            change(document);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    pub fn uris(&self) -> Vec<Uri> {
        self.lock().keys().cloned().collect()
    }
}
