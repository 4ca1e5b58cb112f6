//! A forgiving framing layer in front of `tower-lsp-server`'s transport.
//!
//! tower-lsp-server stops reading, and so the server exits, after the first message
//! it cannot decode (a bad header, or a body that is not UTF-8, JSON or JSON-RPC):
//! its codec reports the error and `tokio_util`'s `FramedRead` then ends the stream.
//! This layer re-frames the input first. A well-formed message passes through
//! unchanged. An invalid body becomes a request to [`INVALID_MESSAGE`], which the
//! server answers with the JSON-RPC error (`-32700` parse error or `-32600` invalid
//! request; the request's id when it can be read, else `null`) and logs, before
//! `initialize` as after it. A header
//! block without a usable `Content-Length` is answered the same way and reading
//! resumes at the next header, so a wrong length costs the messages it overlaps, not
//! the session. A `$/` request is answered "method not found" here (tower-lsp-server
//! would leave it unanswered). The end of the input counts as `exit`; after `exit`
//! nothing more is read. A `$/cancelRequest` is carried out as it is read, never
//! queued behind the requests it would end (see [`cancel_now`]).
//!
//! No message holds one of tower-lsp-server's few slots while it waits. Each message
//! is polled once in its slot, in the order they came, as before (so a `didChange`
//! is applied before anything sent after it is looked at); one still waiting after
//! that — for a design search, a solve, the client — is handed over ([`Waiting`]) and
//! its slot freed at once. [`write_output`] sits between tower-lsp-server's output
//! and the client's: it copies what the framework writes and runs the handed-over
//! messages, one task each, writing their answers itself.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tower::Service;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Id, Request, Response};
use tower_lsp_server::ls_types::{DidChangeTextDocumentParams, MessageType};
use tower_lsp_server::Client;

use super::protocol::{Notification, UnreadableChange, UnreadableChangeParams, INVALID_MESSAGE};

/// Larger bodies are refused (a 16M-cell maze is about 17 MB of text).
const MAX_BODY: usize = 1 << 30;
/// Of an overlong header line only this much of its end is kept: enough to find a
/// `Content-Length` header that garbage before it ran into.
const KEEP: usize = 1024;
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;

/// Exactly what tower-lsp-server decodes a message as (its own type is private).
#[derive(Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum Message {
    Response(Response),
    Request(Request),
}

/// One header block and what followed it.
#[derive(Debug, PartialEq, Eq)]
enum Frame {
    Body(Vec<u8>),
    /// A header block that gives no usable length; the reason.
    Unframed(String),
}

/// Copies messages from `input` to `output` until either ends or `exit` has been
/// passed on, replacing every message tower-lsp-server could not decode with an
/// [`INVALID_MESSAGE`] request.
pub async fn pump<I, W>(input: I, mut output: W)
where
    I: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    while let Ok(Some(frame)) = next_frame(&mut input).await {
        let (body, exit) = match frame {
            Frame::Body(body) => checked(body),
            Frame::Unframed(reason) => (invalid(PARSE_ERROR, Value::Null, &reason), false),
        };
        if write_frame(&mut output, &body).await.is_err() || exit {
            return;
        }
    }
    // A client gone without `exit` must not leave the server waiting on it (for the
    // answer to a request it sent, say) for ever.
    let _ = write_frame(&mut output, EXIT).await;
}

const EXIT: &[u8] = br#"{"jsonrpc":"2.0","method":"exit"}"#;

async fn write_frame<W: AsyncWrite + Unpin>(output: &mut W, body: &[u8]) -> io::Result<()> {
    let header = format!("Content-Length: {}\r\n\r\n", body.len());
    output.write_all(header.as_bytes()).await?;
    output.write_all(body).await?;
    output.flush().await
}

/// Reads one header block and its body; `None` at the end of the input.
async fn next_frame<R: AsyncBufRead + Unpin>(input: &mut R) -> io::Result<Option<Frame>> {
    let mut length = None;
    let mut seen = false;
    loop {
        let Some(line) = read_line_tail(input).await? else {
            return Ok(None);
        };
        let line = line.trim_ascii_end();
        if line.is_empty() {
            if seen {
                break;
            }
            continue; // Blank lines between messages.
        }
        seen = true;
        if let Some(value) = content_length(line) {
            length = Some(value);
        }
    }
    let reason = match length {
        Some(Ok(n)) if n <= MAX_BODY => return Ok(read_body(input, n).await?.map(Frame::Body)),
        Some(Ok(n)) => format!("Content-Length {n} is over the limit of {MAX_BODY} bytes"),
        Some(Err(reason)) => reason,
        None => "a header block without Content-Length".to_string(),
    };
    Ok(Some(Frame::Unframed(reason)))
}

/// The next line (through `\n`), keeping only its last [`KEEP`] bytes when longer;
/// `None` at the end of the input.
async fn read_line_tail<R: AsyncBufRead + Unpin>(input: &mut R) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            return Ok((!line.is_empty()).then_some(line));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        line.extend_from_slice(&chunk[..take]);
        input.consume(take);
        if line.len() > 2 * KEEP {
            line.drain(..line.len() - KEEP);
        }
        if done {
            return Ok(Some(line));
        }
    }
}

/// The value of a `Content-Length` header in `line` (the name in any case, possibly
/// preceded by garbage), or why it is unusable.
fn content_length(line: &[u8]) -> Option<Result<usize, String>> {
    const NAME: &[u8] = b"content-length";
    let at = line
        .windows(NAME.len())
        .rposition(|window| window.eq_ignore_ascii_case(NAME))?;
    let rest = line[at + NAME.len()..].trim_ascii_start();
    let value = rest.strip_prefix(b":").map(<[u8]>::trim_ascii);
    let parsed = value
        .and_then(|value| std::str::from_utf8(value).ok())
        .and_then(|value| value.parse::<usize>().ok());
    Some(parsed.ok_or_else(|| {
        format!(
            "invalid header `{}`",
            String::from_utf8_lossy(&line[at..]).escape_debug()
        )
    }))
}

/// Reads exactly `n` bytes; `None` if the input ends first.
async fn read_body<R: AsyncBufRead + Unpin>(
    input: &mut R,
    n: usize,
) -> io::Result<Option<Vec<u8>>> {
    let mut body = Vec::with_capacity(n.min(1 << 20));
    input.take(n as u64).read_to_end(&mut body).await?;
    Ok((body.len() == n).then_some(body))
}

/// The body itself when tower-lsp-server can decode it, else its replacement; and
/// whether it is `exit`.
fn checked(body: Vec<u8>) -> (Vec<u8>, bool) {
    let text = match std::str::from_utf8(&body) {
        Ok(text) => text,
        Err(error) => {
            let message = format!("the message is not UTF-8: {error}");
            return (invalid(PARSE_ERROR, Value::Null, &message), false);
        }
    };
    match serde_json::from_str::<Message>(text) {
        Ok(Message::Request(request)) if is_dollar_request(&request) => {
            let id = serde_json::to_value(request.id()).unwrap_or(Value::Null);
            let method = request.method().escape_debug();
            let message = format!("unknown method `{method}`");
            return (invalid(METHOD_NOT_FOUND, id, &message), false);
        }
        Ok(Message::Request(request)) if is_unreadable_change(&request) => {
            return (unreadable_change(&request), false);
        }
        Ok(Message::Request(request)) => {
            let exit = request.method() == "exit";
            return (body, exit);
        }
        Ok(Message::Response(_)) => return (body, false),
        Err(_) => {}
    }
    let replacement = match serde_json::from_str::<Value>(text) {
        Err(error) => invalid(PARSE_ERROR, Value::Null, &format!("invalid JSON: {error}")),
        Ok(value) => invalid(
            INVALID_REQUEST,
            request_id(&value),
            "not a JSON-RPC 2.0 request, notification or response",
        ),
    };
    (replacement, false)
}

/// A `$/` request: tower-lsp-server drops its "method not found" answer (meant for `$/`
/// notifications only), so it would never be answered.
fn is_dollar_request(request: &Request) -> bool {
    request.method().starts_with("$/") && request.id().is_some()
}

/// A `didChange` notification whose params tower-lsp-server could not decode.
fn is_unreadable_change(request: &Request) -> bool {
    request.method() == "textDocument/didChange"
        && request.id().is_none()
        && request
            .params()
            .is_none_or(|params| DidChangeTextDocumentParams::deserialize(params).is_err())
}

/// The [`UnreadableChange`] notification for it: the document and version as far as
/// they can be read, and why the change cannot be.
fn unreadable_change(request: &Request) -> Vec<u8> {
    let params = request.params();
    let problem = match params.map(DidChangeTextDocumentParams::deserialize) {
        Some(Err(error)) => format!("a change could not be read: {error}"),
        _ => "a change came without params".to_string(),
    };
    let document = params.and_then(|p| p.get("textDocument"));
    let params = UnreadableChangeParams {
        uri: document
            .and_then(|d| d.get("uri"))
            .and_then(Value::as_str)
            .map(str::to_string),
        version: document
            .and_then(|d| d.get("version"))
            .and_then(Value::as_i64)
            .and_then(|v| i32::try_from(v).ok()),
        problem,
    };
    let notification = json!({
        "jsonrpc": "2.0",
        "method": UnreadableChange::METHOD,
        "params": params,
    });
    serde_json::to_vec(&notification).unwrap_or_default()
}

/// The id of something meant as a request, when it is one JSON-RPC allows.
fn request_id(value: &Value) -> Value {
    let id = value.get("id").filter(|_| value.get("method").is_some());
    match id {
        Some(Value::String(id)) => Value::String(id.clone()),
        Some(Value::Number(id)) if id.is_i64() => Value::Number(id.clone()),
        _ => Value::Null,
    }
}

/// The [`INVALID_MESSAGE`] request that makes the server answer with this error.
fn invalid(code: i64, id: Value, message: &str) -> Vec<u8> {
    let request = json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": INVALID_MESSAGE,
        "params": { "code": code, "message": message },
    });
    // Serialising a `Value` cannot fail; an empty body would be skipped downstream.
    serde_json::to_vec(&request).unwrap_or_default()
}

/// A message still waiting after its first poll, handed over by [`AnswerInvalid`] to
/// be run to its end (and answered, if it is a request) by [`write_output`].
pub struct Waiting {
    /// The request's id (`None`: a notification), for the error if it panics.
    id: Option<Id>,
    answer: Pin<Box<dyn Future<Output = Option<Response>> + Send>>,
}

/// Where [`AnswerInvalid`] hands waiting messages over.
pub type Handover = mpsc::UnboundedSender<Waiting>;

/// Copies tower-lsp-server's output (`from_server`, whole frames) to `output` until
/// the framework closes it, and runs every message handed over meanwhile, one task
/// each, writing its answer to `output` too. The tasks still running when the
/// framework is done are ended.
pub async fn write_output<R, O>(
    from_server: R,
    mut handed_over: mpsc::UnboundedReceiver<Waiting>,
    output: O,
) where
    R: AsyncRead + Unpin,
    O: AsyncWrite,
{
    // Read in a future of its own: a frame half read is never dropped for an answer.
    let (frames, mut framed) = mpsc::channel::<Vec<u8>>(1);
    let read = async move {
        let mut input = BufReader::new(from_server);
        while let Ok(Some(frame)) = next_frame(&mut input).await {
            if let Frame::Body(body) = frame {
                if frames.send(body).await.is_err() {
                    return;
                }
            }
        }
    };
    let write = async move {
        let mut output = std::pin::pin!(output);
        let mut running = JoinSet::new();
        let mut ids = HashMap::new();
        loop {
            let body = tokio::select! {
                body = framed.recv() => match body {
                    Some(body) => body,
                    None => return,
                },
                Some(waiting) = handed_over.recv() => {
                    let task = running.spawn(waiting.answer);
                    ids.insert(task.id(), waiting.id);
                    continue;
                }
                Some(done) = running.join_next_with_id() => {
                    let answer = match done {
                        Ok((task, answer)) => {
                            ids.remove(&task);
                            answer
                        }
                        // A panic outside the handlers' guard: the request still gets
                        // its answer.
                        Err(error) => ids.remove(&error.id()).flatten().map(|id| {
                            Response::from_error(id, Error::internal_error())
                        }),
                    };
                    match answer.and_then(|answer| serde_json::to_vec(&answer).ok()) {
                        Some(body) => body,
                        None => continue,
                    }
                }
            };
            if write_frame(&mut output, &body).await.is_err() {
                return;
            }
        }
    };
    tokio::join!(read, write);
}

/// What [`pump`] found wrong with a message it could not pass on.
#[derive(Deserialize)]
struct InvalidMessageParams {
    code: i64,
    message: String,
}

/// The server's service with [`INVALID_MESSAGE`] requests answered in front of it:
/// tower-lsp-server refuses every request but `initialize` with `-32002` until
/// `initialize`, and a malformed first message deserves its `-32700` all the same.
/// Every other message is handed over once it waits (see the module's comment).
pub struct AnswerInvalid<S> {
    pub inner: S,
    /// For the `window/logMessage` (sent only once the session is initialised).
    pub client: Option<Client>,
    pub handover: Handover,
}

type Answer<E> = Pin<Box<dyn Future<Output = std::result::Result<Option<Response>, E>> + Send>>;

impl<S> Service<Request> for AnswerInvalid<S>
where
    S: Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future = Answer<S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<std::result::Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if request.method() == CANCEL_REQUEST {
            return cancel_now(self.inner.call(request));
        }
        if request.method() != INVALID_MESSAGE {
            let id = request.id().cloned();
            return hand_over_once_waiting(id, self.inner.call(request), self.handover.clone());
        }
        let (_, id, params) = request.into_parts();
        let params = params.and_then(|params| serde_json::from_value(params).ok());
        let InvalidMessageParams { code, message } = params.unwrap_or(InvalidMessageParams {
            code: PARSE_ERROR,
            message: "invalid message".to_string(),
        });
        let client = self.client.clone();
        Box::pin(async move {
            if let Some(client) = client {
                let log = format!("ignored an invalid message: {message}");
                client.log_message(MessageType::ERROR, log).await;
            }
            let error = Error {
                code: ErrorCode::from(code),
                message: message.into(),
                data: None,
            };
            Ok(id.map(|id| Response::from_error(id, error)))
        })
    }
}

const CANCEL_REQUEST: &str = "$/cancelRequest";

/// Carries out a `$/cancelRequest` now, as it is read. tower-lsp-server runs it like any
/// message, in one of its few concurrent slots ([`super::CONCURRENT_REQUESTS`]): with
/// every slot held by a request waiting for a search, the cancel would wait behind
/// the very requests it is meant to end. Its handler does all its work on the first
/// poll, so that poll is made here.
fn cancel_now<F, E>(answer: F) -> Answer<E>
where
    F: Future<Output = std::result::Result<Option<Response>, E>> + Send + 'static,
    E: Send + 'static,
{
    let mut answer: Answer<E> = Box::pin(answer);
    let mut context = Context::from_waker(std::task::Waker::noop());
    match answer.as_mut().poll(&mut context) {
        Poll::Ready(done) => Box::pin(std::future::ready(done)),
        // Not done at once after all: polled again, and woken, where it is run.
        Poll::Pending => answer,
    }
}

/// The message's first poll, made where tower-lsp-server makes it (in its slot, in
/// order); if it then waits, it goes to `handover` and its slot is freed: the
/// framework sees it done, without an answer, and [`write_output`] answers it later.
fn hand_over_once_waiting<F, E>(id: Option<Id>, answer: F, handover: Handover) -> Answer<E>
where
    F: Future<Output = std::result::Result<Option<Response>, E>> + Send + 'static,
    E: Send + 'static,
{
    let mut unpolled = Some((id, Box::pin(answer)));
    Box::pin(std::future::poll_fn(move |context| {
        let Some((id, mut answer)) = unpolled.take() else {
            return Poll::Ready(Ok(None));
        };
        match answer.as_mut().poll(context) {
            Poll::Ready(done) => Poll::Ready(done),
            Poll::Pending => {
                // The framework's error is "the server has exited": nothing to answer.
                let answer = Box::pin(async move { answer.await.unwrap_or(None) });
                // Refused only once the output is gone, when nobody can be answered.
                let _ = handover.send(Waiting { id, answer });
                Poll::Ready(Ok(None))
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = BufReader::new(input);
        let mut out = Vec::new();
        while let Some(frame) = next_frame(&mut reader).await.expect("in memory") {
            out.push(frame);
        }
        out
    }

    fn body(text: &str) -> Frame {
        Frame::Body(text.as_bytes().to_vec())
    }

    #[tokio::test]
    async fn frames_with_any_header_case_extra_headers_and_lf_only() {
        let input = b"Content-Length: 2\r\n\r\n{}content-length:3\nContent-Type: x\n\n[1]\r\n";
        assert_eq!(frames(input).await, vec![body("{}"), body("[1]")]);
    }

    #[tokio::test]
    async fn garbage_before_a_header_is_skipped() {
        let input = b"garbage\r\nmore garbageContent-Length: 2\r\n\r\n{}";
        assert_eq!(frames(input).await, vec![body("{}")]);
    }

    #[tokio::test]
    async fn a_bad_length_is_reported_and_the_next_header_read() {
        let input = b"Content-Length: x\r\n\r\n{}Content-Length: 2\r\n\r\n[]";
        let out = frames(input).await;
        assert!(matches!(&out[0], Frame::Unframed(reason) if reason.contains("Content-Length: x")));
        assert_eq!(out[1..], [body("[]")]);
    }

    #[tokio::test]
    async fn a_huge_length_is_refused_and_a_truncated_body_ends_the_input() {
        let out = frames(b"Content-Length: 99999999999999\r\n\r\n").await;
        assert!(matches!(&out[..], [Frame::Unframed(reason)] if reason.contains("over the limit")));
        assert_eq!(frames(b"Content-Length: 9\r\n\r\n{}").await, vec![]);
    }

    #[tokio::test]
    async fn an_overlong_line_keeps_its_end() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"Content-Length: 2\r\n\r\n{}");
        assert_eq!(frames(&input).await, vec![body("{}")]);
    }

    fn replacement(body: &[u8]) -> Value {
        serde_json::from_slice(&checked(body.to_vec()).0).expect("JSON")
    }

    #[test]
    fn valid_messages_pass_and_invalid_ones_are_replaced() {
        let ok = br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        assert_eq!(checked(ok.to_vec()), (ok.to_vec(), false));
        let exit = br#"{"jsonrpc":"2.0","method":"exit"}"#;
        assert_eq!(checked(exit.to_vec()), (exit.to_vec(), true));
        let bad_json = replacement(b"{\"jsonrpc\":");
        assert_eq!(bad_json["method"], INVALID_MESSAGE);
        assert_eq!(bad_json["params"]["code"], PARSE_ERROR);
        assert_eq!(bad_json["id"], Value::Null);
        let bad_request = replacement(br#"{"jsonrpc":"2.0","id":7,"method":3}"#);
        assert_eq!(bad_request["params"]["code"], INVALID_REQUEST);
        assert_eq!(bad_request["id"], 7);
        let not_utf8 = replacement(b"{\"a\":\"\xff\"}");
        assert_eq!(not_utf8["params"]["code"], PARSE_ERROR);
        assert_eq!(replacement(b"")["params"]["code"], PARSE_ERROR);
        let response_like = replacement(br#"{"jsonrpc":"1.0","id":7}"#);
        assert_eq!(response_like["id"], Value::Null);
        let dollar = replacement(br#"{"jsonrpc":"2.0","id":"d","method":"$/x"}"#);
        assert_eq!(
            (&dollar["id"], &dollar["params"]["code"]),
            (&json!("d"), &json!(METHOD_NOT_FOUND))
        );
        let notification = br#"{"jsonrpc":"2.0","method":"$/x"}"#;
        assert_eq!(
            checked(notification.to_vec()),
            (notification.to_vec(), false)
        );
    }
}
