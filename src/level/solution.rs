//! LURD move strings (`u d l r` walks, `U D L R` pushes, run-length counts allowed)
//! read with each move's source range, and replayed on a position.

use std::ops::Range;

use super::board::Position;
use super::rle::{Run, Runs};

/// One move: a direction (an index into the board's `DIRECTIONS`,
/// `u d l r`), whether it is written as a push, and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub direction: usize,
    pub push: bool,
    pub range: Range<usize>,
}

/// Reads the move text written in `parts` (ranges of `text`): every move, or the range
/// of the first character that is not LURD (or a count with no move after it).
pub fn parse_lurd(text: &str, parts: &[Range<usize>]) -> Result<Vec<Move>, Range<usize>> {
    let mut moves = Vec::new();
    for part in parts {
        let mut runs = Runs::new(text, part.clone());
        for Run { c, at, count } in runs.by_ref() {
            if c.is_whitespace() && count.is_none() {
                continue;
            }
            let Some(direction) = "udlr".find(c.to_ascii_lowercase()) else {
                return Err(at..at + c.len_utf8());
            };
            let (times, start) = count.unwrap_or((1, at));
            // A count larger than any real solution is a typo, not a reason to allocate.
            if times == 0 || times > 1_000_000 {
                return Err(start..at + 1);
            }
            for _ in 0..times {
                moves.push(Move {
                    direction,
                    push: c.is_ascii_uppercase(),
                    range: start..at + 1,
                });
            }
        }
        if let Some((_, start)) = runs.pending {
            return Err(start..part.end);
        }
    }
    Ok(moves)
}

/// A legal replay's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replayed {
    pub pushes: u32,
    pub moves: u32,
    /// Every box ends on a goal.
    pub solved: bool,
}

/// The first move that breaks a rule (0-based) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    pub step: usize,
    pub why: String,
}

/// Plays `moves` from `position`: a walk must not meet a wall or a box, a push must
/// move a box onto a free cell.
pub fn replay(position: &Position, moves: &[Move]) -> Result<Replayed, ReplayError> {
    replay_with(position, moves, |_, _| {})
}

/// Where the player and each box stand: boxes in the order of [`Position::boxes`],
/// each keeping its index as it moves (so a picture or a preview can follow it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub player: usize,
    pub boxes: Vec<usize>,
}

/// The start, then the position after each move, of a legal replay of `moves`.
pub fn frames(position: &Position, moves: &[Move]) -> Result<Vec<Frame>, ReplayError> {
    let mut frame = Frame {
        player: position.player,
        boxes: position.boxes.clone(),
    };
    let mut frames = Vec::with_capacity(moves.len() + 1);
    frames.push(frame.clone());
    replay_with(position, moves, |player, pushed| {
        frame.player = player;
        if let Some((index, to)) = pushed {
            frame.boxes[index] = to;
        }
        frames.push(frame.clone());
    })?;
    Ok(frames)
}

/// [`replay`], the one set of rules, telling `moved(player, pushed)` after each legal
/// move where the player stands and, for a push, the index of the box pushed (in
/// [`Position::boxes`]) and the cell it went to (what the previews and pictures draw).
pub fn replay_with(
    position: &Position,
    moves: &[Move],
    mut moved: impl FnMut(usize, Option<(usize, usize)>),
) -> Result<Replayed, ReplayError> {
    // Each cell's box, by its index in `position.boxes`.
    let mut box_at: Vec<Option<usize>> = vec![None; position.walls.len()];
    for (index, &cell) in position.boxes.iter().enumerate() {
        box_at[cell] = Some(index);
    }
    let mut player = position.player;
    let mut pushes = 0u32;
    for (step, mv) in moves.iter().enumerate() {
        let fail = |why: &str| ReplayError {
            step,
            why: why.to_string(),
        };
        let Some(next) = position.open_step(player, mv.direction) else {
            return Err(fail("walks into a wall"));
        };
        let pushed = match (box_at[next], mv.push) {
            (None, true) => return Err(fail("is written as a push but there is no box to push")),
            (Some(_), false) => {
                return Err(fail("meets a box: a push is written in upper case"));
            }
            (Some(index), true) => {
                let Some(beyond) = position
                    .open_step(next, mv.direction)
                    .filter(|&beyond| box_at[beyond].is_none())
                else {
                    return Err(fail("pushes a box into a wall or another box"));
                };
                box_at[next] = None;
                box_at[beyond] = Some(index);
                pushes += 1;
                Some((index, beyond))
            }
            (None, false) => None,
        };
        player = next;
        moved(player, pushed);
    }
    let solved = (0..box_at.len()).all(|cell| box_at[cell].is_none() || position.goals[cell]);
    Ok(Replayed {
        pushes,
        moves: u32::try_from(moves.len()).unwrap_or(u32::MAX),
        solved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse;

    #[test]
    fn counts_expand_and_ranges_point_at_the_token() {
        let text = "3rU l";
        let moves = parse_lurd(text, std::slice::from_ref(&(0..5))).unwrap();
        assert_eq!(moves.len(), 5);
        assert_eq!(moves[0].range, 0..2);
        assert!(moves[3].push && moves[3].direction == 0);
        assert_eq!(parse_lurd("rrx", std::slice::from_ref(&(0..3))), Err(2..3));
        assert_eq!(parse_lurd("rr3", std::slice::from_ref(&(0..3))), Err(2..3));
    }

    #[test]
    fn replay_follows_the_rules() {
        let file = parse("######\n#@$ .#\n######\n");
        let position = file.levels[0].board.position().unwrap();
        let play = |moves: &str| {
            replay(
                &position,
                &parse_lurd(moves, std::slice::from_ref(&(0..moves.len()))).unwrap(),
            )
        };
        assert_eq!(
            play("RR"),
            Ok(Replayed {
                pushes: 2,
                moves: 2,
                solved: true
            })
        );
        assert_eq!(play("r").unwrap_err().step, 0);
        assert_eq!(play("RRR").unwrap_err().step, 2);
        assert_eq!(play("U").unwrap_err().why, "walks into a wall");
        let moves = parse_lurd("RR", std::slice::from_ref(&(0..2))).unwrap();
        let frames = frames(&position, &moves).unwrap();
        let at = |f: &Frame| (f.player, f.boxes.clone());
        assert_eq!(
            frames.iter().map(at).collect::<Vec<_>>(),
            [(7, vec![8]), (8, vec![9]), (9, vec![10])]
        );
        assert!(!play("R").unwrap().solved);
    }
}
