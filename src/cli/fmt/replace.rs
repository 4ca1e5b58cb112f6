//! Replacing a file `fmt` formatted without losing or damaging anything. Only a regular
//! file is read (a device, FIFO or socket is refused, even through a link, without
//! being opened for long or read); a read-only one is refused; the new text goes to a
//! temporary file beside it that gets the file's owner, group and mode, and is renamed
//! over it while `fmt` holds an advisory lock (`flock`) on the file and has just found
//! it unchanged (same file, size, mtime and bytes). A file with several hard links is
//! written in place instead, so every name sees the new text.

use std::fs::{File, Metadata};
use std::io::{self, Seek as _, SeekFrom, Write as _};
use std::os::unix::fs::{FileExt as _, FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, Mode, OFlags};
use rustix::io::Errno;

use super::super::input::{self, Input, MAX_INPUT_BYTES};
use super::super::Failure;
use super::temporary::{self, Temporary};
use super::{pause, signals};

/// How long `fmt` waits for another program's lock on the file before giving up.
const LOCK_ATTEMPTS: u32 = 500;
const LOCK_RETRY: std::time::Duration = std::time::Duration::from_millis(10);

/// A regular file as `fmt` read it, still open (its lock is taken on this descriptor).
pub struct Original {
    pub input: Input,
    file: File,
    /// The path with every link followed: what the new text replaces.
    target: PathBuf,
    /// Its metadata once read: identity (device, inode), size, mtime, owner, mode.
    read: Metadata,
}

impl Original {
    pub fn open(path: &Path) -> Result<Original, Failure> {
        let name = path.display().to_string();
        let cannot_read = |e: io::Error| Failure::Message(format!("cannot read `{name}`: {e}"));
        refuse_unless_regular(path, &std::fs::metadata(path).map_err(cannot_read)?)?;
        // O_NONBLOCK: should a FIFO take the file's place after that look, opening it
        // returns at once (and the look below refuses it) instead of waiting for a writer.
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let file = File::from(
            rustix::fs::open(path, flags, Mode::empty()).map_err(|e| cannot_read(e.into()))?,
        );
        let opened = file.metadata().map_err(cannot_read)?;
        refuse_unless_regular(path, &opened)?;
        if opened.len() > MAX_INPUT_BYTES {
            return Err(input::too_large(&name));
        }
        let bytes = input::read_bounded(&file, &name)?;
        let read = file.metadata().map_err(cannot_read)?;
        let target = std::fs::canonicalize(path).map_err(cannot_read)?;
        Ok(Original {
            input: Input { name, bytes },
            file,
            target,
            read,
        })
    }

    /// Replaces the file with `text`, or leaves it as it was and says why.
    pub fn replace(self, text: &str) -> Result<(), Failure> {
        self.refuse_read_only()?;
        signals::defer().map_err(|e| self.cannot_write(format!("cannot defer signals: {e}")))?;
        if self.read.nlink() > 1 {
            self.write_in_place(text)
        } else {
            self.write_beside(text)
        }
    }

    /// Writes a temporary file beside the original and renames it over it.
    fn write_beside(&self, text: &str) -> Result<(), Failure> {
        let dir = self.target.parent().unwrap_or(Path::new("/"));
        temporary::remove_stale(dir);
        let temporary = Temporary::create(dir).map_err(|e| self.cannot_write(e))?;
        let mut file = temporary.file();
        let (first, rest) = text.as_bytes().split_at(text.len() / 2);
        file.write_all(first).map_err(|e| self.cannot_write(e))?;
        pause::at("mid-write");
        file.write_all(rest).map_err(|e| self.cannot_write(e))?;
        self.keep_owner(file)?;
        let mode = std::fs::Permissions::from_mode(self.read.mode() & 0o7777);
        file.set_permissions(mode)
            .map_err(|e| self.cannot_write(e))?;
        file.sync_all().map_err(|e| self.cannot_write(e))?;
        self.lock()?;
        self.unchanged_since_read()?;
        pause::at("checked");
        if let Some(signal) = signals::pending() {
            drop(temporary);
            signals::end_by(signal);
        }
        let replacement = temporary
            .file()
            .metadata()
            .map_err(|e| self.cannot_write(e))?;
        temporary
            .rename_over(&self.target)
            .map_err(|e| self.cannot_write(e))?;
        pause::at("renamed");
        self.keep_late_appends(&replacement);
        Ok(())
    }

    /// Adds to the end of the new file what a writer that takes no lock appended to the
    /// old one in the instant between the check and the rename (it had opened the file
    /// before): those bytes would otherwise be in a file no name leads to. A write after
    /// this, or a change other than an append, is not caught (see the README).
    fn keep_late_appends(&self, replacement: &Metadata) {
        let read = self.input.bytes.len();
        let Ok(now) = self.contents(MAX_INPUT_BYTES) else {
            return;
        };
        if now.len() <= read || !now.starts_with(&self.input.bytes) {
            return;
        }
        let appended = &now[read..];
        let kept = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.target)
            .and_then(|mut file| {
                let opened = file.metadata()?;
                if (opened.dev(), opened.ino()) != (replacement.dev(), replacement.ino()) {
                    return Err(io::Error::other("replaced again"));
                }
                file.write_all(appended)?;
                file.sync_all()
            });
        match kept {
            Ok(()) => eprintln!(
                "boxls: note: `{}`: {} bytes another program appended while it was being \
                 replaced were added at its end",
                self.input.name,
                appended.len()
            ),
            Err(e) => eprintln!(
                "boxls: warning: `{}`: {} bytes another program appended while it was being \
                 replaced could not be added to it ({e})",
                self.input.name,
                appended.len()
            ),
        }
    }

    /// Writes `text` into the file itself, for a file with several names (a rename would
    /// give only one of them the new text). Everything that can be checked first is: the
    /// file-size limit, room on the disk, that it is unchanged; the deferred signals
    /// cannot stop the write halfway. A crash or SIGKILL during the write can.
    fn write_in_place(&self, text: &str) -> Result<(), Failure> {
        let len = text.len() as u64;
        if let Some(limit) = rustix::process::getrlimit(rustix::process::Resource::Fsize).current {
            if len > limit {
                return Err(self.cannot_write(format!(
                    "its formatted text ({len} bytes) is over the file-size limit ({limit} \
                     bytes); left as it is"
                )));
            }
        }
        let flags = OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let file = File::from(
            rustix::fs::open(&self.target, flags, Mode::empty())
                .map_err(|e| self.cannot_write(io::Error::from(e)))?,
        );
        let opened = file.metadata().map_err(|e| self.cannot_write(e))?;
        if (opened.dev(), opened.ino()) != (self.read.dev(), self.read.ino()) {
            return Err(self.changed());
        }
        reserve(&file, len, self.read.len()).map_err(|e| self.cannot_write(e))?;
        self.lock()?;
        self.unchanged_since_read()?;
        pause::at("checked");
        signals::end_if_pending();
        let damaged = |e: io::Error| {
            self.cannot_write(format!(
                "{e} (it was being written in place, for its {} hard links, and may be \
                 incomplete)",
                self.read.nlink()
            ))
        };
        file.write_all_at(text.as_bytes(), 0).map_err(damaged)?;
        file.set_len(len).map_err(damaged)?;
        file.sync_all().map_err(damaged)
    }

    /// Refuses a file whose mode lets nobody write it, or that the caller may not write
    /// (root may write anything, so its mode bits are what say "read-only").
    fn refuse_read_only(&self) -> Result<(), Failure> {
        use rustix::fs::{accessat, Access, AtFlags, CWD};
        let mode = self.read.mode() & 0o7777;
        let writable = mode & 0o222 != 0
            && accessat(CWD, &self.target, Access::WRITE_OK, AtFlags::EACCESS).is_ok();
        if writable {
            Ok(())
        } else {
            Err(Failure::Message(format!(
                "`{}` is read-only (mode {mode:04o}); not rewriting it (left as it is)",
                self.input.name
            )))
        }
    }

    /// Gives the temporary file the original's owner and group, or refuses.
    fn keep_owner(&self, file: &File) -> Result<(), Failure> {
        use rustix::fs::{Gid, Uid};
        let (uid, gid) = (self.read.uid(), self.read.gid());
        rustix::fs::fchown(file, Some(Uid::from_raw(uid)), Some(Gid::from_raw(gid))).map_err(|e| {
            Failure::Message(format!(
                "cannot keep the owner of `{}` (uid {uid}, gid {gid}) in its rewritten \
                     copy: {}; left as it is",
                self.input.name,
                io::Error::from(e)
            ))
        })
    }

    /// Takes an exclusive advisory lock on the file, held until `self` is dropped (after
    /// the rename): a writer that locks it too never writes between the check and the
    /// rename. A file system without locks is written without.
    fn lock(&self) -> Result<(), Failure> {
        for _ in 0..LOCK_ATTEMPTS {
            match rustix::fs::flock(&self.file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) | Err(Errno::NOLCK | Errno::OPNOTSUPP | Errno::NOSYS) => return Ok(()),
                Err(Errno::WOULDBLOCK) if signals::pending().is_none() => {
                    std::thread::sleep(LOCK_RETRY)
                }
                Err(Errno::WOULDBLOCK) => break,
                Err(e) => return Err(self.cannot_write(io::Error::from(e))),
            }
        }
        Err(self.cannot_write("another program holds a lock on it (waited 5 s); left as it is"))
    }

    /// Whether the name still holds the file `fmt` read, with the bytes it read: another
    /// program may have written to it or replaced it meanwhile, and writing over it
    /// would lose that.
    fn unchanged_since_read(&self) -> Result<(), Failure> {
        let now = std::fs::symlink_metadata(&self.target).map_err(|_| self.changed())?;
        let same_file = now.file_type().is_file()
            && (now.dev(), now.ino()) == (self.read.dev(), self.read.ino())
            && now.len() == self.read.len()
            && (now.mtime(), now.mtime_nsec()) == (self.read.mtime(), self.read.mtime_nsec());
        if same_file
            && self
                .contents(self.input.bytes.len() as u64 + 1)
                .is_ok_and(|bytes| bytes == self.input.bytes)
        {
            Ok(())
        } else {
            Err(self.changed())
        }
    }

    /// What the file read holds now, at most `limit` bytes.
    fn contents(&self, limit: u64) -> io::Result<Vec<u8>> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(0))?;
        let mut bytes = Vec::with_capacity(self.input.bytes.len() + 1);
        io::Read::read_to_end(&mut io::Read::take(file, limit), &mut bytes)?;
        Ok(bytes)
    }

    fn changed(&self) -> Failure {
        self.cannot_write(
            "it changed since it was read (another program wrote to it); left as it is",
        )
    }

    fn cannot_write(&self, why: impl std::fmt::Display) -> Failure {
        Failure::Message(format!("cannot write `{}`: {why}", self.input.name))
    }
}

/// Refuses anything but a regular file (`metadata` follows links), naming what it is.
fn refuse_unless_regular(path: &Path, metadata: &Metadata) -> Result<(), Failure> {
    let kind = metadata.file_type();
    let what = if kind.is_file() {
        return Ok(());
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    let through = match std::fs::read_link(path) {
        Ok(_) => match std::fs::canonicalize(path) {
            Ok(target) => format!(" (a link to `{}`)", target.display()),
            Err(_) => " (a link)".to_string(),
        },
        Err(_) => String::new(),
    };
    Err(Failure::Message(format!(
        "`{}`{through} is {what}, not a regular file: `fmt` rewrites only regular files \
         (left as it is)",
        path.display()
    )))
}

/// Reserves room for `len` bytes in `file` (now `old_len` long) without changing its
/// size, so a full disk stops an in-place write before it starts.
fn reserve(file: &File, len: u64, old_len: u64) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    if len > old_len {
        use rustix::fs::FallocateFlags;
        match rustix::fs::fallocate(file, FallocateFlags::KEEP_SIZE, 0, len) {
            Ok(()) | Err(Errno::OPNOTSUPP | Errno::NOSYS) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let _ = (file, len, old_len);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Original;
    use crate::cli::Failure;

    fn message(result: Result<(), Failure>) -> String {
        match result {
            Ok(()) => "ok".to_string(),
            Err(Failure::Message(message)) => message,
            Err(Failure::BrokenPipe) => "broken pipe".to_string(),
        }
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_refused() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("maze.box");
        let open = || Original::open(&path).ok().expect("open");
        std::fs::write(&path, "1 3\nSBT\n").expect("write");
        assert_eq!(message(open().unchanged_since_read()), "ok");
        // Same size, other bytes: caught whatever the clock's resolution.
        let read = open();
        std::fs::write(&path, "1 3\nSTB\n").expect("write");
        let refused = message(read.unchanged_since_read());
        assert!(refused.contains("changed since it was read"), "{refused}");
        let read = open();
        std::fs::write(&path, "1 3\nSTB\n0 0\n").expect("append");
        assert!(read.unchanged_since_read().is_err());
        let read = open();
        std::fs::remove_file(&path).expect("remove");
        assert!(read.unchanged_since_read().is_err());
    }
}
