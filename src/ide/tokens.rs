//! Semantic tokens over byte ranges: cells by kind (with a `dead` modifier), header
//! numbers, comments, and walk vs push moves in solution lines. Runs of equal cells
//! are one token. Only the lines of the asked range are looked at.

use std::ops::Range;

use super::FileView;
use crate::maze::{line_spans, Maze};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Rock,
    Free,
    Player,
    Box,
    Target,
    Number,
    Comment,
    Walk,
    Push,
}

/// Token type names, in [`TokenKind`] order (the editors' packages rely on them).
pub const TOKEN_KINDS: [&str; 9] = [
    "rock", "free", "player", "box", "target", "number", "comment", "walk", "push",
];
/// Modifier names; bit `i` of [`Token::modifiers`] is the `i`th.
pub const TOKEN_MODIFIERS: [&str; 2] = ["dead", "onGoal"];
/// The `dead` modifier's bit, for `.box` and Sokoban documents alike.
pub(super) const DEAD: u32 = 1;
/// The `onGoal` modifier's bit: a Sokoban level's `*` box and `+` player stand on a
/// goal (a `.box` maze has no such letters).
pub(super) const ON_GOAL: u32 = 2;

/// One token: a byte range within one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub range: Range<usize>,
    pub kind: TokenKind,
    pub modifiers: u32,
}

/// What one line is.
enum Role<'a> {
    Header,
    Row(&'a Maze, Option<&'a [bool]>, usize),
    Solution(Range<usize>),
    Other,
}

/// The tokens of every line that overlaps `range`, in source order.
pub fn tokens(file: &FileView, range: Range<usize>) -> Vec<Token> {
    let range = super::clamp(file.text, range);
    let mut out = Vec::new();
    for line in line_spans(file.text, super::line_start(file.text, range.start)) {
        if line.content.start > range.end || (line.content.start == range.end && !range.is_empty())
        {
            break;
        }
        line_tokens(file, line.content, &mut out);
    }
    out
}

fn line_tokens(file: &FileView, content: Range<usize>, out: &mut Vec<Token>) {
    let text = file.text;
    let trimmed = text[content.clone()].trim_start_matches([' ', '\t']);
    let start = content.end - trimmed.len();
    match role(file, content.clone()) {
        Role::Header => number_tokens(text, start..content.end, out),
        Role::Row(maze, dead, row) => row_tokens(file.text, maze, dead, row, out),
        Role::Solution(moves) => solution_tokens(text, start, moves, out),
        Role::Other if trimmed.starts_with(';') => out.push(Token {
            range: start..start + trimmed.trim_end().len(),
            kind: TokenKind::Comment,
            modifiers: 0,
        }),
        Role::Other => {}
    }
}

/// The role of the line whose content is `content`, found by binary search.
fn role<'a>(file: &FileView<'a>, content: Range<usize>) -> Role<'a> {
    let on_line = |range: &Range<usize>| content.start <= range.start && range.start <= content.end;
    if file.parsed.terminator.as_ref().is_some_and(on_line) {
        return Role::Header;
    }
    let Some((maze, status)) = file.maze_at(content.start) else {
        return Role::Other;
    };
    if on_line(&maze.header) {
        return Role::Header;
    }
    if let Some(solution) = maze.solution.as_ref().filter(|s| on_line(&s.line)) {
        return Role::Solution(solution.moves.clone());
    }
    let row = maze.rows.partition_point(|row| row.start < content.start);
    match maze.rows.get(row) {
        Some(found) if on_line(found) => {
            let dead = status.dead().filter(|_| file.options.dead_squares);
            Role::Row(maze, dead, row)
        }
        _ => Role::Other,
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
                kind: TokenKind::Number,
                modifiers: 0,
            });
            at = end;
        } else {
            at += 1;
        }
    }
}

fn row_tokens(text: &str, maze: &Maze, dead: Option<&[bool]>, row: usize, out: &mut Vec<Token>) {
    let cols = maze.grid.as_ref().map(|grid| grid.cols);
    push_runs(text, maze.rows[row].clone(), out, |column, ch| {
        let kind = match ch {
            '#' => TokenKind::Rock,
            '.' => TokenKind::Free,
            'S' => TokenKind::Player,
            'B' => TokenKind::Box,
            'T' => TokenKind::Target,
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
        kind: TokenKind::Comment,
        modifiers: 0,
    });
    push_runs(text, moves, out, |_, ch| match ch {
        'n' | 's' | 'e' | 'w' => Some((TokenKind::Walk, 0)),
        'N' | 'S' | 'E' | 'W' => Some((TokenKind::Push, 0)),
        _ => None,
    });
}

/// One token per run of characters of `range` that `classify` (given the column and
/// the character) puts in the same (kind, modifiers); unclassified characters get none.
fn push_runs(
    text: &str,
    range: Range<usize>,
    out: &mut Vec<Token>,
    classify: impl Fn(usize, char) -> Option<(TokenKind, u32)>,
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

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::super::fixture::{shown_tokens, Fixture};
    use super::*;

    fn check(text: &str, expect: Expect) {
        let fixture = Fixture::solved(text);
        let shown = shown_tokens(text, &tokens(&fixture.view(), 0..text.len()));
        expect.assert_eq(&shown);
    }

    #[test]
    fn cells_numbers_comments_and_moves() {
        check(
            "; hi\n2 4\nSB.T\n#..#\n; solution: EE\n0 0\n",
            expect![[r##"
                "; hi" Comment
                "2" Number
                "4" Number
                "S" Player dead
                "B" Box
                "." Free
                "T" Target
                "#" Rock
                ".." Free dead
                "#" Rock
                "; solution: " Comment
                "EE" Push
                "0" Number
                "0" Number"##]],
        );
    }

    #[test]
    fn a_row_led_by_a_blank_gets_its_tokens() {
        check(
            "1 3\n SBT\n0 0\n",
            expect![[r#"
            "1" Number
            "3" Number
            "S" Player
            "B" Box
            "T" Target
            "0" Number
            "0" Number"#]],
        );
    }

    #[test]
    fn a_range_covers_only_its_lines() {
        let text = "1 3\nSBT\n; between\n1 3\nSBT\n0 0\n";
        let fixture = Fixture::solved(text);
        let second = text.find("; between").expect("comment");
        let found = tokens(&fixture.view(), second..second + 3);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, TokenKind::Comment);
    }
}
