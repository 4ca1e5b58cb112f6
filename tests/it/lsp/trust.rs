//! What adversarial testing broke, each pinned by a test: diagnostics kept across an
//! edit that moves a line from one maze's section into another's, commands that carry
//! edits the server never made, changes the server cannot apply, and warnings whose
//! obvious fix was missing.

use serde_json::{json, Value};

use super::client::{action_edits, apply_edits, Client, URI};
use super::{change, doc, edit, summarize};

async fn fresh_diagnostics(text: &str) -> Value {
    let (mut client, _) = Client::initialized(false).await;
    client.open(text, 1).await;
    client.settled_diagnostics(1).await
}

/// A header turned into a stray line of the maze before it: that maze's section grows
/// although the maze itself is not re-read.
#[tokio::test]
async fn diagnostics_follow_a_line_that_moves_into_the_previous_mazes_section() {
    for (bad, line) in ["0 5", "9999 9999", "\u{2028}"]
        .into_iter()
        .flat_map(|bad| (0..5).map(move |line| (bad, line)))
    {
        let text = format!("1 3\nSBT\n{bad}\nSBT\n0 0\n");
        let (mut client, _) = Client::initialized(false).await;
        client.open(&text, 1).await;
        client.settled_diagnostics(1).await;
        let text = change(&mut client, &text, 2, edit((line, 0), (line, 0), "1 3\n")).await;
        let kept = client.settled_diagnostics(2).await;
        let fresh = fresh_diagnostics(&text).await;
        assert_eq!(summarize(&kept), summarize(&fresh), "{text:?}");
        assert_eq!(kept, fresh, "{text:?}");
    }
}

/// `boxls.applyEdit` relays only text edits to documents the server has open.
#[tokio::test]
async fn apply_edit_refuses_what_the_server_would_never_send() {
    let (mut client, _) = Client::initialized(false).await;
    client.open("1 3\nSxT\n0 0\n", 1).await;
    client.settle(URI).await;
    let text_edit = json!({ "range": { "start": { "line": 1, "character": 1 }, "end": { "line": 1, "character": 2 } }, "newText": "B" });
    let refused = [
        json!({ "changes": { "file:///etc/passwd": [text_edit] } }),
        json!({ "changes": { URI: [text_edit], "file:///never-opened.box": [text_edit] } }),
        json!({ "documentChanges": [{ "kind": "create", "uri": "file:///tmp/new.box" }] }),
        json!({ "documentChanges": [{ "kind": "delete", "uri": URI }] }),
        json!({ "documentChanges": [{ "kind": "rename", "oldUri": URI, "newUri": "file:///tmp/x.box" }] }),
        json!({ "documentChanges": [{ "textDocument": { "uri": "file:///etc/hosts", "version": null }, "edits": [text_edit] }] }),
        json!({ "changeAnnotations": {} }),
        json!({}),
    ];
    for edit in refused {
        let answer = client
            .request_raw(
                "workspace/executeCommand",
                json!({ "command": "boxls.applyEdit", "arguments": [edit] }),
            )
            .await;
        assert_eq!(answer["error"]["code"], -32602, "{edit}: {answer}");
    }
    assert!(
        !client
            .history
            .iter()
            .any(|m| m["method"] == "workspace/applyEdit"),
        "nothing was relayed"
    );
    // A text edit to the open document, as the server's own quick fix carries it, is
    // applied (the test client answers applyEdit).
    for accepted in [
        json!({ "changes": { URI: [text_edit] } }),
        json!({ "documentChanges": [{ "textDocument": { "uri": URI, "version": 1 }, "edits": [text_edit] }] }),
    ] {
        let answer = client
            .request_raw(
                "workspace/executeCommand",
                json!({ "command": "boxls.applyEdit", "arguments": [accepted] }),
            )
            .await;
        assert!(answer.get("error").is_none(), "{accepted}: {answer}");
    }
}

/// A change the server cannot decode (a column of 2^32) is logged, and the document is
/// out of sync until the client sends its whole text again: requests for it get an
/// error naming the problem, never an answer about a stale copy.
#[tokio::test]
async fn an_undecodable_change_marks_the_document_out_of_sync() {
    let (mut client, _) = Client::initialized(false).await;
    let text = "1 3\nSBT\n0 0\n";
    client.open(text, 1).await;
    client.settle(URI).await;
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [
                { "range": { "start": { "line": 0, "character": 4_294_967_296u64 }, "end": { "line": 0, "character": 0 } }, "text": "x" }
            ] }),
        )
        .await;
    let logged = client
        .wait_for(|m| m["method"] == "window/logMessage" && m["params"]["type"] == 1)
        .await;
    let message = logged["params"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(URI) && message.contains("out of sync"),
        "{message}"
    );
    for (method, params) in [
        ("boxls/documentText", json!({ "textDocument": doc() })),
        (
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": { "line": 0, "character": 0 } }),
        ),
        (
            "textDocument/inlayHint",
            json!({ "textDocument": doc(), "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 9, "character": 0 } } }),
        ),
        (
            "boxls/maze",
            json!({ "textDocument": doc(), "position": { "line": 0, "character": 0 } }),
        ),
    ] {
        let answer = client.request_raw(method, params).await;
        let error = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(error.contains("out of sync"), "{method}: {answer}");
    }
    // Its diagnostics say so too, at the top of the document, in place of stale ones.
    let diagnostics = client.diagnostics_for(2).await;
    assert_eq!(diagnostics[0]["code"], "out-of-sync", "{diagnostics}");
    // Later incremental changes cannot be applied to a copy that diverged...
    let _ = change(&mut client, text, 3, edit((0, 0), (0, 0), " ")).await;
    let answer = client
        .request_raw("boxls/documentText", json!({ "textDocument": doc() }))
        .await;
    assert!(answer.get("error").is_some(), "{answer}");
    // ...but the whole text brings it back.
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 4 }, "contentChanges": [{ "text": "1 4\nSB.T\n0 0\n" }] }),
        )
        .await;
    assert_eq!(client.server_text().await, "1 4\nSB.T\n0 0\n");
    assert_eq!(client.settled_diagnostics(4).await, json!([]));
}

/// An edit that panics while being applied leaves the document out of sync too (the
/// client applied it; the server could not).
#[tokio::test]
async fn a_change_that_fails_to_apply_is_not_a_silent_divergence() {
    let mut client = Client::start(boxls::lsp::Options {
        panic_in_method: Some("textDocument/didChange"),
        ..boxls::lsp::Options::default()
    });
    client.initialize(false).await;
    client.open("1 3\nSBT\n0 0\n", 1).await;
    client.settle(URI).await;
    let _ = change(&mut client, "1 3\nSBT\n0 0\n", 2, edit((0, 0), (0, 0), " ")).await;
    let answer = client
        .request_raw("boxls/documentText", json!({ "textDocument": doc() }))
        .await;
    let error = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(error.contains("out of sync"), "{answer}");
}

async fn quick_fixes(client: &mut Client, line: u32) -> Vec<Value> {
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": doc(), "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 0 } }, "context": { "diagnostics": [], "only": ["quickfix"] } }),
        )
        .await;
    actions.as_array().cloned().unwrap_or_default()
}

/// `misplaced-solution` (a solution line inside a maze's rows) moves it after the last
/// row; `duplicate-solution` deletes the second line.
#[tokio::test]
async fn misplaced_and_duplicate_solution_lines_have_quick_fixes() {
    let cases = [
        (
            "2 4\nSB.T\n; solution: EE\n....\n0 0\n",
            2,
            "2 4\nSB.T\n....\n; solution: EE\n0 0\n",
        ),
        (
            "1 4\nSB.T\n; solution: EE\n; solution: eW\n0 0\n",
            3,
            "1 4\nSB.T\n; solution: EE\n0 0\n",
        ),
    ];
    for (text, line, fixed) in cases {
        let (mut client, _) = Client::initialized(false).await;
        client.open(text, 1).await;
        client.settle(URI).await;
        let fixes = quick_fixes(&mut client, line).await;
        let [fix] = fixes.as_slice() else {
            panic!("one quick fix on line {line} of {text:?}: {fixes:?}");
        };
        let edited = apply_edits(text, &action_edits(fix), false);
        assert_eq!(edited, fixed, "{}", fix["title"]);
        client
            .notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": edited }] }),
            )
            .await;
        assert_eq!(client.settled_diagnostics(2).await, json!([]), "{edited:?}");
    }
}
