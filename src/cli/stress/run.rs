//! Running the program under test once: no shell, its own process group (and cgroup,
//! see `contain`), the input written to stdin and stdin closed, stdout capped, the
//! tail of stderr kept, and everything it started killed when the run ends (by exit,
//! timeout or output limit). Live groups are registered so Ctrl-C can end them all.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError, RwLock};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{
    kill_process_group, pidfd_open, waitid, Pid, PidfdFlags, Signal, WaitId, WaitIdOptions,
};

use super::contain::{self, Cgroup};
use crate::stress::Ended;

/// The output kept per run; more is an output-limit failure.
pub const OUTPUT_LIMIT: usize = 16 << 20;
/// How much of stderr a report shows.
const STDERR_TAIL: usize = 2048;
/// What an empty pipe takes without blocking (Linux pipes hold 64 KiB, one 4 KiB page
/// at least under memory pressure; macOS's 16 KiB).
const PIPE_ROOM: usize = 4096;
/// How long to wait for the pipes to close once everything the run started is dead
/// (a process of another run could have inherited them for a moment).
const DRAIN: Duration = Duration::from_secs(2);
/// Set to a number of milliseconds, the drain bound instead of [`DRAIN`]. The tests set
/// it to an hour: a process of the run left alive holding its pipes then shows as a
/// hang their watchdog catches, not as 2 s that only a clock could see.
pub const DRAIN_ENV: &str = "BOXLS_STRESS_DRAIN_MS";

/// The drain bound: [`DRAIN`], or what [`DRAIN_ENV`] says (up to a day).
fn drain() -> Duration {
    static BOUND: OnceLock<Duration> = OnceLock::new();
    *BOUND.get_or_init(|| {
        std::env::var(DRAIN_ENV)
            .ok()
            .and_then(|ms| ms.trim().parse::<u64>().ok())
            .filter(|&ms| ms <= 86_400_000)
            .map_or(DRAIN, Duration::from_millis)
    })
}

/// The process groups running now (leaders' pids), and whether Ctrl-C came: after it
/// no run starts, and one being started is killed as soon as it is registered.
struct Live {
    stopping: bool,
    starting: usize,
    groups: Vec<i32>,
}

/// Held (shared) from a run's spawn until it is registered in [`LIVE`]; the orphan
/// sweep holds it exclusively.
static SPAWNING: RwLock<()> = RwLock::new(());

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

/// What a judged run keeps of its stdout: the report and the failure file need no
/// more, and shrinking keeps several runs.
pub const KEPT_STDOUT: usize = 64 << 10;

/// What one run left: how it ended, its stdout (up to the limit, or its first
/// [`KEPT_STDOUT`] bytes once [`Ran::kept`]), its stderr's tail.
#[derive(Debug, Clone)]
pub struct Ran {
    pub ended: Ended,
    pub stdout: Vec<u8>,
    /// How long stdout was (up to the limit).
    pub stdout_len: usize,
    pub stderr_tail: String,
}

impl Ran {
    /// The run as kept once judged: stdout cut to [`KEPT_STDOUT`] bytes.
    pub fn kept(mut self) -> Ran {
        if self.stdout.len() > KEPT_STDOUT {
            self.stdout.truncate(KEPT_STDOUT);
            self.stdout.shrink_to_fit();
        }
        self
    }

    /// Whether `stdout` is all the program wrote.
    pub fn whole_stdout(&self) -> bool {
        self.stdout.len() == self.stdout_len
    }
}

/// Runs `program` on `input`; an error only when it cannot be started at all. The
/// calling thread watches the run alone: one `poll` over stdout, stderr and the
/// leader's pidfd (no reader or waiter threads to start per run).
pub fn run(program: &Program, input: &[u8], timeout: Duration) -> io::Result<Ran> {
    starting()?;
    // Until the run is registered, the orphan sweep must not run: the new child is
    // boxls's, in boxls's group until it has made its own, and would look like an
    // orphan.
    let spawning = SPAWNING.read().unwrap_or_else(PoisonError::into_inner);
    // The run joins its cgroup before the program runs; one it cannot join is none
    // (the program never ran: it is started again without), and the run's end sweeps
    // `/proc` instead.
    let mut cgroup = Cgroup::new();
    let mut spawned = spawn(program, cgroup.as_ref());
    if spawned.is_err() && cgroup.is_some() {
        cgroup = None;
        spawned = spawn(program, None);
    }
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            started(None);
            drop(spawning);
            return Err(error);
        }
    };
    let pid = child.id() as i32;
    started(Some(pid));
    drop(spawning);
    let ends = Ends {
        pid,
        cgroup: cgroup.as_ref(),
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A program that exits without reading its input is not our failure: the
        // broken pipe is ignored, and dropping the pipe closes stdin. An input that
        // fits an empty pipe is written at once (it cannot block); a longer one by a
        // thread, so a program writing before it reads cannot stall the run.
        if input.len() <= PIPE_ROOM {
            let _ = stdin.write_all(input);
        } else {
            let input = input.to_vec();
            let writer = std::thread::Builder::new().spawn(move || {
                let _ = stdin.write_all(&input);
            });
            if let Err(error) = writer {
                ends.end();
                let _ = child.wait();
                finished(pid);
                return Err(io::Error::other(format!("cannot start a thread: {error}")));
            }
        }
    }
    let watched = watch(&ends, child.stdout.take(), child.stderr.take(), timeout);
    // Reaped only now, after the group was killed, so its id could not be reused by
    // another process before that.
    let status = child.wait();
    drop(cgroup);
    finished(pid);
    let status = status?;
    let ended = if watched.timed_out {
        Ended::TimedOut(timeout.as_millis() as u64)
    } else if watched.over {
        Ended::OutputLimit(OUTPUT_LIMIT)
    } else if let Some(code) = status.code() {
        Ended::Exited(code)
    } else {
        Ended::Signaled(status.signal().unwrap_or(0))
    };
    let cut = watched.stderr.len().saturating_sub(STDERR_TAIL);
    Ok(Ran {
        ended,
        stdout_len: watched.stdout.len(),
        stdout: watched.stdout,
        stderr_tail: String::from_utf8_lossy(&watched.stderr[cut..]).into_owned(),
    })
}

/// Starts the program in its own process group, in `cgroup` when there is one, with
/// its three pipes.
fn spawn(program: &Program, cgroup: Option<&Cgroup>) -> io::Result<Child> {
    let mut command = Command::new(&program.program);
    command
        .args(&program.args)
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(cgroup) = cgroup {
        cgroup.join_before_exec(&mut command)?;
    }
    command.spawn()
}

/// What watching a run saw.
#[derive(Default)]
struct Watched {
    stdout: Vec<u8>,
    /// Whether stdout went past [`OUTPUT_LIMIT`].
    over: bool,
    stderr: Vec<u8>,
    timed_out: bool,
}

/// How a run's processes are ended: its group, its cgroup, and the orphans.
struct Ends<'a> {
    pid: i32,
    cgroup: Option<&'a Cgroup>,
}

impl Ends<'_> {
    /// Kills everything the run started but its first process (left for its runner
    /// to reap): its group, its cgroup, and the orphans no other live run owns.
    fn end(&self) {
        kill_group(self.pid);
        // Every run started is registered while this is held.
        let _no_spawn = SPAWNING.write().unwrap_or_else(PoisonError::into_inner);
        let live = live_groups();
        match self.cgroup {
            Some(cgroup) => cgroup.end(self.pid, &live),
            None => contain::end_of_run(self.pid, &live),
        }
    }
}

/// Reads the run's output until the leader has exited and both pipes are closed, or
/// the time is up; everything the run started is killed ([`Ends::end`]) as soon as the
/// leader exits, the time is up or stdout goes past the limit. Then the pipes get
/// [`drain`] at most to close (no process of the run is left to hold them open, but
/// one of another run could have inherited them).
fn watch(
    ends: &Ends<'_>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    timeout: Duration,
) -> Watched {
    let leader = Pid::from_raw(ends.pid);
    // Without pidfds (Linux before 5.3) the leader is checked every few milliseconds.
    let pidfd = leader.and_then(|leader| pidfd_open(leader, PidfdFlags::empty()).ok());
    let (mut stdout, mut stderr) = (stdout, stderr);
    let mut seen = Watched::default();
    let deadline = Instant::now() + timeout;
    let mut drain_until: Option<Instant> = None;
    let mut chunk = vec![0u8; 64 * 1024];
    let mut exited = false;
    loop {
        exited = exited || leader_exited(leader, pidfd.as_ref());
        if exited && drain_until.is_none() {
            ends.end();
            drain_until = Some(Instant::now() + drain());
        }
        if exited && stdout.is_none() && stderr.is_none() {
            return seen;
        }
        let now = Instant::now();
        if drain_until.is_none() && now >= deadline {
            seen.timed_out = true;
            ends.end();
            drain_until = Some(now + drain());
        }
        if drain_until.is_some_and(|until| now >= until) {
            return seen;
        }
        let mut wait = drain_until
            .unwrap_or(deadline)
            .saturating_duration_since(now);
        if pidfd.is_none() && !exited {
            wait = wait.min(Duration::from_millis(2));
        }
        // An exited leader's pidfd stays readable: only the pipes are waited on then.
        let watching = pidfd.as_ref().filter(|_| !exited);
        let (out_ready, err_ready) = ready(stdout.as_ref(), stderr.as_ref(), watching, wait);
        if out_ready {
            if let Some(pipe) = stdout.as_mut() {
                match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => stdout = None,
                    Ok(n) => {
                        let room = OUTPUT_LIMIT - seen.stdout.len();
                        seen.stdout.extend_from_slice(&chunk[..n.min(room)]);
                        if n > room {
                            seen.over = true;
                            stdout = None;
                            ends.end();
                            drain_until.get_or_insert(Instant::now() + drain());
                        }
                    }
                }
            }
        }
        if err_ready {
            if let Some(pipe) = stderr.as_mut() {
                match pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => stderr = None,
                    Ok(n) => {
                        seen.stderr.extend_from_slice(&chunk[..n]);
                        if seen.stderr.len() > 2 * STDERR_TAIL {
                            let cut = seen.stderr.len() - STDERR_TAIL;
                            seen.stderr.drain(..cut);
                        }
                    }
                }
            }
        }
    }
}

/// Whether the leader has exited (without reaping it): its pidfd is readable, or
/// without one, `waitid` says so.
fn leader_exited(leader: Option<Pid>, pidfd: Option<&OwnedFd>) -> bool {
    if let Some(fd) = pidfd {
        let mut fds = [PollFd::new(fd, PollFlags::IN)];
        let zero = Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        return poll(&mut fds, Some(&zero)).is_ok_and(|n| n > 0);
    }
    let Some(leader) = leader else {
        return true;
    };
    waitid(
        WaitId::Pid(leader),
        WaitIdOptions::EXITED | WaitIdOptions::NOWAIT | WaitIdOptions::NOHANG,
    )
    .map_or(true, |status| status.is_some())
}

/// Waits up to `wait` for stdout or stderr to have something (or close), or the
/// leader to exit; whether stdout and stderr are ready.
fn ready(
    stdout: Option<&ChildStdout>,
    stderr: Option<&ChildStderr>,
    pidfd: Option<&OwnedFd>,
    wait: Duration,
) -> (bool, bool) {
    let interest = PollFlags::IN | PollFlags::HUP;
    let mut fds = Vec::with_capacity(3);
    let mut slots = [None; 2];
    if let Some(pipe) = stdout {
        slots[0] = Some(fds.len());
        fds.push(PollFd::new(pipe, interest));
    }
    if let Some(pipe) = stderr {
        slots[1] = Some(fds.len());
        fds.push(PollFd::new(pipe, interest));
    }
    if let Some(fd) = pidfd {
        fds.push(PollFd::new(fd, PollFlags::IN));
    }
    let timeout = Timespec::try_from(wait).unwrap_or(Timespec {
        tv_sec: 1,
        tv_nsec: 0,
    });
    if fds.is_empty() {
        std::thread::sleep(wait);
        return (false, false);
    }
    if poll(&mut fds, Some(&timeout)).is_err() {
        // EINTR: the caller looks again.
        return (false, false);
    }
    let hit = |slot: Option<usize>| slot.is_some_and(|i| !fds[i].revents().is_empty());
    (hit(slots[0]), hit(slots[1]))
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

/// The live process groups (their first processes' pids).
fn live_groups() -> Vec<i32> {
    LIVE.lock()
        .map(|live| live.groups.clone())
        .unwrap_or_default()
}

fn finished(pid: i32) {
    if let Ok(mut live) = LIVE.lock() {
        live.groups.retain(|&group| group != pid);
    }
}

/// Ctrl-C: no run starts any more, every live process group is killed, including
/// those still being started, then every descendant of boxls and its cgroups.
pub fn kill_all() {
    for _ in 0..1000 {
        let Ok(mut live) = LIVE.lock() else {
            break;
        };
        live.stopping = true;
        for &pid in &live.groups {
            kill_group(pid);
        }
        if live.starting == 0 {
            break;
        }
        drop(live);
        std::thread::sleep(Duration::from_millis(1));
    }
    contain::end_of_all();
}

/// After Ctrl-C (or SIGTERM, SIGHUP), never returns: the signal's thread exits the
/// process once everything is killed.
pub fn wait_if_interrupted() {
    if LIVE.lock().is_ok_and(|live| live.stopping) {
        loop {
            std::thread::park();
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
