//! Static deadlocks at a position: rules that can only ever say "unsolvable" when it
//! is true (tested against an exhaustive search), never the other way.
//!
//! - a box on a **dead square**: no sequence of pushes of that box alone, with the
//!   player anywhere, brings it to any goal (a backward search of pulls from the
//!   goals; other boxes can only get in the way);
//! - **frozen boxes**: the largest set of boxes each of which, on both axes, has a
//!   wall or a box of the set beside it, or dead squares on both sides. No box of the
//!   set can be the first of the set to move (or it moves onto a dead square), so the
//!   set stays where it is; one of them off a goal is a deadlock;
//! - **unmatched boxes**: no assignment of the remaining boxes to distinct free goals
//!   over the goals each box could reach alone (Hall's condition fails for the set
//!   reported, found from a maximum matching).

use super::board::Position;
use crate::sokoban::Kuhn;

/// What [`find_deadlocks`] found; empty when the position may be solvable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deadlocks {
    /// Boxes (cells) on dead squares.
    pub dead: Vec<usize>,
    /// Groups of boxes frozen together, each with a box off its goal that is not
    /// already on a dead square.
    pub frozen: Vec<Vec<usize>>,
    /// A set of boxes that can reach fewer distinct goals than there are boxes in it.
    pub unmatched: Vec<usize>,
    /// How many goals that set can reach between them.
    pub unmatched_goals: usize,
}

impl Deadlocks {
    pub fn is_empty(&self) -> bool {
        self.dead.is_empty() && self.frozen.is_empty() && self.unmatched.is_empty()
    }
}

/// More goal-by-cell pairs than this and the matching is not tried (each goal's
/// reach is a search over the board).
const MATCHING_BUDGET: usize = 20_000_000;

/// For each cell: `true` when it is free and no goal can be reached from it by pushes.
pub fn dead_squares(position: &Position) -> Vec<bool> {
    let goals: Vec<usize> = (0..position.walls.len())
        .filter(|&cell| position.goals[cell] && !position.walls[cell])
        .collect();
    let live = pull_reach(position, &goals);
    (0..live.len())
        .map(|cell| !position.walls[cell] && !live[cell])
        .collect()
}

/// The cells from which a box can be pushed onto one of `goals` (the player and no
/// other box considered): a search of pulls back from the goals.
fn pull_reach(position: &Position, goals: &[usize]) -> Vec<bool> {
    let mut reach = vec![false; position.walls.len()];
    let mut stack = Vec::new();
    for &goal in goals {
        reach[goal] = true;
        stack.push(goal);
    }
    while let Some(cell) = stack.pop() {
        for direction in 0..4 {
            // The box came from `from`, pushed by the player standing beyond it.
            let Some(from) = position.open_step(cell, direction) else {
                continue;
            };
            if reach[from] || position.open_step(from, direction).is_none() {
                continue;
            }
            reach[from] = true;
            stack.push(from);
        }
    }
    reach
}

/// The static deadlocks of `position`.
pub fn find_deadlocks(position: &Position) -> Deadlocks {
    let dead = dead_squares(position);
    let mut found = Deadlocks {
        dead: position
            .boxes
            .iter()
            .copied()
            .filter(|&cell| dead[cell])
            .collect(),
        ..Deadlocks::default()
    };
    let frozen = frozen_set(position, &dead);
    found.frozen = frozen_groups(position, &frozen)
        .into_iter()
        .filter(|group| {
            group
                .iter()
                .any(|&cell| !position.goals[cell] && !dead[cell])
        })
        .collect();
    let excluded: Vec<bool> = {
        let mut excluded = vec![false; position.walls.len()];
        for &cell in found.dead.iter().chain(found.frozen.iter().flatten()) {
            excluded[cell] = true;
        }
        excluded
    };
    let movable: Vec<usize> = position
        .boxes
        .iter()
        .copied()
        .filter(|&cell| !excluded[cell] && !frozen[cell])
        .collect();
    let free_goals: Vec<usize> = (0..position.walls.len())
        .filter(|&cell| position.goals[cell] && !position.walls[cell] && !frozen[cell])
        .collect();
    if free_goals.len().saturating_mul(position.walls.len()) <= MATCHING_BUDGET {
        if let Some((boxes, goals)) = hall_violation(position, &movable, &free_goals) {
            found.unmatched = boxes;
            found.unmatched_goals = goals;
        }
    }
    found
}

/// `frozen[cell]`: a box there is in the largest self-blocking set (greatest fixed
/// point: start from every box, drop those with a free axis until none is dropped).
fn frozen_set(position: &Position, dead: &[bool]) -> Vec<bool> {
    let mut frozen = vec![false; position.walls.len()];
    for &cell in &position.boxes {
        frozen[cell] = true;
    }
    let blocked = |frozen: &[bool], cell: usize, axis: [usize; 2]| {
        let sides = axis.map(|direction| position.step(cell, direction));
        let stops = |side: Option<usize>| side.is_none_or(|s| position.walls[s] || frozen[s]);
        let dead_end = |side: Option<usize>| side.is_none_or(|s| dead[s]);
        stops(sides[0]) || stops(sides[1]) || (dead_end(sides[0]) && dead_end(sides[1]))
    };
    loop {
        let mut changed = false;
        for &cell in &position.boxes {
            if frozen[cell] && !(blocked(&frozen, cell, [0, 1]) && blocked(&frozen, cell, [2, 3])) {
                frozen[cell] = false;
                changed = true;
            }
        }
        if !changed {
            return frozen;
        }
    }
}

/// The frozen boxes in groups of neighbours, each sorted, in board order.
fn frozen_groups(position: &Position, frozen: &[bool]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; frozen.len()];
    let mut groups = Vec::new();
    let mut boxes = position.boxes.clone();
    boxes.sort_unstable();
    for &start in &boxes {
        if !frozen[start] || seen[start] {
            continue;
        }
        let mut group = Vec::new();
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(cell) = stack.pop() {
            group.push(cell);
            for direction in 0..4 {
                if let Some(next) = position.step(cell, direction) {
                    if frozen[next] && !seen[next] {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
        }
        group.sort_unstable();
        groups.push(group);
    }
    groups
}

/// A set of `boxes` whose reachable `goals` are fewer than its size, with how many
/// goals it reaches; `None` when every box can be given its own goal.
fn hall_violation(
    position: &Position,
    boxes: &[usize],
    goals: &[usize],
) -> Option<(Vec<usize>, usize)> {
    let reach: Vec<Vec<bool>> = goals
        .iter()
        .map(|&goal| pull_reach(position, &[goal]))
        .collect();
    let edges: Vec<Vec<usize>> = boxes
        .iter()
        .map(|&cell| (0..goals.len()).filter(|&g| reach[g][cell]).collect())
        .collect();
    let mut matching = Kuhn::default();
    matching.clear(goals.len());
    let goals_of = |b: usize| edges[b].iter().copied();
    let mut unmatched = Vec::new();
    for b in 0..boxes.len() {
        // A box left out when it is added stays out: the matching is maximum at the end.
        if !matching.add(b, &goals_of) {
            unmatched.push(b);
        }
    }
    if unmatched.is_empty() {
        return None;
    }
    // Boxes reachable from the unmatched ones by alternating paths: their goals are
    // all matched, to boxes of the set, so the set is larger than its goals.
    let mut in_set = vec![false; boxes.len()];
    let mut goal_seen = vec![false; goals.len()];
    let mut stack = unmatched.clone();
    for &b in &unmatched {
        in_set[b] = true;
    }
    while let Some(b) = stack.pop() {
        for &g in &edges[b] {
            if goal_seen[g] {
                continue;
            }
            goal_seen[g] = true;
            if let Some(owner) = matching.owner(g) {
                if !in_set[owner] {
                    in_set[owner] = true;
                    stack.push(owner);
                }
            }
        }
    }
    let mut set: Vec<usize> = (0..boxes.len())
        .filter(|&b| in_set[b])
        .map(|b| boxes[b])
        .collect();
    set.sort_unstable();
    Some((set, goal_seen.iter().filter(|&&seen| seen).count()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::parse;

    fn deadlocks(board: &str) -> Deadlocks {
        let file = parse(board);
        find_deadlocks(&file.levels[0].board.position().unwrap())
    }

    #[test]
    fn a_box_in_a_corner_is_dead_and_a_pair_on_a_wall_is_frozen() {
        let corner = deadlocks("#####\n#$ .#\n# @ #\n#####\n");
        assert_eq!(corner.dead, [6]);
        let pair = deadlocks("######\n#    #\n# $$ #\n#.. @#\n######\n");
        assert!(pair.is_empty());
        let pair = deadlocks("#######\n#.$$  #\n#.  @ #\n#######\n");
        assert_eq!(pair.frozen, [vec![9, 10]]);
        assert!(pair.dead.is_empty());
    }

    #[test]
    fn two_boxes_that_can_only_reach_one_goal_are_unmatched() {
        // Both boxes are stuck in the top row, whose one goal they would share.
        let found = deadlocks("#######\n#.$ $ #\n#@   .#\n#######\n");
        assert!(
            found.dead.is_empty() && found.frozen.is_empty(),
            "{found:?}"
        );
        assert_eq!((found.unmatched, found.unmatched_goals), (vec![9, 11], 1));
    }
}
