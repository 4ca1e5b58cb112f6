//! The text under the board: progress bar, headline, note or moves, and the legend.

use super::motion::Clock;
use super::{
    Caption, Escaped, Fixed, Key, Layout, MoveSpans, Svg, CAPTION_PX, GRID_LINE, INK, LEGEND_PX,
    LINE_GAP, MARGIN, MOVES_PX, MUTED, PLAYER, TRAIL, WARNING,
};

impl Svg {
    /// Progress bar (animations), headline, note or moves, legend.
    pub(super) fn caption(&mut self, caption: &Caption, layout: &Layout, clock: Option<&Clock>) {
        let left = MARGIN;
        let mut y = layout.below_board;
        if let Some(clock) = clock {
            self.progress_bar(layout, y, clock);
            y += 14.0;
        }
        y += CAPTION_PX;
        let headline_colour = if caption.note.is_some() { WARNING } else { INK };
        self.put(format_args!(
            "<text id=\"headline\" x=\"{}\" y=\"{}\" font-size=\"{CAPTION_PX}\" font-weight=\"600\" \
             style=\"fill:{headline_colour}\">{}</text>\n",
            Fixed(left),
            Fixed(y),
            Escaped(&caption.headline)
        ));
        if let Some(note) = &caption.note {
            y += CAPTION_PX + LINE_GAP;
            self.put(format_args!(
                "<text id=\"note\" x=\"{}\" y=\"{}\" font-size=\"{CAPTION_PX}\">{}</text>\n",
                Fixed(left),
                Fixed(y),
                Escaped(note)
            ));
        }
        if let Some(moves) = &caption.moves {
            y += CAPTION_PX + LINE_GAP;
            let room = ((layout.width - 2.0 * MARGIN) / (MOVES_PX * 0.61)) as usize;
            self.put(format_args!(
                "<text id=\"moves\" class=\"moves\" x=\"{}\" y=\"{}\" font-size=\"{MOVES_PX}\">{}</text>\n",
                Fixed(left),
                Fixed(y),
                MoveSpans(moves, room)
            ));
        }
        for row in &layout.legend_rows {
            y += LEGEND_PX + LINE_GAP + 2.0;
            let mut x = left;
            for &(key, width) in row {
                self.legend_item(key, x, y);
                x += width;
            }
        }
    }

    fn progress_bar(&mut self, layout: &Layout, y: f64, clock: &Clock) {
        let (x, w) = (layout.board_x, layout.board_w);
        // The bar fills at the pace of the moves: pinned at 0 and at full width
        // while the picture holds still, linear in between.
        let (first, last) = clock.span();
        self.put(format_args!(
            "<g id=\"progress\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"4\" rx=\"2\" fill=\"{GRID_LINE}\"/>\
             <rect x=\"{x}\" y=\"{y}\" width=\"0\" height=\"4\" rx=\"2\" fill=\"{TRAIL}\">\
             <animate attributeName=\"width\" dur=\"{dur}s\" repeatCount=\"indefinite\" calcMode=\"linear\" \
             keyTimes=\"0;{first};{last};1\" values=\"0;0;{w};{w}\"/></rect></g>\n",
            first = Fixed(first),
            last = Fixed(last),
            x = Fixed(x),
            y = Fixed(y),
            w = Fixed(w),
            dur = Fixed(clock.duration()),
        ));
    }

    fn legend_item(&mut self, key: Key, x: f64, baseline: f64) {
        let size = LEGEND_PX;
        let (cx, cy) = (x + size / 2.0, baseline - size * 0.36);
        let swatch = match key {
            Key::Rock => format!(
                "<rect class=\"rock\" x=\"{}\" y=\"{}\" width=\"{size}\" height=\"{size}\" rx=\"2\"/>",
                Fixed(x),
                Fixed(cy - size / 2.0)
            ),
            Key::Dead => format!(
                "<g transform=\"translate({} {}) scale({size})\"><rect width=\"1\" height=\"1\" \
                 fill=\"url(#dead-hatch)\"/></g>",
                Fixed(x),
                Fixed(cy - size / 2.0)
            ),
            Key::Target | Key::Goal | Key::Box | Key::Player => {
                let name = match key {
                    Key::Target | Key::Goal => "target",
                    Key::Box => "box",
                    _ => "player",
                };
                format!(
                    "<use href=\"#{name}-shape\" xlink:href=\"#{name}-shape\" \
                     transform=\"translate({} {}) scale({})\"/>",
                    Fixed(cx),
                    Fixed(cy),
                    Fixed(size * 1.25)
                )
            }
            Key::Walk => format!(
                "<path d=\"M{} {}h{size}\" stroke=\"{PLAYER}\" stroke-opacity=\"0.7\" stroke-width=\"1.5\" \
                 stroke-dasharray=\"2.5 2\"/>",
                Fixed(x),
                Fixed(cy)
            ),
            Key::Trail | Key::TrailWithArrows => format!(
                "<path class=\"trail\" stroke-width=\"3\" d=\"M{} {}h{size}\"/>",
                Fixed(x),
                Fixed(cy)
            ),
        };
        self.put(format_args!(
            "<g class=\"legend\">{swatch}<text x=\"{}\" y=\"{}\" font-size=\"{size}\" style=\"fill:{MUTED}\">{}</text></g>\n",
            Fixed(x + size + 6.0),
            Fixed(baseline),
            key.label()
        ));
    }
}
