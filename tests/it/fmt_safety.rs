//! `boxls fmt` never loses or damages anything (issue 28): it refuses devices, FIFOs and
//! read-only files, keeps owner, group and hard links, treats `/dev/stdin` like `-`,
//! loses no line a locking appender writes while it runs, and leaves no temporary file
//! behind on a file-size limit, SIGTERM or an earlier kill. Also: every command that
//! reads a `.box` stops at the documented input limit. Moments that matter are made
//! certain with the test-only `BOXLS_TEST_FMT_PAUSE` knob; a hang fails after a long
//! bound instead of blocking the suite.

use std::io::{BufRead as _, BufReader, Write as _};
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::cli::entries;

const UNFORMATTED: &str = "  1   3 \nSBT  \n";
const FORMATTED: &str = "1 3\nSBT\n0 0\n";
/// Far beyond any run on a busy machine: only a hang gets here.
const HANG: Duration = Duration::from_secs(120);

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_boxls")
}

/// A fresh, empty directory of its own for one test, so it can see that nothing else
/// (no temporary file) is left in it.
fn dir(name: &str) -> PathBuf {
    crate::cli::fresh_dir("fmt-safety", name)
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `command` (stdin: null unless set), failing the test if it does not end.
fn finish(command: &mut Command) -> Run {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command runs");
    wait_bounded(child)
}

/// Waits for `child` and collects its output; kills it and fails after [`HANG`].
fn wait_bounded(mut child: Child) -> Run {
    let out = child.stdout.take().map(read_all);
    let err = child.stderr.take().map(read_all);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the command hung (killed after {HANG:?})");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = |reader: Option<std::thread::JoinHandle<Vec<u8>>>| {
        reader
            .map(|reader| String::from_utf8_lossy(&reader.join().expect("reader")).into_owned())
            .unwrap_or_default()
    };
    Run {
        status,
        stdout: text(out),
        stderr: text(err),
    }
}

fn read_all(mut stream: impl std::io::Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        bytes
    })
}

fn fmt(args: &[&Path]) -> Command {
    let mut command = Command::new(bin());
    command.arg("fmt").args(args).stdin(Stdio::null());
    command
}

fn assert_refused(run: &Run, says: &str) {
    assert_eq!(run.status.code(), Some(2), "stderr: {}", run.stderr);
    assert!(run.stderr.contains(says), "{}", run.stderr);
}

#[test]
fn fmt_refuses_a_link_to_a_character_device() {
    if !is_root() {
        eprintln!("skipped: mknod needs root");
        return;
    }
    let dir = dir("char-device");
    // A private copy of /dev/null (1, 3): what the unfixed `fmt` replaced.
    let device = dir.join("null");
    let made = Command::new("mknod")
        .arg(&device)
        .args(["c", "1", "3"])
        .status()
        .expect("mknod runs");
    assert!(made.success());
    std::os::unix::fs::symlink("null", dir.join("maze.box")).expect("symlink");
    let run = finish(&mut fmt(&[&dir.join("maze.box")]));
    assert_refused(&run, "is a character device, not a regular file");
    assert!(run.stderr.contains("maze.box"), "{}", run.stderr);
    let kind = std::fs::metadata(&device).expect("stat").file_type();
    assert!(kind.is_char_device(), "the device is still a device");
    assert!(std::fs::symlink_metadata(dir.join("maze.box"))
        .expect("lstat")
        .file_type()
        .is_symlink());
    assert_eq!(entries(&dir), ["maze.box", "null"]);
}

#[test]
fn fmt_refuses_a_link_to_dev_null() {
    let dir = dir("dev-null");
    std::os::unix::fs::symlink("/dev/null", dir.join("maze.box")).expect("symlink");
    for path in [dir.join("maze.box"), PathBuf::from("/dev/null")] {
        let run = finish(&mut fmt(&[&path]));
        assert_refused(&run, "is a character device, not a regular file");
        assert!(
            run.stderr.contains(&format!("`{}`", path.display())),
            "{}",
            run.stderr
        );
    }
    let null = std::fs::metadata("/dev/null").expect("stat /dev/null");
    assert!(null.file_type().is_char_device());
    assert_eq!(entries(&dir), ["maze.box"]);
}

#[test]
fn fmt_refuses_a_fifo_at_once() {
    let dir = dir("fifo");
    let fifo = dir.join("maze.box");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    for args in [&["fmt"][..], &["fmt", "--check"]] {
        let mut command = Command::new(bin());
        command.args(args).arg(&fifo).stdin(Stdio::null());
        let run = finish(&mut command);
        assert_refused(&run, "is a FIFO (named pipe), not a regular file");
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .expect("lstat")
        .file_type()
        .is_fifo());
    assert_eq!(entries(&dir), ["maze.box"], "no temporary file is left");
}

#[test]
fn fmt_of_dev_stdin_prints_like_a_dash_and_leaves_the_file() {
    let dir = dir("dev-stdin");
    let maze = dir.join("m.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    for name in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"] {
        let mut command = fmt(&[Path::new(name)]);
        command.stdin(std::fs::File::open(&maze).expect("open"));
        let run = finish(&mut command);
        assert_eq!(run.status.code(), Some(0), "{name}: {}", run.stderr);
        assert_eq!(run.stdout, FORMATTED, "{name}");
        assert_eq!(
            std::fs::read_to_string(&maze).expect("read"),
            UNFORMATTED,
            "{name}: m.box is untouched"
        );
    }
    // --check reads it the same way and names standard input.
    let mut command = Command::new(bin());
    command
        .args(["fmt", "--check", "/dev/stdin"])
        .stdin(std::fs::File::open(&maze).expect("open"));
    let run = finish(&mut command);
    assert_eq!(run.status.code(), Some(1), "{}", run.stderr);
    assert_eq!(run.stdout, "<stdin> would be reformatted\n");
    assert_eq!(entries(&dir), ["m.box"]);
}

#[test]
fn fmt_refuses_a_read_only_file() {
    let dir = dir("read-only");
    let maze = dir.join("m.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    std::fs::set_permissions(&maze, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let run = finish(&mut fmt(&[&maze]));
    assert_refused(&run, "is read-only (mode 0444); not rewriting it");
    assert_eq!(std::fs::read_to_string(&maze).expect("read"), UNFORMATTED);
    let mode = std::fs::metadata(&maze).expect("stat").mode();
    assert_eq!(mode & 0o7777, 0o444);
    assert_eq!(entries(&dir), ["m.box"]);
}

#[test]
fn fmt_keeps_the_owner_and_group() {
    if !is_root() {
        eprintln!("skipped: chown to another user needs root");
        return;
    }
    let dir = dir("owner");
    let maze = dir.join("m.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    std::os::unix::fs::chown(&maze, Some(12345), Some(12346)).expect("chown");
    std::fs::set_permissions(&maze, std::fs::Permissions::from_mode(0o664)).expect("chmod");
    let run = finish(&mut fmt(&[&maze]));
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&maze).expect("read"), FORMATTED);
    let meta = std::fs::metadata(&maze).expect("stat");
    assert_eq!((meta.uid(), meta.gid()), (12345, 12346));
    assert_eq!(meta.mode() & 0o7777, 0o664);
    assert_eq!(entries(&dir), ["m.box"]);
}

#[test]
fn fmt_refuses_a_file_whose_owner_it_cannot_keep() {
    if !is_root() {
        eprintln!("skipped: running as another user needs root");
        return;
    }
    let dir = dir("foreign-owner");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let maze = dir.join("m.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    // Writable by user 12345, owned by 12346: 12345 cannot give a copy that owner.
    std::os::unix::fs::chown(&maze, Some(12346), Some(12346)).expect("chown");
    std::fs::set_permissions(&maze, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let mut command = fmt(&[&maze]);
    command.uid(12345).gid(12345);
    let run = finish(&mut command);
    assert_refused(&run, "cannot keep the owner of");
    assert!(
        run.stderr.contains("(uid 12346, gid 12346)"),
        "{}",
        run.stderr
    );
    assert_eq!(std::fs::read_to_string(&maze).expect("read"), UNFORMATTED);
    let meta = std::fs::metadata(&maze).expect("stat");
    assert_eq!((meta.uid(), meta.gid()), (12346, 12346));
    assert_eq!(entries(&dir), ["m.box"]);
}

#[test]
fn fmt_keeps_hard_links_whole() {
    let dir = dir("hard-links");
    let (first, second) = (dir.join("a.box"), dir.join("b.box"));
    std::fs::write(&first, UNFORMATTED).expect("write");
    std::fs::hard_link(&first, &second).expect("link");
    let inode = std::fs::metadata(&first).expect("stat").ino();
    let run = finish(&mut fmt(&[&first]));
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    for name in [&first, &second] {
        assert_eq!(std::fs::read_to_string(name).expect("read"), FORMATTED);
        let meta = std::fs::metadata(name).expect("stat");
        assert_eq!(
            (meta.ino(), meta.nlink()),
            (inode, 2),
            "one file, two names"
        );
    }
    // Shorter text: the file is cut to it.
    std::fs::write(&first, "  1      3          \nSBT            \n").expect("write");
    finish(&mut fmt(&[&second]));
    assert_eq!(std::fs::read_to_string(&first).expect("read"), FORMATTED);
    assert_eq!(entries(&dir), ["a.box", "b.box"]);
}

/// A `fmt` run stopped at `stage` by the test-only knob; `resume` lets it go on.
struct Paused {
    child: Child,
    stdin: Option<std::process::ChildStdin>,
    stderr: BufReader<std::process::ChildStderr>,
}

impl Paused {
    fn start(stage: &str, command: &mut Command) -> Paused {
        let mut child = command
            .env("BOXLS_TEST_FMT_PAUSE", stage)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("boxls runs");
        let stdin = child.stdin.take();
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("read stderr");
        let first = stage.split(',').next().unwrap_or(stage);
        assert_eq!(line, format!("boxls: test pause: {first}\n"));
        Paused {
            child,
            stdin,
            stderr,
        }
    }

    fn resume(mut self) -> Run {
        drop(self.stdin.take());
        let stderr = self.stderr.into_inner();
        self.child.stderr = Some(stderr);
        wait_bounded(self.child)
    }
}

#[test]
fn fmt_refuses_a_file_replaced_after_it_was_read() {
    let dir = dir("replaced");
    let maze = dir.join("maze.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    let paused = Paused::start("read", &mut fmt(&[&maze]));
    // Another program saves the file the usual way: new text renamed over the name.
    let saved = "1 3\nSBT\n; saved by another program\n0 0\n";
    std::fs::write(dir.join("saved.tmp"), saved).expect("write");
    std::fs::rename(dir.join("saved.tmp"), &maze).expect("rename over");
    let run = paused.resume();
    assert_eq!(run.status.code(), Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "boxls: cannot write `{}`: it changed since it was read (another program \
             wrote to it); left as it is\n",
            maze.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&maze).expect("read"), saved);
    assert_eq!(entries(&dir), ["maze.box"], "no temporary file is left");
}

/// Appends `line` the way a cooperating program does: lock the file, and write only if
/// the locked file is still the one at `path` (it may have been replaced meanwhile).
fn append_locked(path: &Path, line: &str) {
    use rustix::fs::{flock, FlockOperation};
    loop {
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .expect("open to append");
        flock(&file, FlockOperation::LockExclusive).expect("lock");
        let locked = file.metadata().expect("fstat").ino();
        if std::fs::metadata(path).expect("stat").ino() == locked {
            file.write_all(line.as_bytes()).expect("append");
            return;
        }
    }
}

#[test]
fn fmt_holds_a_lock_between_its_check_and_the_rename() {
    use rustix::fs::{flock, FlockOperation};
    let dir = dir("lock");
    let maze = dir.join("maze.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    let paused = Paused::start("checked", &mut fmt(&[&maze]));
    // `fmt` has found the file unchanged and not renamed yet: a writer taking the lock
    // now must wait for it, or its line would go to the file about to be replaced.
    let probe = std::fs::File::open(&maze).expect("open");
    let busy = flock(&probe, FlockOperation::NonBlockingLockExclusive);
    if busy.is_ok() {
        // (The unfixed `fmt` took no lock: write now, as a locking appender would.)
        drop(probe);
        append_locked(&maze, "; appended  \n");
        let run = paused.resume();
        panic!(
            "fmt did not hold the lock; after it: {:?} ({})",
            std::fs::read_to_string(&maze),
            run.stderr
        );
    }
    drop(probe);
    let appender = {
        let maze = maze.clone();
        std::thread::spawn(move || append_locked(&maze, "; appended  \n"))
    };
    let run = paused.resume();
    appender.join().expect("appender");
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&maze).expect("read"),
        format!("{FORMATTED}; appended  \n")
    );
    assert_eq!(entries(&dir), ["maze.box"]);
}

#[test]
fn fmt_keeps_what_a_writer_without_a_lock_appended_during_the_rename() {
    let dir = dir("late-append");
    let maze = dir.join("maze.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    let mut paused = Paused::start("checked,renamed", &mut fmt(&[&maze]));
    // A writer that takes no lock opens the file now, between fmt's check and its
    // rename, and writes once the rename is done: into the file no name leads to.
    let mut late = std::fs::OpenOptions::new()
        .append(true)
        .open(&maze)
        .expect("open to append");
    paused
        .stdin
        .as_mut()
        .expect("stdin")
        .write_all(b"\n")
        .expect("resume");
    let mut line = String::new();
    paused.stderr.read_line(&mut line).expect("read stderr");
    // (The unfixed `fmt` has no such stage: it has already ended.)
    late.write_all(b"; appended late  \n").expect("append");
    drop(late);
    let run = paused.resume();
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(&maze).expect("read"),
        format!("{FORMATTED}; appended late  \n"),
        "after the pause {line:?}: {}",
        run.stderr
    );
    assert_eq!(line, "boxls: test pause: renamed\n");
    assert!(
        run.stderr.contains(
            "18 bytes another program appended while it was being replaced were added at its end"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(entries(&dir), ["maze.box"]);
}

#[test]
fn fmt_racing_a_locking_appender_loses_no_line() {
    let dir = dir("appender");
    let maze = dir.join("maze.box");
    std::fs::write(&maze, UNFORMATTED).expect("write");
    const LINES: usize = 150;
    let appender = {
        let maze = maze.clone();
        std::thread::spawn(move || {
            for line in 0..LINES {
                // Trailing blanks: every line leaves the file for `fmt` to rewrite.
                append_locked(&maze, &format!("; line {line}  \n"));
            }
        })
    };
    let (mut runs, mut refused) = (0, 0);
    while !appender.is_finished() || runs < 20 {
        let run = finish(&mut fmt(&[&maze]));
        match run.status.code() {
            Some(0) => {}
            Some(2) if run.stderr.contains("changed since it was read") => refused += 1,
            _ => panic!("fmt failed: {}", run.stderr),
        }
        runs += 1;
    }
    appender.join().expect("appender");
    let text = std::fs::read_to_string(&maze).expect("read");
    for line in 0..LINES {
        let marker = format!("; line {line}");
        let found = text.lines().filter(|l| l.trim_end() == marker).count();
        assert_eq!(
            found, 1,
            "line {line} ({runs} runs, {refused} refused):\n{text}"
        );
    }
    assert_eq!(entries(&dir), ["maze.box"]);
}

/// Unformatted text of about `bytes` bytes.
fn big_unformatted(bytes: usize) -> String {
    let mut text = String::new();
    while text.len() < bytes {
        text.push_str("  1   7 \nSB....T   \n");
    }
    text
}

#[test]
fn fmt_leaves_no_temporary_file_under_a_file_size_limit() {
    let dir = dir("fsize");
    let original = big_unformatted(4096);
    std::fs::write(dir.join("big.box"), &original).expect("write");
    // SIGXFSZ at its default: the unfixed `fmt` was killed mid-write by it.
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -f 2; exec \"$1\" fmt big.box", "sh", bin()])
        .current_dir(&dir)
        .stdin(Stdio::null());
    let run = finish(&mut command);
    assert_eq!(
        run.status.code(),
        Some(2),
        "{:?} {}",
        run.status,
        run.stderr
    );
    assert!(
        run.stderr
            .starts_with("boxls: cannot write `big.box`: File too large"),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("big.box")).expect("read"),
        original
    );
    assert_eq!(entries(&dir), ["big.box"], "no temporary file is left");
}

#[test]
fn fmt_leaves_no_temporary_file_when_terminated_mid_write() {
    let dir = dir("sigterm");
    let original = big_unformatted(1 << 20);
    std::fs::write(dir.join("big.box"), &original).expect("write");
    let paused = Paused::start("mid-write", fmt(&[Path::new("big.box")]).current_dir(&dir));
    let pid = rustix::process::Pid::from_child(&paused.child);
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
    let run = paused.resume();
    assert_eq!(
        run.status.signal(),
        Some(15),
        "{:?} {}",
        run.status,
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("big.box")).expect("read"),
        original
    );
    assert_eq!(entries(&dir), ["big.box"], "no temporary file is left");
}

#[test]
fn fmt_removes_the_temporary_files_of_killed_runs() {
    let dir = dir("stale");
    std::fs::write(dir.join("m.box"), UNFORMATTED).expect("write");
    // Left by a process that no longer exists (no pid is that large), and one by a
    // live process (this test), which stays.
    let stale = ".boxls-fmt-999999999-0.tmp";
    let live = format!(".boxls-fmt-{}-0.tmp", std::process::id());
    for name in [stale, live.as_str(), ".boxls-fmt-notes.txt"] {
        std::fs::write(dir.join(name), "x").expect("write");
    }
    let run = finish(&mut fmt(&[&dir.join("m.box")]));
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.join("m.box")).expect("read"),
        FORMATTED
    );
    assert_eq!(
        entries(&dir),
        [live.as_str(), ".boxls-fmt-notes.txt", "m.box"]
    );
}

/// `boxls ARGS` reading an endless stream (`yes`) on stdin, under a 2 GB address-space
/// limit so that a missing read limit fails quickly instead of eating the machine.
fn endless_stdin(args: &[&str]) -> Run {
    let mut yes = Command::new("yes")
        .stdout(Stdio::piped())
        .spawn()
        .expect("yes runs");
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -v 2000000; exec \"$@\"", "sh", bin()])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(yes.stdout.take().expect("yes's stdout"));
    let run = finish(&mut command);
    let _ = yes.kill();
    let _ = yes.wait();
    run
}

#[test]
fn reads_stop_at_the_input_limit() {
    let limit = "is larger than 64 MiB, the most boxls reads";
    for args in [
        &["check"][..],
        &["check", "-"],
        &["solve"],
        &["fmt"],
        &["fmt", "/dev/stdin"],
        &["fmt", "--check", "-"],
        &["judge", "examples/sample.box", "-"],
        &["judge", "-", "examples/sample.out"],
    ] {
        let run = endless_stdin(args);
        assert_eq!(
            run.status.code(),
            Some(2),
            "{args:?}: {:?} {}",
            run.status,
            run.stderr
        );
        assert!(run.stderr.contains(limit), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
    }
    // A file over the limit is refused before it is read (sparse: no disk used).
    let dir = dir("too-large");
    let huge = dir.join("huge.box");
    std::fs::File::create(&huge)
        .and_then(|file| file.set_len((64 << 20) + 1))
        .expect("a sparse file");
    for command in ["check", "fmt", "solve"] {
        let run = finish(Command::new(bin()).arg(command).arg(&huge));
        assert_eq!(run.status.code(), Some(2), "{command}: {}", run.stderr);
        assert!(run.stderr.contains(limit), "{command}: {}", run.stderr);
    }
    assert_eq!(
        std::fs::metadata(&huge).expect("stat").len(),
        (64 << 20) + 1
    );
}
