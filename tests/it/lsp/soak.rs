//! A model-based soak: random multi-line edits that create, break and merge headers
//! (CRLF, CR, astral characters, line separators), interleaved with requests, cancelled
//! requests, and closing and re-opening the document; at checkpoints every feature's
//! answer must equal a fresh server's on the same text. The same soak runs on a
//! Sokoban document (languageId `sokoban`): pieces of boards, run-length rows, titles,
//! metadata, comments and solution lines, so levels appear, merge, split and freeze.
//!
//! `cargo test` runs a short seeded soak. `BOXLS_SOAK_EDITS=40000` (and optionally
//! `BOXLS_SOAK_SEED=n`, `BOXLS_SOAK_EVERY=n` edits between checkpoints) runs a long one.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::client::{apply_edits, Client, URI};
use super::edits::{positions, Rng};

/// A piece chosen by the seeded generator: the same soak every run.
fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// What a soak edits: a document of one format, the pieces its edits insert, and how
/// its text starts (some of the first pieces, then `end`) and is cut back to.
struct Kind {
    uri: &'static str,
    language: &'static str,
    pieces: &'static [&'static str],
    start_pieces: usize,
    end: &'static str,
}

/// `.box`: whole mazes, headers that are right, wrong or too large, rows, comments
/// and solution lines, line breaks of every kind, astral characters.
const MAZES: Kind = Kind {
    uri: URI,
    language: "box",
    pieces: &BOX_PIECES,
    start_pieces: 3,
    end: "0 0\n",
};

/// Sokoban: whole levels (one box or several, run-length rows), board rows that
/// freeze boxes or open the border, titles, metadata, comments, solutions (legal,
/// illegal, not LURD), line breaks of every kind, astral characters.
const LEVELS: Kind = Kind {
    uri: "file:///work/levels.xsb",
    language: "sokoban",
    pieces: &LEVEL_PIECES,
    start_pieces: 4,
    end: "\n",
};

const LEVEL_PIECES: [&str; 29] = [
    "\nTitle: one\n#####\n#@$.#\n#####\n",
    "\n; two boxes\n######\n#@$$.#\n#   .#\n######\n",
    "\nLevel 3\r\n#####\r\n#+*$#\r\n# . #\r\n#####\r\n",
    "\n7#|#@$2-.#|7#\n",
    "\nTitle: cornered\n#####\n#$ .#\n#@  #\n#####\n",
    "#$$ #\n",
    "#   #\n",
    "#*  #\n",
    "$",
    "*",
    ".",
    "@",
    "+",
    "#",
    " ",
    "-",
    "3$",
    "Solution: rR\n",
    "Solution: uuXX\n",
    "Author: é 🧱\n",
    "Comment:\nfree text\nComment-End:\n",
    ":: note\n",
    "\u{2028}\n",
    "\n",
    "\r\n",
    "\r",
    "x",
    "|",
    "",
];

const BOX_PIECES: [&str; 22] = [
    "1 3\nSBT\n",
    "2 4\r\nS.BT\r\n....\r\n",
    "1 4\rSB.T\r",
    "1 3\n",
    "0 5\n",
    "9999 9999\n",
    "2 3\n",
    "SBT\n",
    "S#BT\n",
    "#.SBT",
    "; solution: EE\n",
    "; solution: eW\n",
    "; 🧱 é\n",
    "\u{2028}\n",
    "\n",
    "\r\n",
    "\r",
    " ",
    "x",
    "0 0\n",
    "",
    "T",
];

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

/// A random edit of `text`: a range (usually within a few lines) and what replaces it.
fn random_edit(rng: &mut Rng, kind: &Kind, text: &str) -> Value {
    let spots = positions(text);
    let start = spots[rng.below(spots.len())];
    let reach = [0, 0, 1, 2, 5, 12, 40][rng.below(7)];
    let from = spots.partition_point(|&p| p < start);
    let end = spots[(from + reach).min(spots.len() - 1)];
    let mut insert = String::new();
    for _ in 0..[0, 1, 1, 1, 2, 3][rng.below(6)] {
        insert.push_str(pick(rng, kind.pieces));
    }
    json!({ "range": super::range(start, end), "text": insert })
}

/// What every feature answers for the document, settled, as one value.
async fn answers(client: &mut Client, kind: &Kind, text: &str) -> Value {
    let doc = || json!({ "uri": kind.uri });
    let settled = client.settle(kind.uri).await;
    let version = settled["version"].clone();
    let diagnostics = client.last_published(kind.uri, &version);
    let lines = positions(text).last().map_or(0, |p| p.0) + 1;
    let everything =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": lines, "character": 0 } });
    let mut all = json!({ "diagnostics": diagnostics });
    let requests = [
        (
            "inlayHint",
            "textDocument/inlayHint",
            json!({ "textDocument": doc(), "range": everything }),
        ),
        (
            "symbols",
            "textDocument/documentSymbol",
            json!({ "textDocument": doc() }),
        ),
        (
            "folding",
            "textDocument/foldingRange",
            json!({ "textDocument": doc() }),
        ),
        (
            "tokens",
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc() }),
        ),
        (
            "range",
            "textDocument/semanticTokens/range",
            json!({ "textDocument": doc(), "range": everything }),
        ),
        (
            "lens",
            "textDocument/codeLens",
            json!({ "textDocument": doc() }),
        ),
        (
            "formatting",
            "textDocument/formatting",
            json!({ "textDocument": doc(), "options": { "tabSize": 4, "insertSpaces": true } }),
        ),
        ("mazes", "boxls/mazes", json!({ "textDocument": doc() })),
        (
            "text",
            "boxls/documentText",
            json!({ "textDocument": doc() }),
        ),
    ];
    for (name, method, params) in requests {
        let mut answer = client.request(method, params).await;
        if name == "tokens" {
            answer["resultId"] = Value::Null; // ids count the server's answers
        }
        if name == "mazes" {
            answer["version"] = Value::Null;
            for maze in answer["mazes"].as_array_mut().into_iter().flatten() {
                maze["version"] = Value::Null;
            }
        }
        all[name] = answer;
    }
    // Hover and code actions on a sample of lines: the header, a row, after each.
    let step = (lines / 12).max(1);
    let mut hovers = Vec::new();
    let mut actions = Vec::new();
    for line in (0..lines).step_by(step as usize) {
        let position = json!({ "line": line, "character": 1 });
        hovers.push(
            client
                .request(
                    "textDocument/hover",
                    json!({ "textDocument": doc(), "position": position }),
                )
                .await,
        );
        let here = json!({ "start": position, "end": position });
        let params =
            json!({ "textDocument": doc(), "range": here, "context": { "diagnostics": [] } });
        let mut offered = client
            .request("textDocument/codeAction", params.clone())
            .await;
        // *Make Maze #k hardest* carries its counts and edit once the server has
        // searched; its command waits for the search, so both servers then answer
        // from a finished one.
        if finish_hardest_searches(client, &offered).await {
            offered = client.request("textDocument/codeAction", params).await;
        }
        // The version an action says it was offered for is the document's, which the
        // two servers count differently (like `mazes` above).
        for action in offered.as_array_mut().into_iter().flatten() {
            if action["data"]["version"].is_number() {
                action["data"]["version"] = Value::Null;
            }
        }
        actions.push(offered);
    }
    all["hover"] = json!(hovers);
    all["actions"] = json!(actions);
    all
}

/// Runs the `boxls.makeHardest` commands among `actions` (the test client applies
/// nothing); whether there were any.
async fn finish_hardest_searches(client: &mut Client, actions: &Value) -> bool {
    let commands: Vec<Value> = actions
        .as_array()
        .into_iter()
        .flatten()
        .filter(|action| action["command"]["command"] == "boxls.makeHardest")
        .map(|action| action["command"].clone())
        .collect();
    for command in &commands {
        client
            .request_raw(
                "workspace/executeCommand",
                json!({ "command": command["command"], "arguments": command["arguments"] }),
            )
            .await;
    }
    !commands.is_empty()
}

async fn fresh(kind: &Kind, text: &str) -> Value {
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, kind, text, 1).await;
    answers(&mut client, kind, text).await
}

async fn open(client: &mut Client, kind: &Kind, text: &str, version: i64) {
    client
        .notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": kind.uri, "languageId": kind.language, "version": version, "text": text } }),
        )
        .await;
}

/// Requests while edits stream in, some cancelled at once; their answers are not
/// compared (they describe whatever version they saw), only that each gets one.
async fn noise(client: &mut Client, rng: &mut Rng, kind: &Kind, text: &str) {
    let doc = || json!({ "uri": kind.uri });
    let spots = positions(text);
    let (line, character) = spots[rng.below(spots.len())];
    let position = json!({ "line": line, "character": character });
    let (method, params) = match rng.below(5) {
        0 => (
            "textDocument/hover",
            json!({ "textDocument": doc(), "position": position }),
        ),
        1 => (
            "boxls/maze",
            json!({ "textDocument": doc(), "position": position }),
        ),
        2 => (
            "boxls/replay",
            json!({ "textDocument": doc(), "position": position }),
        ),
        3 => (
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc() }),
        ),
        _ => (
            "textDocument/codeAction",
            json!({ "textDocument": doc(), "range": { "start": position, "end": position }, "context": { "diagnostics": [] } }),
        ),
    };
    if rng.below(3) == 0 {
        let id = 900_000_000 + rng.below(1_000_000);
        client
            .send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        client.notify("$/cancelRequest", json!({ "id": id })).await;
    } else {
        let answer = client.request_raw(method, params).await;
        let cancelled_or_answered = answer.get("result").is_some() || answer.get("error").is_some();
        assert!(cancelled_or_answered, "{answer}");
    }
}

/// Runs the soak; the number of checkpoints, and every diagnostic code they saw.
async fn soak(kind: &Kind, seed: u64, edits: u64, every: u64) -> (u64, BTreeSet<String>) {
    let doc = || json!({ "uri": kind.uri });
    let mut rng = Rng(seed);
    let mut text: String = (0..8)
        .map(|_| pick(&mut rng, &kind.pieces[..kind.start_pieces]))
        .collect::<String>()
        + kind.end;
    let (mut client, _) = Client::initialized(false).await;
    open(&mut client, kind, &text, 0).await;
    let mut version = 0;
    let mut checkpoints = 0;
    let mut codes = BTreeSet::new();
    for n in 1..=edits {
        match rng.below(200) {
            0 => {
                // Close and re-open: everything starts again from the text.
                client
                    .notify("textDocument/didClose", json!({ "textDocument": doc() }))
                    .await;
                version += 1;
                open(&mut client, kind, &text, version).await;
            }
            1..=20 => noise(&mut client, &mut rng, kind, &text).await,
            _ => {}
        }
        let changes: Vec<Value> = (0..1 + rng.below(3))
            .map(|_| {
                let change = random_edit(&mut rng, kind, &text);
                text = apply_edits(&text, std::slice::from_ref(&change), false);
                change
            })
            .collect();
        version += 1;
        client
            .notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": kind.uri, "version": version }, "contentChanges": changes }),
            )
            .await;
        // Keep the document from growing without bound.
        if text.len() > 4000 {
            let cut = text.len() / 2;
            let spots = positions(&text);
            let from = spots[spots.len() / 2];
            let change = json!({ "range": super::range(from, *spots.last().unwrap_or(&from)), "text": kind.end });
            text = apply_edits(&text, std::slice::from_ref(&change), false);
            version += 1;
            client
                .notify(
                    "textDocument/didChange",
                    json!({ "textDocument": { "uri": kind.uri, "version": version }, "contentChanges": [change] }),
                )
                .await;
            assert!(text.len() <= cut + 4000);
        }
        if n % every == 0 || n == edits {
            let kept = answers(&mut client, kind, &text).await;
            let expected = fresh(kind, &text).await;
            assert_eq!(kept["text"], json!(text), "seed {seed}, edit {n}");
            for (key, value) in expected.as_object().into_iter().flatten() {
                assert_eq!(
                    &kept[key], value,
                    "seed {seed}, edit {n}: `{key}` differs from a fresh server's on\n{text:?}"
                );
            }
            checkpoints += 1;
            let diagnostics = kept["diagnostics"].as_array().into_iter().flatten();
            codes.extend(diagnostics.filter_map(|d| d["code"].as_str().map(String::from)));
            client.history.clear();
            client.notifications.clear();
        }
    }
    (checkpoints, codes)
}

/// The soak's length, checkpoint spacing and seeds: short by default, long and
/// reproducible from the environment (see the module's doc).
fn soak_plan() -> (u64, u64, Vec<u64>) {
    let edits = env_number("BOXLS_SOAK_EDITS").unwrap_or(600);
    let every = env_number("BOXLS_SOAK_EVERY").unwrap_or(25).max(1);
    let seeds: Vec<u64> = match env_number("BOXLS_SOAK_SEED") {
        Some(seed) => vec![seed],
        None => vec![1, 2],
    };
    (edits, every, seeds)
}

#[tokio::test]
async fn every_answer_equals_a_fresh_servers_after_random_edits() {
    let (edits, every, seeds) = soak_plan();
    for seed in seeds {
        let (checkpoints, _) = soak(&MAZES, seed, edits, every).await;
        eprintln!(
            "soak: seed {seed}, {edits} edits, {checkpoints} checkpoints equal to a fresh server"
        );
    }
}

/// The same soak on a Sokoban document: its levels read again after every change must
/// answer as a fresh server's (diagnostics with the deadlocks, symbols, folding,
/// tokens, hover, formatting, the `.box`-only requests' empty answers).
#[tokio::test]
async fn every_answer_on_levels_equals_a_fresh_servers_after_random_edits() {
    let (edits, every, seeds) = soak_plan();
    for seed in seeds {
        let (checkpoints, codes) = soak(&LEVELS, seed, edits, every).await;
        eprintln!(
            "levels soak: seed {seed}, {edits} edits, {checkpoints} checkpoints equal to a fresh server, codes seen: {codes:?}"
        );
        // Not a soak of empty answers: the edits made deadlocks and broken levels.
        for code in [
            "frozen-boxes",
            "dead-square",
            "unknown-character",
            "open-border",
        ] {
            assert!(
                codes.contains(code),
                "seed {seed}: no checkpoint saw {code}: {codes:?}"
            );
        }
    }
}
