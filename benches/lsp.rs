//! Editor latency: the real server in-process, a file of 1,000 generated 20×20 mazes,
//! then 200 one-cell edits to one maze; then one 2000×2000 room, then 20 one-cell edits
//! to it. Prints the time from `didChange` to the matching `publishDiagnostics`
//! (structural, then with the solve), median and 99th percentile, and the time for the
//! initial open.
//!
//! ```sh
//! cargo bench --bench lsp
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

#[allow(dead_code)]
#[path = "../tests/it/lsp/client.rs"]
mod client;
#[allow(dead_code)]
#[path = "../tests/it/generate.rs"]
mod generate;

use std::time::{Duration, Instant};

use serde_json::json;

use client::{Client, URI};
use generate::Rng;

const MAZES: usize = 1_000;
const EDITS: usize = 200;
const EDITED_MAZE: usize = 500;
const SEED: u64 = 0x15_0001;

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("lsp bench: skipped (run it with `cargo bench --bench lsp`)");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(run());
    runtime.block_on(huge_room());
}

async fn run() {
    let mut rng = Rng::new(SEED);
    let grids: Vec<_> = (0..MAZES)
        .map(|_| generate::mixed(&mut rng, (20, 20)))
        .collect();
    let text = generate::render_file(&grids);
    let (mut client, _) = Client::initialized(false).await;

    let (structural_open, solved_open) = timed_open(&mut client, &text).await;

    // Row 1 of the edited maze's rows starts after its header line: each maze takes
    // 21 lines (header + 20 rows).
    let first_row_line = EDITED_MAZE * 21 + 1;
    let cells = editable_cells(&grids[EDITED_MAZE]);
    let mut current: Vec<char> = grids[EDITED_MAZE].to_rows().concat().chars().collect();
    let (mut structural, mut solved) = (Vec::new(), Vec::new());
    for (i, &cell) in cells.iter().take(EDITS).enumerate() {
        let version = i as i64 + 2;
        current[cell] = if current[cell] == '#' { '.' } else { '#' };
        let (row, col) = (cell / 20, cell % 20);
        let line = first_row_line + row;
        let (to_structural, to_solved) =
            timed_edit(&mut client, version, (line, col), current[cell]).await;
        structural.push(to_structural);
        solved.push(to_solved);
    }
    println!(
        "{MAZES} mazes of 20×20 ({} bytes), {EDITS} one-cell edits to maze #{}",
        text.len(),
        EDITED_MAZE + 1
    );
    println!("open → structural diagnostics   {structural_open:>10.1?}");
    println!("open → all mazes solved         {solved_open:>10.1?}");
    report("didChange → structural diagnostics", &mut structural);
    report("didChange → diagnostics with solve", &mut solved);
}

const ROOM: usize = 2000;
const ROOM_EDITS: usize = 20;

/// One 2000×2000 room with 2% pillars (4 MB), S and B near one corner, T near the
/// other: every keystroke re-reads the maze and starts a new solve of four million cells.
async fn huge_room() {
    let mut rng = Rng::new(SEED + 1);
    let mut rows: Vec<Vec<u8>> = (0..ROOM)
        .map(|_| {
            (0..ROOM)
                .map(|_| if rng.chance(0.02) { b'#' } else { b'.' })
                .collect()
        })
        .collect();
    for (r, c, mark) in [(3, 3, b'S'), (5, 5, b'B'), (ROOM - 4, ROOM - 4, b'T')] {
        for row in &mut rows[r - 1..=r + 1] {
            row[c - 1..=c + 1].fill(b'.');
        }
        rows[r][c] = mark;
    }
    let text = |rows: &[Vec<u8>]| {
        let body: Vec<&str> = rows
            .iter()
            .map(|row| std::str::from_utf8(row).unwrap_or_default())
            .collect();
        format!("{ROOM} {ROOM}\n{}\n", body.join("\n"))
    };
    let (mut client, _) = Client::initialized(false).await;
    let (structural_open, solved_open) = timed_open(&mut client, &text(&rows)).await;
    let (mut structural, mut solved) = (Vec::new(), Vec::new());
    for i in 0..ROOM_EDITS {
        let version = i as i64 + 2;
        // Toggle a cell in the middle band, away from S, B and T.
        let (row, col) = (ROOM / 2 + i, ROOM / 3 + 7 * i);
        let cell = &mut rows[row][col];
        *cell = if *cell == b'#' { b'.' } else { b'#' };
        let (to_structural, to_solved) =
            timed_edit(&mut client, version, (row + 1, col), *cell as char).await;
        structural.push(to_structural);
        solved.push(to_solved);
    }
    println!("one {ROOM}×{ROOM} room, {ROOM_EDITS} one-cell edits");
    println!("open → structural diagnostics   {structural_open:>10.1?}");
    println!("open → solved                   {solved_open:>10.1?}");
    report("didChange → structural diagnostics", &mut structural);
    report("didChange → diagnostics with solve", &mut solved);
}

/// Opens `text`: the time to its structural diagnostics, and to the solved ones.
async fn timed_open(client: &mut Client, text: &str) -> (Duration, Duration) {
    let opened = Instant::now();
    client.open(text, 1).await;
    client.diagnostics_for(1).await;
    let structural = opened.elapsed();
    client.diagnostics_for(1).await;
    (structural, opened.elapsed())
}

/// Replaces the character at (`line`, `col`) with `new`: the time from `didChange` to
/// the structural diagnostics, and to the solved ones.
async fn timed_edit(
    client: &mut Client,
    version: i64,
    (line, col): (usize, usize),
    new: char,
) -> (Duration, Duration) {
    let sent = Instant::now();
    client
        .notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": URI, "version": version },
                "contentChanges": [{
                    "range": { "start": { "line": line, "character": col }, "end": { "line": line, "character": col + 1 } },
                    "text": new.to_string()
                }]
            }),
        )
        .await;
    client.diagnostics_for(version).await;
    let structural = sent.elapsed();
    client.diagnostics_for(version).await;
    (structural, sent.elapsed())
}

/// Distinct cells that are neither S, B nor T: toggling each once gives a new maze
/// content every time, so no edit is answered from the cache.
fn editable_cells(grid: &boxls::maze::Grid) -> Vec<usize> {
    (0..grid.cell_count())
        .filter(|&c| c != grid.player && c != grid.boxed && c != grid.target)
        .collect()
}

fn report(what: &str, times: &mut [Duration]) {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "{what:<34} median {:>9.2?}  p99 {:>9.2?}",
        at(0.5),
        at(0.99)
    );
}
