//! Editor latency against floors measured in the same run: the real server in-process
//! (through the test client of `tests/it/lsp`), on generated documents. Each goal is a
//! ratio of two medians whose runs alternate (measured, floor, measured, floor, …), so
//! a busy machine slows both sides alike. No timing is asserted; the bench prints.
//!
//! 1. **Edit → diagnostics vs hover**: one-cell edits (`#` ↔ `.`, a new content each
//!    time) to maze #501 of a 1,000-maze document, timed from sending `didChange` until
//!    the client holds the final diagnostics of that version: a `boxls/settled` request
//!    sent right after the change, then every publication it counts. Floor: a
//!    `textDocument/hover` round trip on that maze's box, right after each settled edit
//!    (200 of each); 200 hovers back to back are printed too (a warm server answers
//!    those faster), and a pull of the same diagnostics (`textDocument/diagnostic`),
//!    the floor of sending what a publication must carry. On a mixed document (`generate::mixed`, 20×20), then on one where
//!    450 of the 1,000 mazes are unsolvable. Goal ≤ 3×.
//! 2. **`semanticTokens/full` vs `boxls/documentText`** round trips on 1,000 open 20×20
//!    rooms (0.4 MB, all solvable, settled first), 100 of each. `documentText` is asked
//!    with `"check": false`: just the text back, not the debugging check against a
//!    full parse. Goal ≤ 3×.
//! 3. **`semanticTokens/range` of a 60-line viewport (lines 10,000–10,060) vs hover** on
//!    that document, 200 of each. Goal ≤ 3×.
//! 4. **Open → settled diagnostics vs `boxls check`** on the mixed document: fresh
//!    servers (a cold solve cache, like a fresh process), against the release binary run
//!    on the same text in a temporary file; 9 of each. Goal ≤ 1.5×.
//!
//! Then figures without goals: a 10 MB document of about 28,000 mixed mazes of 16×16 to
//! 20×20 (open → first diagnostics, open → settled, 20 edits → diagnostics, 50 60-line
//! `semanticTokens/range` and hovers), and one 2000×2000 room (open; its first
//! `semanticTokens/full` against the next, one run each, goal ≤ 5×; 4 edits, each a
//! new solve over four million cells). A summary table of the ratios ends the output.
//!
//! ```sh
//! cargo bench --bench lsp                  # a couple of minutes
//! cargo bench --bench lsp -- edit tokens   # sections: edit tokens open 10mb framing rss room
//! BOXLS_BIN=/path/to/old/boxls cargo bench --bench lsp -- rss   # another build's RSS
//! ```
//!
//! `framing` prices what the framing layer in front of tower-lsp-server (`transport.rs`)
//! adds to every message: the one extra JSON parse it makes of each body (the check
//! that tower-lsp-server will be able to decode it), timed on the 10 MB document's
//! `didOpen` and on a hover request, against what the server takes for the same
//! messages in the same run (open → first diagnostics, a hover round trip).
//!
//! `rss` runs the release binary as a process of its own and prints its resident size
//! once the 10 MB document is open, settled, and its tokens and a hover were asked.
//!
//! Cargo builds the `boxls` binary for benches and names it in `CARGO_BIN_EXE_boxls`;
//! should that file be missing, `cargo build --release` makes it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

#[allow(dead_code)]
#[path = "../tests/it/lsp/client.rs"]
mod client;
#[allow(dead_code)]
#[path = "../tests/it/generate.rs"]
mod generate;

use std::future::Future;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use boxls::maze::Grid;
use client::{Client, URI};
use generate::{Placement, Rng, Style};

const HOVER: &str = "textDocument/hover";
const FULL: &str = "textDocument/semanticTokens/full";
const RANGE: &str = "textDocument/semanticTokens/range";
const DELTA: &str = "textDocument/semanticTokens/full/delta";
const DOCUMENT_TEXT: &str = "boxls/documentText";
/// Pull diagnostics: the same diagnostics a publication carries, as a request.
const PULL: &str = "textDocument/diagnostic";

const SEED: u64 = 0x15_0001;
const MAZES: usize = 1_000;
const SIDE: usize = 20;
/// Maze #501, the one every edit goes to (the middle one in the 10 MB document).
const EDITED_MAZE: usize = 500;
const UNSOLVABLE: usize = 450;
const EDITS: usize = 200;
const HOVERS: usize = 200;
const TOKEN_RUNS: usize = 100;
const VIEWPORT: (usize, usize) = (10_000, 10_060);
/// Opens on fresh servers, each followed by one `boxls check`.
const OPENS: usize = 9;
const BIG_BYTES: usize = 10_000_000;
const BIG_EDITS: usize = 20;
const BIG_RUNS: usize = 50;
const ROOM: usize = 2000;
const ROOM_EDITS: usize = 4;

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
}

/// Runs every section, or those named on the command line (`edit`, `tokens`, `open`,
/// `10mb`, `room`): `cargo bench --bench lsp -- edit tokens`.
async fn run() {
    let named: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    let wanted = |section: &str| named.is_empty() || named.iter().any(|n| n == section);
    let mixed = Document::new(mixed_mazes());
    let mut ratios = Vec::new();
    if wanted("edit") {
        let unsolvable = Document::new(mostly_unsolvable_mazes());
        ratios.push(edit_vs_hover("mixed", &mixed).await);
        ratios.push(edit_vs_hover("450 unsolvable", &unsolvable).await);
    }
    if wanted("tokens") {
        ratios.extend(tokens_vs_floors(&Document::new(open_rooms())).await);
    }
    if wanted("open") {
        ratios.push(open_vs_check(&mixed).await);
    }
    if wanted("10mb") {
        ten_megabytes().await;
    }
    if wanted("framing") {
        framing().await;
    }
    if wanted("rss") {
        ten_megabytes_resident().await;
    }
    if wanted("room") {
        ratios.push(huge_room().await);
    }
    summary(&ratios);
}

// ---- The documents ----

/// A generated `.box` document: its mazes and its text (ASCII, so UTF-16 columns are
/// byte columns).
struct Document {
    grids: Vec<Grid>,
    text: String,
}

impl Document {
    fn new(grids: Vec<Grid>) -> Document {
        let text = generate::render_file(&grids);
        Document { grids, text }
    }

    /// The line of `maze`'s first row: every maze is a header line, then its rows.
    fn first_row_line(&self, maze: usize) -> usize {
        self.grids[..maze].iter().map(|g| g.rows + 1).sum::<usize>() + 1
    }

    /// The line and column of `cell` (row-major) of `maze`.
    fn line_col(&self, maze: usize, cell: usize) -> (usize, usize) {
        let cols = self.grids[maze].cols;
        (self.first_row_line(maze) + cell / cols, cell % cols)
    }

    /// The LSP position of `cell` of `maze`.
    fn position(&self, maze: usize, cell: usize) -> Value {
        let (line, character) = self.line_col(maze, cell);
        json!({ "line": line, "character": character })
    }

    fn lines(&self) -> usize {
        self.text.lines().count()
    }

    fn describe(&self) -> String {
        let mazes = self.grids.len();
        format!(
            "{mazes} maze{}, {:.2} MB, {} lines",
            if mazes == 1 { "" } else { "s" },
            self.text.len() as f64 / 1e6,
            self.lines()
        )
    }
}

/// 1,000 mixed 20×20 mazes (every rock style and placement of the generators).
fn mixed_mazes() -> Vec<Grid> {
    let mut rng = Rng::new(SEED);
    (0..MAZES)
        .map(|_| generate::mixed(&mut rng, (SIDE, SIDE)))
        .collect()
}

/// 1,000 mixed 20×20 mazes, 450 of them unsolvable: generated mazes are kept or passed
/// over by what the solver says until each kind has its count, in generation order.
fn mostly_unsolvable_mazes() -> Vec<Grid> {
    let mut rng = Rng::new(SEED + 2);
    let (mut unsolvable, mut solvable) = (0, 0);
    let mut grids = Vec::with_capacity(MAZES);
    while grids.len() < MAZES {
        let grid = generate::mixed(&mut rng, (SIDE, SIDE));
        let (count, wanted) = match boxls::solver::solve_path(&grid) {
            None => (&mut unsolvable, UNSOLVABLE),
            Some(_) => (&mut solvable, MAZES - UNSOLVABLE),
        };
        if *count < wanted {
            *count += 1;
            grids.push(grid);
        }
    }
    grids
}

/// 1,000 open 20×20 rooms (walled, 4% pillars), the box pulled away from the target:
/// solvable, and nearly every cell a `.`.
fn open_rooms() -> Vec<Grid> {
    let mut rng = Rng::new(SEED + 3);
    (0..MAZES)
        .map(|_| {
            generate::generate(
                &mut rng,
                Style::Rooms(0.04),
                Placement::Pulled,
                (SIDE, SIDE),
            )
        })
        .collect()
}

/// Mixed mazes of 16×16 to 20×20 until the text reaches 10 MB (about 28,000).
fn ten_megabytes_of_mazes() -> Vec<Grid> {
    let mut rng = Rng::new(SEED + 4);
    let (mut grids, mut bytes) = (Vec::new(), 0);
    while bytes < BIG_BYTES {
        let size = (rng.between(16, SIDE), rng.between(16, SIDE));
        let grid = generate::mixed(&mut rng, size);
        bytes += generate::render(&grid).len();
        grids.push(grid);
    }
    grids
}

/// One 2000×2000 room with 2% pillars (4 MB), S and B near one corner, T near the
/// other: every edit starts a new solve of four million cells.
fn huge_room_grid() -> Grid {
    let mut rng = Rng::new(SEED + 1);
    let mut walls: Vec<bool> = (0..ROOM * ROOM).map(|_| rng.chance(0.02)).collect();
    let [player, boxed, target] = [(3, 3), (5, 5), (ROOM - 4, ROOM - 4)].map(|(r, c)| {
        for row in r - 1..=r + 1 {
            walls[row * ROOM + c - 1..=row * ROOM + c + 1].fill(false);
        }
        r * ROOM + c
    });
    Grid {
        rows: ROOM,
        cols: ROOM,
        walls,
        player,
        boxed,
        target,
    }
}

// ---- Edits ----

/// One-cell edits to one maze, each toggling a cell (`#` ↔ `.`) not toggled before, so
/// every version is a maze content the server has not seen (no cached solve).
struct Toggler {
    maze: usize,
    cells: Vec<char>,
    order: Vec<usize>,
    done: usize,
    version: i64,
}

impl Toggler {
    /// Edits to `maze` of `document` (open as version 1), toggling `order`'s cells.
    fn new(document: &Document, maze: usize, order: Vec<usize>) -> Toggler {
        let cells = document.grids[maze].to_rows().concat().chars().collect();
        Toggler {
            maze,
            cells,
            order,
            done: 0,
            version: 1,
        }
    }

    /// Every cell but S, B and T, in order.
    fn every_free_cell(document: &Document, maze: usize) -> Toggler {
        let grid = &document.grids[maze];
        let order = (0..grid.cell_count())
            .filter(|&c| c != grid.player && c != grid.boxed && c != grid.target)
            .collect();
        Toggler::new(document, maze, order)
    }

    /// The next version and its `didChange` parameters.
    fn next_change(&mut self, document: &Document) -> (i64, Value) {
        let cell = self.order[self.done];
        self.done += 1;
        self.version += 1;
        self.cells[cell] = if self.cells[cell] == '#' { '.' } else { '#' };
        let (line, col) = document.line_col(self.maze, cell);
        let change = json!({
            "textDocument": { "uri": URI, "version": self.version },
            "contentChanges": [{
                "range": {
                    "start": { "line": line, "character": col },
                    "end": { "line": line, "character": col + 1 }
                },
                "text": self.cells[cell].to_string()
            }]
        });
        (self.version, change)
    }
}

// ---- Client steps ----

/// A fresh server and client, its start-up configuration pulled (`boxls/settled`
/// waits for that first), no document open.
async fn ready_client() -> Client {
    let (client, _) = Client::initialized(false).await;
    client
}

/// A fresh client with `document` open and settled, and its settled diagnostics.
async fn opened(document: &Document) -> (Client, Value) {
    let mut client = ready_client().await;
    client.open(&document.text, 1).await;
    let diagnostics = client.settled_diagnostics(1).await;
    forget_publications(&mut client);
    (client, diagnostics)
}

/// Drops the diagnostics the client kept (the publication count `settle` relies on
/// stays): each version of a 10 MB document publishes tens of megabytes.
fn forget_publications(client: &mut Client) {
    client.notifications.clear();
    for message in &mut client.history {
        if let Some(diagnostics) = message.pointer_mut("/params/diagnostics") {
            *diagnostics = Value::Null;
        }
    }
}

/// Sends the toggler's next edit: the time until its final diagnostics are in.
async fn edit_to_settled(
    client: &mut Client,
    toggler: &mut Toggler,
    document: &Document,
) -> Duration {
    let (version, change) = toggler.next_change(document);
    let sent = Instant::now();
    client.notify("textDocument/didChange", change).await;
    client.settle_version(version).await;
    let took = sent.elapsed();
    forget_publications(client);
    took
}

/// Fails loudly unless `method` answers `params` with something; the answer.
async fn expect_answer(client: &mut Client, method: &str, params: &Value) -> Value {
    let answer = client.request(method, params.clone()).await;
    assert!(!answer.is_null(), "{method} answers {params} with null");
    answer
}

/// The time of one request `method` with `params`, until its answer is read.
async fn round_trip(client: &mut Client, method: &str, params: &Value) -> Duration {
    timed(client.request(method, params.clone())).await
}

fn whole_document() -> Value {
    json!({ "textDocument": { "uri": URI } })
}

fn hover_params(position: Value) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": position })
}

fn range_params((first, last): (usize, usize)) -> Value {
    json!({
        "textDocument": { "uri": URI },
        "range": { "start": { "line": first, "character": 0 }, "end": { "line": last, "character": 0 } }
    })
}

/// A hover on the edited maze's box.
fn box_hover(document: &Document) -> Value {
    hover_params(document.position(EDITED_MAZE, document.grids[EDITED_MAZE].boxed))
}

fn count_code(diagnostics: &Value, code: &str) -> usize {
    diagnostics
        .as_array()
        .map_or(0, |all| all.iter().filter(|d| d["code"] == code).count())
}

// ---- Timing ----

/// The median of each of the `K` times that `runs` runs of `run` return. A run times
/// the measured thing and its floor in turn, so a busy machine slows both alike.
async fn medians<const K: usize>(
    runs: usize,
    mut run: impl AsyncFnMut() -> [Duration; K],
) -> [Duration; K] {
    let mut times: [Vec<Duration>; K] = std::array::from_fn(|_| Vec::with_capacity(runs));
    for _ in 0..runs {
        for (all, time) in times.iter_mut().zip(run().await) {
            all.push(time);
        }
    }
    times.map(|mut all| {
        all.sort();
        all[all.len() / 2]
    })
}

async fn timed<T>(work: impl Future<Output = T>) -> Duration {
    let start = Instant::now();
    work.await;
    start.elapsed()
}

fn show(time: Duration) -> String {
    let ms = time.as_secs_f64() * 1e3;
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1e3)
    } else {
        format!("{ms:.2} ms")
    }
}

/// One figure without a goal.
fn figure(what: &str, time: Duration) {
    println!("  {what:<46} {:>10}", show(time));
}

/// A measured median against its floor's, and the goal for their ratio.
struct Ratio {
    what: String,
    measured: Duration,
    floor_name: &'static str,
    floor: Duration,
    goal: f64,
}

impl Ratio {
    fn new(
        what: impl Into<String>,
        measured: Duration,
        floor_name: &'static str,
        floor: Duration,
        goal: f64,
    ) -> Ratio {
        let ratio = Ratio {
            what: what.into(),
            measured,
            floor_name,
            floor,
            goal,
        };
        println!(
            "  {}  {} / {} {} = {:.1}× (goal ≤ {}×)",
            ratio.what,
            show(measured),
            floor_name,
            show(floor),
            ratio.value(),
            goal
        );
        ratio
    }

    fn value(&self) -> f64 {
        self.measured.as_secs_f64() / self.floor.as_secs_f64()
    }

    fn verdict(&self) -> &'static str {
        if self.value() <= self.goal {
            "met"
        } else {
            "NOT met"
        }
    }
}

// ---- The sections ----

/// Goal 1 on `document`: edits to maze #501 until settled, each followed by a hover.
async fn edit_vs_hover(name: &str, document: &Document) -> Ratio {
    println!("\n1. edit → diagnostics, {name}: {}", document.describe());
    let (mut client, diagnostics) = opened(document).await;
    println!(
        "  settled: {} diagnostics, {} unsolvable",
        diagnostics.as_array().map_or(0, Vec::len),
        count_code(&diagnostics, "unsolvable")
    );
    let on_box = box_hover(document);
    expect_answer(&mut client, HOVER, &on_box).await;
    let mut toggler = Toggler::every_free_cell(document, EDITED_MAZE);
    let [edit, hover] = medians(EDITS, async || {
        [
            edit_to_settled(&mut client, &mut toggler, document).await,
            round_trip(&mut client, HOVER, &on_box).await,
        ]
    })
    .await;
    let pull = json!({ "textDocument": { "uri": URI } });
    let [warm, pulled] = medians(HOVERS, async || {
        [
            round_trip(&mut client, HOVER, &on_box).await,
            round_trip(&mut client, PULL, &pull).await,
        ]
    })
    .await;
    println!(
        "  (hovers back to back, no edit between: {}; edit → diagnostics = {:.1}× that)",
        show(warm),
        edit.as_secs_f64() / warm.as_secs_f64()
    );
    println!(
        "  (the same diagnostics pulled, `textDocument/diagnostic`: {}; edit → diagnostics = {:.1}× that)",
        show(pulled),
        edit.as_secs_f64() / pulled.as_secs_f64()
    );
    Ratio::new(
        format!("edit → diagnostics ({name})"),
        edit,
        "hover",
        hover,
        3.0,
    )
}

/// Goals 2 and 3 on the rooms: full tokens against the text, a viewport's against hover.
async fn tokens_vs_floors(document: &Document) -> [Ratio; 2] {
    println!(
        "\n2, 3. semantic tokens, open rooms: {}",
        document.describe()
    );
    let (mut client, diagnostics) = opened(document).await;
    println!(
        "  settled: {} unsolvable",
        count_code(&diagnostics, "unsolvable")
    );
    let (whole, viewport, on_box) = (
        whole_document(),
        range_params(VIEWPORT),
        box_hover(document),
    );
    let tokens = expect_answer(&mut client, FULL, &whole).await;
    let count = tokens["data"].as_array().map_or(0, Vec::len) / 5;
    println!(
        "  full: {count} tokens, {:.1} MB of JSON",
        tokens.to_string().len() as f64 / 1e6
    );
    expect_answer(&mut client, DOCUMENT_TEXT, &whole).await;
    expect_answer(&mut client, RANGE, &viewport).await;
    expect_answer(&mut client, HOVER, &on_box).await;
    let text_only = json!({ "textDocument": { "uri": URI }, "check": false });
    let [full, text] = medians(TOKEN_RUNS, async || {
        [
            round_trip(&mut client, FULL, &whole).await,
            round_trip(&mut client, DOCUMENT_TEXT, &text_only).await,
        ]
    })
    .await;
    let [range, hover] = medians(HOVERS, async || {
        [
            round_trip(&mut client, RANGE, &viewport).await,
            round_trip(&mut client, HOVER, &on_box).await,
        ]
    })
    .await;
    let mut toggler = Toggler::every_free_cell(document, EDITED_MAZE);
    let delta = delta_after_edits(&mut client, &mut toggler, document, TOKEN_RUNS / 2).await;
    figure("edit, then semanticTokens/full/delta", delta);
    [
        Ratio::new("semanticTokens/full", full, "documentText", text, 3.0),
        Ratio::new(
            "semanticTokens/range (60 lines)",
            range,
            "hover",
            hover,
            3.0,
        ),
    ]
}

/// Goal 4: fresh servers opening `document` until settled, each followed by a
/// `boxls check` of the same text.
async fn open_vs_check(document: &Document) -> Ratio {
    println!(
        "\n4. open → settled vs `boxls check`: {}",
        document.describe()
    );
    let path = std::env::temp_dir().join(format!("boxls-lsp-bench-{}.box", std::process::id()));
    std::fs::write(&path, &document.text).expect("a temporary file");
    let [open, check] = medians(OPENS, async || {
        [
            open_to_settled(document).await,
            timed(boxls_check(&path)).await,
        ]
    })
    .await;
    let _ = std::fs::remove_file(&path);
    Ratio::new("open → settled", open, "boxls check", check, 1.5)
}

/// A fresh server: the time from `didOpen` until the settled diagnostics are in.
async fn open_to_settled(document: &Document) -> Duration {
    let mut client = ready_client().await;
    let opened = Instant::now();
    client.open(&document.text, 1).await;
    client.settle_version(1).await;
    opened.elapsed()
}

/// Runs the release binary's `boxls check` on `path` (its exit status says whether
/// there were warnings or errors: ignored).
async fn boxls_check(path: &Path) {
    let binary = env!("CARGO_BIN_EXE_boxls");
    assert!(
        Path::new(binary).exists(),
        "{binary} is missing: build it with `cargo build --release`"
    );
    tokio::process::Command::new(binary)
        .arg("check")
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .await
        .expect("boxls check runs");
}

/// Figures for a 10 MB document: open, edits, a viewport's tokens, hover.
async fn ten_megabytes() {
    let document = Document::new(ten_megabytes_of_mazes());
    let edited = document.grids.len() / 2;
    println!(
        "\n10 MB: {}; edits to maze #{}",
        document.describe(),
        edited + 1
    );
    let (mut client, first, settled) = open_big(&document).await;
    forget_publications(&mut client);
    let mut toggler = Toggler::every_free_cell(&document, edited);
    let [edit] = medians(BIG_EDITS, async || {
        [edit_to_settled(&mut client, &mut toggler, &document).await]
    })
    .await;
    let middle = document.lines() / 2;
    let viewport = range_params((middle, middle + 60));
    let on_box = hover_params(document.position(edited, document.grids[edited].boxed));
    expect_answer(&mut client, RANGE, &viewport).await;
    expect_answer(&mut client, HOVER, &on_box).await;
    let [range, hover] = medians(BIG_RUNS, async || {
        [
            round_trip(&mut client, RANGE, &viewport).await,
            round_trip(&mut client, HOVER, &on_box).await,
        ]
    })
    .await;
    figure("open → first diagnostics", first);
    figure("open → settled", settled);
    figure(&format!("edit → diagnostics (median of {BIG_EDITS})"), edit);
    figure(
        &format!("semanticTokens/range, 60 lines (median of {BIG_RUNS})"),
        range,
    );
    figure(&format!("hover (median of {BIG_RUNS})"), hover);
    let delta = delta_after_edits(&mut client, &mut toggler, &document, BIG_EDITS).await;
    figure(
        &format!("edit, then semanticTokens/full/delta (median of {BIG_EDITS})"),
        delta,
    );
}

/// Exactly what tower-lsp-server decodes a message as, and what the framing layer
/// parses each body as first (`transport.rs`'s `Message`).
#[derive(serde::Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum Message {
    Response(tower_lsp_server::jsonrpc::Response),
    Request(tower_lsp_server::jsonrpc::Request),
}

/// The median time of the framing layer's extra parse of `body`.
fn extra_parse(body: &[u8], runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let text = std::str::from_utf8(body).expect("UTF-8");
            let parsed: Message = serde_json::from_str(text).expect("a JSON-RPC message");
            std::hint::black_box(&parsed);
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The framing layer's own parse of each message against the server's work on it.
async fn framing() {
    let document = Document::new(ten_megabytes_of_mazes());
    println!(
        "
framing: the extra parse of each message; {}",
        document.describe()
    );
    let open = serde_json::to_vec(&json!({
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": URI, "languageId": "box", "version": 1, "text": document.text } },
    }))
    .expect("JSON");
    let edited = document.grids.len() / 2;
    let on_box = hover_params(document.position(edited, document.grids[edited].boxed));
    let hover = serde_json::to_vec(
        &json!({ "jsonrpc": "2.0", "id": 7, "method": HOVER, "params": on_box }),
    )
    .expect("JSON");
    let (mut client, first, _) = open_big(&document).await;
    expect_answer(&mut client, HOVER, &on_box).await;
    let [hovered] = medians(BIG_RUNS, async || {
        [round_trip(&mut client, HOVER, &on_box).await]
    })
    .await;
    let (open_parse, hover_parse) = (extra_parse(&open, 9), extra_parse(&hover, 201));
    let share = |part: Duration, whole: Duration| 100.0 * part.as_secs_f64() / whole.as_secs_f64();
    figure("didOpen (10 MB): the extra parse (median of 9)", open_parse);
    figure("didOpen (10 MB): open → first diagnostics", first);
    println!(
        "  {:<46} {:>9.1}%",
        "  the extra parse's share",
        share(open_parse, first)
    );
    figure(
        "hover request: the extra parse (median of 201)",
        hover_parse,
    );
    figure(&format!("hover round trip (median of {BIG_RUNS})"), hovered);
    println!(
        "  {:<46} {:>9.1}%",
        "  the extra parse's share",
        share(hover_parse, hovered)
    );
}

/// A fresh client with `document` open and settled; how long from the open to its
/// first diagnostics, and to settled.
async fn open_big(document: &Document) -> (Client, Duration, Duration) {
    let mut client = ready_client().await;
    let opened = Instant::now();
    client.open(&document.text, 1).await;
    client.diagnostics_for(1).await;
    let first = opened.elapsed();
    client.settle_version(1).await;
    (client, first, opened.elapsed())
}

/// The resident size of a `boxls lsp` process (`BOXLS_BIN`, else this build's) holding
/// the 10 MB document settled, after a full semantic-tokens answer and a hover.
async fn ten_megabytes_resident() {
    let document = Document::new(ten_megabytes_of_mazes());
    let binary = std::env::var("BOXLS_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_boxls").into());
    let mut child = tokio::process::Command::new(&binary)
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("boxls starts");
    let pid = child.id().expect("a running child");
    let stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut client = Client::over(stdout, stdin);
    client.initialize(false).await;
    let empty = client::rss_mib(pid);
    client.open(&document.text, 1).await;
    client.settle_version(1).await;
    expect_answer(&mut client, FULL, &whole_document()).await;
    let edited = document.grids.len() / 2;
    let on_box = hover_params(document.position(edited, document.grids[edited].boxed));
    expect_answer(&mut client, HOVER, &on_box).await;
    let held = client::rss_mib(pid);
    println!(
        "\n10 MB resident ({binary}): {:.1} MiB with no document, {:.1} MiB holding {}",
        empty,
        held,
        document.describe()
    );
    drop(client);
    let _ = child.kill().await;
}

/// What an editor asks after each keystroke: the median `full/delta` round trip after
/// each of `edits` settled one-cell edits (a first `full` gives the result id).
async fn delta_after_edits(
    client: &mut Client,
    toggler: &mut Toggler,
    document: &Document,
    edits: usize,
) -> Duration {
    let whole = whole_document();
    let first = expect_answer(client, FULL, &whole).await;
    let mut previous = first["resultId"].clone();
    let [delta] = medians(edits, async || {
        edit_to_settled(client, toggler, document).await;
        let params = json!({ "textDocument": { "uri": URI }, "previousResultId": previous });
        let sent = Instant::now();
        let answer = client.request(DELTA, params).await;
        let took = sent.elapsed();
        assert!(answer["edits"].is_array(), "a delta, not {answer}");
        previous = answer["resultId"].clone();
        [took]
    })
    .await;
    delta
}

/// Figures for one 2000×2000 room: open, its first whole-document tokens against the
/// next (the ratio in the summary), and a few edits in its middle band.
async fn huge_room() -> Ratio {
    let document = Document::new(vec![huge_room_grid()]);
    println!("\n{ROOM}×{ROOM} room: {}", document.describe());
    let mut client = ready_client().await;
    let open = timed(async {
        client.open(&document.text, 1).await;
        client.settle_version(1).await;
    })
    .await;
    forget_publications(&mut client);
    // The first whole-document tokens work out the room's dead squares and encode its
    // section (what an editor asks once the file is open and solved); later ones reuse
    // both, so they are the floor: what sending the answer costs. The text back, for scale.
    let whole = whole_document();
    let first_tokens = round_trip(&mut client, FULL, &whole).await;
    let tokens_again = round_trip(&mut client, FULL, &whole).await;
    let text_only = json!({ "textDocument": { "uri": URI }, "check": false });
    let text = round_trip(&mut client, DOCUMENT_TEXT, &text_only).await;
    let order = (0..ROOM_EDITS)
        .map(|i| (ROOM / 2 + i) * ROOM + ROOM / 3 + 7 * i)
        .collect();
    let mut toggler = Toggler::new(&document, 0, order);
    let [edit] = medians(ROOM_EDITS, async || {
        [edit_to_settled(&mut client, &mut toggler, &document).await]
    })
    .await;
    figure("open → settled", open);
    figure("first semanticTokens/full (section made)", first_tokens);
    figure("semanticTokens/full again (section kept)", tokens_again);
    figure("documentText", text);
    figure(
        &format!("edit → diagnostics (median of {ROOM_EDITS})"),
        edit,
    );
    Ratio::new(
        "room: first semanticTokens/full",
        first_tokens,
        "full again",
        tokens_again,
        5.0,
    )
}

fn summary(ratios: &[Ratio]) {
    println!("\nsummary");
    println!(
        "  {:<44} {:>11} {:>11} {:>7} {:>6}  verdict",
        "goal", "measured", "floor", "ratio", "goal"
    );
    for ratio in ratios {
        println!(
            "  {:<44} {:>11} {:>11} {:>6.1}× {:>5}×  {}",
            format!("{} / {}", ratio.what, ratio.floor_name),
            show(ratio.measured),
            show(ratio.floor),
            ratio.value(),
            ratio.goal,
            ratio.verdict()
        );
    }
}
