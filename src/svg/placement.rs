//! Where the pieces' markers go when they are drawn bigger than a cell (a fine board):
//! each marker is a disc one piece wide, and no two may overlap, so a marker that
//! would cover another is moved aside from its cell (which stays marked by a pin).

/// A point or an offset, in pixels.
pub type Point = (f64, f64);

/// The offsets of the target's, the box's and the player's markers from their cells'
/// centres (`anchors`, in that order), for markers `size` pixels wide.
///
/// The target stays on its cell, the box moves aside only from the target (never when
/// it stands on it: that overlap is the goal), the player from both. A moved marker
/// goes straight away from the marker it would cover, or turned by 45° steps until it
/// is clear, one piece width further each round if need be.
pub fn offsets(anchors: [Point; 3], size: f64) -> [Point; 3] {
    let [target, boxed, player] = anchors;
    let mut placed: Vec<Point> = vec![target];
    let box_at = if same(boxed, target) {
        boxed
    } else {
        clear_spot(boxed, &placed, size)
    };
    placed.push(box_at);
    let player_at = clear_spot(player, &placed, size);
    [
        (0.0, 0.0),
        (box_at.0 - boxed.0, box_at.1 - boxed.1),
        (player_at.0 - player.0, player_at.1 - player.1),
    ]
}

/// The anchor itself if no placed marker is within `size` of it, else the nearest
/// clear spot found round it.
fn clear_spot(anchor: Point, placed: &[Point], size: f64) -> Point {
    let clear = |p: Point| placed.iter().all(|&q| distance(p, q) >= size - 1e-9);
    if clear(anchor) {
        return anchor;
    }
    // Away from the marker in the way (or up, when exactly on it).
    let blocker = placed
        .iter()
        .copied()
        .min_by(|&a, &b| distance(anchor, a).total_cmp(&distance(anchor, b)))
        .unwrap_or(anchor);
    let away = (anchor.0 - blocker.0, anchor.1 - blocker.1);
    let angle = if distance(away, (0.0, 0.0)) < 1e-9 {
        -std::f64::consts::FRAC_PI_2
    } else {
        away.1.atan2(away.0)
    };
    for round in 1..=8 {
        let reach = size * round as f64;
        for turn in [0, 1, -1, 2, -2, 3, -3, 4] {
            let a = angle + f64::from(turn) * std::f64::consts::FRAC_PI_4;
            let spot = (blocker.0 + reach * a.cos(), blocker.1 + reach * a.sin());
            if clear(spot) {
                return spot;
            }
        }
    }
    // Two markers at most are in the way, so the rounds above always find a spot.
    (blocker.0, blocker.1 - 3.0 * size)
}

fn same(a: Point, b: Point) -> bool {
    distance(a, b) < 1e-9
}

fn distance(a: Point, b: Point) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markers(anchors: [Point; 3], size: f64) -> Vec<Point> {
        anchors
            .iter()
            .zip(offsets(anchors, size))
            .map(|(a, o)| (a.0 + o.0, a.1 + o.1))
            .collect()
    }

    #[test]
    fn pieces_far_apart_stay_on_their_cells() {
        let anchors = [(0.0, 0.0), (50.0, 0.0), (0.0, 50.0)];
        assert_eq!(offsets(anchors, 16.0), [(0.0, 0.0); 3]);
    }

    #[test]
    fn crowded_pieces_move_apart_and_never_overlap() {
        // Player, box and target on three neighbouring one-pixel cells, and other crowds.
        for anchors in [
            [(3.0, 0.0), (1.0, 0.0), (0.0, 0.0)],
            [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)],
            [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0)],
            [(5.0, 5.0), (5.0, 5.0), (5.0, 6.0)],
        ] {
            let m = markers(anchors, 16.0);
            let box_on_target = same(anchors[0], anchors[1]);
            for i in 0..3 {
                for j in i + 1..3 {
                    if (i, j) == (0, 1) && box_on_target {
                        continue;
                    }
                    assert!(distance(m[i], m[j]) >= 16.0 - 1e-6, "{anchors:?} → {m:?}");
                }
            }
            // Moved only as far as needed: within two piece widths of the cell.
            for (a, p) in anchors.iter().zip(&m) {
                assert!(distance(*a, *p) <= 2.0 * 16.0 + 1.0, "{anchors:?} → {m:?}");
            }
        }
    }
}
