//! `boxls fmt`: rewrites files in place (or standard input to standard output) with
//! the core's formatter; `--check` only names the files that would change.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::input::{self, Input};
use super::{Failure, USAGE_ERROR};
use crate::maze::format;

pub fn fmt(paths: &[PathBuf], check: bool) -> Result<ExitCode, Failure> {
    let stdin = [PathBuf::from("-")];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let (mut unformatted, mut failed) = (0usize, false);
    for path in paths {
        match fmt_one(path, check) {
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
fn fmt_one(path: &Path, check: bool) -> Result<bool, Failure> {
    let input = input::read(Some(path), "fmt")?;
    let text = utf8(&input)?;
    let formatted = format(text);
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
        std::fs::write(path, formatted)
            .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", input.name)))?;
    }
    Ok(changed)
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
