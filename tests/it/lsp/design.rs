//! The design tools over JSON-RPC: *Make Maze #k hardest* (offered, resolved, run as a
//! command, refused once the maze changed) checked against `boxls hardest`; the
//! difficulty line of the cell hover against the reference solver; `boxls/difficulty`
//! against `design::difficulty_map`.

use serde_json::{json, Value};

use super::client::{apply_edits, Client, URI};
use super::{change, doc, edit, range, SAMPLE};
use crate::reference;
use boxls::design::{difficulty_map, Difficulty};
use boxls::maze::{parse, Grid};

pub(super) const HARDEST: &str = "refactor.rewrite.hardest";

/// `boxls hardest ARGS` on `text`: what the command line writes.
fn cli_hardest(text: &str, args: &[&str]) -> String {
    let mut all = vec!["hardest"];
    all.extend_from_slice(args);
    let (out, err, code) = crate::gen::run(&all, text.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    out
}

/// A client like VS Code: literals, resolve of `edit` (keeping `data`), versioned
/// workspace edits.
async fn resolving_client() -> Client {
    resolving_client_with(boxls::lsp::Options::default()).await
}

/// The same, with a server started with `options`.
pub(super) async fn resolving_client_with(options: boxls::lsp::Options) -> Client {
    let mut client = Client::start(options);
    client
        .initialize_with(
            json!({
                "workspace": { "applyEdit": true, "workspaceEdit": { "documentChanges": true } },
                "textDocument": {
                    "hover": { "contentFormat": ["markdown"] },
                    "codeAction": {
                        "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["refactor", "quickfix", "source"] } },
                        "resolveSupport": { "properties": ["edit"] },
                        "dataSupport": true
                    }
                }
            }),
            json!({}),
        )
        .await;
    client
}

pub(super) async fn actions_at(
    client: &mut Client,
    line: u32,
    only: Option<&[&str]>,
) -> Vec<Value> {
    let mut context = json!({ "diagnostics": [] });
    if let Some(only) = only {
        context["only"] = json!(only);
    }
    let answer = client
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": doc(), "range": range((line, 2), (line, 2)), "context": context }),
        )
        .await;
    answer.as_array().cloned().unwrap_or_default()
}

pub(super) fn hardest_actions(actions: &[Value]) -> Vec<Value> {
    actions
        .iter()
        .filter(|a| a["kind"] == HARDEST)
        .cloned()
        .collect()
}

fn edits_of(edit: &Value) -> Vec<Value> {
    if let Some(edits) = edit["changes"][URI].as_array() {
        return edits.clone();
    }
    edit["documentChanges"][0]["edits"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn make_hardest_is_offered_then_resolved_to_what_boxls_hardest_writes() {
    let mut client = resolving_client().await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    // Nothing is searched before it is asked for: the first offer has no counts yet.
    let offered = hardest_actions(&actions_at(&mut client, 6, None).await);
    let titles: Vec<&str> = offered.iter().filter_map(|a| a["title"].as_str()).collect();
    assert_eq!(
        titles,
        [
            "Make Maze #3 hardest",
            "Make Maze #3 hardest keeping the target"
        ]
    );
    for (action, args) in offered
        .iter()
        .zip([&["--maze", "3"][..], &["--maze", "3", "--keep-target"]])
    {
        assert!(
            action["edit"].is_null() && action["data"].is_object(),
            "{action}"
        );
        let resolved = client.request("codeAction/resolve", action.clone()).await;
        let text = apply_edits(SAMPLE, &edits_of(&resolved["edit"]), false);
        assert_eq!(text, cli_hardest(SAMPLE, args), "{}", resolved["title"]);
    }
    // Now known: the titles carry the counts, and the edits come with the actions.
    let known = hardest_actions(&actions_at(&mut client, 4, Some(&["refactor"])).await);
    let titles: Vec<&str> = known.iter().filter_map(|a| a["title"].as_str()).collect();
    assert_eq!(
        titles,
        [
            "Make Maze #3 hardest (6 → 10 pushes)",
            "Make Maze #3 hardest keeping the target (6 → 10 pushes)"
        ]
    );
    let text = apply_edits(SAMPLE, &edits_of(&known[0]["edit"]), false);
    assert_eq!(text, cli_hardest(SAMPLE, &["--maze", "3"]));
    // Each says which variant it is, as data; resolving one changes nothing.
    let keeps: Vec<&Value> = known.iter().map(|a| &a["data"]["keepTarget"]).collect();
    assert_eq!(keeps, [&json!(false), &json!(true)], "{known:?}");
    let resolved = client.request("codeAction/resolve", known[1].clone()).await;
    assert_eq!(resolved, known[1]);
    // Asked by kind: other kinds leave them out, the kind itself lists only them.
    assert!(hardest_actions(&actions_at(&mut client, 4, Some(&["quickfix"])).await).is_empty());
    let only = actions_at(&mut client, 4, Some(&[HARDEST])).await;
    assert_eq!(only.len(), 2, "{only:?}");
    // Outside every maze: none. Once maze 3 is at its hardest, neither is offered.
    assert!(hardest_actions(&actions_at(&mut client, 21, None).await).is_empty());
    let harder = cli_hardest(SAMPLE, &["--maze", "3"]);
    client
        .notify("textDocument/didChange", json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": harder }] }))
        .await;
    for action in hardest_actions(&actions_at(&mut client, 6, None).await) {
        client.request("codeAction/resolve", action).await;
    }
    let left = hardest_actions(&actions_at(&mut client, 6, None).await);
    assert!(left.is_empty(), "nothing left to move: {left:?}");
}

#[tokio::test]
async fn a_resolve_for_a_changed_maze_is_refused_and_one_after_other_edits_is_fresh() {
    let mut client = resolving_client().await;
    client.open(SAMPLE, 1).await;
    let offered = hardest_actions(&actions_at(&mut client, 6, None).await);
    assert!(offered[0]["data"].is_object(), "{}", offered[0]);
    // A comment above every maze: the maze is the same, its lines are not.
    let text = change(
        &mut client,
        SAMPLE,
        2,
        edit((0, 0), (0, 0), "; made harder\n"),
    )
    .await;
    let resolved = client
        .request("codeAction/resolve", offered[0].clone())
        .await;
    let applied = apply_edits(&text, &edits_of(&resolved["edit"]), false);
    assert_eq!(applied, cli_hardest(&text, &["--maze", "3"]));
    // Maze 3's player moves: the offer no longer holds.
    let moved = change(&mut client, &text, 3, edit((11, 6), (11, 8), ".S")).await;
    assert!(moved.contains("#......S..#"), "{moved}");
    let refused = client
        .request_raw("codeAction/resolve", offered[1].clone())
        .await;
    assert_eq!(refused["error"]["code"], -32801, "{refused}");
    assert!(refused["result"].is_null());
}

#[tokio::test]
async fn clients_without_resolve_run_the_command_at_the_documents_version() {
    for (capabilities, versioned) in [
        // Literals without resolve: the action carries the command.
        (
            json!({ "workspace": { "applyEdit": true, "workspaceEdit": { "documentChanges": true } },
                     "textDocument": { "codeAction": { "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["refactor"] } } } } }),
            true,
        ),
        // Commands only, plain `changes`.
        (json!({ "workspace": { "applyEdit": true } }), false),
    ] {
        let mut client = Client::start(boxls::lsp::Options::default());
        client.initialize_with(capabilities, json!({})).await;
        client.open(SAMPLE, 4).await;
        let actions = actions_at(&mut client, 6, None).await;
        let command = actions
            .iter()
            .map(|a| {
                if a["command"].is_object() {
                    a["command"].clone()
                } else {
                    a.clone()
                }
            })
            .find(|c| c["title"] == "Make Maze #3 hardest keeping the target")
            .unwrap_or_else(|| panic!("offered: {actions:?}"));
        assert_eq!(command["command"], "boxls.makeHardest");
        client
            .request(
                "workspace/executeCommand",
                json!({ "command": command["command"], "arguments": command["arguments"] }),
            )
            .await;
        let applied = client
            .server_requests
            .iter()
            .rev()
            .find(|r| r["method"] == "workspace/applyEdit")
            .expect("the server sent the edit")["params"]["edit"]
            .clone();
        if versioned {
            assert_eq!(applied["documentChanges"][0]["textDocument"]["version"], 4);
        } else {
            assert!(applied["documentChanges"].is_null(), "{applied}");
        }
        let text = apply_edits(SAMPLE, &edits_of(&applied), false);
        assert_eq!(text, cli_hardest(SAMPLE, &["--maze", "3", "--keep-target"]));
    }
}

#[tokio::test]
async fn a_client_may_build_the_command_for_the_current_version() {
    let mut client = resolving_client().await;
    client.open(SAMPLE, 3).await;
    let run = |version: i64| json!({ "command": "boxls.makeHardest", "arguments": [{ "uri": URI, "version": version, "maze": 4, "keepTarget": false }] });
    client.request("workspace/executeCommand", run(3)).await;
    let applied = client
        .server_requests
        .iter()
        .rev()
        .find(|r| r["method"] == "workspace/applyEdit")
        .expect("the server sent the edit")["params"]["edit"]
        .clone();
    let text = apply_edits(SAMPLE, &edits_of(&applied), false);
    assert_eq!(text, cli_hardest(SAMPLE, &["--maze", "4"]));
    // Built for an older version (the test client applies nothing, so it is still 3).
    let stale = client.request_raw("workspace/executeCommand", run(2)).await;
    assert_eq!(stale["error"]["code"], -32801, "{stale}");
    let missing = json!({ "command": "boxls.makeHardest", "arguments": [{ "uri": URI, "version": 3, "maze": 9, "keepTarget": false }] });
    let missing = client
        .request_raw("workspace/executeCommand", missing)
        .await;
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
}

#[tokio::test]
async fn a_client_that_can_apply_nothing_later_is_offered_only_finished_edits() {
    let mut client = Client::start(boxls::lsp::Options::default());
    let literals = json!({ "textDocument": { "codeAction": { "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["refactor"] } } } } });
    client.initialize_with(literals, json!({})).await;
    client.open(SAMPLE, 1).await;
    // Not searched yet: neither resolve nor applyEdit could bring the edit later.
    assert!(hardest_actions(&actions_at(&mut client, 6, None).await).is_empty());
    // The command waits for the search (then cannot send the edit: an error).
    let run = json!({ "command": "boxls.makeHardest", "arguments": [{ "uri": URI, "version": 1, "maze": 3, "keepTarget": false }] });
    let refused = client.request_raw("workspace/executeCommand", run).await;
    assert!(refused["error"].is_object(), "{refused}");
    assert!(client
        .server_requests
        .iter()
        .all(|r| r["method"] != "workspace/applyEdit"));
    // Known now: offered with its edit.
    let offered = hardest_actions(&actions_at(&mut client, 6, None).await);
    assert_eq!(offered[0]["title"], "Make Maze #3 hardest (6 → 10 pushes)");
    let text = apply_edits(SAMPLE, &edits_of(&offered[0]["edit"]), false);
    assert_eq!(text, cli_hardest(SAMPLE, &["--maze", "3"]));
}

/// The grid of maze `index` (1-based) of `text`.
fn grid_of(text: &str, index: usize) -> Grid {
    let grid = parse(text).mazes[index - 1].grid.clone();
    (*grid.expect("a valid maze")).clone()
}

#[tokio::test]
async fn hover_on_a_free_cell_says_what_the_box_would_need_from_there() {
    let mut client = resolving_client().await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let grid = grid_of(SAMPLE, 3);
    // Maze 3's rows are lines 5–11: every cell.
    let cells = (0..grid.rows).flat_map(|r| (0..grid.cols).map(move |c| (r, c)));
    for (row, col) in cells {
        let hover = client
            .request(
                "textDocument/hover",
                json!({ "textDocument": doc(), "position": { "line": 5 + row, "character": col } }),
            )
            .await;
        let text = hover["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let cell = row * grid.cols + col;
        let expected = if grid.walls[cell] || cell == grid.player {
            None
        } else if cell == grid.target {
            Some("box here: already on the target".to_string())
        } else {
            let placed = Grid {
                boxed: cell,
                ..grid.clone()
            };
            Some(match reference::solve(&placed) {
                Some((pushes, moves)) => format!(
                    "box here: {pushes} push{} · {moves} move{}",
                    if pushes == 1 { "" } else { "es" },
                    if moves == 1 { "" } else { "s" }
                ),
                None => "box here: unsolvable".to_string(),
            })
        };
        let line = text.lines().find(|l| l.starts_with("box here:"));
        assert_eq!(line, expected.as_deref(), "row {row}, col {col}: {text}");
    }
    // The box's own cell: the maze's optimum (6 pushes · 28 moves).
    let hover = client
        .request(
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": { "line": 8, "character": 5 } }),
        )
        .await;
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|t| t.ends_with("\n\nbox here: 6 pushes · 28 moves")),
        "{hover}"
    );
}

fn at(line: u32, character: u32) -> Value {
    json!({ "textDocument": doc(), "position": { "line": line, "character": character } })
}

#[tokio::test]
async fn difficulty_answers_the_map_as_data() {
    let mut client = resolving_client().await;
    let text = SAMPLE.replace("0 0\n", "1 3\nSxT\n0 0\n");
    client.open(&text, 7).await;
    for (line, index) in [(4, 3), (13, 4), (0, 1)] {
        let answer = client.request("boxls/difficulty", at(line, 0)).await;
        let grid = grid_of(&text, index);
        let map = difficulty_map(&grid).expect("small");
        assert_eq!(
            (answer["version"].clone(), answer["maze"].clone()),
            (json!(7), json!(index))
        );
        assert_eq!(
            (answer["rows"].clone(), answer["cols"].clone()),
            (json!(grid.rows), json!(grid.cols))
        );
        let mut most = 0;
        for (cell, difficulty) in map.iter().enumerate() {
            let (r, c) = grid.coords(cell);
            let kind = answer["kinds"][r]
                .as_str()
                .and_then(|row| row.chars().nth(c));
            let (pushes, moves) = (&answer["pushes"][r][c], &answer["moves"][r][c]);
            let expected = match *difficulty {
                Difficulty::Rock => ('#', Value::Null, Value::Null),
                Difficulty::Player => ('S', Value::Null, Value::Null),
                Difficulty::Target => ('T', Value::Null, Value::Null),
                Difficulty::Unsolvable => ('x', Value::Null, Value::Null),
                Difficulty::Solved { pushes, moves } => {
                    most = most.max(pushes);
                    ('.', json!(pushes), json!(moves))
                }
            };
            assert_eq!(
                (kind, pushes.clone(), moves.clone()),
                (Some(expected.0), expected.1, expected.2),
                "maze {index} cell {r},{c}"
            );
        }
        assert_eq!(answer["maxPushes"], most);
    }
    // Maze 3 has both kinds of free cell.
    let answer = client.request("boxls/difficulty", at(4, 0)).await;
    let kinds = answer["kinds"].to_string();
    assert!(kinds.contains('x') && kinds.contains('.'), "{kinds}");
    // No valid maze there: null; a document that is not open: an error.
    assert_eq!(
        client.request("boxls/difficulty", at(22, 0)).await,
        json!(null)
    );
    assert_eq!(
        client.request("boxls/difficulty", at(23, 0)).await,
        json!(null)
    );
    let closed = client
        .request_raw(
            "boxls/difficulty",
            json!({ "textDocument": { "uri": "file:///nowhere.box" }, "position": { "line": 0, "character": 0 } }),
        )
        .await;
    assert_eq!(closed["error"]["code"], -32602, "{closed}");
}

const INVALID_PARAMS: i64 = -32602;

#[tokio::test]
async fn a_make_hardest_resolve_with_malformed_data_is_invalid_params() {
    let mut client = resolving_client().await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let offered = hardest_actions(&actions_at(&mut client, 6, None).await);
    let data = offered[0]["data"].clone();
    assert_eq!(data["action"], "makeHardest", "{data}");
    let mut malformed = Vec::new();
    for (field, value) in [
        ("maze", json!(-1)),
        ("maze", json!(0)),
        ("maze", json!(1.5)),
        ("version", json!(1_u64 << 40)),
        ("keepTarget", json!("yes")),
        ("uri", json!(7)),
        ("action", json!("makeEasiest")),
    ] {
        let mut data = data.clone();
        data[field] = value;
        malformed.push(data);
    }
    for field in ["action", "uri", "version", "maze", "keepTarget"] {
        let mut data = data.clone();
        data.as_object_mut().map(|d| d.remove(field));
        malformed.push(data);
    }
    malformed.extend([json!("makeHardest"), json!(3), json!([]), json!({})]);
    for data in malformed {
        let mut action = offered[0].clone();
        action["data"] = data.clone();
        let answer = client.request_raw("codeAction/resolve", action).await;
        assert_eq!(answer["error"]["code"], INVALID_PARAMS, "{data}: {answer}");
    }
    // The well-formed data still resolves.
    let resolved = client
        .request("codeAction/resolve", offered[0].clone())
        .await;
    assert!(!edits_of(&resolved["edit"]).is_empty(), "{resolved}");
}
