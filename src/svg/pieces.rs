//! Goals (a target), boxes and player, kept legible on fine boards and moved frame by frame when animated.

use super::motion::{keyframes, Clock};
use super::placement::{self, Point};
use super::scene::{Scene, Story};
use super::{Fixed, Layout, Piece, Svg, Track, FLOOR};
use crate::level::Frame;

impl Svg {
    /// Goals, boxes and player, in pixels so that they keep a legible size. On a fine
    /// board they are bigger than a cell; in a `.box` maze markers that would cover each
    /// other are moved aside from their cells (each cell keeps a pin), frame by frame
    /// when animated. A `.box` maze's pieces are `target`, `box` and `player`; a
    /// level's `goal-1`…, `box-1`… (in the level's order) and `player`.
    pub(super) fn pieces(&mut self, scene: &Scene, layout: &Layout, clock: Option<&Clock>) {
        let frames = match (&scene.story, clock) {
            (Story::Solved { frames, .. }, Some(clock)) => Some((frames, clock)),
            _ => None,
        };
        let place = |frame: &Frame| {
            if layout.piece > 1.0 && scene.is_single() {
                let px = |cell| layout.centre_px(scene, cell);
                placement::offsets(
                    [px(scene.goals[0]), px(frame.boxes[0]), px(frame.player)],
                    layout.piece_px(),
                )
            } else {
                [(0.0, 0.0); 3]
            }
        };
        let still = place(&scene.start);
        let moving: Option<Vec<[Point; 3]>> =
            frames.map(|(frames, _)| frames.iter().map(place).collect());
        let track = |pick: &dyn Fn(&Frame) -> usize, piece: usize| {
            frames.map(|(frames, clock)| Track {
                cells: frames.iter().map(pick).collect(),
                offsets: moving
                    .as_ref()
                    .map(|all| all.iter().map(|o| o[piece]).collect())
                    .unwrap_or_default(),
                clock: *clock,
            })
        };
        let name = |kind: &str, index: usize| {
            if scene.is_single() {
                kind.to_string()
            } else {
                format!("{kind}-{}", index + 1)
            }
        };
        let goal = if scene.is_single() { "target" } else { "goal" };
        for (index, &cell) in scene.goals.iter().enumerate() {
            self.piece(
                scene,
                layout,
                Piece::TARGET,
                &name(goal, index),
                (cell, still[0]),
                None,
            );
        }
        for (index, &cell) in scene.start.boxes.iter().enumerate() {
            let moves = track(&|frame: &Frame| frame.boxes[index], 1);
            self.piece(
                scene,
                layout,
                Piece::BOX,
                &name("box", index),
                (cell, still[1]),
                moves,
            );
        }
        let moves = track(&|frame: &Frame| frame.player, 2);
        let player = scene.start.player;
        self.piece(
            scene,
            layout,
            Piece::PLAYER,
            "player",
            (player, still[2]),
            moves,
        );
    }

    /// One piece at `cell`, its marker `offset` from it; with `track`, it moves through
    /// those cells (and its marker through those offsets) on that clock.
    fn piece(
        &mut self,
        scene: &Scene,
        layout: &Layout,
        piece: Piece,
        id: &str,
        (cell, offset): (usize, Point),
        track: Option<Track>,
    ) {
        let name = piece.name;
        let (x, y) = layout.centre_px(scene, cell);
        self.put(format_args!(
            "<g id=\"{id}\" transform=\"translate({} {})\">",
            Fixed(x),
            Fixed(y)
        ));
        if let Some(track) = &track {
            let (times, values) = keyframes(
                &track.clock,
                &track.cells,
                |a, b| b as isize - a as isize,
                |cell| {
                    let (x, y) = layout.centre_px(scene, cell);
                    format!("{} {}", Fixed(x), Fixed(y))
                },
            );
            self.translation(&times, &values, &track.clock);
        }
        let scale = layout.piece_px();
        if layout.piece > 1.0 {
            // The exact cell, under the marker: seen when the marker moves aside.
            let pin = layout.cell.max(3.0);
            self.put(format_args!(
                "<rect class=\"pin\" x=\"{p}\" y=\"{p}\" width=\"{w}\" height=\"{w}\" fill=\"{}\" \
                 stroke=\"{FLOOR}\" stroke-width=\"0.75\"/>",
                piece.colour,
                p = Fixed(-pin / 2.0),
                w = Fixed(pin),
            ));
        }
        self.put(format_args!(
            "<g class=\"marker\" transform=\"translate({} {})\">",
            Fixed(offset.0),
            Fixed(offset.1)
        ));
        if let Some(track) = track.filter(|t| t.offsets.iter().any(|o| *o != (0.0, 0.0))) {
            let (times, values) = keyframes(
                &track.clock,
                &track.offsets,
                |a, b| (b.0 - a.0, b.1 - a.1),
                |o| format!("{} {}", Fixed(o.0), Fixed(o.1)),
            );
            self.translation(&times, &values, &track.clock);
        }
        if layout.piece > 1.0 {
            // Enlarged over a fine board: a halo keeps the piece apart from the rock.
            self.put(format_args!(
                "<circle r=\"{}\" fill=\"{FLOOR}\" fill-opacity=\"0.85\"/>",
                Fixed(0.5 * scale)
            ));
        }
        self.put(format_args!(
            "<use href=\"#{name}-shape\" xlink:href=\"#{name}-shape\" transform=\"scale({})\"/></g></g>\n",
            Fixed(scale)
        ));
    }

    fn translation(&mut self, times: &str, values: &str, clock: &Clock) {
        self.put(format_args!(
            "<animateTransform attributeName=\"transform\" type=\"translate\" dur=\"{}s\" \
             repeatCount=\"indefinite\" calcMode=\"linear\" keyTimes=\"{times}\" values=\"{values}\"/>",
            Fixed(clock.duration())
        ));
    }
}
