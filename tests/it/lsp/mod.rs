//! End-to-end language server tests: JSON-RPC to the real server over in-process pipes.

pub mod client;
mod conformance;
mod design;
mod design_busy;
pub mod edits;
mod extensions;
mod features;
mod levels;
mod process;
mod robust;
mod soak;
mod trust;

use serde_json::{json, Value};

use client::{Client, URI};

const SAMPLE: &str = include_str!("../../../examples/sample.box");

/// `code@line:col-line:col` for each diagnostic, compact enough for snapshots.
fn summarize(diagnostics: &Value) -> String {
    diagnostics
        .as_array()
        .map(|all| {
            all.iter()
                .map(|d| {
                    let r = &d["range"];
                    format!(
                        "{}@{}:{}-{}:{} {}",
                        d["code"].as_str().unwrap_or("?"),
                        r["start"]["line"],
                        r["start"]["character"],
                        r["end"]["line"],
                        r["end"]["character"],
                        d["message"].as_str().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({ "start": { "line": start.0, "character": start.1 }, "end": { "line": end.0, "character": end.1 } })
}

fn doc() -> Value {
    json!({ "uri": URI })
}

/// Sends an incremental change and returns the client's new copy of the text.
pub async fn change(client: &mut Client, text: &str, version: i64, edit: Value) -> String {
    let updated = client::apply_edits(text, std::slice::from_ref(&edit), client.utf8);
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": [edit] }),
        )
        .await;
    updated
}

pub fn edit(start: (u32, u32), end: (u32, u32), text: &str) -> Value {
    json!({ "range": range(start, end), "text": text })
}
