//! The server while design searches run: everything else is answered, and a search
//! stops once nobody wants it (a `$/cancelRequest`, an edit of the maze, closing the
//! document). `Options::stall_design_on_cells` makes Maze #3's searches run until
//! cancelled, logging when each starts and stops, so "a search is running" is certain
//! whatever this machine's speed; every wait is for an answer or a log line.

use serde_json::{json, Value};

use super::client::{Client, URI};
use super::design::{actions_at, hardest_actions, resolving_client_with};
use super::{change, doc, edit, range, SAMPLE};

/// Maze #3 of the sample is 7×11.
const STALLED_CELLS: usize = 77;
const OTHER: &str = "file:///work/other.box";
const SOLVABLE: &str = "1 7\nSB....T\n0 0\n";
const UNSOLVABLE: &str = "1 7\nSB..#.T\n0 0\n";

const HARDEST: &str = "stalled design search (hardest placement)";
const KEEPING: &str = "stalled design search (hardest placement keeping the target)";
const MAP: &str = "stalled design search (difficulty map)";

const REQUEST_CANCELLED: i64 = -32800;
const CONTENT_MODIFIED: i64 = -32801;

fn started(search: &str) -> String {
    format!("{search} started")
}

fn stopped(search: &str) -> String {
    format!("{search} stopped")
}

/// A VS Code-like client of a server whose Maze #3 searches stall, with the sample
/// open (version 1) and another document, both settled.
async fn busy_client() -> Client {
    let mut client = resolving_client_with(boxls::lsp::Options {
        stall_design_on_cells: Some(STALLED_CELLS),
        ..boxls::lsp::Options::default()
    })
    .await;
    client.open(SAMPLE, 1).await;
    client.settle(URI).await;
    let other = json!({ "uri": OTHER, "languageId": "box", "version": 1, "text": SOLVABLE });
    client
        .notify("textDocument/didOpen", json!({ "textDocument": other }))
        .await;
    client.settle(OTHER).await;
    client
}

/// The action offered for Maze #3 (both modes), once both searches run.
async fn offered_while_searching(client: &mut Client) -> Vec<Value> {
    let offered = hardest_actions(&actions_at(client, 6, None).await);
    assert_eq!(offered.len(), 2, "{offered:?}");
    assert!(offered.iter().all(|a| a["edit"].is_null()), "{offered:?}");
    client.wait_logged(&started(HARDEST), 1).await;
    client.wait_logged(&started(KEEPING), 1).await;
    offered
}

/// `boxls.makeHardest` for Maze #3 as a client builds it.
fn make_hardest(version: i64, keep_target: bool) -> Value {
    json!({ "command": "boxls.makeHardest", "arguments": [{ "uri": URI, "version": version, "maze": 3, "keepTarget": keep_target }] })
}

async fn cancel(client: &mut Client, id: i64) -> Value {
    client.notify("$/cancelRequest", json!({ "id": id })).await;
    client.response_to(id).await
}

/// The last diagnostics published for `version` of `uri`, once it is settled.
async fn settled_diagnostics(client: &mut Client, uri: &str, version: i64) -> Value {
    // tower-lsp may answer `boxls/settled` before it has applied a change sent just
    // before: an answer about an older version means "ask again".
    while client.settle(uri).await["version"]
        .as_i64()
        .is_some_and(|settled| settled < version)
    {}
    client
        .last_published(uri, &json!(version))
        .unwrap_or_else(|| panic!("no diagnostics for {uri} version {version}"))
}

/// What a user does meanwhile, each answered correctly: a hover on Maze #4's header,
/// the inlay hints, `boxls/settled`, and an edit of the other document (to
/// `other_version`) with its diagnostics. The requests `pending` are still unanswered
/// after all that.
async fn answered_meanwhile(client: &mut Client, pending: &[i64], other_version: i64) {
    let header = json!({ "textDocument": doc(), "position": { "line": 12, "character": 1 } });
    let hover = client.request("textDocument/hover", header).await;
    let text = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(
        text.starts_with("**Maze #4** (8×4)\n\n3 pushes · 19 moves\n"),
        "{hover}"
    );
    let whole = json!({ "textDocument": doc(), "range": range((0, 0), (100, 0)) });
    let hints = client.request("textDocument/inlayHint", whole).await;
    let labels: Vec<&str> = hints
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|hint| hint["label"].as_str())
        .collect();
    assert_eq!(
        labels,
        [
            "5 pushes · 5 moves",
            "unsolvable",
            "6 pushes · 28 moves",
            "3 pushes · 19 moves"
        ]
    );
    let settled = client.settle(URI).await;
    assert!(settled["version"].is_i64(), "{settled}");
    let (text, expected) = match other_version % 2 {
        0 => (UNSOLVABLE, 1),
        _ => (SOLVABLE, 0),
    };
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": OTHER, "version": other_version }, "contentChanges": [{ "text": text }] }),
        )
        .await;
    let diagnostics = settled_diagnostics(client, OTHER, other_version).await;
    let codes: Vec<&str> = diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert_eq!(codes, ["unsolvable"][..expected], "{diagnostics}");
    for &id in pending {
        assert!(
            !client.answered(id),
            "request {id} was answered while its search still ran: {:?}",
            client.responses
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_while_make_hardest_waits_and_a_cancel_stops_the_search() {
    let mut client = busy_client().await;
    let id = client
        .send_request("workspace/executeCommand", make_hardest(1, false))
        .await;
    client.wait_logged(&started(HARDEST), 1).await;
    answered_meanwhile(&mut client, &[id], 2).await;
    let cancelled = cancel(&mut client, id).await;
    assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    client.wait_logged(&stopped(HARDEST), 1).await;
    assert!(client
        .server_requests
        .iter()
        .all(|r| r["method"] != "workspace/applyEdit"));
    // Nothing of it was kept as an answer: asked again, the maze is searched again.
    let again = client
        .send_request("workspace/executeCommand", make_hardest(1, false))
        .await;
    client.wait_logged(&started(HARDEST), 2).await;
    answered_meanwhile(&mut client, &[again], 3).await;
    let cancelled = cancel(&mut client, again).await;
    assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    client.wait_logged(&stopped(HARDEST), 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_resolve_stops_its_search_once_the_offer_is_withdrawn_too() {
    let mut client = busy_client().await;
    let offered = offered_while_searching(&mut client).await;
    let id = client
        .send_request("codeAction/resolve", offered[0].clone())
        .await;
    answered_meanwhile(&mut client, &[id], 2).await;
    let cancelled = cancel(&mut client, id).await;
    assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    // The offer keeps both searches going for a resolve to come: only the document's
    // next code-action request can end them, and none came.
    answered_meanwhile(&mut client, &[], 3).await;
    assert_eq!(client.logged(&stopped(HARDEST)), 0);
    assert_eq!(client.logged(&stopped(KEEPING)), 0);
    // Asked outside every maze: no offer, and both searches stop.
    assert!(hardest_actions(&actions_at(&mut client, 21, None).await).is_empty());
    client.wait_logged(&stopped(HARDEST), 1).await;
    client.wait_logged(&stopped(KEEPING), 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_of_the_maze_ends_a_waiting_resolve_and_stops_the_searches() {
    let mut client = busy_client().await;
    let offered = offered_while_searching(&mut client).await;
    let id = client
        .send_request("codeAction/resolve", offered[1].clone())
        .await;
    // A comment above every maze leaves Maze #3 as it was offered: the resolve waits on.
    let text = change(
        &mut client,
        SAMPLE,
        2,
        edit((0, 0), (0, 0), "; made harder\n"),
    )
    .await;
    client.settle_version(2).await;
    assert!(!client.answered(id), "{:?}", client.responses);
    // Maze #3's player moves: the offer no longer holds, and its searches are moot.
    let moved = change(&mut client, &text, 3, edit((11, 6), (11, 8), ".S")).await;
    assert!(moved.contains("#......S..#"), "{moved}");
    let refused = client.response_to(id).await;
    assert_eq!(refused["error"]["code"], CONTENT_MODIFIED, "{refused}");
    client.wait_logged(&stopped(KEEPING), 1).await;
    client.wait_logged(&stopped(HARDEST), 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_document_ends_a_waiting_resolve_and_command_and_their_searches() {
    let mut client = busy_client().await;
    let offered = offered_while_searching(&mut client).await;
    let resolve = client
        .send_request("codeAction/resolve", offered[0].clone())
        .await;
    let command = client
        .send_request("workspace/executeCommand", make_hardest(1, true))
        .await;
    answered_meanwhile(&mut client, &[resolve, command], 2).await;
    client
        .notify("textDocument/didClose", json!({ "textDocument": doc() }))
        .await;
    for id in [resolve, command] {
        let ended = client.response_to(id).await;
        assert_eq!(ended["error"]["code"], CONTENT_MODIFIED, "{ended}");
    }
    client.wait_logged(&stopped(HARDEST), 1).await;
    client.wait_logged(&stopped(KEEPING), 1).await;
    // The other document is served as before.
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": OTHER, "version": 2 }, "contentChanges": [{ "text": UNSOLVABLE }] }),
        )
        .await;
    let diagnostics = settled_diagnostics(&mut client, OTHER, 2).await;
    assert_eq!(diagnostics[0]["code"], "unsolvable", "{diagnostics}");
}

/// Free cells of Maze #3 (line, column): a hover there waits for its difficulty map.
const MAZE_3_CELLS: [(u32, u32); 4] = [(6, 5), (7, 1), (8, 2), (10, 3)];

fn hover_at((line, character): (u32, u32)) -> Value {
    json!({ "textDocument": doc(), "position": { "line": line, "character": character } })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_requests_waiting_on_searches_hold_up_nothing_else() {
    let mut client = busy_client().await;
    let offered = offered_while_searching(&mut client).await;
    // More requests waiting than tower-lsp-server runs at once by default (4).
    let mut pending = Vec::new();
    for action in offered.iter().chain(&offered) {
        pending.push(
            client
                .send_request("codeAction/resolve", action.clone())
                .await,
        );
    }
    for cell in MAZE_3_CELLS {
        pending.push(
            client
                .send_request("textDocument/hover", hover_at(cell))
                .await,
        );
    }
    client.wait_logged(&started(MAP), 1).await;
    answered_meanwhile(&mut client, &pending, 2).await;
    for id in pending {
        let cancelled = cancel(&mut client, id).await;
        assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    }
    // The hovers were all that wanted the map; the offer still wants the placements.
    client.wait_logged(&stopped(MAP), 1).await;
    assert!(hardest_actions(&actions_at(&mut client, 21, None).await).is_empty());
    client.wait_logged(&stopped(HARDEST), 1).await;
    client.wait_logged(&stopped(KEEPING), 1).await;
    answered_meanwhile(&mut client, &[], 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_is_not_queued_behind_the_requests_it_would_end() {
    let mut client = busy_client().await;
    // Every slot taken by a hover waiting for the map, and more queued behind them.
    let mut pending = Vec::new();
    for n in 0..boxls::lsp::CONCURRENT_REQUESTS + 8 {
        let cell = MAZE_3_CELLS[n % MAZE_3_CELLS.len()];
        pending.push(
            client
                .send_request("textDocument/hover", hover_at(cell))
                .await,
        );
    }
    client.wait_logged(&started(MAP), 1).await;
    for id in pending {
        let cancelled = cancel(&mut client, id).await;
        assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    }
    client.wait_logged(&stopped(MAP), 1).await;
    answered_meanwhile(&mut client, &[], 2).await;
}

/// `boxls/difficulty` at a cell of Maze #3: it waits for Maze #3's map.
fn difficulty_at(cell: (u32, u32)) -> Value {
    hover_at(cell)
}

/// Maze #3's player moves one cell right: a new grid, the same size.
const MOVE_MAZE_3_PLAYER: ((u32, u32), (u32, u32), &str) = ((10, 6), (10, 8), ".S");

/// How a test takes the maze away from a request waiting for its map.
#[derive(Clone, Copy)]
enum TakenAway {
    /// Maze #3's player moved.
    Edited,
    Closed,
}

/// A `method` request waiting for the stalled map of Maze #3 ends with ContentModified
/// once the maze is taken away (a hover's cell and dead square, like the map's
/// version and maze, were about a maze that is gone), and the map stops.
async fn a_request_waiting_for_the_map_ends_when(method: &str, params: Value, taken: TakenAway) {
    let mut client = busy_client().await;
    let id = client.send_request(method, params).await;
    client.wait_logged(&started(MAP), 1).await;
    match taken {
        TakenAway::Edited => {
            let (start, end, text) = MOVE_MAZE_3_PLAYER;
            let moved = change(&mut client, SAMPLE, 2, edit(start, end, text)).await;
            assert!(moved.contains("#......S..#"), "{moved}");
        }
        TakenAway::Closed => {
            client
                .notify("textDocument/didClose", json!({ "textDocument": doc() }))
                .await;
        }
    }
    let ended = client.response_to(id).await;
    assert_eq!(
        ended["error"]["code"], CONTENT_MODIFIED,
        "{method}: {ended}"
    );
    client.wait_logged(&stopped(MAP), 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_of_the_maze_ends_a_waiting_hover_and_stops_the_map() {
    let hover = hover_at(MAZE_3_CELLS[0]);
    a_request_waiting_for_the_map_ends_when("textDocument/hover", hover, TakenAway::Edited).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_document_ends_a_waiting_hover_and_stops_the_map() {
    let hover = hover_at(MAZE_3_CELLS[1]);
    a_request_waiting_for_the_map_ends_when("textDocument/hover", hover, TakenAway::Closed).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_of_the_maze_ends_a_waiting_difficulty_request_and_stops_the_map() {
    let asked = difficulty_at(MAZE_3_CELLS[2]);
    a_request_waiting_for_the_map_ends_when("boxls/difficulty", asked, TakenAway::Edited).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_document_ends_a_waiting_difficulty_request_and_stops_the_map() {
    let asked = difficulty_at(MAZE_3_CELLS[3]);
    a_request_waiting_for_the_map_ends_when("boxls/difficulty", asked, TakenAway::Closed).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_of_another_maze_leaves_the_requests_waiting_for_the_map() {
    let mut client = busy_client().await;
    let hover = client
        .send_request("textDocument/hover", hover_at(MAZE_3_CELLS[0]))
        .await;
    let map = client
        .send_request("boxls/difficulty", difficulty_at(MAZE_3_CELLS[1]))
        .await;
    client.wait_logged(&started(MAP), 1).await;
    // Maze #1 and Maze #4 each get a rock: Maze #3 is the same maze under the same
    // number, so its map is still the one both wait for.
    let text = change(&mut client, SAMPLE, 2, edit((1, 4), (1, 5), "#")).await;
    assert!(text.starts_with("1 7\nSB..#.T\n"), "{text}");
    let text = change(&mut client, &text, 3, edit((13, 0), (13, 1), "#")).await;
    assert!(text.contains("\n8 4\n#...\n"), "{text}");
    client.settle_version(3).await;
    // Maze #1's hover is about its new text, and answered at once.
    let header = json!({ "textDocument": doc(), "position": { "line": 0, "character": 0 } });
    let answer = client.request("textDocument/hover", header).await;
    let text = answer["contents"]["value"].as_str().unwrap_or("");
    assert!(text.contains("SB..#.T"), "{answer}");
    assert!(!client.answered(hover) && !client.answered(map));
    // Still waiting, so a cancel ends each (not an earlier ContentModified).
    for id in [hover, map] {
        let cancelled = cancel(&mut client, id).await;
        assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    }
    client.wait_logged(&stopped(MAP), 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hover_on_rock_or_the_start_does_not_wait_for_the_map() {
    let mut client = busy_client().await;
    // Maze #3's corner rock and its player's start: the map has no line for either.
    for (cell, what) in [((5, 0), "rock"), ((10, 6), "the player's start")] {
        let hover = client.request("textDocument/hover", hover_at(cell)).await;
        let text = hover["contents"]["value"].as_str().unwrap_or("");
        assert!(text.starts_with(what), "{hover}");
        assert!(!text.contains("box here"), "{hover}");
    }
    // A free cell's hover waits for the map, which only it wanted.
    let id = client
        .send_request("textDocument/hover", hover_at(MAZE_3_CELLS[0]))
        .await;
    client.wait_logged(&started(MAP), 1).await;
    let cancelled = cancel(&mut client, id).await;
    assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    client.wait_logged(&stopped(MAP), 1).await;
}

/// How many requests `waiting_everywhere` leaves waiting: far more than
/// tower-lsp-server runs at once (`boxls::lsp::CONCURRENT_REQUESTS`).
const WAITERS: usize = 200;

/// [`WAITERS`] requests waiting on Maze #3's stalled searches, every kind in turn: a
/// resolve of each offer, `boxls/difficulty` and a hover on a free cell.
async fn waiting_everywhere(client: &mut Client) -> Vec<i64> {
    let offered = offered_while_searching(client).await;
    let mut pending = Vec::new();
    for n in 0..WAITERS {
        let cell = MAZE_3_CELLS[n / 4 % MAZE_3_CELLS.len()];
        let (method, params) = match n % 4 {
            0 | 1 => ("codeAction/resolve", offered[n % 2].clone()),
            2 => ("boxls/difficulty", difficulty_at(cell)),
            _ => ("textDocument/hover", hover_at(cell)),
        };
        pending.push(client.send_request(method, params).await);
    }
    client.wait_logged(&started(MAP), 1).await;
    pending
}

/// With [`WAITERS`] requests waiting, another document's hover, the notifications and
/// every other request are served at once; taking Maze #3 away ends every waiter
/// with ContentModified, and its searches stop.
async fn many_waiters_end_at_once_when(taken: TakenAway) {
    let mut client = busy_client().await;
    let pending = waiting_everywhere(&mut client).await;
    let header =
        json!({ "textDocument": { "uri": OTHER }, "position": { "line": 0, "character": 0 } });
    let hover = client.request("textDocument/hover", header).await;
    let text = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(text.starts_with("**Maze #1** (1×7)"), "{hover}");
    answered_meanwhile(&mut client, &pending, 2).await;
    match taken {
        TakenAway::Edited => {
            let (start, end, text) = MOVE_MAZE_3_PLAYER;
            change(&mut client, SAMPLE, 2, edit(start, end, text)).await;
        }
        TakenAway::Closed => {
            client
                .notify("textDocument/didClose", json!({ "textDocument": doc() }))
                .await;
        }
    }
    for id in pending {
        let ended = client.response_to(id).await;
        assert_eq!(ended["error"]["code"], CONTENT_MODIFIED, "{ended}");
    }
    client.wait_logged(&stopped(MAP), 1).await;
    client.wait_logged(&stopped(HARDEST), 1).await;
    client.wait_logged(&stopped(KEEPING), 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_waiting_requests_hold_up_nothing_and_an_edit_ends_them_all() {
    many_waiters_end_at_once_when(TakenAway::Edited).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_waiting_requests_hold_up_nothing_and_closing_ends_them_all() {
    many_waiters_end_at_once_when(TakenAway::Closed).await;
}
