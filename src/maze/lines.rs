//! Splitting text into lines exactly as LSP does: `\n`, `\r\n` and `\r` end a line.

use std::ops::Range;

/// One line: its content and the byte just past its line break (or the text's end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineSpan {
    pub content: Range<usize>,
    pub end: usize,
}

/// Iterates over the lines of `text`, starting at byte `from`.
///
/// A final line without a line break is yielded; an empty text after the last
/// line break is not (so `"a\n"` has one line).
pub fn line_spans(text: &str, from: usize) -> impl Iterator<Item = LineSpan> + '_ {
    let bytes = text.as_bytes();
    let mut at = from;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        let break_at = memchr_line_break(&bytes[start..]).map(|offset| start + offset);
        let span = match break_at {
            None => LineSpan {
                content: start..bytes.len(),
                end: bytes.len(),
            },
            Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => LineSpan {
                content: start..i,
                end: i + 2,
            },
            Some(i) => LineSpan {
                content: start..i,
                end: i + 1,
            },
        };
        at = span.end;
        Some(span)
    })
}

fn memchr_line_break(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n' || b == b'\r')
}

/// The first line break in `text` (`\n`, `\r\n` or `\r`), or `\n` when there is none:
/// the style new lines should follow.
pub fn first_line_break(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(i) if text[i..].starts_with("\r\n") => "\r\n",
        Some(i) if text[i..].starts_with('\r') => "\r",
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        line_spans(text, 0).map(|l| &text[l.content]).collect()
    }

    #[test]
    fn every_lsp_line_break() {
        assert_eq!(lines("a\nb\r\nc\rd"), ["a", "b", "c", "d"]);
        assert_eq!(lines("a\n"), ["a"]);
        assert_eq!(lines("\n\n"), ["", ""]);
        assert_eq!(lines("\r\r\n"), ["", ""]);
        assert!(lines("").is_empty());
    }
}
