//! Semantic tokens, `full`, `range` and `full/delta`: the IDE layer's tokens,
//! delta-encoded with positions walked forward through the text. Each document's last
//! full answer ([`LastAnswer`]) is kept with it (`documents.rs`) so the next can be sent as
//! a delta.
//!
//! A whole-document answer is put together from sections: the lines before the first
//! maze, then each maze's lines up to the next maze. A maze's section is encoded once
//! and kept with the document (`sections.rs`; lines counted from its first line) until
//! the maze, its status or its dead squares change; only the first token of each
//! section needs its line delta redone. So `full/delta` after a keystroke encodes the
//! maze it touched. A Sokoban document has no mazes: its answer is one section, the
//! whole text's tokens. Within the sections that changed, a delta's edits replace only
//! the tokens that differ, so the dead squares a solve finds along the edges of a room
//! cost those cells, not the room.

use std::sync::Arc;

use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokens, SemanticTokensDelta, SemanticTokensEdit,
    SemanticTokensFullDeltaResult,
};

use super::position::Walker;
use super::sections::{Made, Reuse, SectionTokens};
use super::view::View;
use crate::ide::{self, Token};

/// The tokens of the lines overlapping `bytes`.
pub fn tokens_in(view: &View, bytes: std::ops::Range<usize>) -> Vec<SemanticToken> {
    let tokens = match view.levels() {
        Some(levels) => ide::level_tokens(&levels, bytes.clone()),
        None => ide::tokens(&view.file(), bytes.clone()),
    };
    encode(view, bytes.start, &tokens)
}

/// LSP's relative encoding, with lengths and columns in the negotiated encoding.
fn encode(view: &View, from: usize, tokens: &[Token]) -> Vec<SemanticToken> {
    let mut walker = Walker::new(&view.rope, &view.text, from, view.encoding);
    let mut data = Vec::with_capacity(tokens.len());
    let (mut last_line, mut last_start) = (0u32, 0u32);
    for token in tokens {
        let start = walker.position(token.range.start);
        let length = view.encoding.len(&view.text[token.range.clone()]);
        let delta_line = start.line - last_line;
        let delta_start = if delta_line == 0 {
            start.character - last_start
        } else {
            start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: token.kind as u32,
            token_modifiers_bitset: token.modifiers,
        });
        (last_line, last_start) = (start.line, start.character);
    }
    data
}

/// A whole-document answer in pieces: the preamble's tokens, then each maze
/// section's (shared with the document), each with its first token re-based on the
/// piece before. Answers kept as pieces compare section by section, so a delta costs
/// the sections that changed, not the document.
#[derive(Debug, Clone)]
pub struct Piece {
    first: SemanticToken,
    /// The section's tokens; `data[0]` is replaced by `first`.
    data: Arc<[SemanticToken]>,
}

impl Piece {
    fn same(&self, other: &Piece) -> bool {
        self.first == other.first
            && (Arc::ptr_eq(&self.data, &other.data) || self.data[1..] == other.data[1..])
    }

    fn extend(&self, out: &mut Vec<SemanticToken>) {
        out.push(self.first);
        out.extend_from_slice(&self.data[1..]);
    }
}

/// The tokens of pieces, one after the other.
pub fn flatten(pieces: &[Piece]) -> Vec<SemanticToken> {
    let mut out = Vec::with_capacity(pieces.iter().map(|p| p.data.len()).sum());
    for piece in pieces {
        piece.extend(&mut out);
    }
    out
}

/// Every token of the document, in pieces, from kept sections where they are valid;
/// and the sections encoded now that are worth keeping.
pub fn document_tokens(view: &View) -> (Vec<Piece>, Made<SectionTokens>) {
    let mazes = &view.parsed.mazes;
    let section_start = |index: usize| ide::line_start(&view.text, mazes[index].extent.start);
    let preamble_end = if mazes.is_empty() {
        view.text.len()
    } else {
        section_start(0)
    };
    let mut pieces = Vec::with_capacity(mazes.len() + 1);
    let mut last_line = 0;
    if preamble_end > 0 || mazes.is_empty() {
        let preamble = encode_section(view, 0..preamble_end);
        last_line = preamble.last_line;
        pieces.extend(piece(&preamble, 0, 0));
    }
    let mut reuse = Reuse::new(view.version, &view.statuses, &view.kept);
    for index in 0..mazes.len() {
        let start = section_start(index);
        let section = reuse.section(index, || {
            let end = if index + 1 < mazes.len() {
                section_start(index + 1)
            } else {
                view.text.len()
            };
            encode_section(view, start..end)
        });
        let first_line = view.line(start);
        if let Some(piece) = piece(&section, first_line, last_line) {
            pieces.push(piece);
            last_line = first_line + section.last_line;
        }
    }
    (pieces, reuse.made())
}

/// `section` placed at `first_line`, after a token on `last_line`.
fn piece(section: &SectionTokens, first_line: u32, last_line: u32) -> Option<Piece> {
    let mut first = *section.data.first()?;
    first.delta_line = (first_line + first.delta_line).saturating_sub(last_line);
    Some(Piece {
        first,
        data: section.data.clone(),
    })
}

/// The tokens of one section, its lines counted from its first line.
fn encode_section(view: &View, bytes: std::ops::Range<usize>) -> SectionTokens {
    let first_line = view.line(bytes.start);
    let mut data = tokens_in(view, bytes);
    if let Some(first) = data.first_mut() {
        first.delta_line -= first_line;
    }
    let last_line = data.iter().map(|token| token.delta_line).sum();
    SectionTokens {
        data: data.into(),
        last_line,
    }
}

/// A document's last whole-document answer, by result id, for the next delta.
#[derive(Debug, Clone)]
pub struct LastAnswer {
    id: String,
    pieces: Vec<Piece>,
}

/// `full`: every token; `id` names this answer, kept as the next delta's base.
pub fn full(pieces: Vec<Piece>, id: String) -> (SemanticTokens, LastAnswer) {
    let data = flatten(&pieces);
    let tokens = SemanticTokens {
        result_id: Some(id.clone()),
        data,
    };
    (tokens, LastAnswer { id, pieces })
}

/// `full/delta`: the edit from the answer `previous` to now when that is the `last`
/// one kept, else everything; `id` names this answer.
pub fn delta(
    last: Option<&LastAnswer>,
    previous: &str,
    pieces: Vec<Piece>,
    id: String,
) -> (SemanticTokensFullDeltaResult, LastAnswer) {
    let base = last.filter(|last| last.id == previous);
    let result = match base {
        Some(base) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
            result_id: Some(id.clone()),
            edits: diff_pieces(&base.pieces, &pieces),
        }),
        None => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
            result_id: Some(id.clone()),
            data: flatten(&pieces),
        }),
    };
    (result, LastAnswer { id, pieces })
}

/// The edits from `old` to `new`: pieces the same at both ends are skipped by
/// comparing them (shared sections by pointer); the rest is diffed token by token.
fn diff_pieces(old: &[Piece], new: &[Piece]) -> Vec<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a.same(b)).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a.same(b))
        .count();
    let skipped: usize = old[..prefix].iter().map(|piece| piece.data.len()).sum();
    let old_middle = flatten(&old[prefix..old.len() - suffix]);
    let new_middle = flatten(&new[prefix..new.len() - suffix]);
    let mut edits = diff(&old_middle, &new_middle);
    for edit in &mut edits {
        edit.start += (skipped * 5) as u32;
    }
    edits
}

/// The edits (in the integers LSP counts, five per token, in order, none overlapping)
/// that turn `old` into `new`; none when nothing changed. A token is kept where both
/// have it at the same place after a token at the same place (its relative encoding is
/// then the same); what lies between kept tokens is replaced. Not one span from the first
/// difference to the last: a solve's dead squares change the two ends of every row of a
/// room, and one span would resend all of it (5 MB at 2000×2000).
fn diff(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let (old_at, new_at) = (absolute(old), absolute(new));
    // After tokens at the same place, the same encoding means the same token there.
    let kept = |i: usize, j: usize| {
        old[i] == new[j]
            && i.checked_sub(1).map(|p| old_at[p]) == j.checked_sub(1).map(|p| new_at[p])
    };
    let mut edits = Vec::new();
    // Where the run of replaced tokens being gathered began, in `old` and in `new`.
    let mut run: Option<(usize, usize)> = None;
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && kept(i, j) {
            if let Some((from_old, from_new)) = run.take() {
                edits.push(replace(from_old..i, &new[from_new..j]));
            }
            (i, j) = (i + 1, j + 1);
            continue;
        }
        run.get_or_insert((i, j));
        match (old_at.get(i), new_at.get(j)) {
            (Some(a), Some(b)) if a < b => i += 1,
            (Some(a), Some(b)) if a > b => j += 1,
            (Some(_), Some(_)) => (i, j) = (i + 1, j + 1),
            (Some(_), None) => i += 1,
            _ => j += 1,
        }
    }
    if let Some((from_old, from_new)) = run {
        edits.push(replace(from_old..old.len(), &new[from_new..]));
    }
    edits
}

/// Each token's (line, start), counted from the first token's base.
fn absolute(tokens: &[SemanticToken]) -> Vec<(u32, u32)> {
    let (mut line, mut start) = (0u32, 0u32);
    tokens
        .iter()
        .map(|token| {
            if token.delta_line > 0 {
                (line, start) = (line + token.delta_line, token.delta_start);
            } else {
                start += token.delta_start;
            }
            (line, start)
        })
        .collect()
}

/// The edit replacing `old`'s tokens `removed` by `inserted`.
fn replace(removed: std::ops::Range<usize>, inserted: &[SemanticToken]) -> SemanticTokensEdit {
    SemanticTokensEdit {
        start: (removed.start * 5) as u32,
        delete_count: (removed.len() * 5) as u32,
        data: Some(inserted.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `old` with `edits` applied as a client does (from the last: each start counts in
    /// `old`).
    fn applied(old: &[SemanticToken], edits: &[SemanticTokensEdit]) -> Vec<SemanticToken> {
        let mut out = old.to_vec();
        for edit in edits.iter().rev() {
            let (start, count) = (edit.start as usize / 5, edit.delete_count as usize / 5);
            out.splice(start..start + count, edit.data.clone().unwrap_or_default());
        }
        out
    }

    #[test]
    fn the_delta_is_the_changed_middle() {
        let line = |l: u32, token_type: u32| (l, 0, 1, token_type, 0);
        let old = encoded(&[line(0, 0), line(1, 0), line(2, 0), line(3, 0)]);
        let new = encoded(&[line(0, 0), line(1, 2), line(2, 2), line(3, 0)]);
        let edits = diff(&old, &new);
        assert_eq!(edits.len(), 1);
        assert_eq!((edits[0].start, edits[0].delete_count), (5, 10));
        assert_eq!(edits[0].data.as_deref(), Some(&new[1..3]));
        assert!(diff(&old, &old).is_empty());
        // Two lines gone: the next line's token now counts from line 0, so it goes too.
        let shorter = encoded(&[line(0, 0), line(3, 0)]);
        let edits = diff(&old, &shorter);
        assert_eq!(applied(&old, &edits), shorter);
        assert_eq!(edits.len(), 1);
        assert_eq!((edits[0].start, edits[0].delete_count), (5, 15));
    }

    /// Tokens from (line, start, length, type, modifiers), in order, encoded as LSP does.
    fn encoded(cells: &[(u32, u32, u32, u32, u32)]) -> Vec<SemanticToken> {
        let (mut line, mut start) = (0, 0);
        cells
            .iter()
            .map(|&(l, s, length, token_type, modifiers)| {
                let token = SemanticToken {
                    delta_line: l - line,
                    delta_start: if l == line { s - start } else { s },
                    length,
                    token_type,
                    token_modifiers_bitset: modifiers,
                };
                (line, start) = (l, s);
                token
            })
            .collect()
    }

    /// A `size`² room's tokens: floor runs and a rock every fourth cell of every fourth
    /// row; with `dead`, each row's two end cells are dead floor (as after a solve).
    fn room(size: u32, dead: bool) -> Vec<SemanticToken> {
        const ROCK: u32 = 0;
        const FREE: u32 = 1;
        let mut cells = Vec::new();
        for line in 0..size {
            let rocks: Vec<u32> = if line % 4 == 2 {
                (2..size - 2).step_by(4).collect()
            } else {
                Vec::new()
            };
            let mut at = 0;
            let floor = |cells: &mut Vec<_>, from: u32, to: u32| {
                let (mut from, mut to) = (from, to);
                if dead && from == 0 {
                    cells.push((line, 0, 1, FREE, 1));
                    from = 1;
                }
                let last = dead && to == size;
                if last {
                    to -= 1;
                }
                if to > from {
                    cells.push((line, from, to - from, FREE, 0));
                }
                if last {
                    cells.push((line, to, 1, FREE, 1));
                }
            };
            for rock in rocks {
                floor(&mut cells, at, rock);
                cells.push((line, rock, 1, ROCK, 0));
                at = rock + 1;
            }
            floor(&mut cells, at, size);
        }
        encoded(&cells)
    }

    #[test]
    fn a_solves_dead_ends_are_sent_as_edits_at_the_rows_ends() {
        let (before, after) = (room(400, false), room(400, true));
        let edits = diff(&before, &after);
        assert_eq!(applied(&before, &edits), after);
        let sent: usize = edits
            .iter()
            .map(|e| e.data.as_ref().map_or(0, Vec::len))
            .sum();
        // One span would resend every token; the edits hold the rows' ends.
        assert!(
            sent * 5 < after.len(),
            "{sent} of {} tokens sent",
            after.len()
        );
        assert!(diff(&after, &after).is_empty());
    }

    #[test]
    fn applying_the_edits_gives_the_new_tokens() {
        // Small random token lists, each edited at random: the edits always rebuild it.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        fn make(lines: u32, next: &mut impl FnMut(u32) -> u32) -> Vec<SemanticToken> {
            let mut cells = Vec::new();
            for line in 0..lines {
                let mut at = next(3);
                for _ in 0..next(4) {
                    let length = 1 + next(3);
                    cells.push((line, at, length, next(3), next(2)));
                    at += length + next(2);
                }
            }
            encoded(&cells)
        }
        for _ in 0..3000 {
            let lines = 1 + next(6);
            let old = make(lines, &mut next);
            let more = next(2);
            let new = make(lines + more, &mut next);
            let edits = diff(&old, &new);
            assert_eq!(applied(&old, &edits), new, "{old:?} → {new:?}: {edits:?}");
            let mut last_end = 0;
            for edit in &edits {
                assert!(edit.start >= last_end, "edits in order, none overlapping");
                last_end = edit.start + edit.delete_count;
            }
        }
    }
}
