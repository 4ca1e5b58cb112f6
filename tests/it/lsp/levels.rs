//! Sokoban documents (`.xsb`/`.sok`) in the server, driven over JSON-RPC as an editor
//! would: the level checks as diagnostics on every change (the same as `boxls check`
//! reports), symbols and folding per level, hover on cells, semantic tokens,
//! formatting, each level solved in the background (its hint, `unsolvable`), code
//! actions (insert the solution, run-length rows, the best-known quick fix, the
//! conversions to and from `.box` as new files), lenses, `boxls/maze(s)` on levels,
//! and the given collections clean.

use expect_test::expect;
use serde_json::{json, Value};

use boxls::design::Difficulty;
use boxls::lsp::Options;

use super::client::{apply_edits, Client};
use super::{edit, summarize};

const XSB: &str = "file:///work/levels.xsb";

async fn open(client: &mut Client, uri: &str, language: &str, text: &str, version: i64) {
    let document = json!({ "uri": uri, "languageId": language, "version": version, "text": text });
    client
        .notify("textDocument/didOpen", json!({ "textDocument": document }))
        .await;
}

/// Sends `edits` as one `didChange` of `uri`; the client's new copy of the text.
async fn change(
    client: &mut Client,
    uri: &str,
    text: &str,
    version: i64,
    edits: &[Value],
) -> String {
    let mut updated = text.to_string();
    for edit in edits {
        updated = apply_edits(&updated, std::slice::from_ref(edit), client.utf8);
    }
    let document = json!({ "uri": uri, "version": version });
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": document, "contentChanges": edits }),
        )
        .await;
    updated
}

/// The diagnostics published for `uri` at `version` (the first such publication:
/// a Sokoban document publishes once per version).
async fn published(client: &mut Client, uri: &str, version: i64) -> Value {
    let message = client
        .wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == json!(version)
        })
        .await;
    message["params"]["diagnostics"].clone()
}

fn severities(diagnostics: &Value) -> Vec<u64> {
    diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["severity"].as_u64())
        .collect()
}

fn at(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

const ROOM: &str = "; 1\n\n#######\n#.   .#\n# $$  #\n#@    #\n#######\n";

#[tokio::test]
async fn typing_a_frozen_pair_warns_on_both_boxes_and_fixing_it_clears_them() {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, XSB, "sokoban", ROOM, 1).await;
    assert_eq!(published(&mut client, XSB, 1).await, json!([]));
    // Two boxes typed on the top row: four boxes, two goals.
    let text = change(&mut client, XSB, ROOM, 2, &[edit((3, 2), (3, 4), "$$")]).await;
    expect![[r#"box-goal-mismatch@2:0-2:7 4 boxes but 2 goals: a level has as many of each"#]]
        .assert_eq(&summarize(&published(&mut client, XSB, 2).await));
    // The old pair cleared: the new one sits frozen against the wall, off the goals.
    let text = change(&mut client, XSB, &text, 3, &[edit((4, 2), (4, 4), "  ")]).await;
    assert_eq!(text, "; 1\n\n#######\n#.$$ .#\n#     #\n#@    #\n#######\n");
    let frozen = published(&mut client, XSB, 3).await;
    expect![[r#"
        frozen-boxes@3:2-3:3 frozen: this box and 1 other can never move again, and not all of them are on goals
        frozen-boxes@3:3-3:4 frozen: this box and 1 other can never move again, and not all of them are on goals"#]]
    .assert_eq(&summarize(&frozen));
    assert_eq!(severities(&frozen), [2, 2], "warnings");
    // One box moved down (one change of two edits): nothing frozen.
    let edits = [edit((3, 3), (3, 4), " "), edit((4, 3), (4, 4), "$")];
    let text = change(&mut client, XSB, &text, 4, &edits).await;
    assert_eq!(text, "; 1\n\n#######\n#.$  .#\n#  $  #\n#@    #\n#######\n");
    assert_eq!(published(&mut client, XSB, 4).await, json!([]));
    let copy = client
        .request(
            "boxls/documentText",
            json!({ "textDocument": { "uri": XSB } }),
        )
        .await;
    assert_eq!(
        copy,
        json!(text),
        "the server's copy, checked against a fresh reading"
    );
}

#[tokio::test]
async fn the_language_id_or_else_the_extension_says_a_document_is_levels() {
    let (mut client, _) = Client::initialized(false).await;
    let frozen = "#######\n#.$$  #\n#.  @ #\n#######\n";
    for (uri, language, version) in [
        ("file:///work/a.sok", "plaintext", 1),
        ("file:///work/b.txt", "sokoban", 2),
        ("file:///work/c.XSB", "", 3),
    ] {
        open(&mut client, uri, language, frozen, version).await;
        let codes: Vec<String> = published(&mut client, uri, version)
            .await
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["code"].as_str().map(str::to_string))
            .collect();
        assert_eq!(codes, ["frozen-boxes", "frozen-boxes"], "{uri} {language}");
    }
    // A `.box` document is read as a maze, whatever its text looks like.
    open(&mut client, "file:///work/d.box", "box", frozen, 4).await;
    let as_box = published(&mut client, "file:///work/d.box", 4).await;
    expect![[r#"
        bad-header@0:0-0:7 expected a header `rows columns` (two positive integers)
        missing-terminator@3:0-3:7 the file does not end with the `0 0` terminator"#]]
    .assert_eq(&summarize(&as_box));
}

/// One level per static code, in the order `boxls check` reports them.
const EVERY_CODE: &str = "\
Title: first
Title: again
#####
#@$é.#
#0 3
#####

######
# $..#
######

#####
#@@+#
#$ .#
#####

####
#@.#
####

#####
#@$ .
#####

#######
#@$.#$#
#####.#
###*###
#######

#####
#$ .#
# @ #
#####

#######
#.$$  #
#.  @ #
#######

#######
#.$ $ #
#@   .#
#######

######
#@$ .#
#    #
######
Solution: RR
Solution: RdrruLdlluRR
Solution: RRx
Solution: rR
Solution: R
Comment:
never ended
";

/// Every code the level checks have without the solver.
const STATIC_CODES: [&str; 18] = [
    "unknown-character",
    "bad-run-length",
    "missing-player",
    "duplicate-player",
    "box-goal-mismatch",
    "missing-box",
    "open-border",
    "unreachable-box",
    "unreachable-goal",
    "unterminated-comment",
    "duplicate-metadata",
    "solution-not-lurd",
    "solution-illegal",
    "solution-incomplete",
    "solution-not-optimal",
    "dead-square",
    "frozen-boxes",
    "unmatched-boxes",
];

#[tokio::test]
async fn every_static_code_reaches_the_editor_as_boxls_check_reports_it() {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, XSB, "sokoban", EVERY_CODE, 1).await;
    let diagnostics = published(&mut client, XSB, 1).await;
    let ours: Vec<String> = diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let r = &d["range"];
            let severity = match d["severity"].as_u64() {
                Some(1) => "error",
                Some(2) => "warning",
                Some(3) => "information",
                _ => "?",
            };
            format!(
                "{}:{}-{}:{} {severity} {} {}",
                r["start"]["line"].as_u64().unwrap_or(0) + 1,
                r["start"]["character"].as_u64().unwrap_or(0) + 1,
                r["end"]["line"].as_u64().unwrap_or(0) + 1,
                r["end"]["character"].as_u64().unwrap_or(0) + 1,
                d["code"].as_str().unwrap_or("?"),
                d["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    for code in STATIC_CODES {
        assert!(
            ours.iter().any(|line| line.contains(&format!(" {code} "))),
            "`{code}` never reached the editor:\n{}",
            ours.join("\n")
        );
    }
    // The command line on the same file: the same diagnostics, positions 1-based.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("every.xsb");
    std::fs::write(&path, EVERY_CODE).expect("written");
    let path = path.to_str().expect("a UTF-8 path");
    let (stdout, stderr, _) = crate::gen::run(&["check", "--json", path], b"");
    let cli: Vec<String> = stdout
        .lines()
        .map(|line| {
            let d: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}\n{stderr}"));
            format!(
                "{}:{}-{}:{} {} {} {}",
                d["line"],
                d["column"],
                d["endLine"],
                d["endColumn"],
                d["severity"].as_str().unwrap_or("?"),
                d["code"].as_str().unwrap_or("?"),
                d["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(ours, cli);
}

const THREE: &str = "\
; Three small ones

; 1

#####
#@$.#
#####

Title: Second
####
#@ #
#$ #
#. #
####

'Third'
######
#.$@ #
######
Solution: L
";

#[tokio::test]
async fn symbols_and_folding_are_one_per_level() {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, XSB, "sokoban", THREE, 1).await;
    let doc = json!({ "textDocument": { "uri": XSB } });
    let symbols = client
        .request("textDocument/documentSymbol", doc.clone())
        .await;
    let shown: Vec<String> = symbols
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let (r, sel) = (&s["range"], &s["selectionRange"]);
            format!(
                "{} [{}] {}:{}-{}:{} selects {}:{}-{}:{}",
                s["name"].as_str().unwrap_or(""),
                s["detail"].as_str().unwrap_or(""),
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"],
                sel["start"]["line"],
                sel["start"]["character"],
                sel["end"]["line"],
                sel["end"]["character"],
            )
        })
        .collect();
    expect![[r#"
        1 [5×3 · 1 box] 2:0-6:5 selects 2:2-2:3
        Second [4×5 · 1 box] 8:0-13:4 selects 8:7-8:13
        Third [6×3 · 1 box] 15:0-19:11 selects 15:1-15:6"#]]
    .assert_eq(&shown.join("\n"));
    let folds = client.request("textDocument/foldingRange", doc).await;
    let shown: Vec<String> = folds
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            format!(
                "{}-{} {}",
                f["startLine"],
                f["endLine"],
                f["collapsedText"].as_str().unwrap_or("")
            )
        })
        .collect();
    expect![[r#"
        2-6 1
        8-13 Second
        15-19 Third"#]]
    .assert_eq(&shown.join("\n"));
}

async fn hover_at(client: &mut Client, line: u32, character: u32) -> String {
    let params = json!({ "textDocument": { "uri": XSB }, "position": at(line, character) });
    let hover = client.request("textDocument/hover", params).await;
    let range = &hover["range"];
    format!(
        "{}:{}-{}:{}\n{}",
        range["start"]["line"],
        range["start"]["character"],
        range["end"]["line"],
        range["end"]["character"],
        hover["contents"]["value"].as_str().unwrap_or("(none)")
    )
}

#[tokio::test]
async fn hover_names_the_cell_and_the_deadlock_a_box_is_in() {
    let (mut client, _) = Client::initialized(false).await;
    let text = "Title: Pair\n#######\n#.$$  #\n#.  @ #\n#######\nSolution: uL\n";
    open(&mut client, XSB, "sokoban", text, 1).await;
    let mut shown = Vec::new();
    // A frozen box, a dead corner, the level's title line.
    for (line, character) in [(2, 3), (3, 5), (0, 3)] {
        shown.push(hover_at(&mut client, line, character).await);
    }
    expect![[r#"
        2:3-2:4
        **Pair** · row 2, column 4: a box

        `frozen-boxes`: frozen: this box and 1 other can never move again, and not all of them are on goals
        ----
        3:5-3:6
        **Pair** · row 3, column 6: floor

        a dead square: a box here can never be pushed to a goal
        ----
        null:null-null:null
        **Pair**: 7×4 · 2 boxes · 2 goals · 10 floor cells

        recorded solution: does not solve the level"#]].assert_eq(&shown.join("\n----\n"));
    // Past the level's text: nothing.
    let params = json!({ "textDocument": { "uri": XSB }, "position": at(9, 0) });
    assert_eq!(
        client.request("textDocument/hover", params).await,
        Value::Null
    );
}

/// The tokens of a whole-document answer as `line:column "text" kind[+dead]`.
fn decoded(text: &str, data: &Value) -> Vec<String> {
    let kinds = boxls::ide::TOKEN_KINDS;
    let lines: Vec<&str> = text.lines().collect();
    let numbers: Vec<u64> = data
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    let (mut line, mut column) = (0u64, 0u64);
    numbers
        .chunks(5)
        .map(|t| {
            if t[0] > 0 {
                column = 0;
            }
            line += t[0];
            column += t[1];
            let row = lines.get(line as usize).copied().unwrap_or("");
            let piece: String = row
                .chars()
                .skip(column as usize)
                .take(t[2] as usize)
                .collect();
            let kind = kinds.get(t[3] as usize).copied().unwrap_or("?");
            let dead = if t[4] & 1 == 1 { "+dead" } else { "" };
            format!("{line}:{column} {piece:?} {kind}{dead}")
        })
        .collect()
}

#[tokio::test]
async fn semantic_tokens_draw_the_board_and_follow_an_edit() {
    let (mut client, _) = Client::initialized(false).await;
    let text = "; 1\n#######\n#@ $ .#\n#  *  #\n#######\nSolution: r2R\n\n; 2\n3#|#@$.#|3#\n";
    open(&mut client, XSB, "sokoban", text, 1).await;
    let doc = json!({ "textDocument": { "uri": XSB } });
    let full = client
        .request("textDocument/semanticTokens/full", doc.clone())
        .await;
    expect![[r########"
        0:0 "; 1" comment
        1:0 "#######" rock
        2:0 "#" rock
        2:1 "@" player+dead
        2:2 " " free
        2:3 "$" box
        2:4 " " free
        2:5 "." target
        2:6 "#" rock
        3:0 "#" rock
        3:1 " " free+dead
        3:2 " " free
        3:3 "*" box
        3:4 " " free
        3:5 " " free+dead
        3:6 "#" rock
        4:0 "#######" rock
        5:10 "r" walk
        5:11 "2" number
        5:12 "R" push
        7:0 "; 2" comment
        8:0 "3#" rock
        8:3 "#" rock
        8:4 "@" player+dead
        8:5 "$" box
        8:6 "." target
        8:7 "#" rock
        8:9 "3#" rock"########]]
    .assert_eq(&decoded(text, &full["data"]).join("\n"));
    // A range asks for its lines only.
    let params =
        json!({ "textDocument": { "uri": XSB }, "range": { "start": at(2, 0), "end": at(2, 3) } });
    let ranged = client
        .request("textDocument/semanticTokens/range", params)
        .await;
    let full_line_2: Vec<String> = decoded(text, &full["data"])
        .into_iter()
        .filter(|t| t.starts_with("2:"))
        .collect();
    let mut relative = ranged["data"].clone();
    // The range's first token is counted from line 0: the same encoding.
    assert_eq!(decoded(text, &relative.take()), full_line_2);
    // A box pushed onto the goal: the delta brings the tokens up to date.
    let text = change(&mut client, XSB, text, 2, &[edit((2, 3), (2, 6), "  *")]).await;
    let previous = full["resultId"].clone();
    let params = json!({ "textDocument": { "uri": XSB }, "previousResultId": previous });
    let delta = client
        .request("textDocument/semanticTokens/full/delta", params)
        .await;
    let old: Vec<u64> = full["data"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    let mut patched = old.clone();
    // From the last: each edit's start counts in the old tokens.
    for edit in delta["edits"].as_array().into_iter().flatten().rev() {
        let start = edit["start"].as_u64().unwrap_or(0) as usize;
        let count = edit["deleteCount"].as_u64().unwrap_or(0) as usize;
        let data: Vec<u64> = edit["data"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
            .collect();
        patched.splice(start..start + count, data);
    }
    let fresh = client
        .request("textDocument/semanticTokens/full", doc)
        .await;
    assert_eq!(json!(patched), fresh["data"]);
    assert!(decoded(&text, &fresh["data"]).contains(&"2:5 \"*\" box".to_string()));
}

#[tokio::test]
async fn formatting_gives_canonical_xsb_and_then_nothing() {
    let (mut client, _) = Client::initialized(false).await;
    let text = "Title: One   \n#####  \n#@$.#\n#####\n\n\n\n; two\n####\n#@*#\n####\n\n\n";
    open(&mut client, XSB, "sokoban", text, 1).await;
    let params = json!({ "textDocument": { "uri": XSB }, "options": { "tabSize": 4, "insertSpaces": true } });
    let edits = client
        .request("textDocument/formatting", params.clone())
        .await;
    let edits = edits.as_array().cloned().unwrap_or_default();
    let formatted = apply_edits(text, &edits, false);
    expect![[r#"
        Title: One
        #####
        #@$.#
        #####

        ; two
        ####
        #@*#
        ####
    "#]]
    .assert_eq(&formatted);
    assert_eq!(
        formatted,
        boxls::level::format(text, boxls::level::RunLength::Keep)
    );
    let formatted_copy = change(&mut client, XSB, text, 2, &[json!({ "text": formatted })]).await;
    assert_eq!(published(&mut client, XSB, 2).await, json!([]));
    let again = client.request("textDocument/formatting", params).await;
    assert_eq!(
        again,
        json!([]),
        "formatted once is formatted: {formatted_copy:?}"
    );
}

/// A one-box level and a two-box one.
const ONE_BOX_AND_TWO: &str = "\
#######
#@    #
# $ # #
#   . #
#######

#######
#@$ $ #
#  .. #
#######
";

#[tokio::test]
async fn a_one_box_level_has_the_difficulty_map_of_its_maze() {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, XSB, "sokoban", ONE_BOX_AND_TWO, 1).await;
    let position = |line, character| json!({ "textDocument": { "uri": XSB }, "position": at(line, character) });
    let collection = boxls::level::parse(ONE_BOX_AND_TWO);
    let level = collection.levels[0].board.position().expect("a position");
    let grid = level.to_grid().expect("one box, one goal");
    let map = boxls::design::difficulty_map(&grid).expect("small");
    let answer = client.request("boxls/difficulty", position(0, 0)).await;
    assert_eq!(
        (
            &answer["version"],
            &answer["maze"],
            &answer["rows"],
            &answer["cols"]
        ),
        (&json!(1), &json!(1), &json!(5), &json!(7))
    );
    for (cell, difficulty) in map.iter().enumerate() {
        let (r, c) = (cell / grid.cols, cell % grid.cols);
        let kind = answer["kinds"][r]
            .as_str()
            .and_then(|row| row.chars().nth(c));
        let expected = match *difficulty {
            Difficulty::Rock => ('#', Value::Null),
            Difficulty::Player => ('S', Value::Null),
            Difficulty::Target => ('T', Value::Null),
            Difficulty::Unsolvable => ('x', Value::Null),
            Difficulty::Solved { pushes, .. } => ('.', json!(pushes)),
        };
        assert_eq!(
            (kind, answer["pushes"][r][c].clone()),
            (Some(expected.0), expected.1),
            "cell {r},{c}"
        );
    }
    let kinds = answer["kinds"].to_string();
    assert!(kinds.contains('x') && kinds.contains('.'), "{kinds}");
    // On a free cell the hover adds what the box would need from there.
    let hover = client.request("textDocument/hover", position(1, 3)).await;
    let line = boxls::ide::cell_hover(map[grid.cols + 3]).expect("a solvable cell");
    assert!(line.starts_with("box here: "), "{line}");
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.ends_with(&format!("\n\n{line}")), "{hover}");
    // Two boxes: no map.
    let answer = client.request_raw("boxls/difficulty", position(7, 2)).await;
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let settled = client.settle(XSB).await;
    assert_eq!(settled["version"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_of_the_level_ends_a_request_waiting_for_its_map() {
    // The one-box level's map (5×7 cells) searches until it is no longer wanted.
    let mut client = Client::start(Options {
        stall_design_on_cells: Some(35),
        ..Options::default()
    });
    client.initialize(false).await;
    open(&mut client, XSB, "sokoban", ONE_BOX_AND_TWO, 1).await;
    let asked = json!({ "textDocument": { "uri": XSB }, "position": at(2, 2) });
    let id = client.send_request("boxls/difficulty", asked).await;
    client
        .wait_logged("stalled design search (difficulty map) started", 1)
        .await;
    // The player steps right: the same level, another maze.
    let text = change(
        &mut client,
        XSB,
        ONE_BOX_AND_TWO,
        2,
        &[edit((1, 1), (1, 3), " @")],
    )
    .await;
    assert!(text.starts_with("#######\n# @   #\n"), "{text}");
    let ended = client.response_to(id).await;
    assert_eq!(ended["error"]["code"], -32801, "{ended}");
    assert_eq!(ended["error"]["message"], "Level 1 has changed");
    client
        .wait_logged("stalled design search (difficulty map) stopped", 1)
        .await;
}

#[tokio::test]
async fn every_level_of_the_given_collections_opens_without_a_diagnostic() {
    let (mut client, _) = Client::initialized(false).await;
    for (version, name) in [
        (1, "Microban_155.xsb"),
        (2, "XSokoban_90.xsb"),
        (3, "Sasquatch_50.xsb"),
    ] {
        let path = format!("{}/tests/levels/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the collection");
        let uri = format!("file:///work/{name}");
        open(&mut client, &uri, "sokoban", &text, version).await;
        let diagnostics = published(&mut client, &uri, version).await;
        assert_eq!(
            diagnostics,
            json!([]),
            "{name}: {}",
            summarize(&diagnostics)
        );
        let symbols = client
            .request(
                "textDocument/documentSymbol",
                json!({ "textDocument": { "uri": uri } }),
            )
            .await;
        let levels = symbols.as_array().map_or(0, Vec::len);
        let expected: usize = name
            .trim_end_matches(".xsb")
            .rsplit('_')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert_eq!(levels, expected, "{name}: one symbol per level");
    }
}

/// A two-box level the solver settles at once, and one it proves unsolvable (no
/// static deadlock: each box alone could reach a goal).
const SOLVABLE_AND_NOT: &str =
    "; Open room\n\n#######\n#.   .#\n# $$  #\n#@    #\n#######\n\n; Corridor\n\n########\n#@$ $..#\n########\n";

/// Settles `uri`; its inlay hints (`line:character label`) and the diagnostics last
/// published for the settled version.
async fn settled_solves(client: &mut Client, uri: &str) -> (Vec<String>, String) {
    let settled = client.settle(uri).await;
    let version = settled["version"].clone();
    let hints = hint_labels(client, uri).await;
    let diagnostics = client.last_published(uri, &version).unwrap_or(Value::Null);
    (hints, summarize(&diagnostics))
}

/// `uri`'s inlay hints now, as `line:character label`.
async fn hint_labels(client: &mut Client, uri: &str) -> Vec<String> {
    let everything = json!({ "start": at(0, 0), "end": at(10_000, 0) });
    let hints = client
        .request(
            "textDocument/inlayHint",
            json!({ "textDocument": { "uri": uri }, "range": everything }),
        )
        .await;
    hints
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| {
            format!(
                "{}:{} {}",
                h["position"]["line"],
                h["position"]["character"],
                h["label"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

/// The level solves the server started so far (the test hook's log lines).
fn solves_started(client: &Client) -> usize {
    client
        .history
        .iter()
        .filter(|m| m["method"] == "window/logMessage")
        .filter(|m| {
            m["params"]["message"]
                .as_str()
                .is_some_and(|line| line.starts_with("level solve started"))
        })
        .count()
}

#[tokio::test]
async fn each_level_is_solved_in_the_background_as_boxls_solve_solves_it() {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, XSB, "sokoban", SOLVABLE_AND_NOT, 1).await;
    let (hints, diagnostics) = settled_solves(&mut client, XSB).await;
    // What `boxls solve --json` says of the same file.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("levels.xsb");
    std::fs::write(&path, SOLVABLE_AND_NOT).expect("written");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_boxls"))
        .args(["solve", "--json"])
        .arg(&path)
        .output()
        .expect("boxls solve runs");
    let lines: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["status"], "solved");
    assert_eq!(lines[1]["status"], "unsolvable");
    let optimal = if lines[0]["optimal"] == true {
        " (optimal)"
    } else {
        ""
    };
    let counts = format!(
        "2:7 {} pushes · {} moves{optimal}",
        lines[0]["pushes"], lines[0]["moves"]
    );
    assert_eq!(hints, [counts.as_str(), "10:8 unsolvable"]);
    expect![[r#"unsolvable@10:0-10:8 this level is unsolvable (proved by the solver)"#]]
        .assert_eq(&diagnostics);
}

#[tokio::test]
async fn an_edit_re_solves_only_the_level_it_changed() {
    let mut client = Client::start(Options {
        log_level_solves: true,
        ..Options::default()
    });
    client.initialize(false).await;
    open(&mut client, XSB, "sokoban", SOLVABLE_AND_NOT, 1).await;
    let (before, _) = settled_solves(&mut client, XSB).await;
    assert_eq!(solves_started(&client), 2, "one solve per level");
    assert_eq!(before[1], "10:8 unsolvable");
    // A title edited: the boards are the same, nothing is solved again.
    let text = change(
        &mut client,
        XSB,
        SOLVABLE_AND_NOT,
        2,
        &[edit((0, 2), (0, 6), "Big")],
    )
    .await;
    let (retitled, _) = settled_solves(&mut client, XSB).await;
    assert_eq!(solves_started(&client), 2, "a title is not part of a level");
    assert_eq!(retitled, before);
    // The first level's box moved: that level alone is solved again.
    let text = change(&mut client, XSB, &text, 3, &[edit((4, 2), (4, 5), " $$")]).await;
    assert_eq!(text.lines().nth(4), Some("#  $$ #"));
    let (after, diagnostics) = settled_solves(&mut client, XSB).await;
    assert_eq!(solves_started(&client), 3, "only the edited level");
    assert_eq!(after[1], "10:8 unsolvable", "the other level's hint stays");
    assert!(after[0].starts_with("2:7 ") && after[0].contains(" pushes · "));
    expect![[r#"unsolvable@10:0-10:8 this level is unsolvable (proved by the solver)"#]]
        .assert_eq(&diagnostics);
}

/// A client whose server stalls the solves of levels with `boxes` boxes until the
/// time limit (`seconds`), once that limit is in force.
async fn stalling_client(boxes: usize, seconds: u64) -> Client {
    let mut client = Client::start(Options {
        stall_levels_with_boxes: Some(boxes),
        ..Options::default()
    });
    client.configuration = json!({ "sokoban": { "timeLimit": seconds } });
    client.initialize(false).await;
    // Asking about a document never opened waits for the pulled configuration.
    let never_opened = json!({ "textDocument": { "uri": "file:///work/never-opened.xsb" } });
    client.request_raw("boxls/settled", never_opened).await;
    client
}

#[tokio::test]
async fn a_level_the_solver_cannot_settle_in_time_is_information_not_a_warning() {
    let mut client = stalling_client(3, 1).await;
    // Unsolvable, but no static deadlock says so: only a search finds out.
    let hard = "#######\n#    .#\n#    $#\n#@ .$ #\n##.$ ##\n#######\n";
    open(&mut client, XSB, "sokoban", hard, 1).await;
    let (hints, diagnostics) = settled_solves(&mut client, XSB).await;
    assert_eq!(hints, ["0:7 unknown after 1 s"]);
    assert_eq!(diagnostics, "", "no error or warning, no diagnostic at all");
}

#[tokio::test]
async fn a_level_still_solving_shows_and_inserts_its_best_solution_so_far() {
    // The search holds until the limit: the level is certainly still solving.
    let mut client = stalling_client(2, 3600).await;
    open(&mut client, XSB, "sokoban", SOLVABLE_AND_NOT, 1).await;
    // The solution found so far is what the server asks the client to redraw for (a
    // refresh for the configuration pulled at start-up may come first).
    let mut refreshes = 0;
    let hints = loop {
        refreshes += 1;
        client
            .wait_server_requests("workspace/inlayHint/refresh", refreshes)
            .await;
        let hints = hint_labels(&mut client, XSB).await;
        if hints
            .first()
            .is_some_and(|hint| hint.ends_with("improving…"))
        {
            break hints;
        }
    };
    assert_eq!(hints.len(), 2, "{hints:?}");
    let (pushes, moves) = (hints[0].split(' ').nth(1), hints[0].split(' ').nth(4));
    assert!(
        hints[0].starts_with("2:7 ") && hints[0].ends_with(" moves · improving…"),
        "{hints:?}"
    );
    let actions = actions_at(
        &mut client,
        XSB,
        SOLVABLE_AND_NOT,
        at(3, 1),
        &["refactor.rewrite"],
    )
    .await;
    assert_eq!(actions[0].0, "Insert solution");
    let inserted = &actions[0].1;
    let (replayed_pushes, replayed_moves, solved) = replayed(inserted, 0);
    assert!(solved, "{inserted}");
    assert_eq!(
        (pushes, moves),
        (
            Some(replayed_pushes.to_string().as_str()),
            Some(replayed_moves.to_string().as_str())
        ),
        "the hint counts the solution inserted"
    );
    let lenses = lens_titles(&mut client, XSB).await;
    assert!(
        lenses[0].contains(" · improving… — insert solution "),
        "{lenses:?}"
    );
    // Closing the document cancels the search (the test's runtime waits for it).
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": XSB } }),
        )
        .await;
    client
        .request_raw("boxls/settled", json!({ "textDocument": { "uri": XSB } }))
        .await;
}

/// The code actions at `position` (only `kinds`), as `title → the text with its edit
/// applied` for the edits to `uri`.
async fn actions_at(
    client: &mut Client,
    uri: &str,
    text: &str,
    position: Value,
    kinds: &[&str],
) -> Vec<(String, String)> {
    let params = json!({
        "textDocument": { "uri": uri },
        "range": { "start": position, "end": position },
        "context": { "diagnostics": [], "only": kinds },
    });
    let actions = client.request("textDocument/codeAction", params).await;
    actions
        .as_array()
        .into_iter()
        .flatten()
        .map(|action| {
            let edits = action["edit"]["changes"][uri]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let title = action["title"].as_str().unwrap_or("?").to_string();
            (title, apply_edits(text, &edits, client.utf8))
        })
        .collect()
}

/// Level `index`'s (0-based) first recorded solution replayed by the solver's own
/// replay: (pushes, moves, solved).
fn replayed(text: &str, index: usize) -> (u32, u32, bool) {
    let collection = boxls::level::parse(text);
    let level = &collection.levels[index];
    let position = level.board.position().expect("a position");
    let lurd: String = level.solutions[0]
        .parts
        .iter()
        .map(|part| &text[part.clone()])
        .collect();
    // A level's position is the solver's puzzle (one type).
    boxls::sokoban::replay(&position, &lurd).expect("a legal solution")
}

async fn lens_titles(client: &mut Client, uri: &str) -> Vec<String> {
    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    lenses
        .as_array()
        .into_iter()
        .flatten()
        .map(|lens| {
            format!(
                "{}:{}-{} {} {}",
                lens["range"]["start"]["line"],
                lens["range"]["start"]["character"],
                lens["range"]["end"]["character"],
                lens["command"]["title"].as_str().unwrap_or("?"),
                lens["command"]["arguments"]
            )
        })
        .collect()
}

#[tokio::test]
async fn insert_solution_writes_a_line_that_replays_and_the_lens_follows() {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, XSB, "sokoban", SOLVABLE_AND_NOT, 1).await;
    client.settle(XSB).await;
    let first = actions_at(
        &mut client,
        XSB,
        SOLVABLE_AND_NOT,
        at(3, 1),
        &["refactor.rewrite"],
    )
    .await;
    let titles: Vec<&str> = first.iter().map(|(title, _)| title.as_str()).collect();
    assert_eq!(titles, ["Insert solution", "Compress run-length rows"]);
    let inserted = first[0].1.clone();
    let state = client
        .request(
            "boxls/maze",
            json!({ "textDocument": { "uri": XSB }, "position": at(3, 1) }),
        )
        .await;
    let (pushes, moves, solved) = replayed(&inserted, 0);
    assert!(solved, "{inserted}");
    assert_eq!(
        (json!(pushes), json!(moves)),
        (state["pushes"].clone(), state["moves"].clone())
    );
    assert_eq!(
        inserted.lines().nth(7),
        Some(format!("Solution: {}", state["solution"].as_str().unwrap_or("?")).as_str()),
        "right under the board"
    );
    let checked = boxls::level::check(&inserted);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    // The unsolvable level has nothing to insert.
    let second = actions_at(
        &mut client,
        XSB,
        SOLVABLE_AND_NOT,
        at(11, 1),
        &["refactor.rewrite"],
    )
    .await;
    assert!(
        second.iter().all(|(title, _)| title != "Insert solution"),
        "{second:?}"
    );
    // "Insert all" writes the same line.
    let all = actions_at(&mut client, XSB, SOLVABLE_AND_NOT, at(0, 0), &["source"]).await;
    assert_eq!(
        all,
        [("Insert all solutions".to_string(), inserted.clone())]
    );

    // The lens, and its command: the same edit, sent with workspace/applyEdit.
    let counts = format!("{pushes} pushes · {moves} moves");
    let lenses = lens_titles(&mut client, XSB).await;
    assert_eq!(lenses.len(), 2, "{lenses:?}");
    assert!(
        lenses[0].starts_with(&format!("2:0-7 {counts}")),
        "{lenses:?}"
    );
    assert!(
        lenses[0].ends_with(&format!(" — insert solution [\"{XSB}\",1]")),
        "{lenses:?}"
    );
    assert_eq!(lenses[1], format!("10:0-8 unsolvable [\"{XSB}\",2]"));
    client
        .request(
            "workspace/executeCommand",
            json!({ "command": "boxls.insertSolution", "arguments": [XSB, 1] }),
        )
        .await;
    let applied = client
        .server_requests
        .iter()
        .rev()
        .find(|r| r["method"] == "workspace/applyEdit")
        .cloned()
        .expect("the command applies its edit");
    let edits = applied["params"]["edit"]["changes"][XSB]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(apply_edits(SOLVABLE_AND_NOT, &edits, false), inserted);
    // Clicking the unsolvable level's lens says why nothing is written.
    client
        .request(
            "workspace/executeCommand",
            json!({ "command": "boxls.insertSolution", "arguments": [XSB, 2] }),
        )
        .await;
    let said = client
        .wait_for(|m| m["method"] == "window/showMessage")
        .await;
    assert_eq!(said["params"]["message"], "Corridor is unsolvable");

    // Once written: the lens says so, and the action is gone.
    let text = change(
        &mut client,
        XSB,
        SOLVABLE_AND_NOT,
        2,
        &[json!({ "text": inserted })],
    )
    .await;
    client.settle(XSB).await;
    let lenses = lens_titles(&mut client, XSB).await;
    assert!(lenses[0].contains(" — solution up to date "), "{lenses:?}");
    let again = actions_at(&mut client, XSB, &text, at(3, 1), &["refactor.rewrite"]).await;
    assert!(
        again.iter().all(|(title, _)| title != "Insert solution"),
        "{again:?}"
    );
}

#[tokio::test]
async fn run_length_rows_expand_and_compress_and_read_the_same() {
    let (mut client, _) = Client::initialized(false).await;
    let text = "; 1\n\n7#|#.3 .#|# $$2 #\n#@4 #\n7#\n";
    open(&mut client, XSB, "sokoban", text, 1).await;
    let offered = actions_at(&mut client, XSB, text, at(3, 2), &["refactor.rewrite"]).await;
    let titles: Vec<&str> = offered.iter().map(|(title, _)| title.as_str()).collect();
    expect![[r#"["Expand run-length rows", "Compress run-length rows"]"#]]
        .assert_eq(&format!("{titles:?}"));
    expect![[r#"
        ; 1

        #######
        #.   .#
        # $$  #
        #@    #
        #######
    "#]]
    .assert_eq(&offered[0].1);
    expect![[r#"
        ; 1

        7#
        #.3 .#
        # 2$2 #
        #@4 #
        7#
    "#]]
    .assert_eq(&offered[1].1);
    let board = |text: &str| boxls::level::parse(text).levels[0].board.to_rows();
    assert_eq!(board(&offered[0].1), board(text));
    assert_eq!(board(&offered[1].1), board(text));
}

#[tokio::test]
async fn a_worse_recorded_solution_gets_the_best_known_once_solved() {
    let (mut client, _) = Client::initialized(false).await;
    let text = "#######\n#@$  .#\n#######\nSolution: RlrRR\nSolution: RlrlrRR\n";
    open(&mut client, XSB, "sokoban", text, 1).await;
    let diagnostics = published(&mut client, XSB, 1).await;
    client.settle(XSB).await;
    let params = json!({
        "textDocument": { "uri": XSB },
        "range": { "start": at(4, 12), "end": at(4, 12) },
        "context": { "diagnostics": diagnostics, "only": ["quickfix"] },
    });
    let actions = client.request("textDocument/codeAction", params).await;
    let action = &actions[0];
    assert_eq!(action["title"], "Replace with the best known solution");
    assert_eq!(action["isPreferred"], true);
    assert_eq!(action["diagnostics"][0]["code"], "solution-not-optimal");
    let edits = action["edit"]["changes"][XSB]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let fixed = apply_edits(text, &edits, false);
    assert_eq!(
        fixed,
        "#######\n#@$  .#\n#######\nSolution: RlrRR\nSolution: RRR\n"
    );
    assert_eq!(actions.as_array().map(Vec::len), Some(1), "{actions}");
}

fn converting_client() -> Value {
    json!({
        "workspace": {
            "applyEdit": true,
            "workspaceEdit": { "documentChanges": true, "resourceOperations": ["create"] }
        },
        "textDocument": {
            "codeAction": { "codeActionLiteralSupport": { "codeActionKind": { "valueSet": ["refactor", "quickfix", "source"] } } }
        }
    })
}

/// The conversion offered at `position` of `uri`: (title, new file's URI, its text).
async fn conversion_at(
    client: &mut Client,
    uri: &str,
    position: Value,
) -> Option<(String, String, String)> {
    let params = json!({
        "textDocument": { "uri": uri },
        "range": { "start": position, "end": position },
        "context": { "diagnostics": [], "only": ["refactor.extract"] },
    });
    let actions = client.request("textDocument/codeAction", params).await;
    let action = actions.as_array()?.first()?.clone();
    let changes = action["edit"]["documentChanges"].as_array()?.clone();
    assert_eq!(changes.len(), 2, "{action}");
    assert_eq!(changes[0]["kind"], "create");
    assert_eq!(
        changes[0]["options"],
        json!({ "overwrite": false, "ignoreIfExists": false })
    );
    let target = changes[0]["uri"].as_str()?.to_string();
    assert_eq!(changes[1]["textDocument"]["uri"], json!(target));
    let inserted = apply_edits("", changes[1]["edits"].as_array()?, false);
    Some((action["title"].as_str()?.to_string(), target, inserted))
}

#[tokio::test]
async fn conversions_create_a_free_sibling_file_for_a_client_that_can() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let base = format!("file://{}", dir.path().display());
    // The first name is taken: the next free one is used.
    std::fs::write(dir.path().join("levels-level-2.box"), "taken").expect("written");
    let mut client = Client::start(Options::default());
    client.initialize_with(converting_client(), json!({})).await;
    let uri = format!("{base}/levels.xsb");
    let text = "Title: Two\n######\n#@$$..#\n#######\n\nTitle: One\n#######\n#@ $ .#\n#######\n";
    open(&mut client, &uri, "sokoban", text, 1).await;
    assert_eq!(
        conversion_at(&mut client, &uri, at(2, 1)).await,
        None,
        "two boxes"
    );
    let (title, target, converted) = conversion_at(&mut client, &uri, at(7, 3))
        .await
        .expect("a one-box level converts");
    assert_eq!(title, "Convert One to .box");
    assert_eq!(target, format!("{base}/levels-level-2-2.box"));
    // The .box maze solves to the level's pushes.
    client.settle(&uri).await;
    let level = client
        .request(
            "boxls/maze",
            json!({ "textDocument": { "uri": uri }, "position": at(7, 3) }),
        )
        .await;
    let parsed = boxls::maze::parse(&converted);
    let grid = parsed.mazes[0].grid.clone().expect("a valid maze");
    let pushes = match boxls::solver::solve(&grid) {
        boxls::solver::Outcome::Solved(solution) => Some(solution.pushes),
        boxls::solver::Outcome::Unsolvable(_) => None,
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    assert_eq!(json!(pushes), level["pushes"], "{converted}");

    // And back: the maze as a level, which solves to the same pushes.
    let box_uri = format!("{base}/sample.box");
    open(&mut client, &box_uri, "box", &converted, 1).await;
    let (title, target, xsb) = conversion_at(&mut client, &box_uri, at(2, 2))
        .await
        .expect("a valid maze converts");
    assert_eq!(title, "Convert Maze #1 to XSB");
    assert_eq!(target, format!("{base}/sample-maze-1.xsb"));
    let position = boxls::level::parse(&xsb).levels[0]
        .board
        .position()
        .expect("a level");
    let solved = boxls::ide::solve_level(
        &position,
        std::time::Duration::from_secs(60),
        &never,
        &mut |_| {},
    );
    match solved {
        Some(boxls::ide::LevelStatus::Solved {
            pushes: level_pushes,
            ..
        }) => {
            assert_eq!(Some(u64::from(level_pushes)), pushes);
        }
        other => panic!("{other:?}"),
    }

    // A client that cannot create files is offered no conversion.
    let (mut plain, _) = Client::initialized(false).await;
    open(&mut plain, &uri, "sokoban", text, 1).await;
    assert_eq!(conversion_at(&mut plain, &uri, at(7, 3)).await, None);
}

/// `converting_client`, which also resolves code actions (their edit) and keeps `data`.
fn resolving_client() -> Value {
    let mut capabilities = converting_client();
    let code_action = &mut capabilities["textDocument"]["codeAction"];
    code_action["dataSupport"] = json!(true);
    code_action["resolveSupport"] = json!({ "properties": ["edit"] });
    capabilities
}

#[tokio::test]
async fn a_resolving_client_gets_a_conversions_text_only_when_it_chooses_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let uri = format!("file://{}/room.box", dir.path().display());
    // A 300×300 room: its XSB (90 KB) would go out on every move of the cursor.
    let n = 300;
    let mut rows = vec![vec!['.'; n]; n];
    (rows[0][1], rows[1][1], rows[n - 2][n - 2]) = ('S', 'B', 'T');
    let rows: Vec<String> = rows.into_iter().map(String::from_iter).collect();
    let text = format!("{n} {n}\n{}\n0 0\n", rows.join("\n"));

    let mut eager = Client::start(Options::default());
    eager.initialize_with(converting_client(), json!({})).await;
    open(&mut eager, &uri, "box", &text, 1).await;
    let (title, target, xsb) = conversion_at(&mut eager, &uri, at(2, 2))
        .await
        .expect("the eager client's conversion");

    let mut client = Client::start(Options::default());
    client.initialize_with(resolving_client(), json!({})).await;
    open(&mut client, &uri, "box", &text, 1).await;
    let params = json!({
        "textDocument": { "uri": uri },
        "range": { "start": at(2, 2), "end": at(2, 2) },
        "context": { "diagnostics": [], "only": ["refactor.extract"] },
    });
    let offered = client
        .request("textDocument/codeAction", params.clone())
        .await;
    assert!(offered.to_string().len() < 1000, "{offered}");
    let action = offered[0].clone();
    assert_eq!(action["title"], json!(title));
    assert!(action["edit"].is_null(), "{action}");
    let resolved = client.request("codeAction/resolve", action.clone()).await;
    let changes = resolved["edit"]["documentChanges"].clone();
    assert_eq!(changes[0]["kind"], "create", "{resolved}");
    assert_eq!(changes[0]["uri"], json!(target));
    let edits = changes[1]["edits"].as_array().cloned().unwrap_or_default();
    assert_eq!(apply_edits("", &edits, false), xsb);

    // Once the document has moved on, the offer no longer holds.
    let typed = json!({ "range": { "start": at(1, 3), "end": at(1, 4) }, "text": "#" });
    change(&mut client, &uri, &text, 2, &[typed]).await;
    let stale = client.request_raw("codeAction/resolve", action).await;
    assert_eq!(stale["error"]["code"], -32801, "{stale}");
    let again = client.request("textDocument/codeAction", params).await;
    assert_eq!(again[0]["data"]["version"], json!(2), "{again}");
}

#[tokio::test]
async fn maze_and_mazes_describe_levels() {
    let (mut client, _) = Client::initialized(false).await;
    let text = format!("{SOLVABLE_AND_NOT}\n; Broken\n\n#####\n#@$ #\n####\n");
    open(&mut client, XSB, "sokoban", &text, 1).await;
    client.settle(XSB).await;
    let mazes = client
        .request("boxls/mazes", json!({ "textDocument": { "uri": XSB } }))
        .await;
    let shown: Vec<String> =
        mazes["mazes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                format!(
                "{} {} {} {}x{} {} boxes lines {}-{} {} pushes={} optimal={} error={} reason={}",
                m["format"], m["maze"], m["title"], m["rows"], m["cols"], m["boxes"],
                m["headerLine"], m["lastLine"], m["status"], m["pushes"], m["optimal"],
                m["firstError"]["code"], m["reason"]
            )
            })
            .collect();
    expect![[r#"
        "xsb" 1 "Open room" 5x7 2 boxes lines 2-6 "solved" pushes=5 optimal=true error=null reason=null
        "xsb" 2 "Corridor" 3x8 2 boxes lines 10-12 "unsolvable" pushes=null optimal=null error=null reason="unsolvable (proved by the solver)"
        "xsb" 3 "Broken" 3x5 1 boxes lines 16-18 "invalid" pushes=null optimal=null error="box-goal-mismatch" reason="1 box but 0 goals: a level has as many of each""#]].assert_eq(&shown.join("\n"));
    let one = client
        .request(
            "boxls/maze",
            json!({ "textDocument": { "uri": XSB }, "position": at(0, 3) }),
        )
        .await;
    assert_eq!(one, mazes["mazes"][0]);
    let nothing = client
        .request(
            "boxls/maze",
            json!({ "textDocument": { "uri": XSB }, "position": at(30, 0) }),
        )
        .await;
    assert_eq!(nothing, Value::Null);
}

/// A push: the move's index, the box's start cell, its new cell.
type Push = (usize, usize, usize);

/// Plays a LURD string on the rows of an XSB board, knowing nothing of the server: the
/// player's cell after each move, and each push as (move, box's start cell, its new
/// cell) — boxes named by where they started.
fn play_lurd(rows: &[&str], lurd: &str) -> (Vec<usize>, Vec<Push>) {
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let at = |r: usize, c: usize| rows[r].as_bytes().get(c).copied().unwrap_or(b' ');
    let mut player = 0;
    // box cell -> the cell it started on
    let mut boxes = std::collections::BTreeMap::new();
    let mut goals = Vec::new();
    for r in 0..rows.len() {
        for c in 0..cols {
            let cell = r * cols + c;
            match at(r, c) {
                b'@' | b'+' => player = cell,
                b'$' | b'*' => {
                    boxes.insert(cell, cell);
                }
                _ => {}
            }
            if matches!(at(r, c), b'.' | b'*' | b'+') {
                goals.push(cell);
            }
        }
    }
    let (mut steps, mut pushes) = (Vec::new(), Vec::new());
    for (k, m) in lurd.chars().enumerate() {
        let delta: isize = match m.to_ascii_lowercase() {
            'u' => -(cols as isize),
            'd' => cols as isize,
            'l' => -1,
            'r' => 1,
            other => panic!("not LURD: {other}"),
        };
        let next = player.checked_add_signed(delta).expect("on the board");
        assert_ne!(
            at(next / cols, next % cols),
            b'#',
            "move {k} walks into a wall"
        );
        if let Some(start) = boxes.remove(&next) {
            assert!(
                m.is_ascii_uppercase(),
                "move {k} meets a box unwritten as a push"
            );
            let beyond = next.checked_add_signed(delta).expect("on the board");
            assert!(at(beyond / cols, beyond % cols) != b'#' && !boxes.contains_key(&beyond));
            boxes.insert(beyond, start);
            pushes.push((k, start, beyond));
        } else {
            assert!(m.is_ascii_lowercase(), "move {k} pushes nothing");
        }
        player = next;
        steps.push(player);
    }
    let mut ends: Vec<usize> = boxes.keys().copied().collect();
    ends.sort_unstable();
    goals.sort_unstable();
    assert_eq!(ends, goals, "the moves leave every box on a goal");
    (steps, pushes)
}

#[tokio::test]
async fn a_solved_level_replays_as_deltas_that_end_with_every_box_on_a_goal() {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, XSB, "sokoban", SOLVABLE_AND_NOT, 1).await;
    client.settle(XSB).await;
    let doc = json!({ "uri": XSB });
    let replay = client
        .request(
            "boxls/replay",
            json!({ "textDocument": doc, "position": at(4, 2) }),
        )
        .await;
    assert_eq!(replay["format"], "sokoban");
    assert_eq!(replay["maze"], 1);
    assert_eq!(replay["title"], "Open room");
    assert_eq!(replay["version"], 1);
    assert_eq!(
        (replay["rows"].clone(), replay["cols"].clone()),
        (json!(5), json!(7))
    );
    assert_eq!(replay["cells"][1], "#T...T#");
    assert_eq!(replay["player"], json!([3, 1]));
    assert_eq!(replay["boxes"], json!([[2, 2], [2, 3]]));
    assert_eq!(replay["goals"], json!([[1, 1], [1, 5]]));
    assert_eq!(replay["frames"], json!([]));
    let cols = 7;
    let cell = |v: &Value| v[0].as_u64().unwrap() as usize * cols + v[1].as_u64().unwrap() as usize;
    // The deltas applied to the start: every box on a goal at the end.
    let mut boxes: Vec<usize> = replay["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(cell)
        .collect();
    let pushed: Vec<Push> = replay["pushed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let n = |i: usize| p[i].as_u64().unwrap() as usize;
            (n(0), n(1), n(2))
        })
        .collect();
    for &(_, i, to) in &pushed {
        boxes[i] = to;
    }
    boxes.sort_unstable();
    let mut goals: Vec<usize> = replay["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(cell)
        .collect();
    goals.sort_unstable();
    assert_eq!(boxes, goals);
    // And they agree with an independent replay of the move string on the text's board.
    let moves = replay["moves"].as_str().expect("moves");
    let rows: Vec<&str> = SOLVABLE_AND_NOT.lines().skip(2).take(5).collect();
    let (steps, pushes) = play_lurd(&rows, moves);
    let sent: Vec<usize> = replay["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(sent, steps);
    let starts: Vec<usize> = replay["boxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(cell)
        .collect();
    let named: Vec<Push> = pushed
        .iter()
        .map(|&(k, i, to)| (k, starts[i], to))
        .collect();
    assert_eq!(named, pushes);
    assert_eq!(replay["pushes"], json!(pushes.len()));
    // Nothing to play on the unsolvable level, or between the levels.
    for position in [at(11, 2), at(8, 0)] {
        let answer = client
            .request_raw(
                "boxls/replay",
                json!({ "textDocument": doc, "position": position }),
            )
            .await;
        assert_eq!(answer["result"], Value::Null, "{answer}");
    }
}
