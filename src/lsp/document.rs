//! One document's text as the server holds it: the rope, the text and its incremental
//! parse following every change, and beside each maze its key, what is known of its
//! solve and its kept sections; for a Sokoban document (`.xsb`/`.sok`), its levels read
//! and checked instead. Plain data: `documents.rs` holds one per open URI.

use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::TextDocumentContentChangeEvent;

use super::capabilities::ClientSupport;
use super::config::Config;
use super::grid_key::GridKey;
use super::level_solves::LevelKey;
use super::position::{byte_range, Encoding};
use super::sections::{Kept, Made, Section};
use super::view::View;
use crate::ide::{positions_to_solve, DeadSquares, LevelFile, LevelStatus, MazeStatus};
use crate::level::{self, CheckedFile, Format};
use crate::maze::{parse, Maze, ParsedFile, Splice};

/// One open document. Cloning is cheap (everything in it is shared).
///
/// The rope answers position questions; the text and its parse follow every change
/// directly, so a keystroke costs one maze's parse, not the whole file's. Beside each
/// maze of the parse sit its key (hashed once, when the maze is read) and its status,
/// kept across versions: an edit replaces only the entries of the mazes it re-read.
///
/// A Sokoban document has no mazes (its parse is empty, so the `.box` features find
/// nothing to answer about): its `levels` are read and checked again after each change.
#[derive(Clone)]
pub struct Document {
    pub version: i32,
    /// How the text is read: fixed when the document is opened.
    pub format: Format,
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
    /// A Sokoban document's levels and their diagnostics (`None` for `.box`).
    pub levels: Option<Arc<CheckedFile>>,
    /// One per level: its position, where it is worth solving (`None`: an error or a
    /// static deadlock says enough).
    pub level_keys: Arc<Vec<Option<LevelKey>>>,
    /// One per level: what is known of its solve.
    pub level_statuses: Arc<Vec<LevelStatus>>,
}

impl Document {
    /// What a request reads: this version of the document, with the settings it is
    /// answered under.
    pub fn into_view(self, encoding: Encoding, config: Config, support: ClientSupport) -> View {
        View {
            version: self.version,
            levels: self.levels,
            level_statuses: self.level_statuses,
            rope: self.rope,
            text: self.text,
            parsed: self.parsed,
            statuses: self.statuses,
            kept: self.kept,
            out_of_sync: self.out_of_sync,
            encoding,
            config,
            support,
        }
    }

    pub fn new(version: i32, text: &str, format: Format) -> Document {
        let parsed = match format {
            Format::Box => parse(text),
            Format::Xsb => ParsedFile::default(),
        };
        let (keys, statuses) = unsolved(&parsed.mazes);
        let kept = vec![Kept::default(); keys.len()];
        let levels = checked_levels(text, format);
        let (level_keys, level_statuses) = level_solves(text, levels.as_deref());
        Document {
            version,
            format,
            rope: Rope::from_str(text),
            text: Arc::new(text.to_string()),
            parsed: Arc::new(parsed),
            keys: Arc::new(keys),
            statuses: Arc::new(statuses),
            kept: Arc::new(kept),
            out_of_sync: None,
            levels,
            level_keys: Arc::new(level_keys),
            level_statuses: Arc::new(level_statuses),
        }
    }

    /// The levels whose solve is still to be looked up or waited for.
    pub fn awaiting_level_solve(&self) -> Vec<(usize, LevelKey)> {
        self.level_statuses
            .iter()
            .zip(self.level_keys.iter())
            .enumerate()
            .filter(|(_, (status, _))| status.is_solving())
            .filter_map(|(index, (_, key))| Some((index, key.clone()?)))
            .collect()
    }

    /// Records a solve's result for level `index`, if that level still has `key`;
    /// whether it did.
    pub fn record_level_solve(
        &mut self,
        index: usize,
        key: &LevelKey,
        status: LevelStatus,
    ) -> bool {
        let current = self.level_keys.get(index).and_then(Option::as_ref) == Some(key);
        if current {
            Arc::make_mut(&mut self.level_statuses)[index] = status;
        }
        current
    }

    /// Records what level `index`'s running search has found so far, if that level
    /// still has `key` and its result is not in yet (a late report never hides it);
    /// whether it did (else there is nothing new to show).
    pub fn record_level_progress(
        &mut self,
        index: usize,
        key: &LevelKey,
        status: LevelStatus,
    ) -> bool {
        let solving = self
            .level_statuses
            .get(index)
            .is_some_and(LevelStatus::is_solving);
        solving && self.record_level_solve(index, key, status)
    }

    /// The mazes whose solve is still to be looked up or waited for.
    pub fn awaiting_solve(&self) -> Vec<(usize, GridKey)> {
        self.statuses
            .iter()
            .zip(self.keys.iter())
            .enumerate()
            .filter(|(_, (status, _))| !status.is_final())
            .filter_map(|(index, (_, key))| Some((index, key.clone()?)))
            .collect()
    }

    /// Records a solve's result for maze `index`, if that maze still has `key`.
    pub fn record_solve(&mut self, index: usize, key: &GridKey, status: MazeStatus) {
        if self.keys.get(index).and_then(Option::as_ref) == Some(key) {
            Arc::make_mut(&mut self.statuses)[index] = status;
            Arc::make_mut(&mut self.kept)[index] = Kept::default();
        }
    }

    /// Keeps the sections made for `made.version`, each while its maze's status is
    /// still the one it was made from.
    pub fn keep<T: Section>(&mut self, made: Made<T>) {
        if made.version != self.version {
            return;
        }
        let kept = Arc::make_mut(&mut self.kept);
        for (index, section) in made.sections {
            if let (Some(slot), true) = (
                kept.get_mut(index),
                self.statuses.get(index) == made.statuses.get(index),
            ) {
                *T::slot(slot) = Some(section);
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
    pub fn forget_solves(&mut self) {
        let (_, statuses) = unsolved(&self.parsed.mazes);
        self.kept = Arc::new(vec![Kept::default(); statuses.len()]);
        self.statuses = Arc::new(statuses);
        let (_, level_statuses) = level_solves(&self.text, self.levels.as_deref());
        self.level_statuses = Arc::new(level_statuses);
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
                None => *self = Document::new(version, &change.text, self.format),
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
        if self.format == Format::Xsb {
            // A collection's checks are cheap next to typing (Microban's 155 levels in
            // a few milliseconds), so the whole file is read again.
            self.levels = checked_levels(text, self.format);
            let (keys, statuses) = level_solves(text, self.levels.as_deref());
            self.level_keys = Arc::new(keys);
            self.level_statuses = Arc::new(statuses);
            return;
        }
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

    pub fn mark_out_of_sync(&mut self, version: i32, problem: Arc<str>) {
        self.version = version.max(self.version);
        self.out_of_sync = Some(problem);
    }

    /// Checks that the rope, the text and the incremental parse agree: the whole-file
    /// work the server otherwise avoids, for `boxls/documentText` (tests, debugging).
    pub fn check(&self) -> Result<(), &'static str> {
        if self.rope != self.text.as_str() {
            return Err("the rope and the text disagree");
        }
        if let Some(levels) = &self.levels {
            let fresh = level::check(&self.text);
            if levels.collection != fresh.collection || levels.diagnostics != fresh.diagnostics {
                return Err("the levels differ from a fresh reading of the text");
            }
            return Ok(());
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

/// Which format a document opened with `language_id` at `uri` is read in: the
/// language the client names (`sokoban`, `box`), else the file name's extension
/// (`.xsb`, `.sok`), else `.box`.
pub fn format_of(language_id: &str, uri: &str) -> Format {
    match language_id {
        "sokoban" => Format::Xsb,
        "box" => Format::Box,
        _ => {
            let path = uri.split(['?', '#']).next().unwrap_or(uri);
            Format::of_name(path).unwrap_or(Format::Box)
        }
    }
}

/// A Sokoban text's levels, read and checked; nothing for `.box`.
fn checked_levels(text: &str, format: Format) -> Option<Arc<CheckedFile>> {
    (format == Format::Xsb).then(|| Arc::new(level::check(text)))
}

/// Keys and first statuses for freshly read levels: `Solving` until looked up, unless
/// not worth solving.
fn level_solves(
    text: &str,
    levels: Option<&CheckedFile>,
) -> (Vec<Option<LevelKey>>, Vec<LevelStatus>) {
    let Some(checked) = levels else {
        return (Vec::new(), Vec::new());
    };
    let file = LevelFile {
        text,
        checked,
        options: crate::ide::Options::default(),
    };
    positions_to_solve(&file)
        .into_iter()
        .map(|position| match position {
            Some(position) => (Some(Arc::new(position)), LevelStatus::WAITING),
            None => (None, LevelStatus::Skipped),
        })
        .unzip()
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
