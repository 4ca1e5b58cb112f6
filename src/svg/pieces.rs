//! Target, box and player, kept legible on fine boards and moved frame by frame when animated.

use super::motion::{keyframes, Clock};
use super::placement::{self, Point};
use super::{Fixed, Layout, Piece, Story, Svg, Track, FLOOR};
use crate::maze::Grid;
use crate::solver::Frame;

impl Svg {
    /// Target, box and player, in pixels so that they keep a legible size. On a fine
    /// board they are bigger than a cell, so markers that would cover each other are
    /// moved aside from their cells (each cell keeps a pin), frame by frame when animated.
    pub(super) fn pieces(
        &mut self,
        grid: &Grid,
        story: &Story,
        layout: &Layout,
        clock: Option<&Clock>,
    ) {
        let frames = match (story, clock) {
            (Story::Solved { frames, .. }, Some(clock)) => Some((frames, clock)),
            _ => None,
        };
        let size = layout.piece_px();
        let place = |boxed: usize, player: usize| {
            if layout.piece > 1.0 {
                let px = |cell| layout.centre_px(grid, cell);
                placement::offsets([px(grid.target), px(boxed), px(player)], size)
            } else {
                [(0.0, 0.0); 3]
            }
        };
        let still = place(grid.boxed, grid.player);
        let moving: Option<Vec<[Point; 3]>> =
            frames.map(|(frames, _)| frames.iter().map(|f| place(f.boxed, f.player)).collect());
        let track = |pick: fn(&Frame) -> usize, piece: usize| {
            frames.map(|(frames, clock)| Track {
                cells: frames.iter().map(pick).collect(),
                offsets: moving
                    .as_ref()
                    .map(|all| all.iter().map(|o| o[piece]).collect())
                    .unwrap_or_default(),
                clock: *clock,
            })
        };
        self.piece(grid, layout, Piece::TARGET, grid.target, still[0], None);
        self.piece(
            grid,
            layout,
            Piece::BOX,
            grid.boxed,
            still[1],
            track(|f| f.boxed, 1),
        );
        self.piece(
            grid,
            layout,
            Piece::PLAYER,
            grid.player,
            still[2],
            track(|f| f.player, 2),
        );
    }

    /// One piece at `cell`, its marker `offset` from it; with `track`, it moves through
    /// those cells (and its marker through those offsets) on that clock.
    fn piece(
        &mut self,
        grid: &Grid,
        layout: &Layout,
        piece: Piece,
        cell: usize,
        offset: Point,
        track: Option<Track>,
    ) {
        let name = piece.name;
        let (x, y) = layout.centre_px(grid, cell);
        self.put(format_args!(
            "<g id=\"{name}\" transform=\"translate({} {})\">",
            Fixed(x),
            Fixed(y)
        ));
        if let Some(track) = &track {
            let (times, values) = keyframes(
                &track.clock,
                &track.cells,
                |a, b| b as isize - a as isize,
                |cell| {
                    let (x, y) = layout.centre_px(grid, cell);
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
