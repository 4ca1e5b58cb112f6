//! Byte offset ↔ LSP position: the only place positions are converted.
//!
//! Lines end at `\n`, `\r\n` or `\r` (ropey is built without `unicode_lines`, so it
//! agrees with LSP). Columns count UTF-16 code units or UTF-8 bytes, as negotiated.
//! Out-of-range positions are clamped, never an error: a column past the end of its
//! line means the end of the line, a line past the end means the end of the text.

use std::ops::Range;

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, PositionEncodingKind, Range as LspRange};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it, else UTF-16 (which every client supports).
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    /// Length of `text` in this encoding's code units.
    pub fn len(self, text: &str) -> u32 {
        let units = match self {
            Encoding::Utf8 => text.len(),
            Encoding::Utf16 => text.chars().map(char::len_utf16).sum(),
        };
        saturate(units)
    }
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The LSP position of byte `offset` (clamped to the text, snapped to a char boundary).
pub fn position(rope: &Rope, offset: usize, encoding: Encoding) -> Position {
    let offset = char_boundary(rope, offset.min(rope.len_bytes()));
    let line = rope.byte_to_line(offset);
    let line_start = rope.line_to_byte(line);
    let column = match encoding {
        Encoding::Utf8 => offset - line_start,
        Encoding::Utf16 => {
            rope.char_to_utf16_cu(rope.byte_to_char(offset))
                - rope.char_to_utf16_cu(rope.byte_to_char(line_start))
        }
    };
    Position::new(saturate(line), saturate(column))
}

/// The line of byte `offset` (clamped to the text).
pub fn line(rope: &Rope, offset: usize) -> u32 {
    saturate(rope.byte_to_line(offset.min(rope.len_bytes())))
}

pub fn range(rope: &Rope, bytes: Range<usize>, encoding: Encoding) -> LspRange {
    LspRange::new(
        position(rope, bytes.start, encoding),
        position(rope, bytes.end, encoding),
    )
}

/// The byte offset of an LSP position, clamped as the module docs describe.
pub fn offset(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_bytes();
    }
    let line_start = rope.line_to_byte(line);
    let content = line_content(rope, line);
    let mut units = 0usize;
    let mut bytes = 0usize;
    for ch in content.chars() {
        let width = match encoding {
            Encoding::Utf8 => ch.len_utf8(),
            Encoding::Utf16 => ch.len_utf16(),
        };
        if units + width > position.character as usize {
            break;
        }
        units += width;
        bytes += ch.len_utf8();
    }
    line_start + bytes
}

pub fn byte_range(rope: &Rope, range: LspRange, encoding: Encoding) -> Range<usize> {
    let start = offset(rope, range.start, encoding);
    let end = offset(rope, range.end, encoding);
    start.min(end)..start.max(end)
}

/// Positions of increasing byte offsets, found by walking the text forward from
/// one rope lookup: O(distance walked) instead of a rope lookup per offset, for
/// answers with many positions in source order (semantic tokens).
pub struct Walker<'a> {
    text: &'a str,
    encoding: Encoding,
    line: usize,
    line_start: usize,
    at: usize,
    /// The column of `counted` (a byte offset on the current line, at or after its start):
    /// each position counts only the text since the last, not its line again, so a
    /// line with many tokens costs its length once.
    counted: usize,
    column: u32,
}

impl<'a> Walker<'a> {
    /// A walker at the start of `offset`'s line; `text` is the rope's text.
    pub fn new(rope: &Rope, text: &'a str, offset: usize, encoding: Encoding) -> Walker<'a> {
        let offset = char_boundary(rope, offset.min(rope.len_bytes()));
        let line = rope.byte_to_line(offset);
        let line_start = rope.line_to_byte(line);
        Walker {
            text,
            encoding,
            line,
            line_start,
            at: line_start,
            counted: line_start,
            column: 0,
        }
    }

    /// The position of `offset`, which must not be before the previous one.
    pub fn position(&mut self, offset: usize) -> Position {
        let offset = offset.clamp(self.at, self.text.len());
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        while at < offset {
            let Some(found) = bytes[at..offset]
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
            else {
                break;
            };
            let brk = at + found;
            at = if bytes[brk] == b'\r' && bytes.get(brk + 1) == Some(&b'\n') {
                brk + 2
            } else {
                brk + 1
            };
            self.line += 1;
            self.line_start = at;
            self.counted = at;
            self.column = 0;
        }
        self.at = offset.max(at);
        if offset > self.counted {
            self.column = self
                .column
                .saturating_add(self.encoding.len(&self.text[self.counted..offset]));
            self.counted = offset;
        }
        Position::new(saturate(self.line), self.column)
    }
}

/// A line without its line break.
fn line_content(rope: &Rope, line: usize) -> ropey::RopeSlice<'_> {
    let slice = rope.line(line);
    let mut len = slice.len_chars();
    if len > 0 && slice.char(len - 1) == '\n' {
        len -= 1;
    }
    if len > 0 && slice.char(len - 1) == '\r' {
        len -= 1;
    }
    slice.slice(..len)
}

fn char_boundary(rope: &Rope, offset: usize) -> usize {
    rope.char_to_byte(rope.byte_to_char(offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(text: &str, encoding: Encoding) {
        let rope = Rope::from_str(text);
        for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
            if text[..at].ends_with('\r') && text[at..].starts_with('\n') {
                continue; // Between \r and \n: not a position LSP can name.
            }
            let pos = position(&rope, at, encoding);
            assert_eq!(offset(&rope, pos, encoding), at, "{text:?} at {at}");
        }
    }

    #[test]
    fn astral_characters_and_every_line_break() {
        let text = "; 🧱 wall\r\n1 3\rS🧱B\nT";
        roundtrip(text, Encoding::Utf16);
        roundtrip(text, Encoding::Utf8);
        let rope = Rope::from_str(text);
        let after_brick = text.find(" wall").unwrap_or(0);
        assert_eq!(
            position(&rope, after_brick, Encoding::Utf16),
            Position::new(0, 4)
        );
        assert_eq!(
            position(&rope, after_brick, Encoding::Utf8),
            Position::new(0, 6)
        );
        assert_eq!(
            position(&rope, text.find("1 3").unwrap_or(0), Encoding::Utf16),
            Position::new(1, 0)
        );
        assert_eq!(
            position(&rope, text.find('S').unwrap_or(0), Encoding::Utf16),
            Position::new(2, 0)
        );
        assert_eq!(
            position(&rope, text.len(), Encoding::Utf16),
            Position::new(3, 1)
        );
    }

    #[test]
    fn the_walker_agrees_with_the_rope() {
        let text = "; 🧱 wall\r\n1 3\rS🧱B\nT\r\n\r\n";
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            let rope = Rope::from_str(text);
            let mut walker = Walker::new(&rope, text, 0, encoding);
            for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
                if text[..at].ends_with('\r') && text[at..].starts_with('\n') {
                    continue;
                }
                assert_eq!(
                    walker.position(at),
                    position(&rope, at, encoding),
                    "at {at}"
                );
            }
            let from = text.find('S').unwrap_or(0);
            let mut walker = Walker::new(&rope, text, from, encoding);
            assert_eq!(walker.position(from), position(&rope, from, encoding));
        }
    }

    /// Positions skipped over (a token per few characters) still agree: the walker
    /// counts each stretch once, and a line break between two positions starts over.
    #[test]
    fn the_walker_agrees_when_it_skips() {
        let pieces = ["#", "..", "🧱", "é", "\n", "\r\n", "\r", "S", "   "];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for _ in 0..300 {
            let text: String = (0..next(60)).map(|_| pieces[next(pieces.len())]).collect();
            let rope = Rope::from_str(&text);
            for encoding in [Encoding::Utf8, Encoding::Utf16] {
                let from = text
                    .char_indices()
                    .map(|(at, _)| at)
                    .nth(next(4))
                    .unwrap_or(0);
                let mut walker = Walker::new(&rope, &text, from, encoding);
                let starts = text.char_indices().map(|(at, _)| at).chain([text.len()]);
                for at in starts.filter(|&at| at >= from) {
                    let mid_break = text[..at].ends_with('\r') && text[at..].starts_with('\n');
                    if mid_break || next(3) != 0 {
                        continue;
                    }
                    assert_eq!(
                        walker.position(at),
                        position(&rope, at, encoding),
                        "{text:?} at {at}"
                    );
                }
            }
        }
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let rope = Rope::from_str("ab\r\ncd");
        assert_eq!(offset(&rope, Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(offset(&rope, Position::new(9, 0), Encoding::Utf16), 6);
        // Inside a surrogate pair: snaps to the character's start.
        let rope = Rope::from_str("a🧱b");
        assert_eq!(offset(&rope, Position::new(0, 2), Encoding::Utf16), 1);
    }
}
