//! Metrics of a move string: pushes, moves, box lines, box turns and walk segments.

use std::fmt;

/// What a solution's shape says about a maze.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Metrics {
    pub pushes: u64,
    pub moves: u64,
    /// Runs of consecutive pushes in one direction (a walk or a turn ends a line).
    pub box_lines: u64,
    /// Successive pushes in different directions (walks between them ignored).
    pub box_turns: u64,
    /// Runs of consecutive walks: the walk to the box and each one between pushes.
    pub walk_segments: u64,
}

/// The metrics of a move string of `nsew` walks and `NSEW` pushes (other bytes are
/// counted as walks: callers pass replayed solutions).
pub fn metrics(moves: &str) -> Metrics {
    let mut out = Metrics::default();
    let mut previous: Option<u8> = None;
    let mut last_push: Option<u8> = None;
    for letter in moves.bytes() {
        out.moves += 1;
        if letter.is_ascii_uppercase() {
            out.pushes += 1;
            if previous != Some(letter) {
                out.box_lines += 1;
            }
            if last_push.is_some_and(|last| last != letter) {
                out.box_turns += 1;
            }
            last_push = Some(letter);
        } else if previous.is_none_or(|p| p.is_ascii_uppercase()) {
            out.walk_segments += 1;
        }
        previous = Some(letter);
    }
    out
}

impl fmt::Display for Metrics {
    /// `6 pushes · 28 moves · 4 box lines · 3 box turns · 4 walk segments`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "{} · {} · {} · {} · {}",
            counted(self.pushes, "push", "pushes"),
            counted(self.moves, "move", "moves"),
            counted(self.box_lines, "box line", "box lines"),
            counted(self.box_turns, "box turn", "box turns"),
            counted(self.walk_segments, "walk segment", "walk segments"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_turns_and_walk_segments() {
        // The classic sample's maze #3.
        let m = metrics("eennwwWWWWeeeeeesswwwwwwwnNN");
        assert_eq!(
            (m.pushes, m.moves, m.box_lines, m.box_turns, m.walk_segments),
            (6, 28, 2, 1, 2)
        );
        // A walk between two pushes in one direction ends the line but is no turn.
        let m = metrics("EnsEWsN");
        assert_eq!((m.box_lines, m.box_turns, m.walk_segments), (4, 2, 2));
        assert_eq!(metrics(""), Metrics::default());
        assert_eq!(
            metrics("nE").to_string(),
            "1 push · 2 moves · 1 box line · 0 box turns · 1 walk segment"
        );
    }
}
