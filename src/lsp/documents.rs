//! The open documents: one record per open URI ([`OpenDocument`]: the document, how
//! many publications it has had, the task waiting for its solves, two signals —
//! `edited` on every change, `settled` when a version's solves are in and published —,
//! the design searches prefetched for it, its last semantic-tokens answer) in one map,
//! and the functions that read and change them.
//!
//! Invariants kept here:
//!
//! - The map is behind one `std::sync::Mutex`, never held across an `.await`: every
//!   access is a closure run under the lock ([`Documents::with_open`]), and nothing in
//!   this module awaits while it holds it.
//! - Everything held per open document is in its record, removed whole on close
//!   ([`Documents::close`]): a closed document leaves nothing behind.
//! - A `didChange` is applied synchronously ([`Documents::change`] never awaits), so the
//!   server's copy has the change before the handler's first `.await`; applying it is a
//!   transaction (a panic leaves the document as it was, marked out of sync).

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;
use tokio::task::AbortHandle;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::design;
use super::document::{Document, Unapplied};
use super::position::Encoding;
use super::sections::{Made, Section, SectionTokens};
use super::semantic_tokens::LastAnswer;
use crate::level::Format;

/// Everything the server holds for one open URI.
pub struct OpenDocument {
    pub document: Document,
    /// Diagnostics published since the document was opened (`boxls/settled` says).
    publications: u64,
    /// The task waiting for the current version's solves, if any are pending.
    awaiting: Option<AbortHandle>,
    /// The version after each change: wakes whoever waits for an edit (a maze watched,
    /// a request to drop), and only them; closing the document drops it.
    edited: watch::Sender<i32>,
    /// The latest version whose solves are done and whose diagnostics are published
    /// (`i32::MIN`: none since the last change): what `boxls/settled` waits on.
    settled: watch::Sender<i32>,
    /// The last whole-document semantic-tokens answer, for deltas.
    tokens: Option<LastAnswer>,
    /// The design searches its last code-action request started: they go on while
    /// the client decides, so that resolve (or the next request) finds them done,
    /// until the next such request or an edit that removes their maze.
    prefetched: Vec<design::Ticket>,
}

impl OpenDocument {
    fn new(document: Document) -> OpenDocument {
        let version = document.version;
        OpenDocument {
            document,
            publications: 0,
            awaiting: None,
            edited: watch::channel(version).0,
            settled: watch::channel(i32::MIN).0,
            tokens: None,
            prefetched: Vec::new(),
        }
    }

    /// Starts the document's new version (after a change, once its solves are looked
    /// up): wakes whoever waits for an edit, marks the version not yet settled, and
    /// returns the searches kept for grids no longer in the document — wanted no more,
    /// to be dropped once the lock is released.
    pub fn start_version(&mut self) -> Vec<design::Ticket> {
        let keys = self.document.keys.clone();
        let (kept, moot): (Vec<_>, Vec<_>) = std::mem::take(&mut self.prefetched)
            .into_iter()
            .partition(|ticket| keys.iter().flatten().any(|key| *key == ticket.key().0));
        self.prefetched = kept;
        self.edited.send_replace(self.document.version);
        self.settled.send_replace(i32::MIN);
        moot
    }

    /// Makes `task` the one waiting for this version's solves. Replacing the previous
    /// task drops its tickets, which cancels solves that only the old version wanted.
    pub fn set_awaiting(&mut self, task: Option<AbortHandle>) {
        if let Some(previous) = std::mem::replace(&mut self.awaiting, task) {
            previous.abort();
        }
    }
}

impl Drop for OpenDocument {
    /// Dropping the task's handle would leave it running: its tickets would keep
    /// solves alive that nobody wants.
    fn drop(&mut self) {
        if let Some(task) = self.awaiting.take() {
            task.abort();
        }
    }
}

/// The open documents, by URI.
pub struct Documents {
    open: Mutex<HashMap<Uri, OpenDocument>>,
    /// Names semantic-tokens answers.
    next_tokens_id: AtomicU64,
    /// Test knob (`Options::panic_in_method`): every change panics once applied.
    panic_in_change: bool,
}

impl Documents {
    pub fn new(options: super::Options) -> Documents {
        Documents {
            open: Mutex::default(),
            next_tokens_id: AtomicU64::new(1),
            panic_in_change: options.panic_in_method == Some("textDocument/didChange"),
        }
    }

    fn lock_open(&self) -> MutexGuard<'_, HashMap<Uri, OpenDocument>> {
        // A panic elsewhere while holding the lock leaves consistent data (every update
        // replaces whole values), so a poisoned lock is still usable.
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `work` on an open document's record, under the lock (so without `.await`).
    pub fn with_open<T>(&self, uri: &Uri, work: impl FnOnce(&mut OpenDocument) -> T) -> Option<T> {
        self.lock_open().get_mut(uri).map(work)
    }

    /// A snapshot of an open document (cheap: everything in it is shared).
    pub fn document(&self, uri: &Uri) -> Option<Document> {
        self.with_open(uri, |open| open.document.clone())
    }

    /// Whether `uri` is open (at `version`, when one is given).
    pub fn is_open_at(&self, uri: &Uri, version: Option<i32>) -> bool {
        self.with_open(uri, |open| {
            version.is_none_or(|version| version == open.document.version)
        })
        .unwrap_or(false)
    }

    // ---- Opening, changing, closing ----

    /// `didOpen`: a new record, replacing one left by an earlier open; `format` (from
    /// the language id or the name) says how the text is read.
    pub fn insert(&self, uri: Uri, version: i32, text: &str, format: Format) {
        let record = OpenDocument::new(Document::new(version, text, format));
        self.lock_open().insert(uri, record);
    }

    /// `didChange`, applied as one transaction: if applying it panics, the document is
    /// left as it was (rebuilt from its rope, which is cheap to keep) and marked out of
    /// sync — the client has applied the change, the server could not.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> std::result::Result<(), Unapplied> {
        let mut open = self.lock_open();
        let Some(document) = open.get_mut(uri).map(|open| &mut open.document) else {
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
                *document = Document::new(old_version, &old_rope.to_string(), document.format);
                let problem: Arc<str> = Arc::from("a change could not be applied (internal error)");
                document.mark_out_of_sync(version, problem.clone());
                Err(Unapplied::OutOfSync(problem))
            }
        }
    }

    /// Marks a document out of sync after a change that could not even be read;
    /// whether it is open.
    pub fn mark_out_of_sync(&self, uri: &Uri, version: Option<i32>, problem: Arc<str>) -> bool {
        self.with_open(uri, |open| {
            let version = version.unwrap_or(open.document.version);
            open.document.mark_out_of_sync(version, problem)
        })
        .is_some()
    }

    /// `didClose`: the record goes, whole (dropped once the lock is released, which
    /// ends the task awaiting its solves). Whether no document is open any more.
    pub fn close(&self, uri: &Uri) -> bool {
        let (record, now_empty) = {
            let mut open = self.lock_open();
            (open.remove(uri), open.is_empty())
        };
        drop(record);
        now_empty
    }

    /// Forgets every document's solve results (after a configuration change that
    /// changes what they would be); the URIs of the open documents.
    pub fn forget_solves(&self) -> Vec<Uri> {
        let mut open = self.lock_open();
        for record in open.values_mut() {
            record.document.forget_solves();
        }
        open.keys().cloned().collect()
    }

    // ---- What requests read ----

    /// The server's copy of a document's text, once checked against its rope and a
    /// full parse (an internal error says which of them went astray).
    pub fn text(&self, uri: &Uri, check: bool) -> Result<String> {
        let document = self.document(uri).ok_or_else(not_open)?;
        if let Some(problem) = &document.out_of_sync {
            return Err(out_of_sync(uri, problem));
        }
        let checked = if check { document.check() } else { Ok(()) };
        checked.map_err(|problem| Error {
            code: ErrorCode::InternalError,
            message: problem.into(),
            data: None,
        })?;
        Ok(document.text.to_string())
    }

    /// Wakes on every change of the document (not when a version settles); ends when
    /// the document is closed. `None` if it is not open.
    pub fn changes(&self, uri: &Uri) -> Option<watch::Receiver<i32>> {
        self.with_open(uri, |open| open.edited.subscribe())
    }

    /// Returns once `uri` is no longer at `version` (edited, closed, or never open).
    pub async fn moved_on(&self, uri: &Uri, version: i32) {
        let Some(mut changes) = self.changes(uri) else {
            return;
        };
        while self.is_open_at(uri, Some(version)) {
            // Closing the document drops the sender: the wait ends.
            if changes.changed().await.is_err() {
                return;
            }
        }
    }

    /// Keeps `tickets` alive with the document in place of the previous ones (which
    /// are dropped after, so a search both want goes on).
    pub fn prefetch(&self, uri: &Uri, tickets: Vec<design::Ticket>) {
        let previous = self.with_open(uri, |open| std::mem::replace(&mut open.prefetched, tickets));
        drop(previous);
    }

    // ---- Settling and publishing ----

    /// Wakes when a version settles (its solves done, its diagnostics published);
    /// ends when the document is closed. `None` if it is not open.
    pub fn settled_feed(&self, uri: &Uri) -> Option<watch::Receiver<i32>> {
        self.with_open(uri, |open| open.settled.subscribe())
    }

    /// The document's current version, if it is open.
    pub fn version(&self, uri: &Uri) -> Option<i32> {
        self.with_open(uri, |open| open.document.version)
    }

    /// Records that `version`'s solves are done and its diagnostics published.
    pub fn mark_settled(&self, uri: &Uri, version: i32) {
        self.with_open(uri, |open| open.settled.send_replace(version));
    }

    /// After diagnostics were published: counts them, and keeps the maze sections
    /// converted for them.
    pub fn published<T: Section>(&self, uri: &Uri, made: Made<T>) {
        self.with_open(uri, |open| {
            open.document.keep(made);
            open.publications += 1;
        });
    }

    /// How many times diagnostics were published for `uri` since it was opened.
    pub fn publications(&self, uri: &Uri) -> u64 {
        self.with_open(uri, |open| open.publications).unwrap_or(0)
    }

    // ---- Semantic tokens kept ----

    /// A name for a new semantic-tokens answer.
    pub fn tokens_id(&self) -> String {
        self.next_tokens_id
            .fetch_add(1, Ordering::Relaxed)
            .to_string()
    }

    pub fn last_tokens(&self, uri: &Uri) -> Option<LastAnswer> {
        self.with_open(uri, |open| open.tokens.clone()).flatten()
    }

    /// After a whole-document tokens answer: keeps it for the next delta, and the
    /// maze sections encoded for it.
    pub fn tokens_sent(&self, uri: &Uri, answer: LastAnswer, made: Made<SectionTokens>) {
        self.with_open(uri, |open| {
            open.tokens = Some(answer);
            open.document.keep(made);
        });
    }
}

/// The answer to a request about a document whose copy is out of sync.
pub fn out_of_sync(uri: &Uri, problem: &str) -> Error {
    Error {
        code: ErrorCode::InvalidRequest,
        message: format!(
            "boxls's copy of {} is out of sync ({problem}): re-open the document",
            uri.as_str()
        )
        .into(),
        data: None,
    }
}

/// The answer to a request about a document that is not open.
pub fn not_open() -> Error {
    Error::invalid_params("document is not open")
}
