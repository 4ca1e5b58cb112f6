//! `boxls fmt`: rewrites files (`.box`, or levels: `.xsb`, `.sok`) in place (or a stream
//! to standard output) with the core's formatter; `--check` only names the files that
//! would change. What makes a rewrite safe (only regular files, owner kept, the file
//! unchanged since it was read, no temporary file left behind) lives in [`replace`].

mod pause;
mod replace;
mod signals;
mod source;
mod temporary;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::input::{self, format_of, FormatArg, Input};
use super::{Failure, USAGE_ERROR};
use crate::level::{self, Format, RunLength};
use crate::maze;
use replace::Original;
use source::Source;

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
        let result = fmt_one(path, check, layout);
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
fn fmt_one(path: &Path, check: bool, layout: Layout) -> Result<bool, Failure> {
    match source::of(path) {
        Source::Stdin => stream(input::read_stdin("fmt")?, check, layout),
        Source::Descriptor => stream(input::read_raw(Some(path), "fmt")?, check, layout),
        Source::File => file(path, check, layout),
    }
}

/// The text laid out by its format's formatter.
fn formatted(input: &Input, text: &str, layout: Layout) -> String {
    match format_of(input, layout.format) {
        Format::Box => maze::format(text),
        Format::Xsb => level::format(text, layout.run_length),
    }
}

/// Standard input (or another open descriptor's stream): the formatted text goes to
/// standard output.
fn stream(input: Input, check: bool, layout: Layout) -> Result<bool, Failure> {
    input::refuse_binary(&input)?;
    let text = utf8(&input)?;
    let formatted = formatted(&input, text, layout);
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
fn file(path: &Path, check: bool, layout: Layout) -> Result<bool, Failure> {
    let original = Original::open(path)?;
    pause::at("read");
    input::refuse_binary(&original.input)?;
    let text = utf8(&original.input)?;
    let formatted = formatted(&original.input, text, layout);
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
