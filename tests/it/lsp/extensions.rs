//! The `boxls/*` requests end to end, the README's TypeScript interfaces checked against
//! the answers the Rust types produce, and the editors' copies of shared facts
//! (settings, token legend) checked against `boxls lsp --print-schema`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::client::{Client, URI};
use super::{change, doc, edit, SAMPLE};

fn at(line: u32, character: u32) -> Value {
    json!({ "textDocument": doc(), "position": { "line": line, "character": character } })
}

#[tokio::test]
async fn maze_answers_each_status_as_data() {
    let text = "1 3\nSBT\n; solution: e\n1 3\nSTB\n1 3\nSxT\n1 4\nSB.T\n; solution: EE\n0 0\n";
    let (mut client, _) = Client::initialized(false).await;
    client.open(text, 1).await;
    client.settle(URI).await;
    let first = client.request("boxls/maze", at(1, 1)).await;
    assert_eq!(
        first,
        json!({
            "version": 1, "format": "box", "maze": 1, "title": null, "boxes": 1,
            "headerLine": 0, "lastLine": 1, "rows": 1, "cols": 3,
            "status": "solved", "reason": null, "pushes": 1, "moves": 1, "optimal": true,
            "solution": "E",
            "recorded": { "moves": "e", "optimal": false },
            "firstError": {
                "range": { "start": { "line": 2, "character": 12 }, "end": { "line": 2, "character": 13 } },
                "code": "solution-illegal",
                "message": first["firstError"]["message"],
            },
        })
    );
    let statuses: Vec<Value> = client
        .request("boxls/mazes", json!({ "textDocument": doc() }))
        .await["mazes"]
        .as_array()
        .expect("mazes")
        .iter()
        .map(|m| json!([m["maze"], m["status"], m["recorded"]]))
        .collect();
    assert_eq!(
        statuses,
        vec![
            json!([1, "solved", { "moves": "e", "optimal": false }]),
            json!([2, "unsolvable", null]),
            json!([3, "invalid", null]),
            json!([4, "solved", { "moves": "EE", "optimal": true }]),
        ]
    );
    let invalid = client.request("boxls/maze", at(6, 0)).await;
    assert_eq!(invalid["firstError"]["code"], "missing-box");
    assert_eq!(invalid["reason"], invalid["firstError"]["message"]);
    assert_eq!(client.request("boxls/maze", at(10, 0)).await, json!(null));
    // A document that is not open is an error, not an empty answer.
    let closed = client
        .request_raw(
            "boxls/maze",
            json!({ "textDocument": { "uri": "file:///nowhere.box" }, "position": { "line": 0, "character": 0 } }),
        )
        .await;
    assert_eq!(closed["error"]["code"], -32602, "{closed}");
}

#[tokio::test]
async fn maze_describes_the_settled_version_after_a_change() {
    // The state is made certain: a change is applied before any later request is
    // answered, and nothing is solved before its version exists.
    let (mut client, _) = Client::initialized(false).await;
    client.open("1 3\nSBT\n0 0\n", 1).await;
    client.settle(URI).await;
    let text = change(
        &mut client,
        "1 3\nSBT\n0 0\n",
        2,
        edit((1, 0), (1, 3), "STB"),
    )
    .await;
    let settled = client.settle(URI).await;
    assert_eq!(settled["version"], 2);
    let state = client.request("boxls/maze", at(0, 0)).await;
    assert_eq!(
        (state["version"].clone(), state["status"].clone()),
        (json!(2), json!("unsolvable"))
    );
    assert_eq!(text, "1 3\nSTB\n0 0\n");
}

#[tokio::test]
async fn replay_without_frames_carries_the_start() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let mut params = at(8, 3);
    params["frames"] = json!(false);
    let lean = client.request("boxls/replay", params).await;
    assert_eq!(lean["frames"], json!([]));
    assert_eq!(lean["start"], json!({ "player": [5, 6], "box": [3, 5] }));
    let full = client.request("boxls/replay", at(8, 3)).await;
    assert_eq!(full["frames"][0], lean["start"]);
    assert_eq!(full["moves"], lean["moves"]);
}

#[tokio::test]
async fn a_compact_replay_sends_the_rows_as_runs() {
    let (mut client, _) = Client::initialized(false).await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let mut params = at(8, 3);
    params["frames"] = json!(false);
    params["compact"] = json!(true);
    let compact = client.request("boxls/replay", params).await;
    let full = client.request("boxls/replay", at(8, 3)).await;
    assert!(compact.get("cells").is_none(), "{compact}");
    assert!(full.get("runs").is_none(), "{full}");
    let rows: Vec<String> = serde_json::from_value(full["cells"].clone()).expect("rows");
    assert_eq!(compact["runs"], json!(boxls::ide::board_runs(&rows)));
    assert_eq!(
        compact["runs"].as_str().map(|runs| runs.split('|').count()),
        Some(rows.len())
    );
    assert_eq!(compact["steps"], full["steps"]);
}

/// `interface Name { field: type; optional?: type }` blocks of the manual's custom
/// requests chapter: name → (field → optional).
fn readme_interfaces() -> BTreeMap<String, BTreeMap<String, bool>> {
    let chapter = include_str!("../../../docs/src/user/custom-requests.md");
    let section = chapter
        .split("```ts")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the custom requests chapter has a ```ts block");
    interfaces_in(section)
}

/// The TypeScript `interface` declarations of `source`: name → (top-level field →
/// optional). Comments are skipped, nested object types belong to their field.
fn interfaces_in(source: &str) -> BTreeMap<String, BTreeMap<String, bool>> {
    let code = without_comments(source);
    let mut interfaces = BTreeMap::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("interface ") {
        rest = &rest[at + "interface ".len()..];
        let name = rest
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .next()
            .expect("a name")
            .to_string();
        let Some(body_start) = rest.find('{') else {
            break;
        };
        let mut fields = BTreeMap::new();
        let mut depth = 0;
        let mut declaration = String::new();
        let mut end = rest.len();
        for (i, c) in rest[body_start..].char_indices() {
            match c {
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = body_start + i;
                break;
            }
            let separator = depth == 1 && (c == ';' || c == '\n' || c == ',');
            if separator {
                field_of(&declaration, &mut fields);
                declaration.clear();
            } else if depth > 1 || c != '{' {
                declaration.push(c);
            }
        }
        field_of(&declaration, &mut fields);
        interfaces.insert(name, fields);
        rest = &rest[end..];
    }
    interfaces
}

/// The field a `name?: type` declaration declares, if it is one.
fn field_of(declaration: &str, fields: &mut BTreeMap<String, bool>) {
    let Some((field, _)) = declaration.split_once(':') else {
        return;
    };
    let field = field.trim();
    let name = field.trim_end_matches('?');
    if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        fields.insert(name.to_string(), field.ends_with('?'));
    }
}

/// `source` with `//` and `/* */` comments blanked (string contents are left alone:
/// the interfaces have none with a comment marker).
fn without_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |end| &after[end..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// `answer`'s fields are exactly the interface's (optional ones may be missing).
fn conforms(interfaces: &BTreeMap<String, BTreeMap<String, bool>>, name: &str, answer: &Value) {
    let fields = interfaces
        .get(name)
        .unwrap_or_else(|| panic!("the README declares no interface {name}"));
    let object = answer
        .as_object()
        .unwrap_or_else(|| panic!("{name}: not an object: {answer}"));
    for key in object.keys() {
        assert!(
            fields.contains_key(key),
            "{name}: the answer has `{key}`, the README does not declare it"
        );
    }
    for (field, optional) in fields {
        assert!(
            *optional || object.contains_key(field),
            "{name}: the README declares `{field}`, the answer lacks it: {answer}"
        );
    }
}

/// The client's interface `name` in `source` reads only fields the `answers` have:
/// a required one in every answer, an optional one in some.
fn client_reads(source: &str, name: &str, answers: &[&Value]) {
    let interfaces = interfaces_in(source);
    let fields = interfaces
        .get(name)
        .unwrap_or_else(|| panic!("the client declares no interface {name}"));
    assert!(fields.len() >= 4, "{name}: {fields:?}");
    for (field, optional) in fields {
        for answer in answers {
            assert!(
                answer.get(field).is_some() || *optional,
                "{name}.{field}: the client reads it, the server does not send it: {answer}"
            );
        }
        assert!(
            answers.iter().any(|answer| answer.get(field).is_some()),
            "{name}.{field}: not a field of any of the server's answers: {answers:?}"
        );
    }
}

const MAZE_TS: &str = include_str!("../../../editors/vscode/src/preview/maze.ts");
const REPLAY_TS: &str = include_str!("../../../editors/vscode/src/preview/replay.ts");
const DIFFICULTY_TS: &str = include_str!("../../../editors/vscode/src/preview/difficulty.ts");

/// The editors' sources that may name a `boxls/*` method, with the methods each must
/// name (so that a rename on either side fails here, not in an editor).
const CLIENTS: [(&str, &str, &[&str]); 4] = [
    (
        "editors/vscode/src/preview/panel.ts",
        include_str!("../../../editors/vscode/src/preview/panel.ts"),
        &[
            "boxls/maze",
            "boxls/replay",
            "boxls/settled",
            "boxls/difficulty",
        ],
    ),
    (
        "editors/nvim/lua/boxls/init.lua",
        include_str!("../../../editors/nvim/lua/boxls/init.lua"),
        &["boxls/maze", "boxls/mazes", "boxls/settled"],
    ),
    (
        "editors/nvim/lua/boxls/play.lua",
        include_str!("../../../editors/nvim/lua/boxls/play.lua"),
        &["boxls/replay"],
    ),
    (
        "editors/nvim/lua/boxls/difficulty.lua",
        include_str!("../../../editors/nvim/lua/boxls/difficulty.lua"),
        &["boxls/difficulty"],
    ),
];

/// The method of every string literal of `source` that starts `boxls/` (a message
/// such as `'boxls/settled failed: '` names one too).
fn quoted_methods(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for quote in ['\'', '"'] {
        let opening = format!("{quote}boxls/");
        let mut rest = source;
        while let Some(at) = rest.find(&opening) {
            let after = &rest[at + 1..];
            let end = "boxls/".len()
                + after["boxls/".len()..]
                    .find(|c: char| !c.is_ascii_alphanumeric())
                    .unwrap_or(after.len() - "boxls/".len());
            found.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

#[test]
fn the_editors_ask_only_for_the_servers_methods() {
    let known = boxls::lsp::CLIENT_METHODS;
    for (path, source, expected) in CLIENTS {
        let used = quoted_methods(source);
        for method in &used {
            assert!(
                known.contains(&method.as_str()),
                "{path} asks for {method}, which the server does not have ({known:?})"
            );
        }
        for method in expected {
            assert!(
                used.iter().any(|m| m == method),
                "{path} no longer asks for {method}"
            );
        }
    }
    // The manual's chapter documents each method.
    let chapter = include_str!("../../../docs/src/user/custom-requests.md");
    for method in known {
        assert!(
            chapter.contains(&format!("// {method}:")),
            "the manual does not document {method}"
        );
    }
}

#[test]
fn the_interface_reader_keeps_nested_types_and_comments_out() {
    let read = interfaces_in(
        "/** a: b */\nexport interface X {\n  /** The kind: a */\n  a: number;\n  b?: { c: string; d: number } | null;\n  e: [number, number]; // f: g\n}\n",
    );
    let fields: Vec<(&str, bool)> = read["X"].iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(fields, [("a", false), ("b", true), ("e", false)]);
}

#[tokio::test]
async fn the_readme_declares_exactly_what_the_server_answers() {
    let interfaces = readme_interfaces();
    let (mut client, _) = Client::initialized(false).await;
    let text = SAMPLE.replace("0 0\n", "1 4\nSB.T\n; solution: EE\n1 3\nSxT\n0 0\n");
    client.open(&text, 1).await;
    let settled = client.settle(URI).await;
    conforms(&interfaces, "SettledResult", &settled);
    let mazes = client
        .request("boxls/mazes", json!({ "textDocument": doc() }))
        .await;
    conforms(&interfaces, "MazesResult", &mazes);
    for maze in mazes["mazes"].as_array().expect("mazes") {
        assert_eq!(maze["format"], "box");
        conforms(&interfaces, "MazeInfo", maze);
        if !maze["recorded"].is_null() {
            conforms(&interfaces, "RecordedInfo", &maze["recorded"]);
        }
        if !maze["firstError"].is_null() {
            conforms(&interfaces, "FirstError", &maze["firstError"]);
        }
    }
    let seen = |key: &str| {
        mazes["mazes"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|m| !m[key].is_null())
    };
    assert!(
        seen("recorded") && seen("firstError"),
        "the fixture covers every nested type"
    );
    // A Sokoban document's levels answer in the same interfaces.
    let levels = "file:///work/levels.xsb";
    let text = "Title: Solved\n######\n#@$ .#\n######\nSolution: RlrR\n\n#####\n#@$ #\n#####\nSolution: x\n";
    let document = json!({ "uri": levels, "languageId": "sokoban", "version": 1, "text": text });
    client
        .notify("textDocument/didOpen", json!({ "textDocument": document }))
        .await;
    client.settle(levels).await;
    let answer = client
        .request("boxls/mazes", json!({ "textDocument": { "uri": levels } }))
        .await;
    conforms(&interfaces, "MazesResult", &answer);
    let described = answer["mazes"].as_array().expect("levels");
    assert_eq!(described.len(), 2, "{answer}");
    for level in described {
        assert_eq!(level["format"], "xsb");
        conforms(&interfaces, "MazeInfo", level);
        if !level["recorded"].is_null() {
            conforms(&interfaces, "RecordedInfo", &level["recorded"]);
        }
        if !level["firstError"].is_null() {
            conforms(&interfaces, "FirstError", &level["firstError"]);
        }
    }
    assert!(
        !described[0]["recorded"].is_null() && !described[1]["firstError"].is_null(),
        "the levels cover every nested type: {answer}"
    );
    let one = client
        .request(
            "boxls/maze",
            json!({ "textDocument": { "uri": levels }, "position": { "line": 2, "character": 1 } }),
        )
        .await;
    assert_eq!(one, described[0]);
    let replay = client.request("boxls/replay", at(8, 3)).await;
    conforms(&interfaces, "ReplayResult", &replay);
    conforms(&interfaces, "FrameInfo", &replay["start"]);
    conforms(&interfaces, "FrameInfo", &replay["frames"][0]);
    // A Sokoban level's answer has the same fields.
    let xsb = "file:///work/levels.xsb";
    let level = "#######\n#.   .#\n# $$  #\n#@    #\n#######\n";
    client
        .notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": xsb, "languageId": "sokoban", "version": 1, "text": level } }),
        )
        .await;
    client.settle(xsb).await;
    let level_replay = client
        .request(
            "boxls/replay",
            json!({ "textDocument": { "uri": xsb }, "position": { "line": 2, "character": 2 } }),
        )
        .await;
    assert_eq!(level_replay["format"], "sokoban");
    conforms(&interfaces, "ReplayResult", &level_replay);
    conforms(&interfaces, "FrameInfo", &level_replay["start"]);
    // As the VS Code preview asks: no frames, the board as runs.
    let mut lean = at(8, 3);
    lean["frames"] = json!(false);
    lean["compact"] = json!(true);
    let compact_replay = client.request("boxls/replay", lean).await;
    conforms(&interfaces, "ReplayResult", &compact_replay);
    let difficulty = client.request("boxls/difficulty", at(8, 3)).await;
    conforms(&interfaces, "DifficultyResult", &difficulty);
    // The VS Code client's own types of these answers read only what the server sends.
    let box_maze = &mazes["mazes"][0];
    let clients: [(&str, &str, Vec<&Value>); 3] = [
        (
            MAZE_TS,
            "MazeState",
            vec![box_maze, &described[0], &described[1]],
        ),
        (
            REPLAY_TS,
            "Replay",
            vec![&replay, &level_replay, &compact_replay],
        ),
        (DIFFICULTY_TS, "DifficultyMap", vec![&difficulty]),
    ];
    for (source, name, answers) in clients {
        client_reads(source, name, &answers);
    }
    let actions = client
        .request("textDocument/codeAction", json!({ "textDocument": doc(), "range": { "start": { "line": 8, "character": 3 }, "end": { "line": 8, "character": 3 } }, "context": { "diagnostics": [], "only": ["refactor.rewrite.hardest"] } }))
        .await;
    let argument = &actions[0]["command"]["arguments"][0];
    assert_eq!(actions[0]["command"]["command"], "boxls.makeHardest");
    conforms(&interfaces, "MakeHardestArgs", argument);

    // Params: every required field of each params interface is required by the server
    // (leaving it out is an InvalidParams error), and the optional ones are optional.
    let full: [(&str, &str, Value); 6] = [
        ("boxls/maze", "MazeParams", at(8, 3)),
        (
            "boxls/mazes",
            "MazesParams",
            json!({ "textDocument": doc() }),
        ),
        (
            "boxls/settled",
            "SettledParams",
            json!({ "textDocument": doc() }),
        ),
        (
            "boxls/replay",
            "ReplayParams",
            json!({ "textDocument": doc(), "position": { "line": 8, "character": 3 }, "frames": true }),
        ),
        ("boxls/difficulty", "DifficultyParams", at(8, 3)),
        (
            "boxls/documentText",
            "DocumentTextParams",
            json!({ "textDocument": doc(), "check": true }),
        ),
    ];
    for (method, name, params) in full {
        conforms(&interfaces, name, &params);
        let answer = client.request_raw(method, params.clone()).await;
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        for (field, optional) in &interfaces[name] {
            let mut without = params.clone();
            without.as_object_mut().expect("params").remove(field);
            let answer = client.request_raw(method, without).await;
            assert_eq!(
                answer.get("error").is_none(),
                *optional,
                "{method} without `{field}`: {answer}"
            );
        }
    }
}

fn schema() -> Value {
    boxls::lsp::schema()
}

#[test]
fn the_vscode_manifest_declares_the_servers_settings_and_legend() {
    let manifest: Value =
        serde_json::from_str(include_str!("../../../editors/vscode/package.json")).expect("json");
    let contributes = &manifest["contributes"];
    let properties = contributes["configuration"]["properties"]
        .as_object()
        .expect("properties");
    let schema = schema();
    let settings = schema["configuration"].as_array().expect("settings");
    for setting in settings {
        let key = setting["key"].as_str().expect("key");
        let declared = &properties[key];
        assert_eq!(declared["type"], setting["type"], "{key}");
        assert_eq!(declared["default"], setting["default"], "{key}");
        assert_eq!(
            declared["minimum"],
            setting.get("minimum").cloned().unwrap_or(Value::Null),
            "{key}"
        );
        assert_eq!(
            declared["markdownDescription"], setting["description"],
            "{key}"
        );
    }
    // The extension's own settings are the only others.
    let server: Vec<&str> = settings.iter().filter_map(|s| s["key"].as_str()).collect();
    let others: Vec<&String> = properties
        .keys()
        .filter(|k| !server.contains(&k.as_str()))
        .collect();
    assert_eq!(others, ["boxls.path", "boxls.trace.server"]);

    let standard = ["number", "comment"];
    let declared_types: Vec<&str> = contributes["semanticTokenTypes"]
        .as_array()
        .expect("types")
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    let scopes = &contributes["semanticTokenScopes"][0]["scopes"];
    for kind in schema["semanticTokens"]["types"]
        .as_array()
        .expect("legend")
    {
        let kind = kind.as_str().expect("name");
        assert!(
            standard.contains(&kind) || declared_types.contains(&kind),
            "type {kind} not declared"
        );
        assert!(
            scopes[kind].as_array().is_some_and(|s| !s.is_empty()),
            "type {kind} has no scope"
        );
    }
    let modifiers: Vec<&str> = contributes["semanticTokenModifiers"]
        .as_array()
        .expect("modifiers")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    for modifier in schema["semanticTokens"]["modifiers"]
        .as_array()
        .expect("modifiers")
    {
        assert!(
            modifiers.contains(&modifier.as_str().expect("name")),
            "{modifier}"
        );
    }
}

#[test]
fn print_schema_prints_the_schema() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_boxls"))
        .args(["lsp", "--print-schema"])
        .output()
        .expect("run boxls");
    assert!(output.status.success());
    let printed: Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(printed, schema());
}

/// The preview says why a board has no map from its own size: the limit it names is
/// the server's.
#[test]
fn the_previews_map_limit_is_the_design_searches() {
    let declared = format!("export const MAX_MAP_CELLS = {};", boxls::design::MAX_CELLS);
    assert!(DIFFICULTY_TS.contains(&declared), "{declared}");
}
