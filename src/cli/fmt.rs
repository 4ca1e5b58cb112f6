//! `boxls fmt`: rewrites files (`.box`, or levels: `.xsb`, `.sok`) in place (or standard input to standard output) with
//! the core's formatter; `--check` only names the files that would change. A file is
//! replaced whole or not at all: the text goes to a temporary file beside it, which is
//! renamed over it only if the file still holds what was read.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::input::{self, format_of, FormatArg, Input};
use super::{Failure, USAGE_ERROR};
use crate::level::{self, Format, RunLength};
use crate::maze;

/// How to lay out a file: its format (forced, or from its name) and, for levels, what
/// to do with run-length rows.
#[derive(Clone, Copy)]
struct Layout {
    format: Option<FormatArg>,
    run_length: RunLength,
}

pub fn fmt(
    paths: &[PathBuf],
    check: bool,
    format: Option<FormatArg>,
    run_length: RunLength,
) -> Result<ExitCode, Failure> {
    let layout = Layout { format, run_length };
    let stdin = [PathBuf::from("-")];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let (mut unformatted, mut failed) = (0usize, false);
    for path in paths {
        match fmt_one(path, check, layout) {
            Ok(changed) => unformatted += usize::from(changed),
            Err(Failure::Message(message)) => {
                eprintln!("boxls: {message}");
                failed = true;
            }
            Err(Failure::BrokenPipe) => return Err(Failure::BrokenPipe),
        }
    }
    Ok(if failed {
        ExitCode::from(USAGE_ERROR)
    } else if check && unformatted > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Formats one file (or standard input); whether it was not formatted already.
fn fmt_one(path: &Path, check: bool, layout: Layout) -> Result<bool, Failure> {
    let input = input::read(Some(path), "fmt")?;
    let text = utf8(&input)?;
    let formatted = match format_of(&input, layout.format) {
        Format::Box => maze::format(text),
        Format::Xsb => level::format(text, layout.run_length),
    };
    let changed = formatted != text;
    let to_stdout = input::is_stdin(Some(path));
    if check {
        if changed {
            println!("{} would be reformatted", input.name);
        }
    } else if to_stdout {
        let mut out = io::stdout().lock();
        out.write_all(formatted.as_bytes())?;
        out.flush()?;
    } else if changed {
        replace(path, &input, &formatted)
            .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", input.name)))?;
    }
    Ok(changed)
}

/// Replaces the file at `path` (a symlink's target: the link stays) with `text`, keeping
/// its permissions. The text is written and synced to a temporary file in the same
/// directory, then renamed over the file, so a failed write leaves the original as it
/// was and no temporary file behind (dropping it deletes it).
fn replace(path: &Path, read: &Input, text: &str) -> io::Result<()> {
    let target = std::fs::canonicalize(path)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(&target)?.permissions();
    let mut temporary = tempfile::Builder::new()
        .prefix(".boxls-fmt-")
        .tempfile_in(dir)?;
    temporary.write_all(text.as_bytes())?;
    temporary.as_file().set_permissions(permissions)?;
    temporary.as_file().sync_all()?;
    unchanged_since_read(&target, &read.bytes)?;
    temporary.persist(&target).map_err(|e| e.error)?;
    Ok(())
}

/// Whether the file still holds the bytes `fmt` read: another program may have written
/// to it while it was being formatted, and renaming over it would lose that.
pub(crate) fn unchanged_since_read(target: &Path, read: &[u8]) -> io::Result<()> {
    if std::fs::read(target)? == read {
        Ok(())
    } else {
        Err(io::Error::other(
            "it changed since it was read (another program wrote to it); left as it is",
        ))
    }
}

/// The text of a file to be rewritten: never a lossy decoding, which would change bytes.
fn utf8(input: &Input) -> Result<&str, Failure> {
    std::str::from_utf8(&input.bytes).map_err(|e| {
        Failure::Message(format!(
            "`{}` is not UTF-8 ({e}); not formatting it",
            input.name
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::unchanged_since_read;

    #[test]
    fn a_file_changed_since_it_was_read_is_refused() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("maze.box");
        std::fs::write(&path, "1 3\nSBT\n").expect("write");
        let read = std::fs::read(&path).expect("read");
        assert!(unchanged_since_read(&path, &read).is_ok());
        // Same size, other bytes: caught whatever the clock's resolution.
        std::fs::write(&path, "1 3\nSTB\n").expect("write");
        let error = unchanged_since_read(&path, &read).expect_err("changed");
        assert!(
            error.to_string().contains("changed since it was read"),
            "{error}"
        );
        std::fs::write(&path, "1 3\nSBT\n0 0\n").expect("append");
        assert!(unchanged_since_read(&path, &read).is_err());
        std::fs::remove_file(&path).expect("remove");
        assert!(unchanged_since_read(&path, &read).is_err());
    }
}
