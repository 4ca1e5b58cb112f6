//! Hover in a Sokoban document: on a board cell, what is there, and for a box the
//! deadlock it is in and why (the checks' own diagnostics on that cell) or, when it is
//! in none, how many pushes at least take it to a goal; on a floor cell, whether it is
//! a dead square. Anywhere else in a level: its name, size, boxes, goals and floor, and
//! its recorded solutions' counts.

use std::collections::VecDeque;
use std::ops::Range;

use super::symbols::level_name;
use super::{cell_at, dead_of, LevelFile};
use crate::ide::HoverFormat;
use crate::level::{parse_lurd, replay, Cell, Code, Level, Position};
use crate::maze::plural;

/// Hover text at `offset`, and the range it is about (a cell's characters).
pub fn level_hover(
    file: &LevelFile,
    offset: usize,
    format: HoverFormat,
) -> Option<(String, Option<Range<usize>>)> {
    let level = file.level_at(offset)?;
    let bold = |text: &str| match format {
        HoverFormat::Markdown => format!("**{text}**"),
        HoverFormat::PlainText => text.to_string(),
    };
    let code = |text: &str| match format {
        HoverFormat::Markdown => format!("`{text}`"),
        HoverFormat::PlainText => text.to_string(),
    };
    let name = bold(&level_name(level));
    let Some(cell) = cell_at(level, offset) else {
        return Some((level_summary(file.text, level, &name), None));
    };
    let span = level.board.spans[cell].clone();
    let (row, column) = level.board.coords(cell);
    let mut lines = vec![format!(
        "{name} · row {}, column {}: {}",
        row + 1,
        column + 1,
        what_is(level.board.cells[cell])
    )];
    let here: Vec<_> = file
        .diagnostics()
        .iter()
        .filter(|d| d.range == span)
        .collect();
    lines.extend(
        here.iter()
            .map(|d| format!("{}: {}", code(d.code.as_str()), d.message)),
    );
    let checked = !file.diagnostics().iter().any(|d| {
        d.is_error() && level.extent.start <= d.range.start && d.range.end <= level.extent.end
    });
    let in_deadlock = here.iter().any(|d| {
        matches!(
            d.code,
            Code::DeadSquare | Code::FrozenBoxes | Code::UnmatchedBoxes
        )
    });
    let cell_kind = level.board.cells[cell];
    let position = level.board.position().filter(|_| checked);
    match (&position, cell_kind.has_box(), in_deadlock) {
        (Some(position), true, false) => lines.push(match pushes_to_goal(position, cell) {
            Some(0) => "on a goal; in no deadlock".to_string(),
            Some(pushes) => format!(
                "in no deadlock; {} at least to a goal (this box alone)",
                plural(pushes as u64, "push", "pushes")
            ),
            None => "no goal can be reached from here".to_string(),
        }),
        (_, false, _) if dead_of(level, file.options).is_some_and(|dead| dead[cell]) => {
            lines.push("a dead square: a box here can never be pushed to a goal".to_string())
        }
        _ => {}
    }
    Some((lines.join("\n\n"), Some(span)))
}

fn what_is(cell: Cell) -> &'static str {
    match cell {
        Cell::Void => "outside the level",
        Cell::Floor => "floor",
        Cell::Wall => "a wall",
        Cell::Goal => "a goal",
        Cell::Box => "a box",
        Cell::BoxOnGoal => "a box on a goal",
        Cell::Player => "the player",
        Cell::PlayerOnGoal => "the player, on a goal",
        Cell::Unknown => "not a cell (read as a wall)",
    }
}

/// `name`: the board's size, boxes, goals and floor, and each recorded solution's
/// counts (or that it does not replay).
fn level_summary(text: &str, level: &Level, name: &str) -> String {
    let board = &level.board;
    let floor = board.cells.iter().filter(|cell| !cell.is_wall()).count();
    let mut lines = vec![format!(
        "{name}: {}×{} · {} · {} · {floor} floor cells",
        board.width,
        board.height,
        plural(board.boxes().len() as u64, "box", "boxes"),
        plural(board.goals().len() as u64, "goal", "goals"),
    )];
    let position = board.position();
    for solution in &level.solutions {
        let replayed = parse_lurd(text, &solution.parts)
            .ok()
            .zip(position.as_ref())
            .and_then(|(moves, position)| replay(position, &moves).ok());
        lines.push(match replayed {
            Some(done) if done.solved => format!(
                "recorded solution: {} · {}",
                plural(u64::from(done.pushes), "push", "pushes"),
                plural(u64::from(done.moves), "move", "moves")
            ),
            _ => "recorded solution: does not solve the level".to_string(),
        });
    }
    lines.join("\n\n")
}

/// The fewest pushes that take a box at `from` to a goal with no other box in the way
/// and the player free to go round: a lower bound; `None` when no goal can be reached.
fn pushes_to_goal(position: &Position, from: usize) -> Option<usize> {
    let mut distance = vec![usize::MAX; position.walls.len()];
    let mut queue = VecDeque::new();
    for (cell, distance) in distance.iter_mut().enumerate() {
        if position.goals[cell] && !position.walls[cell] {
            *distance = 0;
            queue.push_back(cell);
        }
    }
    // Pulls back from the goals: the box came from `before`, pushed by the player
    // standing one further.
    while let Some(cell) = queue.pop_front() {
        if cell == from {
            return Some(distance[cell]);
        }
        for direction in 0..4 {
            let Some(before) = position.open_step(cell, direction) else {
                continue;
            };
            if distance[before] == usize::MAX && position.open_step(before, direction).is_some() {
                distance[before] = distance[cell] + 1;
                queue.push_back(before);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::super::fixture::Fixture;
    use super::*;

    /// The hover at the `|` marker (removed from the text).
    fn check(marked: &str, expect: Expect) {
        let offset = marked.find('|').expect("a marker");
        let text = marked.replacen('|', "", 1);
        let fixture = Fixture::new(&text);
        let shown = match level_hover(&fixture.view(), offset, HoverFormat::PlainText) {
            Some((hover, range)) => {
                let on = range.map_or(String::new(), |r| format!("{:?}\n", &text[r]));
                format!("{on}{hover}")
            }
            None => "no hover".to_string(),
        };
        expect.assert_eq(&shown);
    }

    #[test]
    fn a_live_box_and_its_pushes() {
        check(
            "######\n#@|$ .#\n######\n",
            expect![[r#"
            "$"
            Level 1 · row 2, column 3: a box

            in no deadlock; 2 pushes at least to a goal (this box alone)"#]],
        );
    }

    #[test]
    fn frozen_boxes_say_why() {
        check(
            "#######\n#@   .#\n#$|$ .#\n#######\n",
            expect![[r#"
            "$"
            Level 1 · row 3, column 3: a box

            frozen-boxes: frozen: this box and 1 other can never move again, and not all of them are on goals"#]],
        );
    }

    #[test]
    fn a_dead_square_and_a_wall() {
        check(
            "######\n#|@$.#\n######\n",
            expect![[r#"
            "@"
            Level 1 · row 2, column 2: the player

            a dead square: a box here can never be pushed to a goal"#]],
        );
        check(
            "####|##\n#@$.#\n",
            expect![[r##"
            "#"
            Level 1 · row 1, column 5: a wall"##]],
        );
    }

    #[test]
    fn a_level_and_its_recorded_solution() {
        check(
            "|Easy\n#####\n#@$.#\n#####\nSolution: R\n",
            expect![[r#"
            Easy: 5×3 · 1 box · 1 goal · 3 floor cells

            recorded solution: 1 push · 1 move"#]],
        );
    }
}
