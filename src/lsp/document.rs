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
    /// Why the server's copy no longer follows the client's (a change it could not
    /// apply), until the client sends the whole text again or re-opens the document.
    pub out_of_sync: Option<Arc<str>>,
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
            out_of_sync: None,
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
    /// Out of sync, only a whole text (and what follows it) can be applied: the
    /// changes before it were made to a text the server does not have.
    pub fn apply(
        &mut self,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> Result<(), Arc<str>> {
        let changes = match &self.out_of_sync {
            None => changes,
            Some(problem) => {
                let whole = changes.iter().rposition(|change| change.range.is_none());
                let Some(whole) = whole else {
                    return Err(problem.clone());
                };
                &changes[whole..]
            }
        };
        for change in changes {
            match change.range {
                Some(range) => {
                    let bytes = byte_range(&self.rope, range, encoding);
                    self.edit(bytes, &change.text);
                }
                None => *self = Document::new(version, &change.text),
            }
        }
        self.version = version;
        Ok(())
    }

    /// Replaces `bytes` (clamped to char boundaries by `byte_range`) with `new_text` in
    /// the rope, the text and the parse alike.
    fn edit(&mut self, bytes: Range<usize>, new_text: &str) {
        let start = self.rope.byte_to_char(bytes.start);
        let end = self.rope.byte_to_char(bytes.end);
        self.rope.remove(start..end);
        self.rope.insert(start, new_text);
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
        // A maze's section runs from its header to the next maze's, so the sections
        // on either side of the re-read mazes can change without their mazes being
        // re-read: the maze before gains or loses the lines between (a header turned
        // into a stray line is now one of its diagnostics), and the first maze after
        // may share its header's line with the edit's end (an edit in the blanks
        // before a header moves its columns).
        let before = splice.start.checked_sub(1);
        let after = Some(splice.start + splice.inserted);
        for neighbour in [before, after].into_iter().flatten() {
            if let Some(section) = kept.get_mut(neighbour) {
                *section = Kept::default();
            }
        }
    }

    fn mark_out_of_sync(&mut self, version: i32, problem: Arc<str>) {
        self.version = version.max(self.version);
        self.out_of_sync = Some(problem);
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

/// Why a change was not applied.
#[derive(Debug)]
pub enum Unapplied {
    NotOpen,
    /// Applying it failed: the document is now out of sync.
    OutOfSync(Arc<str>),
    /// The document was already out of sync and the change brings no whole text.
    StillOutOfSync,
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
    /// Test knob (`Options::panic_in_method`): every change panics once applied.
    panic_in_change: bool,
}

impl Documents {
    fn lock(&self) -> MutexGuard<'_, HashMap<Uri, Document>> {
        // A panic elsewhere while holding the lock leaves consistent data (every update
        // replaces whole values), so a poisoned lock is still usable.
        self.map
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn new(panic_in_change: bool) -> Documents {
        Documents {
            map: Mutex::default(),
            panic_in_change,
        }
    }

    pub fn open(&self, uri: Uri, version: i32, text: &str) {
        self.lock().insert(uri, Document::new(version, text));
    }

    /// Applies changes as one transaction: if applying them panics, the document is
    /// left as it was (rebuilt from its rope, which is cheap to keep) and marked out of
    /// sync — the client has applied the change, the server could not.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> Result<(), Unapplied> {
        let mut documents = self.lock();
        let Some(document) = documents.get_mut(uri) else {
            return Err(Unapplied::NotOpen);
        };
        // Cloning a rope is O(1) (shared nodes); the text and parse are not kept, so
        // the edit below still changes them in place.
        let (old_rope, old_version) = (document.rope.clone(), document.version);
        let applied = catch_unwind(AssertUnwindSafe(|| {
            let applied = document.apply(version, changes, encoding);
            if self.panic_in_change {
                panic!("injected panic while applying an edit");
            }
            applied
        }));
        match applied {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(Unapplied::StillOutOfSync),
            Err(_) => {
                *document = Document::new(old_version, &old_rope.to_string());
                let problem: Arc<str> = Arc::from("a change could not be applied (internal error)");
                document.mark_out_of_sync(version, problem.clone());
                Err(Unapplied::OutOfSync(problem))
            }
        }
    }

    /// Marks a document out of sync after a change that could not even be read.
    pub fn mark_out_of_sync(&self, uri: &Uri, version: Option<i32>, problem: Arc<str>) -> bool {
        self.update(uri, |document| {
            let version = version.unwrap_or(document.version);
            document.mark_out_of_sync(version, problem)
        })
        .is_some()
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
