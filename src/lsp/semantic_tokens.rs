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
//! whole text's tokens.

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
            edits: diff_pieces(&base.pieces, &pieces).into_iter().collect(),
        }),
        None => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
            result_id: Some(id.clone()),
            data: flatten(&pieces),
        }),
    };
    (result, LastAnswer { id, pieces })
}

/// The edit from `old` to `new`: pieces the same at both ends are skipped by
/// comparing them (shared sections by pointer); the rest is diffed token by token.
fn diff_pieces(old: &[Piece], new: &[Piece]) -> Option<SemanticTokensEdit> {
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
    let mut edit = diff(&old_middle, &new_middle)?;
    edit.start += (skipped * 5) as u32;
    Some(edit)
}

/// One edit replacing what differs between the common prefix and suffix (in the
/// integers LSP counts, five per token); none when nothing changed.
fn diff(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let removed = old.len() - prefix - suffix;
    let inserted = &new[prefix..new.len() - suffix];
    (removed > 0 || !inserted.is_empty()).then(|| SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: (removed * 5) as u32,
        data: Some(inserted.to_vec()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(n: u32) -> SemanticToken {
        SemanticToken {
            delta_line: n,
            delta_start: 0,
            length: 1,
            token_type: 0,
            token_modifiers_bitset: 0,
        }
    }

    #[test]
    fn the_delta_is_the_changed_middle() {
        let old: Vec<_> = [1, 2, 3, 4].map(token).into();
        let new: Vec<_> = [1, 9, 9, 4].map(token).into();
        let edit = diff(&old, &new).expect("a change");
        assert_eq!((edit.start, edit.delete_count), (5, 10));
        assert_eq!(edit.data, Some(vec![token(9), token(9)]));
        assert!(diff(&old, &old).is_none());
        let shorter: Vec<_> = [1, 4].map(token).into();
        let edit = diff(&old, &shorter).expect("a change");
        assert_eq!(
            (edit.start, edit.delete_count, edit.data),
            (5, 10, Some(vec![]))
        );
    }
}
