//! What a path given to `fmt` names: standard input (`-`, `/dev/stdin`, `/dev/fd/0`,
//! `/proc/self/fd/0`), another open descriptor (a shell's `<(…)` passes `/dev/fd/63`),
//! both printed to standard output like `-`, or a file to rewrite in place. Without
//! this, `boxls fmt /dev/stdin < m.box` would follow the link to `m.box` and rewrite it.

use std::path::{Component, Path};

pub enum Source {
    Stdin,
    Descriptor,
    File,
}

pub fn of(path: &Path) -> Source {
    if super::input::is_stdin(Some(path)) {
        return Source::Stdin;
    }
    match descriptor(path) {
        Some((process, 0)) if process == std::process::id() => Source::Stdin,
        Some(_) => Source::Descriptor,
        None => Source::File,
    }
}

/// The (process, descriptor) `path` names through a `/proc/PID/fd/N` entry, following
/// the links of the path itself (`/dev/stdin` → `/proc/self/fd/0`), at most 40.
fn descriptor(path: &Path) -> Option<(u32, u32)> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let dir = std::fs::canonicalize(parent).ok()?;
        let name = path.file_name()?.to_str()?;
        if let Some(found) = in_descriptor_dir(&dir, name) {
            return Some(found);
        }
        let link = std::fs::read_link(&path).ok()?;
        path = dir.join(link);
    }
    None
}

/// `(PID, N)` when `dir` (canonical) is `/proc/PID/fd` (or `/proc/PID/task/TID/fd`) and `name` is N.
fn in_descriptor_dir(dir: &Path, name: &str) -> Option<(u32, u32)> {
    let descriptor = name.parse().ok()?;
    let parts: Vec<String> = dir
        .components()
        .filter_map(|component| match component {
            Component::Normal(part) => part.to_str().map(str::to_string),
            _ => None,
        })
        .collect();
    let process = match parts.as_slice() {
        [proc, pid, fd] | [proc, pid, _, _, fd] if proc == "proc" && fd == "fd" => pid,
        _ => return None,
    };
    Some((process.parse().ok()?, descriptor))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::{of, Source};
    use std::path::Path;

    #[test]
    fn stdin_names_are_stdin_and_files_are_files() {
        for name in ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
            assert!(matches!(of(Path::new(name)), Source::Stdin), "{name}");
        }
        assert!(matches!(of(Path::new("/dev/fd/1")), Source::Descriptor));
        assert!(matches!(of(Path::new("Cargo.toml")), Source::File));
        assert!(matches!(of(Path::new("no-such-file.box")), Source::File));
    }
}
