//! Reading what a command works on: a file or standard input, at most
//! [`MAX_INPUT_BYTES`], refusing binary files, with a hint when standard input is a
//! terminal.

use std::io::{self, IsTerminal, Read};
use std::path::Path;

use super::Failure;
use crate::level::Format;

/// `--format`: which reader to use whatever the file's name says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    // Sokoban levels (`.xsb`, `.sok`); no doc comments here: clap would then list the
    // values one per line and push every option's help onto a line of its own.
    Xsb,
    // `.box` mazes (POJ 1475).
    Box,
}

/// The format to read `input` as: `--format` when given, else its extension, else
/// `.box` (standard input included).
pub fn format_of(input: &Input, forced: Option<FormatArg>) -> Format {
    match forced {
        Some(FormatArg::Xsb) => Format::Xsb,
        Some(FormatArg::Box) => Format::Box,
        None => Format::of_name(&input.name).unwrap_or(Format::Box),
    }
}

/// The most any command reads from one file or stream. The format's largest maze,
/// 16,777,216 cells (`MAX_CELLS`), fits with a CRLF after every cell and room to spare;
/// an endless or runaway input stops here instead of growing until memory runs out.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// A file's (or standard input's) name as messages show it, and its bytes.
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl Input {
    /// The text, with invalid UTF-8 replaced (the parser then reports `bad-char`).
    pub fn lossy_text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Whether `path` means standard input (absent, or `-`).
pub fn is_stdin(path: Option<&Path>) -> bool {
    path.is_none_or(|path| path.as_os_str() == "-")
}

/// Reads `path`, or standard input for `None` / `-`; refuses what is not text.
///
/// `command` names the subcommand in the hint printed when standard input is a
/// terminal (a user who typed `boxls solve` and sees nothing happen).
pub fn read(path: Option<&Path>, command: &str) -> Result<Input, Failure> {
    let input = read_raw(path, command)?;
    refuse_binary(&input)?;
    Ok(input)
}

/// Refuses `input` when its bytes look like a binary file rather than text.
pub fn refuse_binary(input: &Input) -> Result<(), Failure> {
    match binary_reason(&input.bytes) {
        Some(reason) => Err(Failure::Message(format!(
            "`{}` is not a text file ({reason})",
            input.name
        ))),
        None => Ok(()),
    }
}

/// Reads `path` like [`read`], whatever its bytes are.
pub fn read_raw(path: Option<&Path>, command: &str) -> Result<Input, Failure> {
    match path.filter(|_| !is_stdin(path)) {
        Some(path) => {
            let name = path.display().to_string();
            let file = std::fs::File::open(path)
                .map_err(|e| Failure::Message(format!("cannot read `{name}`: {e}")))?;
            // A regular file says its size: one over the limit is refused unread.
            if file
                .metadata()
                .is_ok_and(|meta| meta.len() > MAX_INPUT_BYTES)
            {
                return Err(too_large(&name));
            }
            let bytes = read_bounded(file, &name)?;
            Ok(Input { name, bytes })
        }
        None => read_stdin(command),
    }
}

/// Standard input, whole (up to the limit).
pub fn read_stdin(command: &str) -> Result<Input, Failure> {
    if io::stdin().is_terminal() {
        eprintln!(
            "boxls: reading a .box file from standard input (end it with Ctrl-D; \
             `boxls {command} --help` for usage)"
        );
    }
    let name = "<stdin>".to_string();
    let bytes = read_bounded(io::stdin().lock(), &name)?;
    Ok(Input { name, bytes })
}

/// Everything `reader` holds, refusing it once it passes [`MAX_INPUT_BYTES`] (one
/// byte more is read to tell "exactly the limit" from "over it").
pub fn read_bounded(reader: impl Read, name: &str) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Message(format!("cannot read `{name}`: {e}")))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(name));
    }
    Ok(bytes)
}

/// The refusal of an input over [`MAX_INPUT_BYTES`].
pub fn too_large(name: &str) -> Failure {
    Failure::Message(format!(
        "`{name}` is larger than {} MiB, the most boxls reads (the largest maze the \
         format allows is {} cells); not reading further",
        MAX_INPUT_BYTES >> 20,
        crate::maze::MAX_CELLS
    ))
}

/// Why `bytes` look like a binary file rather than text, if they do: a NUL byte, or
/// more than one control character in ten (line breaks, tabs and form feeds aside).
pub fn binary_reason(bytes: &[u8]) -> Option<&'static str> {
    if bytes.contains(&0) {
        return Some("it contains NUL bytes");
    }
    let control = bytes
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t' | 0x0c)) || b == 0x7f)
        .count();
    (control * 10 > bytes.len()).then_some("it is mostly control characters")
}

#[cfg(test)]
mod tests {
    use super::{binary_reason, read_bounded, MAX_INPUT_BYTES};
    use std::io::Read as _;

    #[test]
    fn text_is_text_and_binaries_are_not() {
        assert_eq!(binary_reason(b""), None);
        assert_eq!(binary_reason(b"1 3\r\nSBT\n\t0 0\x0c\n"), None);
        assert_eq!(binary_reason("é🧱 with an \u{1b} escape".as_bytes()), None);
        assert!(binary_reason(b"\x7fELF\x02\x01\x01\x00").is_some());
        assert!(binary_reason(b"\x01\x02\x03abc").is_some());
    }

    #[test]
    fn reads_stop_at_the_limit() {
        let at_limit = std::io::repeat(b'.').take(MAX_INPUT_BYTES);
        assert_eq!(
            read_bounded(at_limit, "x")
                .ok()
                .map(|bytes| bytes.len() as u64),
            Some(MAX_INPUT_BYTES)
        );
        // An endless reader: refused after the limit, not read forever.
        assert!(read_bounded(std::io::repeat(b'.'), "x").is_err());
    }
}
