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

/// [`replay`], telling `visit` after each legal move where the player stands and,
/// for a push, the box's cell before and after it (what the previews draw).
pub fn replay_with(
    position: &Position,
    moves: &[Move],
    mut visit: impl FnMut(usize, Option<(usize, usize)>),
) -> Result<Replayed, ReplayError> {
    let mut boxes = vec![false; position.walls.len()];
    for &cell in &position.boxes {
        boxes[cell] = true;
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
        match (boxes[next], mv.push) {
            (false, true) => return Err(fail("is written as a push but there is no box to push")),
            (true, false) => {
                return Err(fail("meets a box: a push is written in upper case"));
            }
            (true, true) => {
                let Some(beyond) = position
                    .open_step(next, mv.direction)
                    .filter(|&beyond| !boxes[beyond])
                else {
                    return Err(fail("pushes a box into a wall or another box"));
                };
                boxes[next] = false;
                boxes[beyond] = true;
                pushes += 1;
                visit(next, Some((next, beyond)));
            }
            (false, false) => visit(next, None),
        }
        player = next;
    }
    let solved = (0..boxes.len()).all(|cell| !boxes[cell] || position.goals[cell]);
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
        assert!(!play("R").unwrap().solved);
    }
}
