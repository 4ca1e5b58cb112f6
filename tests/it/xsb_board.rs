//! A tiny XSB board reader for the Sokoban tests and bench (the product's parser lives
//! in `src/level`; this one is deliberately independent of it): a level is a maximal
//! run of board lines; anything else (`;` comments, titles, blank lines) separates.

use boxls::sokoban::Puzzle;

/// Every level of an XSB collection, in order.
pub fn levels(text: &str) -> Vec<Puzzle> {
    let mut levels = Vec::new();
    let mut rows: Vec<&str> = Vec::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim_end_matches('\r');
        if is_board_line(line) {
            rows.push(line);
        } else if !rows.is_empty() {
            levels.extend(board(&rows));
            rows.clear();
        }
    }
    levels
}

fn is_board_line(line: &str) -> bool {
    line.contains('#') && line.chars().all(|c| "#@+$*. -_".contains(c))
}

/// One board; `None` without exactly one player.
pub fn board(rows: &[&str]) -> Option<Puzzle> {
    let width = rows.iter().map(|r| r.chars().count()).max()?;
    let height = rows.len();
    let mut puzzle = Puzzle {
        width,
        height,
        walls: vec![false; width * height],
        goals: vec![false; width * height],
        boxes: Vec::new(),
        player: usize::MAX,
    };
    for (row, line) in rows.iter().enumerate() {
        for (col, c) in line.chars().enumerate() {
            let cell = row * width + col;
            match c {
                '#' => puzzle.walls[cell] = true,
                '@' | '+' => {
                    if puzzle.player != usize::MAX {
                        return None;
                    }
                    puzzle.player = cell;
                }
                '$' | '*' => puzzle.boxes.push(cell),
                _ => {}
            }
            puzzle.goals[cell] = matches!(c, '.' | '*' | '+');
        }
    }
    (puzzle.player != usize::MAX).then_some(puzzle)
}
