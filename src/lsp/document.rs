//! The document store: `uri -> Document { version, rope, text, parsed mazes }` behind
//! one `std::sync::Mutex` that is never held across an `.await`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::position::{byte_range, Encoding};
use crate::maze::{parse, ParsedFile};

/// One open document. Cloning is cheap (the rope and the parse are shared).
#[derive(Clone)]
pub struct Document {
    pub version: i32,
    pub rope: Rope,
    pub text: Arc<str>,
    pub parsed: Arc<ParsedFile>,
}

impl Document {
    pub fn new(version: i32, text: &str) -> Document {
        Document {
            version,
            rope: Rope::from_str(text),
            text: Arc::from(text),
            parsed: Arc::new(parse(text)),
        }
    }

    /// Applies LSP content changes in order, then reparses.
    pub fn apply(
        &mut self,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let bytes = byte_range(&self.rope, range, encoding);
                    let start = self.rope.byte_to_char(bytes.start);
                    let end = self.rope.byte_to_char(bytes.end);
                    self.rope.remove(start..end);
                    self.rope.insert(start, &change.text);
                }
                None => self.rope = Rope::from_str(&change.text),
            }
        }
        let text = self.rope.to_string();
        self.parsed = Arc::new(parse(&text));
        self.text = Arc::from(text);
        self.version = version;
    }
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

    /// Applies changes; returns false for a document that is not open.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> bool {
        match self.lock().get_mut(uri) {
            Some(document) => {
                document.apply(version, changes, encoding);
                true
            }
            None => false,
        }
    }

    pub fn close(&self, uri: &Uri) -> bool {
        self.lock().remove(uri).is_some()
    }

    pub fn get(&self, uri: &Uri) -> Option<Document> {
        self.lock().get(uri).cloned()
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    pub fn uris(&self) -> Vec<Uri> {
        self.lock().keys().cloned().collect()
    }
}
