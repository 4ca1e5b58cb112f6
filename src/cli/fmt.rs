//! `boxls fmt`: rewrites files in place (or a stream to standard output) with the core's
//! formatter; `--check` only names the files that would change. What makes a rewrite
//! safe (only regular files, owner kept, the file unchanged since it was read, no
//! temporary file left behind) lives in [`replace`].

mod pause;
mod replace;
mod signals;
mod source;
mod temporary;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::input::{self, Input};
use super::{Failure, USAGE_ERROR};
use crate::maze::format;
use replace::Original;
use source::Source;

pub fn fmt(paths: &[PathBuf], check: bool) -> Result<ExitCode, Failure> {
    let stdin = [PathBuf::from("-")];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let (mut unformatted, mut failed) = (0usize, false);
    for path in paths {
        let result = fmt_one(path, check);
        // A signal that came while a file was being replaced ends boxls now that the
        // file is replaced or left as it was (and its temporary file is gone).
        signals::end_if_pending();
        match result {
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

/// Formats one file or stream; whether it was not formatted already.
fn fmt_one(path: &Path, check: bool) -> Result<bool, Failure> {
    match source::of(path) {
        Source::Stdin => stream(input::read_stdin("fmt")?, check),
        Source::Descriptor => stream(input::read_raw(Some(path), "fmt")?, check),
        Source::File => file(path, check),
    }
}

/// Standard input (or another open descriptor's stream): the formatted text goes to
/// standard output.
fn stream(input: Input, check: bool) -> Result<bool, Failure> {
    input::refuse_binary(&input)?;
    let text = utf8(&input)?;
    let formatted = format(text);
    let changed = formatted != text;
    if check {
        if changed {
            println!("{} would be reformatted", input.name);
        }
    } else {
        let mut out = io::stdout().lock();
        out.write_all(formatted.as_bytes())?;
        out.flush()?;
    }
    Ok(changed)
}

/// A file rewritten in place when its layout changes.
fn file(path: &Path, check: bool) -> Result<bool, Failure> {
    let original = Original::open(path)?;
    pause::at("read");
    input::refuse_binary(&original.input)?;
    let text = utf8(&original.input)?;
    let formatted = format(text);
    let changed = formatted != text;
    if check {
        if changed {
            println!("{} would be reformatted", original.input.name);
        }
    } else if changed {
        original.replace(&formatted)?;
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
