//! Each feature driven as an editor would, checked against snapshots.

use expect_test::expect;
use serde_json::{json, Value};

use super::client::{action_edits, apply_edits, Client, URI};
use super::{change, doc, edit, range, summarize, SAMPLE};

#[tokio::test]
async fn initialize_declares_exactly_what_is_implemented() {
    let (_client, result) = Client::initialized(false).await;
    expect![[r#"
        {
          "capabilities": {
            "codeActionProvider": {
              "codeActionKinds": [
                "quickfix",
                "refactor.rewrite",
                "refactor.extract",
                "source.boxls.insertAllSolutions",
                "refactor.rewrite.hardest"
              ],
              "resolveProvider": false
            },
            "codeLensProvider": {
              "resolveProvider": false
            },
            "documentFormattingProvider": true,
            "documentSymbolProvider": true,
            "executeCommandProvider": {
              "commands": [
                "boxls.insertSolution",
                "boxls.insertAllSolutions",
                "boxls.applyEdit",
                "boxls.makeHardest"
              ]
            },
            "foldingRangeProvider": true,
            "hoverProvider": true,
            "inlayHintProvider": true,
            "positionEncoding": "utf-16",
            "semanticTokensProvider": {
              "full": {
                "delta": true
              },
              "legend": {
                "tokenModifiers": [
                  "dead",
                  "onGoal"
                ],
                "tokenTypes": [
                  "rock",
                  "free",
                  "player",
                  "box",
                  "target",
                  "number",
                  "comment",
                  "walk",
                  "push"
                ]
              },
              "range": true
            },
            "textDocumentSync": {
              "change": 2,
              "openClose": true
            }
          },
          "serverInfo": {
            "name": "boxls",
            "version": "0.1.0"
          }
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&result).unwrap_or_default());
    let (_client, result) = Client::initialized(true).await;
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
}

const BROKEN: &str = "2 5\nS.B.T\n#.x#\n1 3\nSBT\n0 0\n";

#[tokio::test]
async fn broken_file_diagnostics_then_fixed_by_edits() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(BROKEN, 1).await;
    let diagnostics = client.diagnostics_for(1).await;
    expect![[r#"
        row-length@2:0-2:4 this row has 4 cells; the header declares 5
        bad-char@2:2-2:3 `x` is not a cell: use `#` `.` `S` `B` `T`"#]]
    .assert_eq(&summarize(&diagnostics));
    assert!(diagnostics
        .as_array()
        .is_some_and(|all| all.iter().all(|d| d["source"] == "boxls")));

    let text = change(&mut client, BROKEN, 2, edit((2, 2), (2, 3), "..")).await;
    let text = change(&mut client, &text, 3, edit((4, 0), (4, 3), "S.BT")).await;
    let text = change(&mut client, &text, 4, edit((3, 2), (3, 3), "4")).await;
    assert_eq!(text, "2 5\nS.B.T\n#...#\n1 4\nS.BT\n0 0\n");
    let mut diagnostics = client.diagnostics_for(4).await;
    while diagnostics != json!([]) {
        // Structural diagnostics come first; the solver's follow for the same version.
        diagnostics = client.diagnostics_for(4).await;
    }
    assert_eq!(client.server_text().await, text);
}

#[tokio::test]
async fn sample_hints_symbols_folding_and_tokens() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    let hints = client.settled_hints().await;
    let labels: Vec<String> = hints
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| {
            format!(
                "{}:{} {}",
                h["position"]["line"],
                h["position"]["character"],
                h["label"].as_str().unwrap_or("")
            )
        })
        .collect();
    expect![[r#"
        0:3 5 pushes · 5 moves
        2:3 unsolvable
        4:4 6 pushes · 28 moves
        12:3 3 pushes · 19 moves"#]]
    .assert_eq(&labels.join("\n"));

    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": doc() }),
        )
        .await;
    let names: Vec<String> = symbols
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            format!(
                "{} [{}] {}-{}",
                s["name"].as_str().unwrap_or(""),
                s["detail"].as_str().unwrap_or(""),
                s["range"]["start"]["line"],
                s["range"]["end"]["line"]
            )
        })
        .collect();
    expect![[r#"
        Maze #1 (1×7) [5 pushes · 5 moves] 0-1
        Maze #2 (1×7) [unsolvable] 2-3
        Maze #3 (7×11) [6 pushes · 28 moves] 4-11
        Maze #4 (8×4) [3 pushes · 19 moves] 12-20"#]]
    .assert_eq(&names.join("\n"));

    let folding = client
        .request(
            "textDocument/foldingRange",
            json!({ "textDocument": doc() }),
        )
        .await;
    let folds: Vec<String> = folding
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| format!("{}-{}", f["startLine"], f["endLine"]))
        .collect();
    expect!["0-1 2-3 4-11 12-20"].assert_eq(&folds.join(" "));

    let tokens = client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc() }),
        )
        .await;
    let data: Vec<u64> = tokens["data"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_u64())
        .collect();
    let lines: Vec<String> = data.chunks(5).take(12).map(|t| format!("{t:?}")).collect();
    expect![[r#"
        [0, 0, 1, 5, 0]
        [0, 2, 1, 5, 0]
        [1, 0, 1, 2, 1]
        [0, 1, 1, 3, 0]
        [0, 1, 4, 1, 0]
        [0, 4, 1, 4, 0]
        [1, 0, 1, 5, 0]
        [0, 2, 1, 5, 0]
        [1, 0, 1, 2, 1]
        [0, 1, 1, 3, 1]
        [0, 1, 2, 1, 1]
        [0, 2, 1, 0, 0]"#]]
    .assert_eq(&lines.join("\n"));
    let dead_tokens = data.chunks(5).filter(|t| t[4] == 1).count();
    assert!(
        dead_tokens > 0,
        "the sample has dead squares (corners of maze 3)"
    );
}

#[tokio::test]
async fn hover_on_header_draws_the_path_and_on_cells_names_them() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settled_hints().await;
    let hover = client
        .request(
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": { "line": 4, "character": 1 } }),
        )
        .await;
    expect![[r#"
        **Maze #3** (7×11)

        6 pushes · 28 moves

        `eennwwWWWWeeeeeesswwwwwwwnNN`

        ```text
        ###########
        #T##......#
        #↑#.#..####
        #←←←←B....#
        #.######..#
        #.....S...#
        ###########
        ```

        _Arrows show the box's path._"#]]
    .assert_eq(hover["contents"]["value"].as_str().unwrap_or(""));
    let corner = client
        .request(
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": { "line": 6, "character": 9 } }),
        )
        .await;
    expect![[r#"
        free cell — row 2, column 10

        **Dead square**: no sequence of pushes can bring the box from here to the target.

        box here: unsolvable"#]]
    .assert_eq(corner["contents"]["value"].as_str().unwrap_or(""));
    let nothing = client
        .request(
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": { "line": 500, "character": 0 } }),
        )
        .await;
    assert_eq!(nothing, json!(null));
}

#[tokio::test]
async fn insert_optimal_solution_then_insert_all() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settled_hints().await;
    let actions = client
        .request("textDocument/codeAction", json!({ "textDocument": doc(), "range": range((7, 3), (7, 3)), "context": { "diagnostics": [] } }))
        .await;
    let insert = actions
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["title"] == "Insert optimal solution")
        .cloned()
        .expect("an insert action inside maze 3");
    let text = apply_edits(SAMPLE, &action_edits(&insert), false);
    assert!(
        text.contains("###########\n; solution: eennwwWWWWeeeeeesswwwwwwwnNN\n8 4\n"),
        "{text}"
    );
    client
        .notify("textDocument/didChange", json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": text }] }))
        .await;
    let mut diagnostics = client.diagnostics_for(2).await;
    while diagnostics.as_array().is_some_and(|d| d.len() != 1) {
        diagnostics = client.diagnostics_for(2).await;
    }
    expect![
        "unsolvable@2:0-2:3 this maze is unsolvable: no push can ever move the box onto the target"
    ]
    .assert_eq(&summarize(&diagnostics));

    let actions = client
        .request("textDocument/codeAction", json!({ "textDocument": doc(), "range": range((0, 0), (0, 0)), "context": { "diagnostics": [], "only": ["source"] } }))
        .await;
    let all = actions
        .as_array()
        .and_then(|a| a.first())
        .cloned()
        .expect("insert all");
    assert_eq!(all["title"], "Insert all optimal solutions");
    let text = apply_edits(&text, &action_edits(&all), false);
    let solutions: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("; solution:"))
        .collect();
    assert_eq!(
        solutions,
        [
            "; solution: EEEEE",
            "; solution: eennwwWWWWeeeeeesswwwwwwwnNN",
            "; solution: swwwnnnnnneeesssSSS"
        ]
    );
}

#[tokio::test]
async fn configuration_limits_give_too_large_and_changes_apply() {
    let mut client = Client::start(boxls::lsp::Options::default());
    client.configuration = json!({ "solve": { "maxCells": 10 } });
    client.initialize(false).await;
    client.open(SAMPLE, 1).await;
    let diagnostics = client.settled_diagnostics(1).await;
    expect![[r#"
        unsolvable@2:0-2:3 this maze is unsolvable: no push can ever move the box onto the target
        too-large@4:0-4:4 not solved: 77 cells is over the configured limit of 10 (boxls.solve.maxCells)
        too-large@12:0-12:3 not solved: 32 cells is over the configured limit of 10 (boxls.solve.maxCells)"#]]
    .assert_eq(&summarize(&diagnostics));
    let hints = client.settled_hints().await;
    assert_eq!(hints[2]["label"], "not solved: too large");

    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "boxls": { "inlayHints": { "enable": false } } } }),
        )
        .await;
    let diagnostics = client.diagnostics_for(1).await;
    assert!(
        !summarize(&diagnostics).contains("too-large"),
        "{}",
        summarize(&diagnostics)
    );
    assert_eq!(client.settled_hints().await, json!([]));
}

#[tokio::test]
async fn close_clears_diagnostics_and_unknown_documents_answer_empty() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(BROKEN, 1).await;
    assert_ne!(client.diagnostics_for(1).await, json!([]));
    client
        .notify("textDocument/didClose", json!({ "textDocument": doc() }))
        .await;
    let closed = client
        .wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["diagnostics"] == json!([])
        })
        .await;
    assert_eq!(closed["params"]["version"], json!(null));
    for (method, params) in [
        (
            "textDocument/inlayHint",
            json!({ "textDocument": doc(), "range": range((0, 0), (9, 0)) }),
        ),
        (
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": { "line": 0, "character": 0 } }),
        ),
        (
            "textDocument/documentSymbol",
            json!({ "textDocument": doc() }),
        ),
        (
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc() }),
        ),
        ("textDocument/codeLens", json!({ "textDocument": doc() })),
        (
            "textDocument/foldingRange",
            json!({ "textDocument": doc() }),
        ),
        (
            "textDocument/codeAction",
            json!({ "textDocument": doc(), "range": range((0, 0), (0, 0)), "context": { "diagnostics": [] } }),
        ),
    ] {
        assert_eq!(
            client.request(method, params).await,
            json!(null),
            "{method}"
        );
    }
    // Out-of-range positions clamp instead of failing.
    client.open(SAMPLE, 2).await;
    let far = client
        .request("textDocument/codeAction", json!({ "textDocument": doc(), "range": range((900, 900), (999, 0)), "context": { "diagnostics": [] } }))
        .await;
    assert!(far.is_array());
}

#[tokio::test]
async fn code_lens_command_applies_the_solution_through_the_client() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settled_hints().await;
    let lenses = client
        .request("textDocument/codeLens", json!({ "textDocument": doc() }))
        .await;
    let titles: Vec<&str> = lenses
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["command"]["title"].as_str())
        .collect();
    expect![[r#"["5 pushes · 5 moves — insert solution", "unsolvable", "6 pushes · 28 moves — insert solution", "3 pushes · 19 moves — insert solution"]"#]]
        .assert_eq(&format!("{titles:?}"));
    let command = lenses[3]["command"].clone();
    client
        .request(
            "workspace/executeCommand",
            json!({ "command": command["command"], "arguments": command["arguments"] }),
        )
        .await;
    let applied = client
        .server_requests
        .iter()
        .find(|r| r["method"] == "workspace/applyEdit")
        .cloned()
        .expect("the server asked the client to apply an edit");
    let edits = applied["params"]["edit"]["changes"][URI]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let text = apply_edits(SAMPLE, &edits, false);
    assert!(
        text.ends_with("###T\n; solution: swwwnnnnnneeesssSSS\n0 0\n"),
        "{text}"
    );
    let unknown = client
        .request_raw(
            "workspace/executeCommand",
            json!({ "command": "rm -rf", "arguments": [] }),
        )
        .await;
    assert!(unknown.get("error").is_some(), "{unknown}");
}

#[tokio::test]
async fn replay_gives_every_frame_of_the_maze_at_the_cursor() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settled_diagnostics(1).await;
    let at = |line: u32, character: u32| json!({ "textDocument": doc(), "position": { "line": line, "character": character } });
    let replay = client.request("boxls/replay", at(8, 3)).await;
    assert_eq!(replay["maze"], 3);
    assert_eq!(replay["version"], 1);
    assert_eq!(
        (replay["rows"].clone(), replay["cols"].clone()),
        (json!(7), json!(11))
    );
    assert_eq!(replay["cells"][3], "#....B....#");
    assert_eq!(replay["moves"], "eennwwWWWWeeeeeesswwwwwwwnNN");
    assert_eq!(replay["pushes"], 6);
    let frames = replay["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 29, "the start and one frame per move");
    assert_eq!(frames[0], json!({ "player": [5, 6], "box": [3, 5] }));
    assert_eq!(frames[28], json!({ "player": [2, 1], "box": [1, 1] }));
    assert!(
        replay["dead"]
            .as_array()
            .expect("dead")
            .contains(&json!([1, 9])),
        "{}",
        replay["dead"]
    );
    // The same solution as deltas: the player's cell after each move, each push of
    // the one box to its next cell — what the frames say.
    let index = |cell: &Value| json!(cell[0].as_u64().unwrap() * 11 + cell[1].as_u64().unwrap());
    let steps: Vec<Value> = frames[1..].iter().map(|f| index(&f["player"])).collect();
    assert_eq!(replay["steps"], json!(steps));
    let pushed: Vec<Value> = (0..28)
        .filter(|&k| frames[k]["box"] != frames[k + 1]["box"])
        .map(|k| json!([k, 0, index(&frames[k + 1]["box"])]))
        .collect();
    assert_eq!(replay["pushed"], json!(pushed));
    assert_eq!(replay["player"], frames[0]["player"]);
    assert_eq!(replay["boxes"], json!([frames[0]["box"]]));
    assert_eq!(replay["goals"], json!([[1, 1]]));
    assert_eq!(replay["format"], "box");
    // Maze #2 is unsolvable, and a position past the end is in no maze.
    assert_eq!(client.request("boxls/replay", at(3, 0)).await, json!(null));
    assert_eq!(client.request("boxls/replay", at(99, 0)).await, json!(null));
}

#[tokio::test]
async fn formatting_returns_the_edits_of_boxls_fmt() {
    for utf8 in [false, true] {
        let (mut client, _) = Client::initialized(utf8).await;
        let text = "; 🧱 mazes\r\n  1   7 \r\n\r\nSB....T\t\r\n;solution:EEEEE\r\n1 3\r\nSBT";
        client.open(text, 1).await;
        let params =
            json!({ "textDocument": doc(), "options": { "tabSize": 4, "insertSpaces": true } });
        let edits = client
            .request("textDocument/formatting", params.clone())
            .await;
        let edits = edits.as_array().cloned().unwrap_or_default();
        let formatted = apply_edits(text, &edits, utf8);
        assert_eq!(
            formatted,
            "; 🧱 mazes\r\n1 7\r\nSB....T\r\n; solution: EEEEE\r\n\r\n1 3\r\nSBT\r\n0 0\r\n"
        );
        assert_eq!(formatted, boxls::maze::format(text));
        // Applied, the document is formatted: nothing more to do.
        let whole = edit((0, 0), (6, 3), &formatted);
        change(&mut client, text, 2, whole).await;
        let again = client.request("textDocument/formatting", params).await;
        assert_eq!(again, json!([]));
        assert_eq!(client.server_text().await, formatted);
    }
}

const SMALL: &str = "1 7\nSB....T\n0 0\n";
const SMALL_SOLVED: &str = "1 7\nSB....T\n; solution: EEEEE\n0 0\n";

/// A client declaring `code_action` (with `workspace/applyEdit`) of a server whose
/// solves of 7-cell mazes wait for `gate`, with [`SMALL`] just opened: its maze is
/// certainly still being solved.
async fn client_of_a_held_solve(
    gate: &'static boxls::lsp::SolveGate,
    code_action: serde_json::Value,
    options: serde_json::Value,
) -> Client {
    let mut client = Client::start(boxls::lsp::Options {
        hold_solves: Some(gate),
        ..boxls::lsp::Options::default()
    });
    let capabilities = json!({ "workspace": { "applyEdit": true }, "textDocument": { "codeAction": code_action } });
    client.initialize_with(capabilities, options).await;
    client.open(SMALL, 1).await;
    client
}

fn literals() -> serde_json::Value {
    json!({ "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["quickfix", "refactor", "source"] } } })
}

fn in_the_maze() -> serde_json::Value {
    json!({ "textDocument": doc(), "range": range((1, 2), (1, 2)), "context": { "diagnostics": [] } })
}

fn insert_one(actions: &serde_json::Value) -> Option<serde_json::Value> {
    actions
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["title"] == "Insert optimal solution")
        .cloned()
}

/// Sends a request after request `id` and waits for its answer: `id` has been taken
/// up by then (messages are started in order).
async fn one_more_request(client: &mut Client) {
    let symbols = json!({ "textDocument": doc() });
    client.request("textDocument/documentSymbol", symbols).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insert_optimal_solution_is_offered_while_solving_and_filled_on_resolve() {
    static GATE: boxls::lsp::SolveGate = boxls::lsp::SolveGate::new(7);
    let mut code_action = literals();
    code_action["resolveSupport"] = json!({ "properties": ["edit"] });
    code_action["dataSupport"] = json!(true);
    let mut client = client_of_a_held_solve(&GATE, code_action, json!({})).await;
    let actions = client
        .request("textDocument/codeAction", in_the_maze())
        .await;
    let insert = insert_one(&actions).expect("offered while its maze is being solved");
    assert!(
        insert.get("edit").is_none() && insert["data"].is_object(),
        "{insert}"
    );
    let id = client.send_request("codeAction/resolve", insert).await;
    one_more_request(&mut client).await;
    assert!(!client.answered(id), "resolved before the solve ended");
    GATE.open();
    let resolved = client.response_to(id).await;
    let text = apply_edits(SMALL, &action_edits(&resolved["result"]), false);
    assert_eq!(text, SMALL_SOLVED, "{resolved}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_resolve_a_code_action_waits_for_the_solve_of_its_maze() {
    static GATE: boxls::lsp::SolveGate = boxls::lsp::SolveGate::new(7);
    let mut client = client_of_a_held_solve(&GATE, literals(), json!({})).await;
    let id = client
        .send_request("textDocument/codeAction", in_the_maze())
        .await;
    one_more_request(&mut client).await;
    assert!(!client.answered(id), "answered before the solve ended");
    GATE.open();
    let answer = client.response_to(id).await;
    let insert = insert_one(&answer["result"]).expect("offered once solved");
    let text = apply_edits(SMALL, &action_edits(&insert), false);
    assert_eq!(text, SMALL_SOLVED, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_resolve_the_wait_ends_with_the_solve_at_its_time_limit() {
    static NEVER: boxls::lsp::SolveGate = boxls::lsp::SolveGate::new(7);
    let limit = json!({ "solve": { "timeoutMs": 100 } });
    let mut client = client_of_a_held_solve(&NEVER, literals(), limit).await;
    let actions = client
        .request("textDocument/codeAction", in_the_maze())
        .await;
    assert!(insert_one(&actions).is_none(), "{actions}");
    let hints = client.settled_hints().await;
    assert_eq!(hints[0]["label"], "not solved: too large", "{hints}");
}
