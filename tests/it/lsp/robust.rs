//! Client misbehaviour and load over the real transport (framed JSON-RPC into
//! `boxls::lsp::serve`): malformed messages, wrong `Content-Length`s, unknown methods,
//! requests before `initialize` and after `shutdown`, out-of-range positions, edits
//! for unknown documents or with lower versions, a 1 MB line, a 10 MB document, 100
//! documents, 5,000 edits back to back, a panicking solve. After each, the server
//! still answers a normal request correctly and its copy of the text is right.

use std::time::Duration;

use serde_json::{json, Value};

use super::client::{apply_edits, Client, URI};
use super::edits::positions;
use super::{change, doc, edit, range, summarize, SAMPLE};
use crate::generate::{self, Rng};
use boxls::lsp::Options;

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn hover_params(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// The server answers a feature request, and its copy of the document is `text`.
async fn still_serving(client: &mut Client, text: &str) {
    let hover = client
        .request("textDocument/hover", hover_params(URI, 0, 0))
        .await;
    assert!(hover.is_null() || hover["contents"].is_object(), "{hover}");
    assert_eq!(client.server_text().await, text);
}

fn error_code(response: &Value) -> i64 {
    response["error"]["code"]
        .as_i64()
        .unwrap_or_else(|| panic!("an error: {response}"))
}

#[tokio::test]
async fn malformed_bodies_get_json_rpc_errors_and_the_server_goes_on() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    let deep = "[".repeat(100_000);
    let cases: [(&[u8], i64, Value); 9] = [
        (b"{\"jsonrpc\":", -32700, Value::Null),
        (b"not json at all", -32700, Value::Null),
        (b"", -32700, Value::Null),
        (
            b"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"\xff\xfe\"}",
            -32700,
            Value::Null,
        ),
        (deep.as_bytes(), -32700, Value::Null),
        (b"[1, 2, 3]", -32600, Value::Null),
        (
            b"{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"shutdown\"}",
            -32600,
            json!(4),
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":\"five\",\"method\":17}",
            -32600,
            json!("five"),
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":{\"no\":1},\"method\":\"x\"}",
            -32600,
            Value::Null,
        ),
    ];
    for (body, code, id) in &cases {
        client.send_raw(&frame(body)).await;
        let response = client.next_response().await;
        assert_eq!(error_code(&response), *code, "{response}");
        assert_eq!(response["id"], *id, "{response}");
        still_serving(&mut client, SAMPLE).await;
    }
    let logged = log_messages_containing(&client, "invalid message").len();
    assert_eq!(logged, cases.len(), "each is logged once");
}

#[tokio::test]
async fn wrong_content_lengths_cost_only_the_messages_they_overlap() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    let body = json!({ "jsonrpc": "2.0", "id": 900, "method": "textDocument/hover", "params": hover_params(URI, 0, 0) })
        .to_string();
    // Too short: the body is cut; its rest is skipped up to the next header.
    let short = format!("Content-Length: {}\r\n\r\n{body}", body.len() - 10);
    client.send_raw(short.as_bytes()).await;
    assert_eq!(error_code(&client.next_response().await), -32700);
    still_serving(&mut client, SAMPLE).await;
    // Too long: the body runs into the next message, which is lost with it.
    let long = format!("Content-Length: {}\r\n\r\n{body}", body.len() + 10);
    client.send_raw(long.as_bytes()).await;
    client.notify("$/lostWithIt", json!({})).await;
    assert_eq!(error_code(&client.next_response().await), -32700);
    still_serving(&mut client, SAMPLE).await;
    // Unusable headers, and a body with no header at all.
    for header in [
        "Content-Length: abc\r\n\r\n",
        "Content-Length: -5\r\n\r\n",
        "Content-Length: 99999999999999999999999999\r\n\r\n",
        "Content-Length: 4000000000\r\n\r\n",
        "Content-Length 12\r\n\r\n",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
        "{\"jsonrpc\":\"2.0\",\"id\":901,\"method\":\"shutdown\"}\r\n\r\n",
    ] {
        client.send_raw(header.as_bytes()).await;
        assert_eq!(
            error_code(&client.next_response().await),
            -32700,
            "{header:?}"
        );
        still_serving(&mut client, SAMPLE).await;
    }
    // Garbage right before a good header, headers in any case, extra and odd headers:
    // the message itself is served.
    let request = json!({ "jsonrpc": "2.0", "id": 902, "method": "boxls/documentText", "params": { "textDocument": doc() } })
        .to_string();
    let odd = format!(
        "\x00\x01garbage\r\ncontent-length:{}\r\nContent-Type: application/json; charset=latin1\r\nX-Other: 1\r\n\r\n{request}",
        request.len()
    );
    client.send_raw(odd.as_bytes()).await;
    let response = client.next_response().await;
    assert_eq!(
        (&response["id"], &response["result"]),
        (&json!(902), &json!(SAMPLE))
    );
    still_serving(&mut client, SAMPLE).await;
}

#[tokio::test]
async fn unknown_methods_and_bad_params_are_errors_not_failures() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    for method in [
        "boxls/noSuchThing",
        "$/noSuchThing",
        "textDocument/noSuchThing",
    ] {
        let response = client.request_raw(method, json!({})).await;
        assert_eq!(error_code(&response), -32601, "{method}: {response}");
        client.notify(method, json!({ "x": 1 })).await;
    }
    for (method, params) in [
        ("textDocument/hover", json!({ "x": 1 })),
        (
            "textDocument/hover",
            hover_params(URI, 0, 0)["position"].clone(),
        ),
        (
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": { "line": -1, "character": 0 } }),
        ),
        ("textDocument/inlayHint", json!(null)),
        (
            "boxls/documentText",
            json!({ "textDocument": { "uri": 7 } }),
        ),
    ] {
        let response = client.request_raw(method, params).await;
        assert_eq!(error_code(&response), -32602, "{method}: {response}");
    }
    // A change with bad params is not half-applied, nor silently dropped: the
    // document is out of sync (requests about it fail, saying so) until the client
    // sends its whole text again (see `trust.rs`).
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "range": { "start": { "line": -1, "character": 0 }, "end": { "line": 0, "character": 0 } }, "text": "x" }] }),
        )
        .await;
    let hover = client
        .request_raw("textDocument/hover", hover_params(URI, 0, 0))
        .await;
    assert!(
        hover["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("out of sync")),
        "{hover}"
    );
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 3 }, "contentChanges": [{ "text": SAMPLE }] }),
        )
        .await;
    still_serving(&mut client, SAMPLE).await;
}

#[tokio::test]
async fn malformed_messages_before_initialize_are_parse_errors_too() {
    let mut client = Client::start(Options::default());
    for (body, code) in [
        (&b"hello"[..], -32700),
        (b"{\"jsonrpc\":", -32700),
        (br#"{"jsonrpc":"2.0","id":3,"method":7}"#, -32600),
    ] {
        let frame = [
            format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(),
            body,
        ]
        .concat();
        client.send_raw(&frame).await;
        let response = client.next_response().await;
        assert_eq!(error_code(&response), code, "{response}");
    }
    // Well-formed requests are still refused until `initialize`, which then works.
    let early = client
        .request_raw("textDocument/hover", hover_params(URI, 0, 0))
        .await;
    assert_eq!(error_code(&early), -32002, "{early}");
    client.initialize(false).await;
    client.open(SAMPLE, 1).await;
    still_serving(&mut client, SAMPLE).await;
}

#[tokio::test]
async fn requests_before_initialize_are_refused_and_notifications_dropped() {
    let mut client = Client::start(Options::default());
    let early = client
        .request_raw("textDocument/hover", hover_params(URI, 0, 0))
        .await;
    assert_eq!(error_code(&early), -32002, "{early}");
    let early = client
        .request_raw("boxls/documentText", json!({ "textDocument": doc() }))
        .await;
    assert_eq!(error_code(&early), -32002, "{early}");
    client.open(SAMPLE, 1).await;
    client.initialize(false).await;
    let never_opened = client
        .request_raw("boxls/documentText", json!({ "textDocument": doc() }))
        .await;
    assert_eq!(error_code(&never_opened), -32602, "{never_opened}");
    let again = client
        .request_raw("initialize", json!({ "capabilities": {} }))
        .await;
    assert_eq!(error_code(&again), -32600, "{again}");
    client.open(SAMPLE, 1).await;
    still_serving(&mut client, SAMPLE).await;
}

#[tokio::test]
async fn after_shutdown_requests_are_invalid_and_exit_ends_serve() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    still_serving(&mut client, SAMPLE).await;
    assert_eq!(client.request("shutdown", Value::Null).await, Value::Null);
    for method in ["textDocument/hover", "boxls/documentText", "shutdown"] {
        let late = client.request_raw(method, hover_params(URI, 0, 0)).await;
        assert_eq!(error_code(&late), -32600, "{method}: {late}");
    }
    client.notify("exit", Value::Null).await;
    let server = client.server.take().expect("in-process server");
    let clean = tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("exit ends serve")
        .expect("serve does not panic");
    assert!(clean, "shutdown came first");

    // Without shutdown: exit still ends serve, and says so.
    let (mut client, _) = Client::initialized(false).await;
    client.notify("exit", Value::Null).await;
    let server = client.server.take().expect("in-process server");
    let clean = tokio::time::timeout(Duration::from_secs(10), server).await;
    assert!(!clean.expect("exit ends serve").expect("no panic"));

    // The client going away ends serve too.
    let (mut client, _) = Client::initialized(false).await;
    let server = client.server.take().expect("in-process server");
    drop(client);
    let clean = tokio::time::timeout(Duration::from_secs(10), server).await;
    assert!(!clean.expect("end of input ends serve").expect("no panic"));
}

#[tokio::test]
async fn out_of_range_positions_and_reversed_ranges_clamp() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    let far = [
        (u32::MAX, u32::MAX),
        (0, u32::MAX),
        (10_000, 0),
        (u32::MAX, 0),
        (3, 999),
    ];
    for (line, character) in far {
        client
            .request("textDocument/hover", hover_params(URI, line, character))
            .await;
        for span in [
            range((line, character), (0, 0)),
            range((0, 0), (line, character)),
        ] {
            let actions = client
                .request(
                    "textDocument/codeAction",
                    json!({ "textDocument": doc(), "range": span, "context": { "diagnostics": [] } }),
                )
                .await;
            assert!(actions.is_array(), "{actions}");
            let hints = client
                .request(
                    "textDocument/inlayHint",
                    json!({ "textDocument": doc(), "range": span }),
                )
                .await;
            assert!(hints.is_array(), "{hints}");
        }
    }
    // Past the end appends; a column past the line's end is its end.
    let text = change(
        &mut client,
        SAMPLE,
        2,
        edit((u32::MAX, 5), (u32::MAX, 0), "; end\n"),
    )
    .await;
    assert!(text.ends_with("0 0\n; end\n"), "{text:?}");
    let text = change(&mut client, &text, 3, edit((0, 99), (0, u32::MAX), "!")).await;
    assert!(text.starts_with("1 7!\n"), "{text:?}");
    still_serving(&mut client, &text).await;
    // A reversed range is read as the range between its ends.
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 4 }, "contentChanges": [edit((1, 3), (1, 1), "")] }),
        )
        .await;
    let text = apply_edits(&text, &[edit((1, 1), (1, 3), "")], false);
    assert!(text.starts_with("1 7!\nS...T\n"), "{text:?}");
    still_serving(&mut client, &text).await;
}

#[tokio::test]
async fn changes_to_unknown_documents_and_lower_versions() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 10).await;
    let other = "file:///work/never-opened.box";
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": other, "version": 11 }, "contentChanges": [{ "text": "1 3\nSBT\n" }] }),
        )
        .await;
    let warning = client
        .wait_for(|m| m["method"] == "window/logMessage")
        .await;
    assert!(
        warning["params"]["message"]
            .as_str()
            .is_some_and(|t| t.contains(other)),
        "{warning}"
    );
    let unknown = client
        .request_raw(
            "boxls/documentText",
            json!({ "textDocument": { "uri": other } }),
        )
        .await;
    assert_eq!(error_code(&unknown), -32602);
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": other } }),
        )
        .await;
    // A lower version is still the client's latest text: applied, and published for.
    let text = change(&mut client, SAMPLE, 5, edit((0, 0), (0, 0), "; first\n")).await;
    // Settled, so it cannot depend on whether version 10's solves had finished: the
    // only diagnostic is maze 2's, one line lower than in version 10.
    let diagnostics = client.settled_diagnostics(5).await;
    let codes_and_lines: Vec<(&str, u64)> = diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or(""),
                d["range"]["start"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(codes_and_lines, [("unsolvable", 3)]);
    still_serving(&mut client, &text).await;
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 3 }, "contentChanges": [{ "text": "1 3\nSBx\n" }] }),
        )
        .await;
    let diagnostics = client.diagnostics_for(3).await;
    assert!(
        summarize(&diagnostics).contains("bad-char"),
        "{diagnostics}"
    );
    still_serving(&mut client, "1 3\nSBx\n").await;
    // Opening an open document again replaces it.
    client.open(SAMPLE, 1).await;
    still_serving(&mut client, SAMPLE).await;
}

#[tokio::test]
async fn a_one_megabyte_line() {
    let (mut client, _) = Client::initialized(false).await;
    let cells = 1_000_000;
    let text = format!("1 {cells}\nSB{}T\n0 0\n", ".".repeat(cells - 3));
    client.open(&text, 1).await;
    assert_eq!(client.diagnostics_for(1).await, json!([]));
    let hints = client.settled_hints().await;
    assert!(
        hints.to_string().contains("999998 pushes · 999998 moves"),
        "{hints}"
    );
    let target = client
        .request("textDocument/hover", hover_params(URI, 1, cells as u32 - 1))
        .await;
    assert!(target.to_string().contains("the target"), "{target}");
    let tokens = client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc() }),
        )
        .await;
    assert_eq!(
        tokens["data"].as_array().map(Vec::len),
        Some(4 * 5 + 2 * 5 + 2 * 5)
    );
    // A rock in the middle of the corridor: unsolvable.
    let text = change(&mut client, &text, 2, edit((1, 500_000), (1, 500_001), "#")).await;
    let diagnostics = client.settled_diagnostics(2).await;
    assert!(
        summarize(&diagnostics).starts_with("unsolvable@0:0-0:9"),
        "{diagnostics}"
    );
    still_serving(&mut client, &text).await;
    // A 1 MB comment of astral characters: UTF-16 columns at its far end.
    let comment = format!("; {}\n", "🧱".repeat(250_000));
    let text = change(&mut client, &text, 3, edit((0, 0), (0, 0), &comment)).await;
    let text = change(&mut client, &text, 4, edit((0, 500_002), (0, 500_002), "!")).await;
    assert!(text.starts_with(&format!("; {}!\n", "🧱".repeat(250_000))));
    still_serving(&mut client, &text).await;
}

/// Distinct generated mazes, rendered as a file of at least `bytes` bytes.
pub fn big_file(seed: u64, bytes: usize) -> String {
    let mut rng = Rng::new(seed);
    let mut text = String::with_capacity(bytes + 1024);
    while text.len() < bytes {
        text.push_str(&generate::render(&generate::mixed(&mut rng, (12, 30))));
    }
    text.push_str("0 0\n");
    text
}

/// The inlay hints of `uri` once its solves have settled.
pub async fn settled_hints_of(client: &mut Client, uri: &str) -> Value {
    client.settle(uri).await;
    client
        .request(
            "textDocument/inlayHint",
            json!({ "textDocument": { "uri": uri }, "range": range((0, 0), (u32::MAX, 0)) }),
        )
        .await
}

#[tokio::test]
async fn a_ten_megabyte_document_of_distinct_mazes() {
    let (mut client, _) = Client::initialized(false).await;
    let text = big_file(1, 10 << 20);
    let mazes = text.matches("12 30\n").count();
    assert!(
        mazes > 20_000,
        "more mazes than the cache keeps when unpinned: {mazes}"
    );
    client.open(&text, 1).await;
    let hints = settled_hints_of(&mut client, URI).await;
    assert_eq!(hints.as_array().map(Vec::len), Some(mazes));
    let text = change(&mut client, &text, 2, edit((200_001, 3), (200_001, 4), "x")).await;
    let diagnostics = client.diagnostics_for(2).await;
    assert!(
        summarize(&diagnostics).contains("bad-char@200001:3-200001:4"),
        "{diagnostics}"
    );
    still_serving(&mut client, &text).await;
    // Every maze still has its result: none was evicted while the document is open.
    let hints = settled_hints_of(&mut client, URI).await;
    assert_eq!(hints.as_array().map(Vec::len), Some(mazes - 1));
}

#[tokio::test]
async fn a_hundred_documents_open_at_once() {
    let (mut client, _) = Client::initialized(false).await;
    let uri = |i: usize| format!("file:///work/doc{i}.box");
    let text = |i: usize| format!("1 {}\nSB{}T\n0 0\n", i + 4, ".".repeat(i + 1));
    for i in 0..100 {
        client
            .notify(
                "textDocument/didOpen",
                json!({ "textDocument": { "uri": uri(i), "languageId": "box", "version": 1, "text": text(i) } }),
            )
            .await;
    }
    for i in 0..100 {
        let hints = settled_hints_of(&mut client, &uri(i)).await;
        let pushes = format!("{} pushes", i + 2);
        assert!(hints.to_string().contains(&pushes), "{i}: {hints}");
        let copy = client
            .request(
                "boxls/documentText",
                json!({ "textDocument": { "uri": uri(i) } }),
            )
            .await;
        assert_eq!(copy, json!(text(i)));
    }
    for i in 0..100 {
        client
            .notify(
                "textDocument/didClose",
                json!({ "textDocument": { "uri": uri(i) } }),
            )
            .await;
    }
    for i in 0..100 {
        let gone = client
            .request_raw(
                "boxls/documentText",
                json!({ "textDocument": { "uri": uri(i) } }),
            )
            .await;
        assert_eq!(error_code(&gone), -32602);
    }
    client.open(SAMPLE, 1).await;
    still_serving(&mut client, SAMPLE).await;
}

const PIECES: [&str; 8] = ["#", ".", "S", "B", "T", "\n", "\r\n", "; é🧱\n"];

#[tokio::test]
async fn five_thousand_edits_back_to_back() {
    // Room for every answer: the client writes the whole burst before reading.
    let mut client = Client::start_sized(Options::default(), 64 << 20);
    client.initialize(false).await;
    let mut text = SAMPLE.to_string();
    client.open(&text, 0).await;
    let mut rng = Rng::new(5000);
    let mut burst = Vec::new();
    for version in 1..=5000 {
        let spots = positions(&text);
        let a = spots[rng.below(spots.len())];
        let b = spots[rng.below(spots.len())];
        let (start, end) = (
            a.min(b),
            if rng.below(3) == 0 {
                a.max(b)
            } else {
                a.min(b)
            },
        );
        let insert = if rng.below(4) == 0 {
            ""
        } else {
            PIECES[rng.below(PIECES.len())]
        };
        let change = edit(start, end, insert);
        text = apply_edits(&text, std::slice::from_ref(&change), false);
        let message = json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": { "textDocument": { "uri": URI, "version": version }, "contentChanges": [change] } });
        burst.extend(frame(message.to_string().as_bytes()));
    }
    client.send_raw(&burst).await;
    assert_eq!(client.server_text().await, text);
    let published = client.settled_diagnostics(5000).await;
    // The same text opened fresh gets the same diagnostics.
    let (mut fresh, _) = Client::initialized(false).await;
    fresh.open(&text, 1).await;
    assert_eq!(published, fresh.settled_diagnostics(1).await);
}

#[tokio::test]
async fn a_panicking_solve_is_logged_once_reported_and_survived() {
    let mut client = Client::start(Options {
        panic_on_cells: Some(7),
        ..Options::default()
    });
    client.initialize(false).await;
    let text = "1 7\nSB....T\n1 5\nSB..T\n0 0\n";
    client.open(text, 1).await;
    let diagnostics = client.settled_diagnostics(1).await;
    expect_test::expect![[r#"internal-error@0:0-0:3 not solved: the solver failed (injected solver panic); please report this maze"#]]
        .assert_eq(&summarize(&diagnostics));
    let hints = client.settled_hints().await;
    assert!(hints.to_string().contains("3 pushes · 3 moves"), "{hints}");
    // Another document with the same maze, and another edit: the failure is known.
    client
        .notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": "file:///work/again.box", "languageId": "box", "version": 1, "text": text } }),
        )
        .await;
    let text = change(&mut client, text, 2, edit((3, 4), (3, 4), ".")).await;
    let text = change(&mut client, &text, 3, edit((2, 2), (2, 3), "6")).await;
    let hints = client.settled_hints().await;
    assert!(
        hints.to_string().contains("4 pushes · 4 moves"),
        "other mazes still solve: {hints}"
    );
    still_serving(&mut client, &text).await;
    let failures = log_messages_containing(&client, "solver failed");
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0]["params"]["type"], 1, "an error");
}

#[tokio::test]
async fn a_panicking_dead_square_analysis_is_logged_once_and_not_retried() {
    let mut client = Client::start(Options {
        dead_squares_panic_on_cells: Some(7),
        ..Options::default()
    });
    client.initialize(false).await;
    let text = "1 7\nSB....T\n1 5\nSB..T\n0 0\n";
    client.open(text, 1).await;
    client.settled_hints().await;
    let on_box =
        json!({ "textDocument": { "uri": URI }, "position": { "line": 1, "character": 1 } });
    let whole = json!({ "textDocument": { "uri": URI } });
    for _ in 0..3 {
        let hover = client.request("textDocument/hover", on_box.clone()).await;
        assert!(hover["contents"]["value"].as_str().is_some(), "{hover}");
        let tokens = client
            .request("textDocument/semanticTokens/full", whole.clone())
            .await;
        assert!(tokens["data"].as_array().is_some_and(|d| !d.is_empty()));
    }
    // Another document with the same maze: the failure is remembered.
    client
        .notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": "file:///work/again.box", "languageId": "box", "version": 1, "text": text } }),
        )
        .await;
    let again = json!({ "textDocument": { "uri": "file:///work/again.box" } });
    client
        .request("textDocument/semanticTokens/full", again)
        .await;
    still_serving(&mut client, text).await;
    let failures = log_messages_containing(&client, "dead-square analysis failed");
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0]["params"]["type"], 1, "an error");
    // The other maze's dead squares were computed: its tokens mark them.
    let replay = client
        .request(
            "boxls/replay",
            json!({ "textDocument": { "uri": URI }, "position": { "line": 3, "character": 1 } }),
        )
        .await;
    assert!(replay["dead"].is_array(), "{replay}");
}

#[tokio::test]
async fn execute_command_runs_only_its_own_command() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settled_hints().await;
    for (command, arguments) in [
        ("rm -rf /", json!([])),
        ("sh", json!(["-c", "touch /tmp/boxls-pwned"])),
        ("boxls.insertSolution", json!([])),
        ("boxls.insertSolution", json!([URI])),
        ("boxls.insertSolution", json!([7, 1])),
        ("boxls.insertSolution", json!(["not a uri", 1])),
    ] {
        let response = client
            .request_raw(
                "workspace/executeCommand",
                json!({ "command": command, "arguments": arguments }),
            )
            .await;
        assert_eq!(error_code(&response), -32602, "{command}: {response}");
    }
    assert!(
        client.server_requests.is_empty()
            || client
                .server_requests
                .iter()
                .all(|r| r["method"] != "workspace/applyEdit")
    );
    // Its own command on a maze that does not exist does nothing.
    let none = client
        .request(
            "workspace/executeCommand",
            json!({ "command": "boxls.insertSolution", "arguments": [URI, 99] }),
        )
        .await;
    assert_eq!(none, Value::Null);
    assert!(client
        .server_requests
        .iter()
        .all(|r| r["method"] != "workspace/applyEdit"));
    still_serving(&mut client, SAMPLE).await;
}

/// The `window/logMessage` notifications received so far whose message contains `needle`.
fn log_messages_containing<'a>(client: &'a Client, needle: &str) -> Vec<&'a Value> {
    client
        .history
        .iter()
        .filter(|m| m["method"] == "window/logMessage")
        .filter(|m| {
            m["params"]["message"]
                .as_str()
                .is_some_and(|t| t.contains(needle))
        })
        .collect()
}
