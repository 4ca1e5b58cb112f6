//! The server's state, in three parts, each kept by its own module: the open documents
//! (`documents.rs`: one record per URI, and the invariants of the one map), the work
//! done for them in the background (`background.rs`: solves, level solves, design
//! searches; the change → solve → publish pipeline, and why stale results are dropped)
//! and the session with the client (`session.rs`: settings, configuration, publishing
//! with the version, the requests the server sends). A request reaches the part it
//! needs; what joins the parts is here: a document's life (open, change, close), a new
//! configuration, and the view a request reads.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::watch;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{MessageType, TextDocumentContentChangeEvent, Uri};
use tower_lsp_server::Client;

use super::background::Background;
use super::document::Unapplied;
use super::documents::{not_open, out_of_sync, Documents};
use super::session::Session;
use super::view::{Dead, View};
use crate::level::Format;

/// The three parts; the background work holds the other two too (it records its
/// results in the documents and publishes them).
pub struct State {
    documents: Arc<Documents>,
    background: Arc<Background>,
    session: Arc<Session>,
}

impl State {
    pub fn new(client: Client, options: super::Options) -> State {
        let documents = Arc::new(Documents::new(options));
        let session = Arc::new(Session::new(client));
        let background = Background::new(options, documents.clone(), session.clone());
        State {
            documents,
            background: Arc::new(background),
            session,
        }
    }

    pub fn documents(&self) -> &Documents {
        &self.documents
    }

    pub fn background(&self) -> &Arc<Background> {
        &self.background
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    // ---- A document's life ----

    /// `didOpen`: a new record (replacing one left by an earlier open), then solves;
    /// `format` (from the language id or the name) says how the text is read.
    pub async fn opened(&self, uri: Uri, version: i32, text: &str, format: Format) {
        self.documents.insert(uri.clone(), version, text, format);
        self.background.changed(&uri).await;
    }

    /// `didChange`, applied synchronously under the settings' position encoding (see
    /// [`Documents::change`]); the caller then starts what the change needs
    /// ([`Background::changed`]).
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
    ) -> std::result::Result<(), Unapplied> {
        let encoding = self.session.settings().encoding;
        self.documents.change(uri, version, changes, encoding)
    }

    /// After a change the server could not apply: says so (an error in the log, and
    /// one diagnostic in place of the document's), and from now on answers requests
    /// for the document with an error, until the client sends its whole text again.
    pub async fn lost_sync(&self, uri: &Uri, problem: &str) {
        let message = format!(
            "{} is out of sync: {problem}; requests for it fail until it is re-opened or its whole text is sent",
            uri.as_str()
        );
        let client = self.session.client();
        client.log_message(MessageType::ERROR, message).await;
        self.background.changed(uri).await;
    }

    /// `didClose`: the record goes, whole; the client's diagnostics are cleared.
    pub async fn closed(&self, uri: &Uri) {
        let now_empty = self.documents.close(uri);
        self.session.publish_closed(uri).await;
        if now_empty {
            super::memory::release_free_memory();
        }
    }

    /// Applies a configuration section over the `initializationOptions`; when that
    /// changes anything, every document is solved and published again.
    pub async fn reconfigure(&self, section: &Value) {
        let config = self.session.settings().initial.updated(section);
        if config == self.session.settings().config {
            return;
        }
        self.session
            .update_settings(|settings| settings.config = config);
        self.background.forget_limited();
        for uri in self.documents.forget_solves() {
            self.background.changed(&uri).await;
        }
        self.session.ask_client_to_refresh();
    }

    // ---- Views ----

    /// A view of an open document for a request, with the dead squares it draws
    /// computed first; `Ok(None)` when it is not open, an error naming the problem when
    /// the server's copy is out of sync. The view is of the document as it is when
    /// this is called (when the request is taken up), whatever is edited while its
    /// dead squares are computed: an answer is about the version it was asked about.
    pub async fn view(&self, uri: &Uri, dead: Dead) -> Result<Option<View>> {
        let Some(mut document) = self.documents.document(uri) else {
            return Ok(None);
        };
        if let Some(problem) = &document.out_of_sync {
            return Err(out_of_sync(uri, problem));
        }
        self.background.compute_dead(uri, &mut document, dead).await;
        Ok(Some(self.session.view_of(document)))
    }

    /// A document's change feed and its view (dead squares skipped), subscribed before
    /// the look so that no change after it goes unseen; `invalid_params` when the
    /// document is not open.
    pub async fn changes_and_view(&self, uri: &Uri) -> Result<(watch::Receiver<i32>, View)> {
        let changes = self.documents.changes(uri).ok_or_else(not_open)?;
        Ok((changes, self.open_view(uri).await?))
    }

    /// A document's view now (dead squares skipped); `invalid_params` when it is not
    /// open.
    pub async fn open_view(&self, uri: &Uri) -> Result<View> {
        self.view(uri, Dead::Skip).await?.ok_or_else(not_open)
    }
}
