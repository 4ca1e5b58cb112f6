//! Document synchronisation under many edits, exact ranges with astral characters and
//! CRLF, quick fixes applied by the client, and stale solve results.

use serde_json::{json, Value};

use super::client::{action_edits, apply_edits, Client, URI};
use super::{change, doc, edit, summarize};

/// A deterministic generator for edit positions (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// (line, UTF-16 column) of every character boundary and line end in `text`.
pub fn positions(text: &str) -> Vec<(u32, u32)> {
    let mut out = vec![];
    let (mut line, mut col) = (0u32, 0u32);
    let mut chars = text.chars().peekable();
    out.push((0, 0));
    while let Some(ch) = chars.next() {
        if ch == '\r' && chars.peek() == Some(&'\n') {
            chars.next();
        }
        if ch == '\n' || ch == '\r' {
            line += 1;
            col = 0;
        } else {
            col += ch.len_utf16() as u32;
        }
        out.push((line, col));
    }
    out
}

const PIECES: [&str; 11] = [
    "#",
    ".",
    "S",
    "B",
    "T",
    "\n",
    "\r\n",
    "\r",
    "3 4\n",
    "; 🧱 é\n",
    "#.SBT",
];

#[tokio::test]
async fn a_thousand_random_edits_keep_server_and_client_in_step() {
    let (mut client, _) = Client::initialized(false).await;
    let mut text = include_str!("../../../examples/sample.box").to_string();
    client.open(&text, 0).await;
    let mut rng = Rng(7);
    for version in 1..=1000 {
        let spots = positions(&text);
        let a = spots[rng.below(spots.len())];
        let b = spots[rng.below(spots.len())];
        let (start, end) = if a <= b { (a, b) } else { (b, a) };
        // Mostly small deletions, so the text neither vanishes nor explodes.
        let end = if rng.below(3) == 0 { end } else { start };
        let insert = if rng.below(4) == 0 {
            ""
        } else {
            PIECES[rng.below(PIECES.len())]
        };
        text = change(&mut client, &text, version, edit(start, end, insert)).await;
        // `boxls/documentText` also checks the server's rope and incremental parse
        // against its text: check along the way, not only at the end.
        if version % 10 == 0 {
            assert_eq!(client.server_text().await, text, "version {version}");
        }
    }
    assert_eq!(client.server_text().await, text);
    // And the server's parse agrees: every symbol's range lies in the client's text.
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": doc() }),
        )
        .await;
    let lines = positions(&text).last().map_or(0, |p| p.0);
    for symbol in symbols.as_array().into_iter().flatten() {
        assert!(symbol["range"]["end"]["line"].as_u64().unwrap_or(u64::MAX) <= u64::from(lines));
    }
}

/// Mazes that each carry diagnostics (unsolvable, a bad cell, a wrong recorded
/// solution), some with CRLF or blanks before the header, and one without any.
const NOISY_MAZES: [&str; 5] = [
    "1 4\nS#BT\n",
    "  1 3\r\nSxT\r\n",
    "1 3\nSBT\n; solution: W\n",
    "2 3\nSBT\n...\n; note\n",
    "\t1 4\r\nT#BS\r\n",
];

/// The server keeps each maze's converted diagnostics across versions and re-does
/// only the mazes an edit touched: after random edits anywhere (line breaks added and
/// removed before mazes, blanks before headers, headers broken), what it publishes
/// must be what a fresh server publishes for the same text.
#[tokio::test]
async fn kept_diagnostics_match_a_fresh_open_after_any_edit() {
    let mut rng = Rng(0x5eed);
    let mut text: String = (0..40)
        .map(|_| NOISY_MAZES[rng.below(NOISY_MAZES.len())])
        .collect();
    let (mut client, _) = Client::initialized(false).await;
    client.open(&text, 0).await;
    let pieces = ["\n", "\r\n", "\r", " ", "#", "x", "1 3\n", "", "S"];
    client.settled_diagnostics(0).await;
    let mut answered = last_full(&mut client).await;
    for version in 1..=300 {
        let spots = positions(&text);
        let start = spots[rng.below(spots.len())];
        let end = if rng.below(4) == 0 {
            spots[spots.len().min(spots.partition_point(|&p| p <= start) + 2) - 1]
        } else {
            start
        };
        let insert = pieces[rng.below(pieces.len())];
        text = change(&mut client, &text, version, edit(start, end, insert)).await;
        if version % 10 == 0 {
            let kept = client.settled_diagnostics(version).await;
            assert!(kept.as_array().is_some_and(|all| all.len() > 20), "{kept}");
            let (diagnostics, tokens) = fresh_answers(&text).await;
            assert_eq!(kept, diagnostics, "version {version}:\n{text}");
            // Whole-document tokens are put together from kept maze sections: the
            // same as a fresh server's, and as the tokens of a range over everything.
            // As an editor does: the delta since the last answer, applied to it.
            let expected = range_tokens(&mut client).await;
            let (id, data) = &mut answered;
            *id = apply_delta(&mut client, id, data).await;
            assert_eq!(json!(data), expected, "the delta, version {version}");
            let kept_tokens = all_tokens(&mut client).await;
            assert_eq!(kept_tokens, tokens, "version {version}:\n{text}");
            assert_eq!(kept_tokens, expected);
            answered = last_full(&mut client).await;
        }
    }
}

/// Typing in the blanks before a header moves that maze's header columns although the
/// maze itself is not re-read.
#[tokio::test]
async fn typing_before_a_header_moves_its_diagnostics() {
    let mut text = "1 4\nS#BT\n  1 4\nS#BT\n".to_string();
    let (mut client, _) = Client::initialized(false).await;
    client.open(&text, 0).await;
    client.settled_diagnostics(0).await;
    for (version, column) in [(1, 0), (2, 1), (3, 3)] {
        text = change(
            &mut client,
            &text,
            version,
            edit((2, column), (2, column), " "),
        )
        .await;
        let kept = client.settled_diagnostics(version).await;
        assert_eq!(kept, fresh_diagnostics(&text).await, "{text:?}");
    }
}

/// The settled diagnostics of `text` opened in a new server.
async fn fresh_diagnostics(text: &str) -> Value {
    fresh_answers(text).await.0
}

/// The settled diagnostics and all semantic tokens of `text` opened in a new server.
async fn fresh_answers(text: &str) -> (Value, Value) {
    let (mut client, _) = Client::initialized(false).await;
    client.open(text, 1).await;
    let diagnostics = client.settled_diagnostics(1).await;
    (diagnostics, all_tokens(&mut client).await)
}

/// `semanticTokens/full`.
async fn all_tokens(client: &mut Client) -> Value {
    let answer = client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc() }),
        )
        .await;
    answer["data"].clone()
}

/// A `full` answer: its result id and integers.
async fn last_full(client: &mut Client) -> (Value, Vec<Value>) {
    let answer = client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc() }),
        )
        .await;
    let data = answer["data"].as_array().cloned().unwrap_or_default();
    (answer["resultId"].clone(), data)
}

/// Asks `full/delta` since answer `id`, applies its edits to `data`; the new id.
async fn apply_delta(client: &mut Client, id: &Value, data: &mut Vec<Value>) -> Value {
    let answer = client
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({ "textDocument": doc(), "previousResultId": id }),
        )
        .await;
    let edits = answer["edits"]
        .as_array()
        .expect("a delta, not full tokens");
    // Applied from the last, as LSP's edits do not shift each other's starts.
    for edit in edits.iter().rev() {
        let start = edit["start"].as_u64().expect("start") as usize;
        let deleted = edit["deleteCount"].as_u64().expect("deleteCount") as usize;
        let inserted = edit["data"].as_array().cloned().unwrap_or_default();
        data.splice(start..start + deleted, inserted);
    }
    answer["resultId"].clone()
}

/// `semanticTokens/range` over the whole document (computed without kept sections).
async fn range_tokens(client: &mut Client) -> Value {
    let everything = json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 1_000_000, "character": 0 } });
    let answer = client
        .request(
            "textDocument/semanticTokens/range",
            json!({ "textDocument": doc(), "range": everything }),
        )
        .await;
    answer["data"].clone()
}

#[tokio::test]
async fn astral_characters_and_crlf_keep_ranges_exact_in_both_encodings() {
    let text = "; 🧱 wall\r\n1 5\r\nS🧱B.T\r\n0 0\r\n";
    for utf8 in [false, true] {
        let (mut client, _) = Client::initialized(utf8).await;
        client.open(text, 1).await;
        let diagnostics = client.diagnostics_for(1).await;
        let expected = if utf8 {
            "bad-char@2:1-2:5 `🧱` is not a cell: use `#` `.` `S` `B` `T`"
        } else {
            "bad-char@2:1-2:3 `🧱` is not a cell: use `#` `.` `S` `B` `T`"
        };
        assert_eq!(summarize(&diagnostics), expected, "utf8: {utf8}");
        // Replace the brick through the client's positions; the row becomes valid.
        let end = if utf8 { 5 } else { 3 };
        let fixed = change(&mut client, text, 2, edit((2, 1), (2, end), ".")).await;
        assert_eq!(fixed, "; 🧱 wall\r\n1 5\r\nS.B.T\r\n0 0\r\n");
        let mut diagnostics = client.diagnostics_for(2).await;
        while diagnostics != json!([]) {
            diagnostics = client.diagnostics_for(2).await;
        }
        let tokens = client
            .request(
                "textDocument/semanticTokens/full",
                json!({ "textDocument": doc() }),
            )
            .await;
        let comment = tokens["data"]
            .as_array()
            .map(|d| d[..5].to_vec())
            .unwrap_or_default();
        let comment_length = if utf8 { 11 } else { 9 };
        assert_eq!(
            comment,
            [
                json!(0),
                json!(0),
                json!(comment_length),
                json!(6),
                json!(0)
            ]
        );
        assert_eq!(client.server_text().await, fixed);
    }
}

/// Applies the first quick fix offered for a diagnostic with `code`, as a full-text
/// change, and returns the new text and the new diagnostics.
async fn apply_quick_fix(
    client: &mut Client,
    text: &str,
    version: i64,
    code: &str,
) -> (String, Value) {
    let diagnostics = settled(client, version - 1).await;
    let target = diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| d["code"] == code)
        .cloned()
        .unwrap_or_else(|| panic!("a {code} diagnostic in {diagnostics}"));
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": doc(), "range": target["range"], "context": { "diagnostics": [target], "only": ["quickfix"] } }),
        )
        .await;
    let fix = actions
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["diagnostics"][0]["code"] == code)
        .cloned()
        .unwrap_or_else(|| panic!("a quick fix for {code} in {actions}"));
    let new_text = apply_edits(text, &action_edits(&fix), false);
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": [{ "text": new_text }] }),
        )
        .await;
    let after = settled(client, version).await;
    (new_text, after)
}

async fn settled(client: &mut Client, version: i64) -> Value {
    client.settled_diagnostics(version).await
}

fn codes(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str().map(String::from))
        .collect()
}

#[tokio::test]
async fn every_quick_fix_applies_cleanly_and_removes_its_diagnostic() {
    let text = "1 7\nsB....t\n2 4\nS...\n.B..\n.T..\n....\n1 7\nSB....T\n; solution: EEEEweE\n1 5\nS-B_T\n";
    let (mut client, _) = Client::initialized(false).await;
    client.open(text, 0).await;
    let mut text = text.to_string();
    let mut version = 1;
    for code in [
        "bad-char",
        "bad-char",
        "too-many-rows",
        "missing-terminator",
        "bad-char",
        "bad-char",
    ] {
        let before = codes(&settled(&mut client, version - 1).await)
            .iter()
            .filter(|c| *c == code)
            .count();
        let (new_text, after) = apply_quick_fix(&mut client, &text, version, code).await;
        let remaining = codes(&after).iter().filter(|c| *c == code).count();
        assert_eq!(
            remaining,
            before - 1,
            "{code} fixed in:\n{new_text}\n{}",
            summarize(&after)
        );
        text = new_text;
        version += 1;
    }
    expect_test::expect![[r#"
        1 7
        SB....T
        4 4
        S...
        .B..
        .T..
        ....
        1 7
        SB....T
        ; solution: EEEEweE
        1 5
        S.B.T
        0 0
    "#]]
    .assert_eq(&text);
    // The recorded solution is legal but not optimal: its fix writes the optimum.
    let (text, after) = apply_quick_fix(&mut client, &text, version, "solution-not-optimal").await;
    assert!(text.contains("; solution: EEEEE\n"), "{text}");
    assert!(codes(&after).is_empty(), "{}", summarize(&after));
}

/// A maze whose exhaustive search takes a while (over half a second here): the largest
/// room the default limits solve, with a pillar on every other cell of every other row
/// (so the way round the box is rarely a one-lookup detour), and the target walled in,
/// so the solver must explore every state before saying "unsolvable".
pub fn slow_maze(size: usize, marker: char) -> String {
    let mut rows: Vec<Vec<char>> = vec![vec!['.'; size]; size];
    for r in (2..size - 4).step_by(2) {
        for c in (2..size - 4).step_by(2) {
            rows[r][c] = '#';
        }
    }
    rows[1][1] = 'S';
    rows[size / 2][size / 2] = 'B';
    rows[size - 2][size - 2] = 'T';
    for (r, c) in [
        (size - 3, size - 2),
        (size - 1, size - 2),
        (size - 2, size - 3),
        (size - 2, size - 1),
    ] {
        rows[r][c] = '#';
    }
    rows[0][size - 1] = marker;
    let body: Vec<String> = rows.into_iter().map(String::from_iter).collect();
    format!("{size} {size}\n{}\n0 0\n", body.join("\n"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_during_a_slow_solve_never_publishes_the_stale_result() {
    // The second maze's solve must finish, however busy this machine is: no time limit
    // that a loaded machine could hit (it answered `too-large` at a load of 15).
    let mut client = Client::start(boxls::lsp::Options::default());
    let settings = json!({ "solve": { "timeoutMs": 86_400_000 } });
    client.configuration = settings.clone();
    client.initialize(false).await;
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "boxls": settings } }),
        )
        .await;
    let first = slow_maze(2000, '.');
    client.open(&first, 1).await;
    // Structural diagnostics for version 1 come at once (none), the solve is running.
    assert_eq!(client.diagnostics_for(1).await, json!([]));
    let second = slow_maze(2000, '#');
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": second }] }),
        )
        .await;
    let mut final_diagnostics = client.diagnostics_for(2).await;
    while final_diagnostics == json!([]) {
        final_diagnostics = client.diagnostics_for(2).await;
    }
    assert_eq!(codes(&final_diagnostics), ["unsolvable"]);
    assert_progress_is_well_formed(&mut client).await;
    // Version 1 was published once, structurally; its solve result never was.
    let first_versions: Vec<&Value> = client
        .history
        .iter()
        .filter(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == json!(1)
        })
        .collect();
    assert_eq!(first_versions.len(), 1, "{first_versions:?}");
    assert_eq!(first_versions[0]["params"]["diagnostics"], json!([]));
}

/// Every `$/progress` token that began also ends, with only reports in between.
async fn assert_progress_is_well_formed(client: &mut Client) {
    let kinds = |client: &Client, token: &Value| -> Vec<String> {
        client
            .history
            .iter()
            .filter(|m| m["method"] == "$/progress" && &m["params"]["token"] == token)
            .filter_map(|m| m["params"]["value"]["kind"].as_str().map(String::from))
            .collect()
    };
    let tokens: Vec<Value> = client
        .server_requests
        .iter()
        .filter(|r| r["method"] == "window/workDoneProgress/create")
        .map(|r| r["params"]["token"].clone())
        .collect();
    assert!(!tokens.is_empty(), "a solve this slow reports progress");
    for token in tokens {
        // A cancelled solve ends its progress once the solver notices the flag.
        while kinds(client, &token).last().map(String::as_str) != Some("end") {
            client.wait_for(|m| m["method"] == "$/progress").await;
        }
        let kinds = kinds(client, &token);
        assert_eq!(
            kinds.first().map(String::as_str),
            Some("begin"),
            "{kinds:?}"
        );
        assert!(
            kinds[1..kinds.len() - 1].iter().all(|k| k == "report"),
            "{kinds:?}"
        );
    }
}

#[test]
fn positions_cover_every_boundary() {
    assert_eq!(
        positions("a🧱\r\nb"),
        [(0, 0), (0, 1), (0, 3), (1, 0), (1, 1)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_limit_stops_a_solve_with_too_large() {
    // A solve that runs until stopped: how fast this machine solves cannot matter.
    let mut client = Client::start(boxls::lsp::Options {
        stall_on_cells: Some(400 * 400),
        ..boxls::lsp::Options::default()
    });
    let settings = json!({ "solve": { "timeoutMs": 1 } });
    // Pulled by the server after `initialized`, and pushed before the document opens.
    client.configuration = settings.clone();
    client.initialize(false).await;
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "boxls": settings } }),
        )
        .await;
    // The maze comes once the configuration is certainly in force (`boxls/settled`
    // waits for the pulled one): tower-lsp may run the open before the push.
    client.open("", 1).await;
    client.settle(URI).await;
    client
        .notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": URI, "version": 2 },
                "contentChanges": [{ "text": slow_maze(400, '.') }]
            }),
        )
        .await;
    let diagnostics = client.settled_diagnostics(2).await;
    assert_eq!(
        summarize(&diagnostics),
        "too-large@0:0-0:7 not solved: the solve took longer than the configured 1 ms (boxls.solve.timeoutMs)"
    );
    let hints = client.settled_hints().await;
    assert_eq!(hints[0]["label"], "not solved: too large");
}
