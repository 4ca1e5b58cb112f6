//! The temporary file `fmt` writes a file's new text to, in the file's directory. On
//! Linux it has no name until the moment before it is renamed over the file
//! (`O_TMPFILE`, then `linkat`), so a crash or a kill while writing leaves nothing
//! behind; elsewhere (or where the file system cannot) it is a named file that dropping
//! deletes. Names are `.boxls-fmt-PID-….tmp`: one whose process is gone is removed
//! when `fmt` next writes in that directory.

use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const PREFIX: &str = ".boxls-fmt-";

pub enum Temporary {
    /// Not yet in any directory (`O_TMPFILE`); `dir` is where it will be linked.
    #[cfg(target_os = "linux")]
    Unnamed {
        file: File,
        dir: PathBuf,
    },
    Named(tempfile::NamedTempFile),
}

impl Temporary {
    pub fn create(dir: &Path) -> io::Result<Temporary> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{Mode, OFlags};
            let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
            if let Ok(fd) = rustix::fs::open(dir, flags, Mode::from_raw_mode(0o600)) {
                return Ok(Temporary::Unnamed {
                    file: File::from(fd),
                    dir: dir.to_path_buf(),
                });
            }
        }
        let named = tempfile::Builder::new()
            .prefix(&own_prefix())
            .suffix(".tmp")
            .tempfile_in(dir)?;
        Ok(Temporary::Named(named))
    }

    pub fn file(&self) -> &File {
        match self {
            #[cfg(target_os = "linux")]
            Temporary::Unnamed { file, .. } => file,
            Temporary::Named(named) => named.as_file(),
        }
    }

    /// Renames the temporary file over `target`; on failure it is gone, `target` as it was.
    pub fn rename_over(self, target: &Path) -> io::Result<()> {
        match self {
            #[cfg(target_os = "linux")]
            Temporary::Unnamed { file, dir } => {
                let name = link(&file, &dir)?;
                std::fs::rename(&name, target).inspect_err(|_| {
                    let _ = std::fs::remove_file(&name);
                })
            }
            Temporary::Named(named) => named.persist(target).map(drop).map_err(|e| e.error),
        }
    }
}

/// Gives an unnamed temporary file a fresh name in `dir`.
#[cfg(target_os = "linux")]
fn link(file: &File, dir: &Path) -> io::Result<PathBuf> {
    use rustix::fs::{linkat, AtFlags, CWD};
    use std::os::fd::AsRawFd as _;
    let through_proc = format!("/proc/self/fd/{}", file.as_raw_fd());
    let mut last = io::Error::from(io::ErrorKind::AlreadyExists);
    for attempt in 0..100u32 {
        let name = dir.join(format!("{}{attempt}.tmp", own_prefix()));
        // AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd works for anyone.
        let linked = linkat(file, "", CWD, &name, AtFlags::EMPTY_PATH)
            .or_else(|_| linkat(CWD, &through_proc, CWD, &name, AtFlags::SYMLINK_FOLLOW));
        match linked {
            Ok(()) => return Ok(name),
            Err(rustix::io::Errno::EXIST) => last = io::Error::from(io::ErrorKind::AlreadyExists),
            Err(e) => return Err(e.into()),
        }
    }
    Err(last)
}

fn own_prefix() -> String {
    format!("{PREFIX}{}-", std::process::id())
}

/// Removes the temporary files in `dir` left by a `fmt` that was killed (their process
/// no longer exists), once per directory and run.
pub fn remove_stale(dir: &Path) {
    static CLEANED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    let Ok(mut cleaned) = CLEANED.lock() else {
        return;
    };
    if !cleaned
        .get_or_insert_with(HashSet::new)
        .insert(dir.to_path_buf())
    {
        return;
    }
    // Without /proc there is no telling whether a process is gone.
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let is_file = entry.file_type().is_ok_and(|kind| kind.is_file());
        let owner = entry.file_name().to_str().and_then(owner_process);
        if let (true, Some(process)) = (is_file, owner) {
            if process != std::process::id() && !Path::new(&format!("/proc/{process}")).exists() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The process that made the temporary file called `name`, if it is one of ours.
fn owner_process(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?.strip_suffix(".tmp")?;
    rest.split_once('-')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::owner_process;

    #[test]
    fn only_our_names_have_an_owner() {
        assert_eq!(owner_process(".boxls-fmt-42-0.tmp"), Some(42));
        assert_eq!(owner_process(".boxls-fmt-42-a1B2c3.tmp"), Some(42));
        assert_eq!(owner_process(".boxls-fmt-42-0"), None);
        assert_eq!(owner_process(".boxls-fmt-x-0.tmp"), None);
        assert_eq!(owner_process("maze.box"), None);
    }
}
