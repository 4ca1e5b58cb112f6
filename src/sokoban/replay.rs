//! Replaying a LURD string on a puzzle, independently of the search: the check every
//! produced solution passes.

use super::Puzzle;

/// `Ok((pushes, moves, solved))`, or `Err(index)` of the first character that is not a
/// LURD letter or not a legal step.
pub fn replay(puzzle: &Puzzle, lurd: &str) -> Result<(u32, u32, bool), usize> {
    let cells = puzzle.width * puzzle.height;
    let mut boxes = vec![false; cells];
    for &b in &puzzle.boxes {
        if let Some(slot) = boxes.get_mut(b) {
            *slot = true;
        }
    }
    let open = |cell: Option<usize>, boxes: &[bool]| -> Option<usize> {
        let cell = cell?;
        (cell < cells && !puzzle.walls.get(cell).copied().unwrap_or(true) && !boxes[cell])
            .then_some(cell)
    };
    let mut player = puzzle.player;
    let (mut pushes, mut moves) = (0u32, 0u32);
    for (index, letter) in lurd.chars().enumerate() {
        let (dr, dc): (isize, isize) = match letter.to_ascii_lowercase() {
            'u' => (-1, 0),
            'd' => (1, 0),
            'l' => (0, -1),
            'r' => (0, 1),
            _ => return Err(index),
        };
        let step = |cell: usize| -> Option<usize> {
            let row = (cell / puzzle.width) as isize + dr;
            let col = (cell % puzzle.width) as isize + dc;
            let inside = row >= 0
                && col >= 0
                && (row as usize) < puzzle.height
                && (col as usize) < puzzle.width;
            inside.then(|| row as usize * puzzle.width + col as usize)
        };
        let to = step(player).ok_or(index)?;
        if letter.is_ascii_uppercase() {
            if !boxes[to] {
                return Err(index);
            }
            let beyond = open(step(to), &boxes).ok_or(index)?;
            boxes[to] = false;
            boxes[beyond] = true;
            pushes += 1;
        } else if open(Some(to), &boxes).is_none() {
            return Err(index);
        }
        player = to;
        moves += 1;
    }
    let solved =
        (0..cells).all(|cell| !boxes[cell] || puzzle.goals.get(cell).copied().unwrap_or(false));
    Ok((pushes, moves, solved))
}
