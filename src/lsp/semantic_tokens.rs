//! Semantic tokens: cells by kind (with a `dead` modifier), header numbers, comments,
//! and walk vs push moves in solution lines. Runs of equal cells are one token.

use std::collections::HashMap;
use std::ops::Range;

use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
};

use super::solves::SolveResult;
use super::state::{Status, View};
use crate::maze::{line_spans, Maze};

/// Token types, in legend order (the editors' packages rely on these names).
const TYPES: [&str; 9] = [
    "rock", "free", "player", "box", "target", "number", "comment", "walk", "push",
];
const ROCK: u32 = 0;
const FREE: u32 = 1;
const PLAYER: u32 = 2;
const BOX: u32 = 3;
const TARGET: u32 = 4;
const NUMBER: u32 = 5;
const COMMENT: u32 = 6;
const WALK: u32 = 7;
const PUSH: u32 = 8;
const DEAD: u32 = 1;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.iter().map(|t| SemanticTokenType::new(t)).collect(),
        token_modifiers: vec![SemanticTokenModifier::new("dead")],
    }
}

/// A token before delta encoding: byte range (within one line), type, modifiers.
struct Token {
    range: Range<usize>,
    kind: u32,
    modifiers: u32,
}

enum LineRole<'a> {
    Header,
    Row(&'a Maze, usize),
    Solution(Range<usize>),
}

pub fn semantic_tokens(view: &View) -> SemanticTokens {
    let mut roles: HashMap<usize, LineRole> = HashMap::new();
    for (maze, _) in view.mazes() {
        roles.insert(maze.header.start, LineRole::Header);
        for (i, row) in maze.rows.iter().enumerate() {
            roles.insert(row.start, LineRole::Row(maze, i));
        }
        if let Some(solution) = &maze.solution {
            roles.insert(
                solution.line.start,
                LineRole::Solution(solution.moves.clone()),
            );
        }
    }
    if let Some(terminator) = &view.parsed.terminator {
        roles.insert(terminator.start, LineRole::Header);
    }
    let dead: HashMap<usize, &[bool]> = view
        .mazes()
        .filter(|_| view.config.dead_squares)
        .filter_map(|(maze, status)| match status {
            Status::Known(result) => match &**result {
                SolveResult::Done(analysis) => Some((maze.index, analysis.dead.as_slice())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let mut tokens = Vec::new();
    for line in line_spans(&view.text, 0) {
        let content = line.content;
        let trimmed = view.text[content.clone()].trim_start_matches([' ', '\t']);
        let start = content.end - trimmed.len();
        match roles.get(&start) {
            Some(LineRole::Header) => number_tokens(&view.text, start..content.end, &mut tokens),
            Some(LineRole::Row(maze, row)) => row_tokens(
                view,
                maze,
                *row,
                dead.get(&maze.index).copied(),
                &mut tokens,
            ),
            Some(LineRole::Solution(moves)) => {
                solution_tokens(&view.text, start, moves.clone(), &mut tokens)
            }
            None if trimmed.starts_with(';') => tokens.push(Token {
                range: start..start + trimmed.trim_end().len(),
                kind: COMMENT,
                modifiers: 0,
            }),
            None => {}
        }
    }
    SemanticTokens {
        result_id: None,
        data: encode(view, &tokens),
    }
}

fn number_tokens(text: &str, line: Range<usize>, out: &mut Vec<Token>) {
    let bytes = text.as_bytes();
    let mut at = line.start;
    while at < line.end {
        if bytes[at].is_ascii_digit() {
            let end = at
                + bytes[at..line.end]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
            out.push(Token {
                range: at..end,
                kind: NUMBER,
                modifiers: 0,
            });
            at = end;
        } else {
            at += 1;
        }
    }
}

fn row_tokens(view: &View, maze: &Maze, row: usize, dead: Option<&[bool]>, out: &mut Vec<Token>) {
    let cols = maze.grid.as_ref().map(|grid| grid.cols);
    push_runs(&view.text, maze.rows[row].clone(), out, |column, ch| {
        let kind = match ch {
            '#' => ROCK,
            '.' => FREE,
            'S' => PLAYER,
            'B' => BOX,
            'T' => TARGET,
            _ => return None,
        };
        let is_dead = match (dead, cols) {
            (Some(dead), Some(cols)) => dead.get(row * cols + column) == Some(&true),
            _ => false,
        };
        Some((kind, if is_dead { DEAD } else { 0 }))
    });
}

fn solution_tokens(text: &str, start: usize, moves: Range<usize>, out: &mut Vec<Token>) {
    out.push(Token {
        range: start..moves.start.max(start + 1),
        kind: COMMENT,
        modifiers: 0,
    });
    push_runs(text, moves, out, |_, ch| match ch {
        'n' | 's' | 'e' | 'w' => Some((WALK, 0)),
        'N' | 'S' | 'E' | 'W' => Some((PUSH, 0)),
        _ => None,
    });
}

/// One token per run of characters of `range` that `classify` (given the column and
/// the character) puts in the same (type, modifiers); unclassified characters get none.
fn push_runs(
    text: &str,
    range: Range<usize>,
    out: &mut Vec<Token>,
    classify: impl Fn(usize, char) -> Option<(u32, u32)>,
) {
    let mut run: Option<Token> = None;
    for (column, (offset, ch)) in text[range.clone()].char_indices().enumerate() {
        let at = range.start + offset;
        let end = at + ch.len_utf8();
        match (&mut run, classify(column, ch)) {
            (Some(token), Some((kind, modifiers)))
                if token.kind == kind && token.modifiers == modifiers =>
            {
                token.range.end = end
            }
            (_, class) => {
                out.extend(run.take());
                run = class.map(|(kind, modifiers)| Token {
                    range: at..end,
                    kind,
                    modifiers,
                });
            }
        }
    }
    out.extend(run);
}

/// LSP's relative encoding, with lengths and columns in the negotiated encoding.
fn encode(view: &View, tokens: &[Token]) -> Vec<SemanticToken> {
    let mut data = Vec::with_capacity(tokens.len());
    let (mut last_line, mut last_start) = (0u32, 0u32);
    for token in tokens {
        let start = view.position(token.range.start);
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
            token_type: token.kind,
            token_modifiers_bitset: token.modifiers,
        });
        (last_line, last_start) = (start.line, start.character);
    }
    data
}
