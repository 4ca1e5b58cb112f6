//! Semantic tokens, `full`, `range` and `full/delta`: the IDE layer's tokens,
//! delta-encoded with positions walked forward through the text. Each document's last
//! full answer is kept (by result id) so the next can be sent as a delta.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensDelta,
    SemanticTokensEdit, SemanticTokensFullDeltaResult, SemanticTokensLegend, Uri,
};

use super::position::Walker;
use super::view::View;
use crate::ide::{self, Token, TOKEN_KINDS, TOKEN_MODIFIERS};

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TOKEN_KINDS
            .iter()
            .map(|t| SemanticTokenType::new(t))
            .collect(),
        token_modifiers: TOKEN_MODIFIERS
            .iter()
            .map(|m| SemanticTokenModifier::new(m))
            .collect(),
    }
}

/// The tokens of the lines overlapping `bytes`.
pub fn tokens_in(view: &View, bytes: std::ops::Range<usize>) -> Vec<SemanticToken> {
    let tokens = ide::tokens(&view.file(), bytes.clone());
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

/// Each document's last full answer, for deltas.
#[derive(Default)]
pub struct Previous {
    map: Mutex<HashMap<Uri, (String, Vec<SemanticToken>)>>,
    next_id: Mutex<u64>,
}

impl Previous {
    fn lock(&self) -> MutexGuard<'_, HashMap<Uri, (String, Vec<SemanticToken>)>> {
        self.map
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn remember(&self, uri: &Uri, data: Vec<SemanticToken>) -> String {
        let id = {
            let mut next = self.next_id.lock().unwrap_or_else(|p| p.into_inner());
            *next += 1;
            next.to_string()
        };
        self.lock().insert(uri.clone(), (id.clone(), data));
        id
    }

    pub fn forget(&self, uri: &Uri) {
        self.lock().remove(uri);
    }

    /// `full`: every token, remembered for the next delta.
    pub fn full(&self, view: &View, uri: &Uri) -> SemanticTokens {
        let data = tokens_in(view, 0..view.text.len());
        let result_id = self.remember(uri, data.clone());
        SemanticTokens {
            result_id: Some(result_id),
            data,
        }
    }

    /// `full/delta`: the edit from the answer `previous` to now, or everything when
    /// that answer is not the one remembered.
    pub fn delta(&self, view: &View, uri: &Uri, previous: &str) -> SemanticTokensFullDeltaResult {
        let data = tokens_in(view, 0..view.text.len());
        let old = self
            .lock()
            .get(uri)
            .filter(|(id, _)| id == previous)
            .map(|(_, old)| old.clone());
        let result_id = self.remember(uri, data.clone());
        match old {
            Some(old) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
                result_id: Some(result_id),
                edits: diff(&old, &data).into_iter().collect(),
            }),
            None => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
                result_id: Some(result_id),
                data,
            }),
        }
    }
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
