//! The server honours what each client declares (LSP 3.17): emulated clients with
//! exactly the capabilities that matter — plain-text hover, flat symbols, commands
//! instead of code action literals, no `workspace/applyEdit`, pull diagnostics,
//! `codeAction/resolve`, `initializationOptions` with an empty configuration answer,
//! a client that never answers — and no request handler can take the server down.

use serde_json::{json, Value};

use super::client::{Client, URI};
use super::{doc, range, summarize, SAMPLE};
use boxls::lsp::Options;

async fn client_with(capabilities: Value) -> Client {
    let mut client = Client::start(Options::default());
    client.initialize_with(capabilities, Value::Null).await;
    client
}

fn at(line: u32, character: u32) -> Value {
    json!({ "textDocument": doc(), "position": { "line": line, "character": character } })
}

fn actions_at(line: u32) -> Value {
    json!({ "textDocument": doc(), "range": range((line, 1), (line, 1)), "context": { "diagnostics": [] } })
}

#[tokio::test]
async fn a_plain_text_client_gets_plain_text_hover() {
    let mut client =
        client_with(json!({ "textDocument": { "hover": { "contentFormat": ["plaintext"] } } }))
            .await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let hover = client.request("textDocument/hover", at(4, 1)).await;
    assert_eq!(hover["contents"]["kind"], "plaintext");
    let text = hover["contents"]["value"].as_str().expect("text");
    assert!(text.starts_with("Maze #3 (7×11)"), "{text}");
    assert!(!text.contains("**") && !text.contains("```"), "{text}");
}

#[tokio::test]
async fn a_client_without_hierarchical_support_gets_flat_symbols() {
    let mut client = client_with(json!({})).await;
    client.open(SAMPLE, 1).await;
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": doc() }),
        )
        .await;
    let symbols = symbols.as_array().expect("symbols");
    assert_eq!(symbols.len(), 4);
    assert_eq!(symbols[2]["name"], "Maze #3 (7×11)");
    assert_eq!(symbols[2]["location"]["uri"], URI);
    assert!(symbols[2].get("children").is_none() && symbols[2].get("selectionRange").is_none());
}

#[tokio::test]
async fn a_client_without_literal_support_gets_commands_that_work() {
    let mut client = client_with(json!({ "workspace": { "applyEdit": true } })).await;
    let text = "1 3\nSbT\n0 0\n";
    client.open(text, 1).await;
    client.settle(URI).await;
    let actions = client
        .request("textDocument/codeAction", actions_at(1))
        .await;
    let fix = &actions[0];
    assert_eq!(fix["title"], "Replace with `B`");
    assert_eq!(
        fix["command"], "boxls.applyEdit",
        "a Command, not a CodeAction: {fix}"
    );
    assert!(fix.get("edit").is_none() && fix.get("kind").is_none());
    let params = json!({ "command": fix["command"], "arguments": fix["arguments"] });
    client.request("workspace/executeCommand", params).await;
    let applied = client
        .server_requests
        .iter()
        .find(|r| r["method"] == "workspace/applyEdit")
        .expect("the server asked the client to apply the fix");
    let edits = &applied["params"]["edit"]["changes"][URI];
    assert_eq!(edits[0]["newText"], "B");
}

#[tokio::test]
async fn a_client_that_cannot_apply_edits_is_never_asked_to() {
    let mut client = client_with(json!({ "workspace": { "applyEdit": false } })).await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let actions = client
        .request("textDocument/codeAction", actions_at(5))
        .await;
    assert_eq!(actions, json!([]), "no command could change the document");
    let params = json!({ "command": "boxls.insertSolution", "arguments": [URI, 3] });
    let answer = client.request_raw("workspace/executeCommand", params).await;
    assert!(answer.get("error").is_some(), "{answer}");
    assert!(
        client
            .server_requests
            .iter()
            .all(|r| r["method"] != "workspace/applyEdit"),
        "{:?}",
        client.server_requests
    );
}

#[tokio::test]
async fn initialization_options_stay_when_the_configuration_answer_is_empty() {
    let mut client = Client::start(Options::default());
    client.configuration = Value::Null; // What VS Code and Neovim answer without settings.
    let capabilities = json!({ "workspace": { "configuration": true } });
    client
        .initialize_with(capabilities, json!({ "solve": { "maxCells": 10 } }))
        .await;
    client.open(SAMPLE, 1).await;
    let diagnostics = client.settled_diagnostics(1).await;
    assert!(client
        .server_requests
        .iter()
        .any(|r| r["method"] == "workspace/configuration"));
    assert!(
        summarize(&diagnostics).contains("over the configured limit of 10"),
        "{}",
        summarize(&diagnostics)
    );
}

#[tokio::test]
async fn every_code_lens_carries_a_real_command() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let lenses = client
        .request("textDocument/codeLens", json!({ "textDocument": doc() }))
        .await;
    let titles: Vec<&str> = lenses
        .as_array()
        .expect("lenses")
        .iter()
        .map(|lens| {
            assert_eq!(lens["command"]["command"], "boxls.insertSolution", "{lens}");
            lens["command"]["title"].as_str().expect("a title")
        })
        .collect();
    assert_eq!(titles[1], "unsolvable");
    // Clicking the unsolvable maze's lens says why nothing happens.
    let params = json!({ "command": "boxls.insertSolution", "arguments": [URI, 2] });
    client.request("workspace/executeCommand", params).await;
    let message = client
        .wait_for(|m| m["method"] == "window/showMessage")
        .await;
    let text = message["params"]["message"].as_str().expect("a message");
    assert!(text.starts_with("Maze #2 is unsolvable"), "{text}");
}

#[tokio::test]
async fn a_pull_client_pulls_and_is_never_pushed_to() {
    let mut client = client_with(json!({
        "textDocument": { "diagnostic": { "dynamicRegistration": false } },
        "workspace": { "diagnostics": { "refreshSupport": true } }
    }))
    .await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let report = client
        .request("textDocument/diagnostic", json!({ "textDocument": doc() }))
        .await;
    assert_eq!(report["kind"], "full");
    assert_eq!(
        summarize(&report["items"]),
        "unsolvable@2:0-2:3 this maze is unsolvable: no push can ever move the box onto the target"
    );
    client
        .request("boxls/documentText", json!({ "textDocument": doc() }))
        .await;
    assert!(
        client
            .history
            .iter()
            .all(|m| m["method"] != "textDocument/publishDiagnostics"),
        "nothing pushed"
    );
    assert!(
        client
            .server_requests
            .iter()
            .any(|r| r["method"] == "workspace/diagnostic/refresh"),
        "told to pull again once the solves landed"
    );
}

#[tokio::test]
async fn insert_all_is_resolved_only_when_chosen() {
    let mut client = client_with(json!({
        "workspace": { "applyEdit": true },
        "textDocument": { "codeAction": {
            "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["source"] } },
            "resolveSupport": { "properties": ["edit"] },
            "dataSupport": true
        } }
    }))
    .await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let actions = client
        .request("textDocument/codeAction", actions_at(5))
        .await;
    let all = actions
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["kind"] == "source.boxls.insertAllSolutions")
        .expect("insert all")
        .clone();
    assert!(all.get("edit").is_none(), "not computed yet: {all}");
    let resolved = client.request("codeAction/resolve", all).await;
    let edits = resolved["edit"]["changes"][URI].as_array().expect("edits");
    assert_eq!(edits.len(), 3, "one per solved maze");
}

#[tokio::test]
async fn a_client_that_never_answers_stalls_nothing() {
    let mut client = Client::start(Options::default());
    client.silent = true;
    client
        .initialize_with(
            json!({
                "window": { "workDoneProgress": true },
                "workspace": { "configuration": true, "inlayHint": { "refreshSupport": true } }
            }),
            Value::Null,
        )
        .await;
    // Slow solves ask for progress tokens the client never grants ...
    for (n, marker) in ['.', '#', 'S', 'B'].into_iter().enumerate() {
        let big = super::edits::slow_maze(1000, marker);
        let uri = format!("file:///work/big{n}.box");
        client
            .notify(
                "textDocument/didOpen",
                json!({ "textDocument": { "uri": uri, "languageId": "box", "version": 1, "text": big } }),
            )
            .await;
    }
    // ... and still every solve finishes, and later documents are solved too.
    for n in 0..4 {
        client.settle(&format!("file:///work/big{n}.box")).await;
    }
    client.open(SAMPLE, 1).await;
    let hints = client.settled_hints().await;
    assert_eq!(hints[2]["label"], "6 pushes · 28 moves");
    assert!(
        client
            .server_requests
            .iter()
            .any(|r| r["method"] == "window/workDoneProgress/create"),
        "the slow solves asked for progress: {:?}",
        client
            .server_requests
            .iter()
            .map(|r| r["method"].clone())
            .collect::<Vec<_>>()
    );
}

/// A client of a server whose handler of `method` panics (test knob), with the
/// sample open.
async fn sample_panicking_in(method: &'static str) -> Client {
    let mut client = Client::start(Options {
        panic_in_method: Some(method),
        ..Options::default()
    });
    client.initialize(false).await;
    client.open(SAMPLE, 1).await;
    client
}

/// The text of the next `window/logMessage`.
async fn next_log_message(client: &mut Client) -> String {
    let log = client
        .wait_for(|m| m["method"] == "window/logMessage")
        .await;
    log["params"]["message"].as_str().unwrap_or("").to_string()
}

#[tokio::test]
async fn a_panicking_request_is_an_error_answer_and_the_server_goes_on() {
    let mut client = sample_panicking_in("textDocument/hover").await;
    let answer = client.request_raw("textDocument/hover", at(4, 1)).await;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let log = next_log_message(&mut client).await;
    assert!(
        log.contains("internal error in textDocument/hover"),
        "{log}"
    );
    assert_eq!(
        client.settled_hints().await[2]["label"],
        "6 pushes · 28 moves"
    );
}

#[tokio::test]
async fn an_edit_that_panics_halfway_leaves_the_document_as_it_was_and_out_of_sync() {
    let mut client = sample_panicking_in("textDocument/didChange").await;
    let change = json!({
        "textDocument": { "uri": URI, "version": 2 },
        "contentChanges": [{ "range": range((1, 0), (1, 1)), "text": "#" }]
    });
    client.notify("textDocument/didChange", change).await;
    let log = next_log_message(&mut client).await;
    assert!(
        log.contains("out of sync") && log.contains("internal error"),
        "{log}"
    );
    // The client applied the edit, the server could not: its copy answers nothing
    // until the whole text comes (recovery: `trust.rs`).
    let answer = client
        .request_raw("boxls/documentText", json!({ "textDocument": doc() }))
        .await;
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("out of sync")),
        "{answer}"
    );
}

/// A client with code action literals and resolve of `edit`, declaring
/// `codeAction.dataSupport` or not.
async fn resolving_client(data_support: bool) -> Client {
    let mut code_action = json!({
        "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["quickfix", "refactor", "source"] } },
        "resolveSupport": { "properties": ["edit"] }
    });
    if data_support {
        code_action["dataSupport"] = json!(true);
    }
    client_with(json!({
        "workspace": { "applyEdit": true },
        "textDocument": { "codeAction": code_action }
    }))
    .await
}

/// Every action offered inside Maze #3 of the sample: before its hardest placements
/// are known, and once they are (the `boxls.makeHardest` command waits for them).
async fn maze_3_actions(client: &mut Client) -> Vec<Value> {
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let mut actions = client
        .request("textDocument/codeAction", actions_at(6))
        .await;
    for keep_target in [false, true] {
        let argument = json!({ "uri": URI, "version": 1, "maze": 3, "keepTarget": keep_target });
        let params = json!({ "command": "boxls.makeHardest", "arguments": [argument] });
        client.request("workspace/executeCommand", params).await;
    }
    let known = client
        .request("textDocument/codeAction", actions_at(6))
        .await;
    let mut all = actions
        .as_array_mut()
        .map(std::mem::take)
        .unwrap_or_default();
    all.extend(known.as_array().cloned().unwrap_or_default());
    all
}

#[tokio::test]
async fn code_action_data_goes_only_to_a_client_that_keeps_it() {
    let mut client = resolving_client(false).await;
    let actions = maze_3_actions(&mut client).await;
    let hardest = |a: &&Value| a["kind"] == "refactor.rewrite.hardest";
    assert_eq!(actions.iter().filter(hardest).count(), 4, "{actions:?}");
    for action in &actions {
        assert!(action.get("data").is_none(), "{action}");
        // Without data nothing can be resolved: each comes with its edit or command.
        assert!(
            action.get("edit").is_some() || action.get("command").is_some(),
            "{action}"
        );
    }
    let mut client = resolving_client(true).await;
    let actions = maze_3_actions(&mut client).await;
    assert_eq!(actions.iter().filter(hardest).count(), 4, "{actions:?}");
    for action in actions.iter().filter(hardest) {
        assert!(action["data"]["keepTarget"].is_boolean(), "{action}");
    }
    let all = actions
        .iter()
        .find(|a| a["kind"] == "source.boxls.insertAllSolutions")
        .expect("insert all");
    assert!(
        all["data"].is_object() && all.get("edit").is_none(),
        "{all}"
    );
}
