//! Semantic tokens of a Sokoban document, in the one legend `.box` uses: each board
//! cell by what is on it (`#` rock, floor free, `.` target, `$` `*` box, `@` `+`
//! player, `*` and `+` also `onGoal`; a run-length token such as `4#` is one token),
//! dead squares with the `dead` modifier as for `.box`, `;`/`::` comment lines, and a
//! recorded solution's moves
//! (`u d l r` walk, `U D L R` push, counts as numbers). Only the lines of the asked
//! range are looked at.

use std::ops::Range;

use super::{dead_of, LevelFile};
use crate::ide::tokens::{DEAD, ON_GOAL};
use crate::ide::{line_end, line_start, Token, TokenKind};
use crate::level::{Cell, Level};
use crate::maze::line_spans;

/// The tokens of every line that overlaps `range`, in source order.
pub fn level_tokens(file: &LevelFile, range: Range<usize>) -> Vec<Token> {
    let text = file.text;
    let range = crate::ide::clamp(text, range);
    let lines = line_start(text, range.start)..line_end(text, range.end);
    let mut out = Vec::new();
    let levels = file.levels();
    let first = levels.partition_point(|level| level.extent.end < lines.start);
    for level in levels[first..]
        .iter()
        .take_while(|level| level.extent.start <= lines.end)
    {
        board_tokens(file, level, &lines, &mut out);
        solution_tokens(text, level, &lines, &mut out);
    }
    comment_tokens(text, &lines, &mut out);
    out.sort_by_key(|token| token.range.start);
    out
}

/// One token per run of cells with the same kind and modifiers, on the board's lines
/// inside `lines`.
fn board_tokens(file: &LevelFile, level: &Level, lines: &Range<usize>, out: &mut Vec<Token>) {
    let board = &level.board;
    if level.board_lines.end < lines.start || level.board_lines.start > lines.end {
        return;
    }
    let dead = dead_of(level, file.options);
    let mut run: Option<Token> = None;
    for (cell, span) in board.spans.iter().enumerate() {
        if span.is_empty() || span.start < lines.start || span.start > lines.end {
            continue;
        }
        let Some(kind) = kind_of(board.cells[cell]) else {
            out.extend(run.take());
            continue;
        };
        let is_dead = dead.as_ref().is_some_and(|dead| dead[cell]);
        let on_goal = matches!(board.cells[cell], Cell::BoxOnGoal | Cell::PlayerOnGoal);
        let modifiers = if is_dead { DEAD } else { 0 } | if on_goal { ON_GOAL } else { 0 };
        match &mut run {
            // The other cells of a run-length token: already in its token.
            Some(token) if token.range.end > span.start => {}
            Some(token)
                if token.range.end == span.start
                    && token.kind == kind
                    && token.modifiers == modifiers =>
            {
                token.range.end = span.end;
            }
            _ => {
                out.extend(run.take());
                run = Some(Token {
                    range: span.clone(),
                    kind,
                    modifiers,
                });
            }
        }
    }
    out.extend(run);
}

fn kind_of(cell: Cell) -> Option<TokenKind> {
    Some(match cell {
        Cell::Wall => TokenKind::Rock,
        Cell::Floor => TokenKind::Free,
        Cell::Goal => TokenKind::Target,
        Cell::Box | Cell::BoxOnGoal => TokenKind::Box,
        Cell::Player | Cell::PlayerOnGoal => TokenKind::Player,
        Cell::Void | Cell::Unknown => return None,
    })
}

/// The moves of the level's recorded solutions: walks, pushes and counts.
fn solution_tokens(text: &str, level: &Level, lines: &Range<usize>, out: &mut Vec<Token>) {
    for solution in &level.solutions {
        for part in &solution.parts {
            if part.end < lines.start || part.start > lines.end {
                continue;
            }
            let mut run: Option<Token> = None;
            for (offset, ch) in text[part.clone()].char_indices() {
                let at = part.start + offset;
                let kind = match ch {
                    'u' | 'd' | 'l' | 'r' => Some(TokenKind::Walk),
                    'U' | 'D' | 'L' | 'R' => Some(TokenKind::Push),
                    '0'..='9' => Some(TokenKind::Number),
                    _ => None,
                };
                match (&mut run, kind) {
                    (Some(token), Some(kind)) if token.kind == kind => {
                        token.range.end = at + ch.len_utf8();
                    }
                    (_, kind) => {
                        out.extend(run.take());
                        run = kind.map(|kind| Token {
                            range: at..at + ch.len_utf8(),
                            kind,
                            modifiers: 0,
                        });
                    }
                }
            }
            out.extend(run);
        }
    }
}

/// `;` and `::` lines.
fn comment_tokens(text: &str, lines: &Range<usize>, out: &mut Vec<Token>) {
    for line in line_spans(text, lines.start) {
        if line.content.start > lines.end {
            break;
        }
        let written = &text[line.content.clone()];
        let trimmed = written.trim_start();
        // A board line never starts so: these are never a board's.
        if !(trimmed.starts_with(';') || trimmed.starts_with("::")) {
            continue;
        }
        let start = line.content.start + (written.len() - trimmed.len());
        out.push(Token {
            range: start..start + trimmed.trim_end().len(),
            kind: TokenKind::Comment,
            modifiers: 0,
        });
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::super::fixture::Fixture;
    use super::*;
    use crate::ide::fixture::shown_tokens;

    fn check(text: &str, expect: Expect) {
        let fixture = Fixture::new(text);
        let shown = shown_tokens(text, &level_tokens(&fixture.view(), 0..text.len()));
        expect.assert_eq(&shown);
    }

    #[test]
    fn cells_by_kind_with_dead_squares_comments_and_moves() {
        check(
            "; one\n#######\n#@ $ .#\n#  *  #\n#######\nSolution: 2rR\n",
            expect![[r########"
                "; one" Comment
                "#######" Rock
                "#" Rock
                "@" Player dead
                " " Free
                "$" Box
                " " Free
                "." Target
                "#" Rock
                "#" Rock
                " " Free dead
                " " Free
                "*" Box onGoal
                " " Free
                " " Free dead
                "#" Rock
                "#######" Rock
                "2" Number
                "r" Walk
                "R" Push"########]],
        );
    }

    #[test]
    fn a_run_length_row_is_one_token_per_run() {
        check(
            "4#|#@$.#|4#\n",
            expect![[r##"
            "4#" Rock
            "#" Rock
            "@" Player dead
            "$" Box
            "." Target
            "#" Rock
            "4#" Rock"##]],
        );
    }

    #[test]
    fn a_box_or_player_on_a_goal_is_on_goal() {
        check(
            "######\n#+$* #\n#  . #\n######\n",
            expect![[r########"
                "######" Rock
                "#" Rock
                "+" Player onGoal
                "$" Box
                "*" Box onGoal
                " " Free dead
                "#" Rock
                "#" Rock
                " " Free dead
                " " Free
                "." Target
                " " Free dead
                "#" Rock
                "######" Rock"########]],
        );
    }
}
