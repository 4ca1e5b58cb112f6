//! A minimal LSP client speaking framed JSON-RPC to the real server over in-process
//! pipes, answering the server's own requests the way an editor would, and keeping
//! its own copy of each document (edits applied with an independent implementation).

use std::collections::VecDeque;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::task::JoinHandle;

use boxls::lsp::{serve, Options};

pub const URI: &str = "file:///work/maze.box";
const TIMEOUT: Duration = Duration::from_secs(60);

type Reader = BufReader<Box<dyn AsyncRead + Unpin + Send>>;
type Writer = Box<dyn AsyncWrite + Unpin + Send>;

pub struct Client {
    writer: Writer,
    reader: Reader,
    /// The in-process server's task: it finishes when `serve` returns.
    pub server: Option<JoinHandle<bool>>,
    next_id: i64,
    /// Notifications received and not yet consumed.
    pub notifications: VecDeque<Value>,
    /// Every notification ever received, in order.
    pub history: Vec<Value>,
    /// Per URI, the version it was last opened with and the publications received
    /// for it since.
    published: std::collections::HashMap<String, (i64, usize)>,
    /// Every server→client request seen, in order.
    pub server_requests: Vec<Value>,
    /// Responses that came while another was awaited (to a request sent with
    /// `send_request`, say), until `response_to` takes them.
    pub responses: Vec<Value>,
    /// What `workspace/configuration` answers.
    pub configuration: Value,
    /// Never answer the server's requests (a client that hangs).
    pub silent: bool,
    pub utf8: bool,
}

impl Client {
    /// Starts a server and a client connected to it (not yet initialized).
    pub fn start(options: Options) -> Client {
        Client::start_sized(options, 1 << 20)
    }

    /// Like `start`, with pipes buffering `buffer` bytes each way (a client that sends
    /// a burst without reading needs room for the server's answers).
    pub fn start_sized(options: Options, buffer: usize) -> Client {
        let (client_end, server_end) = tokio::io::duplex(buffer);
        let (server_read, server_write) = tokio::io::split(server_end);
        let server = tokio::spawn(serve(server_read, server_write, options));
        let (reader, writer) = tokio::io::split(client_end);
        let mut client = Client::over(reader, writer);
        client.server = Some(server);
        client
    }

    /// A client over any byte streams (a child process's stdio, say).
    pub fn over(
        reader: impl AsyncRead + Unpin + Send + 'static,
        writer: impl AsyncWrite + Unpin + Send + 'static,
    ) -> Client {
        Client {
            writer: Box::new(writer),
            reader: BufReader::new(Box::new(reader)),
            server: None,
            next_id: 1,
            notifications: VecDeque::new(),
            history: Vec::new(),
            published: std::collections::HashMap::new(),
            server_requests: Vec::new(),
            responses: Vec::new(),
            configuration: json!({}),
            silent: false,
            utf8: false,
        }
    }

    /// Starts and initializes with a VS Code-like capability set.
    pub async fn initialized(utf8: bool) -> (Client, Value) {
        let mut client = Client::start(Options::default());
        let result = client.initialize(utf8).await;
        (client, result)
    }

    pub async fn initialize(&mut self, utf8: bool) -> Value {
        self.utf8 = utf8;
        let encodings = if utf8 {
            json!(["utf-8", "utf-16"])
        } else {
            json!(["utf-16"])
        };
        let result = self
            .request(
                "initialize",
                json!({
                    "processId": null,
                    "rootUri": null,
                    "capabilities": {
                        "general": { "positionEncodings": encodings },
                        "window": { "workDoneProgress": true },
                        "workspace": {
                            "applyEdit": true,
                            "configuration": true,
                            "inlayHint": { "refreshSupport": true }
                        },
                        "textDocument": {
                            "publishDiagnostics": { "versionSupport": true },
                            "hover": { "contentFormat": ["markdown", "plaintext"] },
                            "documentSymbol": { "hierarchicalDocumentSymbolSupport": true },
                            "codeAction": { "codeActionLiteralSupport": { "codeActionKind": {
                                "valueSet": ["quickfix", "refactor", "source"]
                            } } }
                        }
                    }
                }),
            )
            .await;
        self.notify("initialized", json!({})).await;
        result
    }

    /// Initializes with exactly `capabilities` (an emulated client) and
    /// `initializationOptions`.
    pub async fn initialize_with(&mut self, capabilities: Value, options: Value) -> Value {
        let params = json!({
            "processId": null,
            "rootUri": null,
            "capabilities": capabilities,
            "initializationOptions": options,
        });
        let result = self.request("initialize", params).await;
        self.notify("initialized", json!({})).await;
        result
    }

    pub async fn send(&mut self, message: Value) {
        let body = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.send_raw(frame.as_bytes()).await;
    }

    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.expect("server reads");
        self.writer.flush().await.expect("server reads");
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        if method == "textDocument/didOpen" {
            if let Some(uri) = params["textDocument"]["uri"].as_str() {
                // A re-opened document's count starts again, and a publication of the
                // earlier opening may still arrive: the tests re-open with a higher
                // version, so only those as new count. A first opening counts every
                // versioned publication (its versions may go down).
                let floor = match self.published.contains_key(uri) {
                    true => params["textDocument"]["version"]
                        .as_i64()
                        .unwrap_or(i64::MIN),
                    false => i64::MIN,
                };
                self.published.insert(uri.to_string(), (floor, 0));
            }
        }
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }))
            .await;
    }

    /// Sends a request and returns its whole response (`result` or `error`).
    pub async fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.response_to(id).await
    }

    /// Sends a request without waiting for its response; its id (for `response_to`
    /// and `$/cancelRequest`).
    pub async fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        id
    }

    /// The response to request `id`, waiting for it if it has not come yet.
    pub async fn response_to(&mut self, id: i64) -> Value {
        if let Some(at) = self.responses.iter().position(|r| r["id"] == json!(id)) {
            return self.responses.remove(at);
        }
        loop {
            if let Some(message) = self.receive().await {
                if message["id"] == json!(id) {
                    return message;
                }
                self.responses.push(message);
            }
        }
    }

    /// Whether the response to request `id` has come (and not been taken).
    pub fn answered(&self, id: i64) -> bool {
        self.responses.iter().any(|r| r["id"] == json!(id))
    }

    /// How many `window/logMessage`s with exactly `message` have come so far.
    pub fn logged(&self, message: &str) -> usize {
        self.history
            .iter()
            .filter(|m| m["method"] == "window/logMessage" && m["params"]["message"] == message)
            .count()
    }

    /// Waits until `message` has been logged `count` times in all.
    pub async fn wait_logged(&mut self, message: &str, count: usize) {
        while self.logged(message) < count {
            if let Some(response) = self.receive().await {
                self.responses.push(response);
            }
        }
    }

    /// Sends a request and returns its `result`, failing the test on an error.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let mut response = self.request_raw(method, params).await;
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].take()
    }

    /// The next response, whatever its id (errors for unreadable messages have none).
    pub async fn next_response(&mut self) -> Value {
        loop {
            if let Some(message) = self.receive().await {
                return message;
            }
        }
    }

    /// Reads one message, answering server requests on the way; returns a response,
    /// or queues a notification (and returns `None`).
    async fn receive(&mut self) -> Option<Value> {
        loop {
            let message = tokio::time::timeout(TIMEOUT, self.read_message())
                .await
                .expect("the server answers within the timeout");
            match (message.get("method"), message.get("id")) {
                (Some(_), Some(_)) => self.answer(message).await,
                (Some(_), None) => {
                    let params = &message["params"];
                    if message["method"] == "textDocument/publishDiagnostics"
                        && !params["version"].is_null()
                    {
                        if let (Some(uri), Some(version)) =
                            (params["uri"].as_str(), params["version"].as_i64())
                        {
                            // One for an earlier opening may still arrive after the
                            // re-open: the tests' versions only grow, so it is older.
                            let (opened, count) = self
                                .published
                                .entry(uri.to_string())
                                .or_insert((i64::MIN, 0));
                            if version >= *opened {
                                *count += 1;
                            }
                        }
                    }
                    self.history.push(message.clone());
                    self.notifications.push_back(message);
                    return None;
                }
                _ => return Some(message),
            }
        }
    }

    async fn answer(&mut self, request: Value) {
        if self.silent {
            self.server_requests.push(request);
            return;
        }
        let result = match request["method"].as_str() {
            Some("workspace/configuration") => json!([self.configuration.clone()]),
            Some("workspace/applyEdit") => json!({ "applied": true }),
            _ => Value::Null,
        };
        self.server_requests.push(request.clone());
        self.send(json!({ "jsonrpc": "2.0", "id": request["id"], "result": result }))
            .await;
    }

    async fn read_message(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            let read = self
                .reader
                .read_line(&mut line)
                .await
                .expect("server writes");
            assert!(read > 0, "the server closed the connection");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse::<usize>().ok();
            }
        }
        let mut body = vec![0; length.expect("Content-Length header")];
        self.reader.read_exact(&mut body).await.expect("whole body");
        serde_json::from_slice(&body).expect("valid JSON from the server")
    }

    /// Waits until the server has sent `count` requests of `method` (each answered).
    pub async fn wait_server_requests(&mut self, method: &str, count: usize) {
        while self
            .server_requests
            .iter()
            .filter(|request| request["method"] == method)
            .count()
            < count
        {
            if let Some(response) = self.receive().await {
                panic!("a response nobody waits for: {response}");
            }
        }
    }

    /// Waits for a notification matching `pred`, consuming everything before it.
    pub async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            while let Some(message) = self.notifications.pop_front() {
                if pred(&message) {
                    return message;
                }
            }
            self.receive().await;
        }
    }

    /// Waits for the diagnostics of `version` that no solve is still pending for.
    pub async fn diagnostics_for(&mut self, version: i64) -> Value {
        self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["version"] == json!(version)
        })
        .await["params"]["diagnostics"]
            .clone()
    }

    /// The diagnostics last published for `version` of `uri`, if any arrived.
    pub fn last_published(&self, uri: &str, version: &Value) -> Option<Value> {
        self.history
            .iter()
            .rev()
            .find(|m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri
                    && m["params"]["version"] == *version
            })
            .map(|m| m["params"]["diagnostics"].clone())
    }

    /// The final diagnostics of `version`: waits (`boxls/settled`) until its solves
    /// are done and published, then takes the last publication for it.
    pub async fn settled_diagnostics(&mut self, version: i64) -> Value {
        self.settle_version(version).await;
        let latest = self
            .history
            .iter()
            .rev()
            .find(|m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["version"] == json!(version)
            })
            .map(|m| m["params"]["diagnostics"].clone());
        self.notifications.clear();
        match latest {
            Some(diagnostics) => diagnostics,
            None => self.diagnostics_for(version).await,
        }
    }

    /// Waits until `version` (or a later one) of the document is settled: tower-lsp may
    /// answer `boxls/settled` before it has applied a change sent just before, so an
    /// answer about an older version means "ask again".
    pub async fn settle_version(&mut self, version: i64) -> Value {
        for _ in 0..100_000 {
            let answer = self.settle(URI).await;
            if answer["version"]
                .as_i64()
                .is_none_or(|settled| settled >= version)
            {
                return answer;
            }
            tokio::task::yield_now().await;
        }
        panic!("version {version} never became the document's current version");
    }

    /// Waits until the server says `uri`'s current version is solved and published,
    /// and until every publication it counted has arrived.
    pub async fn settle(&mut self, uri: &str) -> Value {
        let answer = self
            .request("boxls/settled", json!({ "textDocument": { "uri": uri } }))
            .await;
        let published = answer["published"].as_u64().unwrap_or(0) as usize;
        // The server counts the publications since the document was opened, so the
        // closing one (version null) of an earlier opening is not among them.
        while self.published.get(uri).map_or(0, |&(_, count)| count) < published {
            self.receive().await;
        }
        answer
    }

    pub async fn open(&mut self, text: &str, version: i64) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": URI, "languageId": "box", "version": version, "text": text } }),
        )
        .await;
    }

    /// The inlay hints once every solve of the document has settled.
    pub async fn settled_hints(&mut self) -> Value {
        self.settle(URI).await;
        self.request(
            "textDocument/inlayHint",
            json!({ "textDocument": { "uri": URI }, "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 100000, "character": 0 } } }),
        )
        .await
    }

    pub async fn server_text(&mut self) -> String {
        let text = self
            .request(
                "boxls/documentText",
                json!({ "textDocument": { "uri": URI } }),
            )
            .await;
        text.as_str().expect("a string").to_string()
    }
}

/// Byte offset of an LSP position in `text`, UTF-16 or UTF-8 columns; an independent
/// implementation of what the server's `position` module does.
pub fn offset_of(text: &str, line: u64, character: u64, utf8: bool) -> usize {
    let mut at = 0;
    for _ in 0..line {
        match text[at..].find(['\n', '\r']) {
            Some(i) => {
                at += i + if text[at + i..].starts_with("\r\n") {
                    2
                } else {
                    1
                };
            }
            None => return text.len(),
        }
    }
    let mut units = 0u64;
    for (i, ch) in text[at..].char_indices() {
        let width = if utf8 { ch.len_utf8() } else { ch.len_utf16() } as u64;
        // A column inside a character (a surrogate pair's middle) snaps to its start.
        if ch == '\n' || ch == '\r' || units + width > character {
            return at + i;
        }
        units += width;
    }
    text.len()
}

/// Applies LSP `TextEdit`s (non-overlapping) to `text`.
pub fn apply_edits(text: &str, edits: &[Value], utf8: bool) -> String {
    let mut resolved: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|edit| {
            let at = |p: &Value| {
                offset_of(
                    text,
                    p["line"].as_u64().unwrap_or(0),
                    p["character"].as_u64().unwrap_or(0),
                    utf8,
                )
            };
            (
                at(&edit["range"]["start"]),
                at(&edit["range"]["end"]),
                edit["newText"]
                    .as_str()
                    .or(edit["text"].as_str())
                    .unwrap_or(""),
            )
        })
        .collect();
    resolved.sort_by_key(|&(start, _, _)| std::cmp::Reverse(start));
    let mut out = text.to_string();
    for (start, end, new_text) in resolved {
        out.replace_range(start..end, new_text);
    }
    out
}

/// The edits a code action's `WorkspaceEdit` makes to the test document.
pub fn action_edits(action: &Value) -> Vec<Value> {
    action["edit"]["changes"][URI]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Resident set size of a process, in MiB (`statm` counts 4 KiB pages here).
pub fn rss_mib(pid: u32) -> f64 {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).expect("statm");
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("resident pages");
    pages * 4096.0 / (1 << 20) as f64
}
