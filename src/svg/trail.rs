//! Each box's trail with one arrow per push, and the player's walk; growing as the
//! solution plays.

use std::fmt::Write as _;

use super::motion::{keyframes, Clock};
use super::scene::Scene;
use super::{centre, Fixed, Layout, Svg, ARROW, PLAYER};
use crate::level::Frame;

impl Svg {
    /// The player's walk, then each box's trail that moves (still inside the board
    /// group), one arrow per push. A `.box` maze's one box names its trail `trail`;
    /// a level's boxes `trail-1`, `trail-2`… in the order of the level's boxes.
    pub(super) fn trails(
        &mut self,
        scene: &Scene,
        frames: &[Frame],
        layout: &Layout,
        clock: Option<&Clock>,
    ) {
        if clock.is_none() {
            self.walk(scene, frames, layout);
        }
        for index in 0..scene.start.boxes.len() {
            self.trail(scene, frames, index, layout, clock);
        }
    }

    /// Box `index`'s trail: a level's boxes that never move have none.
    fn trail(
        &mut self,
        scene: &Scene,
        frames: &[Frame],
        index: usize,
        layout: &Layout,
        clock: Option<&Clock>,
    ) {
        let cells = box_cells(frames, index);
        let suffix = if scene.is_single() {
            String::new()
        } else if cells.len() < 2 {
            return;
        } else {
            format!("-{}", index + 1)
        };
        let points = cells.iter().map(|&cell| centre(scene, cell)).fold(
            String::new(),
            |mut points, (x, y)| {
                if !points.is_empty() {
                    points.push(' ');
                }
                let _ = write!(points, "{},{}", Fixed(x), Fixed(y));
                points
            },
        );
        let width = (0.2_f64).max(2.5 / layout.cell);
        let faded = if clock.is_some() {
            " stroke-opacity=\"0.3\""
        } else {
            ""
        };
        self.put(format_args!(
            "<polyline id=\"trail{suffix}\" class=\"trail\" stroke-width=\"{}\"{faded} points=\"{points}\"/>\n",
            Fixed(width)
        ));
        if layout.detailed() && cells.len() > 1 {
            self.put(format_args!(
                "<path id=\"pushes{suffix}\" fill=\"{ARROW}\" d=\"{}\"/>\n",
                arrows(scene, &cells)
            ));
        }
        if let Some(clock) = clock {
            self.growing_trail(frames, index, &points, &suffix, width, clock);
        }
    }

    /// The player's route, thin and dotted, through the cells where it turns.
    fn walk(&mut self, scene: &Scene, frames: &[Frame], layout: &Layout) {
        let cells: Vec<usize> = frames.iter().map(|frame| frame.player).collect();
        let mut points = String::new();
        for (index, &cell) in cells.iter().enumerate() {
            let turns = index == 0
                || index == cells.len() - 1
                || cell.wrapping_sub(cells[index - 1]) != cells[index + 1].wrapping_sub(cell);
            if turns {
                let (x, y) = centre(scene, cell);
                let _ = write!(
                    points,
                    "{}{},{}",
                    if index == 0 { "" } else { " " },
                    Fixed(x),
                    Fixed(y)
                );
            }
        }
        self.put(format_args!(
            "<polyline id=\"walk\" fill=\"none\" stroke=\"{PLAYER}\" stroke-opacity=\"0.7\" \
             stroke-width=\"{}\" stroke-dasharray=\"0.1 0.12\" stroke-linecap=\"round\" points=\"{points}\"/>\n",
            Fixed((0.06_f64).max(1.0 / layout.cell))
        ));
    }

    /// The trail drawn again on top, revealed push by push as the box moves.
    fn growing_trail(
        &mut self,
        frames: &[Frame],
        index: usize,
        points: &str,
        suffix: &str,
        width: f64,
        clock: &Clock,
    ) {
        let pushes: Vec<u64> = frames
            .iter()
            .scan((0u64, None), |(count, last), frame| {
                let cell = frame.boxes[index];
                if last.is_some_and(|last| last != cell) {
                    *count += 1;
                }
                *last = Some(cell);
                Some(*count)
            })
            .collect();
        let total = pushes.last().copied().unwrap_or(0);
        if total == 0 {
            return;
        }
        let (times, values) = keyframes(
            clock,
            &pushes,
            |a, b| b - a,
            |done| (total - done).to_string(),
        );
        self.put(format_args!(
            "<polyline id=\"trail-progress{suffix}\" class=\"trail\" stroke-width=\"{}\" pathLength=\"{total}\" \
             stroke-dasharray=\"{total} {gap}\" stroke-dashoffset=\"{total}\" points=\"{points}\">\
             <animate attributeName=\"stroke-dashoffset\" dur=\"{dur}s\" repeatCount=\"indefinite\" \
             calcMode=\"linear\" keyTimes=\"{times}\" values=\"{values}\"/></polyline>\n",
            Fixed(width),
            gap = total + 1,
            dur = Fixed(clock.duration()),
        ));
    }
}

/// Box `index`'s cell at the start and after each of its pushes (equal consecutive
/// frames merged).
fn box_cells(frames: &[Frame], index: usize) -> Vec<usize> {
    let mut cells: Vec<usize> = frames.iter().map(|frame| frame.boxes[index]).collect();
    cells.dedup();
    cells
}

/// One arrowhead per push, on the edge the box crosses, pointing the way it goes.
fn arrows(scene: &Scene, cells: &[usize]) -> String {
    let mut d = String::new();
    for pair in cells.windows(2) {
        let ((x0, y0), (x1, y1)) = (centre(scene, pair[0]), centre(scene, pair[1]));
        let (dx, dy) = (x1 - x0, y1 - y0);
        let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        // Tip ahead of the edge, two corners behind it on either side.
        let tip = (mx + 0.2 * dx, my + 0.2 * dy);
        let left = (mx - 0.12 * dx - 0.2 * dy, my - 0.12 * dy + 0.2 * dx);
        let right = (mx - 0.12 * dx + 0.2 * dy, my - 0.12 * dy - 0.2 * dx);
        let _ = write!(
            d,
            "M{} {}L{} {}L{} {}z",
            Fixed(tip.0),
            Fixed(tip.1),
            Fixed(left.0),
            Fixed(left.1),
            Fixed(right.0),
            Fixed(right.1)
        );
    }
    d
}
