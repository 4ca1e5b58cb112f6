//! Ending everything a run of the program started, whatever it did to escape (a new
//! session, a double fork): boxls is a child subreaper, so every orphaned process of
//! every run becomes boxls's own child rather than init's; each run gets its own
//! cgroup v2 when one can be made, joined before the program runs (`cgroup.kill`
//! ends all of it at once); without one, when a run ends, the orphans that left
//! their run's process group are killed and reaped.
//! When boxls ends (normally or by SIGINT/SIGTERM/SIGHUP), every descendant is killed.

use std::fs::{self, File};
use std::io::{self, Read as _, Seek as _};
use std::os::fd::OwnedFd;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{
    getpid, kill_process, set_child_subreaper, waitid, Pid, Signal, WaitId, WaitIdOptions,
};

/// Set to anything, runs get no cgroup even where one could be made (tests of the
/// fallback use it).
pub const NO_CGROUP_ENV: &str = "BOXLS_STRESS_NO_CGROUP";
/// How long a cgroup's processes get to die after `cgroup.kill` before its directory
/// is removed (a run's: what is left then is removed when boxls ends).
const CGROUP_DEATH: Duration = Duration::from_millis(100);
/// Rounds of killing children: each round's victims' children come back to boxls.
const SWEEP_ROUNDS: usize = 1000;

/// boxls's cgroup for the runs (`…/boxls-stress-<pid>`), when cgroup v2 is writable.
static BASE: OnceLock<Option<Base>> = OnceLock::new();
static NEXT_RUN: AtomicU64 = AtomicU64::new(0);

/// Before the first run: boxls becomes a child subreaper, and its cgroup for the runs
/// is made when it can be. An error: not even the subreaper could be set.
pub fn init() -> io::Result<()> {
    set_child_subreaper(Some(getpid()))?;
    BASE.get_or_init(make_base);
    Ok(())
}

/// A cgroup: its directory, and its name as `/proc/<pid>/cgroup` shows it.
struct Base {
    dir: PathBuf,
    name: String,
}

/// `<cgroup2 mount><own cgroup>/boxls-stress-<pid>`, made, when the mount is writable
/// and has `cgroup.kill` (Linux 5.14).
fn make_base() -> Option<Base> {
    if std::env::var_os(NO_CGROUP_ENV).is_some() {
        return None;
    }
    let mount = cgroup2_mount()?;
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    let own = own.lines().find_map(|line| line.strip_prefix("0::"))?;
    let parent = mount.join(own.trim_start_matches('/'));
    // Moving a process between two cgroups takes write access to both `cgroup.procs`.
    fs::OpenOptions::new()
        .write(true)
        .open(parent.join("cgroup.procs"))
        .ok()?;
    let leaf = format!("boxls-stress-{}", getpid().as_raw_nonzero());
    let dir = parent.join(&leaf);
    fs::create_dir(&dir).ok()?;
    if !dir.join("cgroup.kill").exists() {
        let _ = fs::remove_dir(&dir);
        return None;
    }
    let name = format!("{}/{leaf}", own.trim_end_matches('/'));
    Some(Base { dir, name })
}

/// The cgroup v2 that `/proc/<pid>/cgroup` names (`None` once the process is gone).
fn cgroup_of(pid: i32) -> Option<String> {
    let text = fs::read_to_string(format!("/proc/{pid}/cgroup")).ok()?;
    let name = text.lines().find_map(|line| line.strip_prefix("0::"))?;
    Some(name.to_string())
}

/// Where cgroup v2 is mounted (`/sys/fs/cgroup`, or `…/unified` on a hybrid system).
fn cgroup2_mount() -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    mounts.lines().find_map(|line| {
        // `id parent major:minor root mount-point options… - fstype source …`
        let (before, after) = line.split_once(" - ")?;
        (after.split(' ').next() == Some("cgroup2"))
            .then(|| before.split(' ').nth(4).map(PathBuf::from))
            .flatten()
    })
}

/// One run's cgroup.
pub struct Cgroup {
    dir: PathBuf,
    name: String,
    /// `<base name>/`: what every run's cgroup name starts with.
    runs: String,
}

impl Cgroup {
    /// A new empty cgroup for a run, when runs get them.
    pub fn new() -> Option<Cgroup> {
        let base = BASE.get()?.as_ref()?;
        let leaf = format!("run-{}", NEXT_RUN.fetch_add(1, Ordering::Relaxed));
        let dir = base.dir.join(&leaf);
        fs::create_dir(&dir).ok()?;
        Some(Cgroup {
            dir,
            name: format!("{}/{leaf}", base.name),
            runs: format!("{}/", base.name),
        })
    }

    /// Makes the process `command` starts join the cgroup between its fork and its
    /// exec, so that nothing the program does happens outside it. (Moving it in after
    /// the spawn left a window: the move waits for an RCU grace period, 8 to 15 ms
    /// measured, time enough for a shell to fork a daemon outside.) When the move
    /// fails, the spawn does, before the program ran.
    #[allow(unsafe_code)] // The one way to act in the child before it runs the program.
    pub fn join_before_exec(&self, command: &mut Command) -> io::Result<()> {
        let procs = OwnedFd::from(
            File::options()
                .write(true)
                .open(self.dir.join("cgroup.procs"))?,
        );
        // SAFETY: the closure runs in the forked child of a multi-threaded process,
        // where only async-signal-safe calls are sound: it makes one write(2) on a
        // descriptor opened before the fork (close-on-exec, so the program does not
        // inherit it), allocating nothing and taking no lock; its error is made from
        // the errno alone (`io::Error::from_raw_os_error` does not allocate). `0`
        // names the writing process itself.
        unsafe {
            command.pre_exec(move || {
                rustix::io::write(&procs, b"0")
                    .map(drop)
                    .map_err(io::Error::from)
            });
        }
        Ok(())
    }

    /// Kills every process in the cgroup and waits (bounded) until none is left.
    fn kill(&self) {
        let _ = fs::write(self.dir.join("cgroup.kill"), "1");
        let _ = wait_until_empty(&self.dir, CGROUP_DEATH);
    }

    /// The end of the run whose process group is `group` (its first process's pid,
    /// the group already killed): everything in the cgroup is killed, and every
    /// process of it that is boxls's child is reaped, each waited for until it is
    /// dead (then nothing of the run holds its pipes); the first process is left to
    /// its runner. The sweep is [`end_of_run`]'s (`live` as there), sparing the
    /// processes in another run's cgroup: one in none is of a run that has no cgroup.
    pub fn end(&self, group: i32, live: &[i32]) {
        let _ = fs::write(self.dir.join("cgroup.kill"), "1");
        sweep(
            |p| live.contains(&p.pid),
            |p| match cgroup_of(p.pid) {
                Some(name) if name == self.name => true,
                Some(name) if name.starts_with(&self.runs) => false,
                _ => p.pgrp == group || !live.contains(&p.pgrp),
            },
        );
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        self.kill();
        // Fails only when a process could not be killed (or is still dying): the
        // directory is left, empty cgroups cost nothing.
        let _ = fs::remove_dir(&self.dir);
    }
}

/// Waits for `cgroup.events` to say `populated 0`: it is polled for its change
/// notification (`POLLPRI`), not on a timer.
fn wait_until_empty(dir: &Path, bound: Duration) -> io::Result<()> {
    let mut events = File::open(dir.join("cgroup.events"))?;
    let until = Instant::now() + bound;
    loop {
        let mut text = String::new();
        events.rewind()?;
        events.read_to_string(&mut text)?;
        if text.lines().any(|line| line == "populated 0") {
            return Ok(());
        }
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::other("the cgroup is still populated"));
        }
        let left = Timespec::try_from(left.min(Duration::from_millis(100))).unwrap_or(Timespec {
            tv_sec: 0,
            tv_nsec: 100_000_000,
        });
        let mut fds = [PollFd::new(&events, PollFlags::PRI)];
        let _ = poll(&mut fds, Some(&left));
    }
}

/// What `/proc/<pid>/stat` says about a process.
struct Process {
    pid: i32,
    ppid: i32,
    pgrp: i32,
    zombie: bool,
}

/// Every process `/proc` lists (those vanishing while it is read are left out).
fn processes() -> Vec<Process> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name();
            let pid: i32 = name.to_str()?.parse().ok()?;
            // One read: `stat` is a line well under 1 KiB (comm is at most 64 bytes).
            let mut buffer = [0u8; 1024];
            let n = File::open(format!("/proc/{pid}/stat"))
                .and_then(|mut file| file.read(&mut buffer))
                .ok()?;
            let stat = std::str::from_utf8(&buffer[..n]).ok()?;
            // `pid (comm) state ppid pgrp …`; comm may hold spaces and `)`.
            let (_, rest) = stat.rsplit_once(')')?;
            let mut fields = rest.split_whitespace();
            let state = fields.next()?;
            let mut number = || fields.next()?.parse::<i32>().ok();
            Some(Process {
                pid,
                ppid: number()?,
                pgrp: number()?,
                zombie: state == "Z" || state == "X",
            })
        })
        .collect()
}

/// Kills (SIGKILL) and reaps boxls's children that `doomed` picks, round after round
/// (each round's victims' own children come back to boxls), until a round finds none.
/// Zombie children that `spare` does not protect are reaped on the way.
fn sweep(spare: impl Fn(&Process) -> bool, doomed: impl Fn(&Process) -> bool) {
    let me = getpid().as_raw_nonzero().get();
    for _ in 0..SWEEP_ROUNDS {
        let children: Vec<Process> = processes()
            .into_iter()
            .filter(|p| p.ppid == me && !spare(p))
            .collect();
        let victims: Vec<&Process> = children.iter().filter(|p| p.zombie || doomed(p)).collect();
        if victims.is_empty() {
            return;
        }
        for victim in &victims {
            if let Some(pid) = Pid::from_raw(victim.pid) {
                // A child cannot be replaced by another process before it is reaped,
                // so this kills what was listed (ESRCH: it is already dead).
                let _ = kill_process(pid, Signal::KILL);
                let _ = waitid(WaitId::Pid(pid), WaitIdOptions::EXITED);
            }
        }
    }
}

/// When the run of `group` ends (its group already killed): kills the orphans that
/// belong to no other live run and reaps the dead. `live` are the live runs' groups
/// (their first processes' pids, `group` included), all of them: a run's first
/// process is never touched here, its runner reaps it. An orphan still in another
/// live run's group is that run's and is spared; one that left its group cannot be
/// told apart and is killed.
pub fn end_of_run(group: i32, live: &[i32]) {
    sweep(
        |p| live.contains(&p.pid),
        |p| p.pgrp == group || !live.contains(&p.pgrp),
    );
}

/// When boxls ends: every descendant is killed and reaped, then boxls's cgroup goes.
pub fn end_of_all() {
    sweep(|_| false, |_| true);
    if let Some(Some(Base { dir: base, .. })) = BASE.get() {
        if let Ok(entries) = fs::read_dir(base) {
            for entry in entries.flatten() {
                let dir = entry.path();
                if dir.is_dir() {
                    let _ = fs::write(dir.join("cgroup.kill"), "1");
                    let _ = wait_until_empty(&dir, CGROUP_DEATH);
                    let _ = fs::remove_dir(&dir);
                }
            }
        }
        let _ = fs::remove_dir(base);
    }
}
