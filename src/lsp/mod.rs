//! The language server: a thin LSP client of the core, on `tower-lsp-server` + `tokio`.
//!
//! One file per feature (`diagnostics`, `inlay_hints`, `code_actions`, `hover`,
//! `symbols`, `semantic_tokens`, `code_lens`, `formatting`), each an adapter: take a
//! `view`, call the IDE layer (`crate::ide`), convert back. `server` dispatches each
//! LSP method to its feature; `protocol` names boxls's own methods and their types,
//! and `register` here hands each to its handler (`extensions`, `difficulty`); `state` holds
//! three parts — `documents` (one record per open document), `background` (the solves
//! and searches, and the change → solve → publish pipeline) and `session` (settings,
//! configuration, what the server sends the client) — and makes views; `solves` runs
//! solves off the request loop, as jobs of `jobs`, the one job table (the design
//! searches and dead squares are jobs of it too), `level_solves` the Sokoban levels'. The design tools: `design` runs their searches off the
//! request loop, `hardest` makes the *Make Maze #k hardest* actions, `difficulty` the
//! hover line and `boxls/difficulty`, `maze_watch` ends their waits when the maze
//! changes. The manual's architecture chapter (docs/src/contributor/architecture.md) has the map.

mod background;
mod capabilities;
mod code_actions;
mod code_lens;
mod commands;
mod config;
mod design;
mod diagnostics;
mod difficulty;
mod document;
mod documents;
mod extensions;
mod formatting;
mod grid_key;
mod hardest;
mod hover;
mod inlay_hints;
mod jobs;
mod level_solves;
mod lru;
mod maze_watch;
mod memory;
mod panics;
pub mod position;
mod progress;
mod protocol;
mod sections;
mod semantic_tokens;
mod server;
mod session;
mod solves;
mod state;
mod symbols;
mod transport;
mod view;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::jsonrpc::{Method, Result};
use tower_lsp_server::{LspService, LspServiceBuilder, Server};

pub use server::Backend;

/// Knobs for tests.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Makes the solver panic on mazes of exactly this many cells.
    pub panic_on_cells: Option<usize>,
    /// Makes the handler of this method panic (`textDocument/didChange`: halfway
    /// through applying the edit).
    pub panic_in_method: Option<&'static str>,
    /// Makes the solver run until it is cancelled on mazes of exactly this many cells:
    /// a solve certain to outlast any time limit.
    pub stall_on_cells: Option<usize>,
    /// Makes the dead-square computation panic on mazes of exactly this many cells.
    pub dead_squares_panic_on_cells: Option<usize>,
    /// Makes the design searches (hardest placements, difficulty maps) of mazes of
    /// exactly this many cells run until cancelled, each logging
    /// `stalled design search (…) started` and `… stopped`: a search certainly
    /// running for as long as a test needs, and a sign that it ended.
    pub stall_design_on_cells: Option<usize>,
    /// Holds the solves of mazes of the gate's size until the test opens it: a maze
    /// certainly still being solved for as long as a test needs, then solved for real.
    pub hold_solves: Option<&'static SolveGate>,
    /// Makes each Sokoban level solve log `level solve started (W×H, N boxes)`: how a
    /// test counts the solves an edit started.
    pub log_level_solves: bool,
    /// Makes the solves of Sokoban levels with exactly this many boxes search until the
    /// time limit, offering the solver's solution (if any) as the best found so far and
    /// proving nothing: a level certain to be solving, then unproved or `unknown`.
    pub stall_levels_with_boxes: Option<usize>,
}

/// The test knob [`Options::hold_solves`]: a solve of a maze of exactly `cells` cells
/// waits until [`SolveGate::open`] (or until it is cancelled or stopped at the time
/// limit), then solves as usual.
#[derive(Debug)]
pub struct SolveGate {
    cells: usize,
    open: AtomicBool,
}

impl SolveGate {
    pub const fn new(cells: usize) -> SolveGate {
        SolveGate {
            cells,
            open: AtomicBool::new(false),
        }
    }

    pub fn open(&self) {
        self.open.store(true, Ordering::Release);
    }

    /// Whether a solve of a maze of `cells` cells must wait.
    fn holds(&self, cells: usize) -> bool {
        self.cells == cells && !self.open.load(Ordering::Acquire)
    }
}

pub use config::schema;
pub use protocol::CLIENT_METHODS;

/// Serves LSP over any byte streams (stdio in production, pipes in tests) until the
/// client sends `exit` or closes the input. Returns whether `shutdown` came first
/// (LSP: the process then exits with 0, else with 1).
pub async fn serve<I, O>(input: I, output: O, options: Options) -> bool
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let shut_down = Arc::new(AtomicBool::new(false));
    let flag = shut_down.clone();
    let mut log_client = None;
    let service = LspService::build(|client| {
        log_client = Some(client.clone());
        Backend::new(client, options, flag)
    });
    let (service, socket) = register(service).finish();
    let (handover, handed_over) = tokio::sync::mpsc::unbounded_channel();
    let service = transport::AnswerInvalid {
        inner: service,
        client: log_client,
        handover,
    };
    // Every message goes through `transport::pump` first, which stops after `exit`
    // (or the end of the input, which it passes on as `exit`); everything the server
    // writes goes through `transport::write_output`, which also answers the messages
    // handed over while they wait.
    let (framed, pipe) = tokio::io::duplex(PIPE_BUFFER);
    let (server_output, written) = tokio::io::duplex(PIPE_BUFFER);
    let server = Server::new(framed, server_output, socket)
        .concurrency_level(CONCURRENT_REQUESTS)
        .serve(service);
    let output = transport::write_output(written, handed_over, output);
    let running = async {
        tokio::join!(server, output);
    };
    tokio::pin!(running);
    let exiting = tokio::select! {
        () = &mut running => false,
        () = transport::pump(input, pipe) => true,
    };
    if exiting {
        // The output is written to its end; a message handed over may be waiting for
        // an answer from a client that is gone: give it a moment, no more.
        let _ = tokio::time::timeout(EXIT_GRACE, running).await;
    }
    shut_down.load(Ordering::Relaxed)
}

/// The custom methods, each with its handler. A handler's params and result are its
/// request's: a mismatch does not compile.
fn register(builder: LspServiceBuilder<Backend>) -> LspServiceBuilder<Backend> {
    let builder = request::<protocol::DocumentText, _>(builder, extensions::document_text);
    let builder = request::<protocol::Settled, _>(builder, extensions::settled);
    let builder = request::<protocol::Maze, _>(builder, extensions::maze_request);
    let builder = request::<protocol::Mazes, _>(builder, extensions::mazes_request);
    let builder = request::<protocol::Replay, _>(builder, extensions::replay_request);
    let builder = request::<protocol::Difficulty, _>(builder, difficulty::difficulty);
    notification::<protocol::UnreadableChange, _>(builder, extensions::unreadable_change)
}

fn request<R: protocol::Request, F>(
    builder: LspServiceBuilder<Backend>,
    handler: F,
) -> LspServiceBuilder<Backend>
where
    F: for<'a> Method<&'a Backend, (R::Params,), Result<R::Result>> + Clone + Send + Sync + 'static,
{
    builder.custom_method(R::METHOD, handler)
}

fn notification<N: protocol::Notification, F>(
    builder: LspServiceBuilder<Backend>,
    handler: F,
) -> LspServiceBuilder<Backend>
where
    F: for<'a> Method<&'a Backend, (N::Params,), ()> + Clone + Send + Sync + 'static,
{
    builder.custom_method(N::METHOD, handler)
}

/// How many messages tower-lsp-server starts at once (its default is 4). A message
/// holds its slot only for its first poll: one that then waits (for a design search,
/// a map, a solve, the client) is handed over and answered outside the framework
/// (`transport::write_output`), so however many wait, an edit, a hover or the
/// `$/cancelRequest` meant to end the waits is started at once. (A cancel is even
/// carried out as it is read: see `transport::AnswerInvalid`.)
pub const CONCURRENT_REQUESTS: usize = 64;

const PIPE_BUFFER: usize = 1 << 16;
const EXIT_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// `boxls lsp`: serves on stdin/stdout until the client exits; whether it shut down
/// first.
pub fn run_stdio() -> std::io::Result<bool> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let shut_down = runtime.block_on(serve(
        tokio::io::stdin(),
        tokio::io::stdout(),
        Options::default(),
    ));
    // Neither a read of a stdin the client keeps open nor a solve still running may
    // hold up the exit.
    runtime.shutdown_background();
    Ok(shut_down)
}
