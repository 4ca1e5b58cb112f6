//! A collection's levels as document symbols (named by title, else `Level k`, with
//! the board's size and boxes) and as folding ranges.

use std::ops::Range;

use super::LevelFile;
use crate::ide::Symbol;
use crate::level::Level;
use crate::maze::plural;

pub fn level_symbols(file: &LevelFile) -> Vec<Symbol> {
    file.levels()
        .iter()
        .map(|level| Symbol {
            name: level_name(level),
            detail: Some(level_detail(level)),
            range: level.extent.clone(),
            selection: level
                .title
                .as_ref()
                .map_or(level.board_lines.clone(), |title| title.range.clone()),
        })
        .collect()
}

/// Each level's extent, with the text to show when it is folded.
pub fn level_folding_ranges(file: &LevelFile) -> Vec<(Range<usize>, String)> {
    file.levels()
        .iter()
        .map(|level| (level.extent.clone(), level_name(level)))
        .collect()
}

/// The level's title, or `Level k` for a level without one.
pub fn level_name(level: &Level) -> String {
    match &level.title {
        Some(title) => title.text.clone(),
        None => format!("Level {}", level.index),
    }
}

/// `7×6 · 3 boxes`: the board's columns by rows, and its boxes.
pub fn level_detail(level: &Level) -> String {
    let board = &level.board;
    let boxes = board.boxes().len() as u64;
    format!(
        "{}×{} · {}",
        board.width,
        board.height,
        plural(boxes, "box", "boxes")
    )
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::super::fixture::Fixture;
    use super::*;

    fn check(text: &str, expect: Expect) {
        let fixture = Fixture::new(text);
        let file = fixture.view();
        let mut shown: Vec<String> = level_symbols(&file)
            .iter()
            .map(|symbol| {
                format!(
                    "{} [{}] {:?} selects {:?}",
                    symbol.name,
                    symbol.detail.as_deref().unwrap_or(""),
                    &text[symbol.range.clone()],
                    &text[symbol.selection.clone()]
                )
            })
            .collect();
        shown.extend(
            level_folding_ranges(&file)
                .iter()
                .map(|(range, folded)| format!("fold {range:?} as {folded}")),
        );
        expect.assert_eq(&shown.join("\n"));
    }

    #[test]
    fn one_symbol_per_level_by_title_or_number() {
        check(
            "Title: First\n#####\n#@$.#\n#####\n\n; 2\n\n####\n#@*#\n####\n\nThird\n######\n#@$$..#\n######\n",
            expect![[r#"
                First [5×3 · 1 box] "Title: First\n#####\n#@$.#\n#####" selects "First"
                2 [4×3 · 1 box] "; 2\n\n####\n#@*#\n####" selects "2"
                Third [7×3 · 2 boxes] "Third\n######\n#@$$..#\n######" selects "Third"
                fold 0..30 as First
                fold 32..51 as 2
                fold 53..80 as Third"#]],
        );
    }

    #[test]
    fn a_level_without_a_title_is_named_by_its_place() {
        check(
            "#####\n#@$.#\n#####\n",
            expect![[r######"
                Level 1 [5×3 · 1 box] "#####\n#@$.#\n#####" selects "#####\n#@$.#\n#####"
                fold 0..17 as Level 1"######]],
        );
    }
}
