//! Running the program under test once: no shell, its own process group, the input
//! written to stdin and stdin closed, stdout capped, the tail of stderr kept, and the
//! whole group killed when the run ends (by exit, timeout or output limit) so nothing
//! it started outlives it. Live groups are registered so Ctrl-C can end them all.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use rustix::process::{kill_process_group, waitid, Pid, Signal, WaitId, WaitIdOptions};

use crate::stress::Ended;

/// The output kept per run; more is an output-limit failure.
pub const OUTPUT_LIMIT: usize = 16 << 20;
/// How much of stderr a report shows.
const STDERR_TAIL: usize = 2048;
/// How long to wait for the pipes to close once the group is dead (a process that left
/// the group could keep them open).
const DRAIN: Duration = Duration::from_secs(2);

/// The process groups running now (leaders' pids), and whether Ctrl-C came: after it
/// no run starts, and one being started is killed as soon as it is registered.
struct Live {
    stopping: bool,
    starting: usize,
    groups: Vec<i32>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    stopping: false,
    starting: 0,
    groups: Vec::new(),
});

/// What a program to test is: the program and its arguments.
#[derive(Debug, Clone)]
pub struct Program {
    pub program: OsString,
    pub args: Vec<OsString>,
}

/// What one run left: how it ended, its stdout (up to the limit), its stderr's tail.
#[derive(Debug, Clone)]
pub struct Ran {
    pub ended: Ended,
    pub stdout: Vec<u8>,
    pub stderr_tail: String,
}

enum Event {
    Exited,
    Stdout(Vec<u8>, bool),
    Stderr(Vec<u8>),
}

/// Runs `program` on `input`; an error only when it cannot be started at all.
pub fn run(program: &Program, input: &[u8], timeout: Duration) -> io::Result<Ran> {
    starting()?;
    let spawned = Command::new(&program.program)
        .args(&program.args)
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            started(None);
            return Err(error);
        }
    };
    let pid = child.id() as i32;
    started(Some(pid));
    let (events, received) = mpsc::channel();
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_vec();
        // A program that exits without reading its input is not our failure: the
        // broken pipe is ignored, and dropping the pipe closes stdin.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    if let Some(stdout) = child.stdout.take() {
        let events = events.clone();
        std::thread::spawn(move || {
            let (bytes, over) = read_capped(stdout, OUTPUT_LIMIT);
            if over {
                kill_group(pid);
            }
            let _ = events.send(Event::Stdout(bytes, over));
        });
    }
    if let Some(stderr) = child.stderr.take() {
        let events = events.clone();
        std::thread::spawn(move || {
            let _ = events.send(Event::Stderr(read_tail(stderr, STDERR_TAIL)));
        });
    }
    std::thread::spawn(move || {
        // Waits without reaping, so the group id cannot be reused before it is killed.
        if let Some(leader) = Pid::from_raw(pid) {
            let _ = waitid(
                WaitId::Pid(leader),
                WaitIdOptions::EXITED | WaitIdOptions::NOWAIT,
            );
        }
        let _ = events.send(Event::Exited);
    });
    let deadline = Instant::now() + timeout;
    let mut timed_out = false;
    let (mut exited, mut stdout, mut stderr) = (false, None, None);
    while !(exited && stdout.is_some() && stderr.is_some()) {
        let now = Instant::now();
        let wait = if exited || timed_out {
            DRAIN
        } else {
            deadline.saturating_duration_since(now)
        };
        match received.recv_timeout(wait) {
            Ok(Event::Exited) => {
                exited = true;
                kill_group(pid);
            }
            Ok(Event::Stdout(bytes, over)) => stdout = Some((bytes, over)),
            Ok(Event::Stderr(bytes)) => stderr = Some(bytes),
            Err(_) if !exited && !timed_out => {
                timed_out = true;
                kill_group(pid);
            }
            Err(_) => break,
        }
    }
    let status = child.wait()?;
    finished(pid);
    let (stdout, over) = stdout.unwrap_or_default();
    let ended = if timed_out {
        Ended::TimedOut(timeout.as_millis() as u64)
    } else if over {
        Ended::OutputLimit(OUTPUT_LIMIT)
    } else if let Some(code) = status.code() {
        Ended::Exited(code)
    } else {
        Ended::Signaled(status.signal().unwrap_or(0))
    };
    Ok(Ran {
        ended,
        stdout,
        stderr_tail: String::from_utf8_lossy(&stderr.unwrap_or_default()).into_owned(),
    })
}

fn kill_group(pid: i32) {
    if let Some(group) = Pid::from_raw(pid) {
        // ESRCH (the group is gone already) is what we want anyway.
        let _ = kill_process_group(group, Signal::KILL);
    }
}

/// A run is about to start: refused after Ctrl-C.
fn starting() -> io::Result<()> {
    let mut live = LIVE.lock().map_err(|_| io::Error::other("interrupted"))?;
    if live.stopping {
        return Err(io::Error::other("interrupted"));
    }
    live.starting += 1;
    Ok(())
}

/// A run started (or failed to): its group is live, or killed at once after Ctrl-C.
fn started(pid: Option<i32>) {
    if let Ok(mut live) = LIVE.lock() {
        live.starting -= 1;
        if let Some(pid) = pid {
            live.groups.push(pid);
            if live.stopping {
                kill_group(pid);
            }
        }
    }
}

fn finished(pid: i32) {
    if let Ok(mut live) = LIVE.lock() {
        live.groups.retain(|&group| group != pid);
    }
}

/// Ctrl-C: no run starts any more, and every live process group is killed, including
/// those still being started. Returns once none is being started.
pub fn kill_all() {
    for _ in 0..1000 {
        let Ok(mut live) = LIVE.lock() else {
            return;
        };
        live.stopping = true;
        for &pid in &live.groups {
            kill_group(pid);
        }
        if live.starting == 0 {
            return;
        }
        drop(live);
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Reads up to `limit` bytes; whether there was more.
fn read_capped(mut from: impl Read, limit: usize) -> (Vec<u8>, bool) {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        match from.read(&mut chunk) {
            Ok(0) | Err(_) => return (bytes, false),
            Ok(n) if bytes.len() + n > limit => {
                bytes.extend_from_slice(&chunk[..limit - bytes.len()]);
                return (bytes, true);
            }
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Reads to the end, keeping the last `keep` bytes.
fn read_tail(mut from: impl Read, keep: usize) -> Vec<u8> {
    let mut tail = Vec::new();
    let mut chunk = [0u8; 8 * 1024];
    loop {
        match from.read(&mut chunk) {
            Ok(0) | Err(_) => {
                let cut = tail.len().saturating_sub(keep);
                tail.drain(..cut);
                return tail;
            }
            Ok(n) => {
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > 2 * keep {
                    tail.drain(..tail.len() - keep);
                }
            }
        }
    }
}

/// The last `lines` non-blank lines of `text`.
pub fn tail_lines(text: &str, lines: usize) -> String {
    let mut kept: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .rev()
        .take(lines)
        .collect();
    kept.reverse();
    kept.join("\n")
}
