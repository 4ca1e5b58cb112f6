//! The picture's frame and board: the `<svg>` element with its title and styles, rock or
//! floor, grid lines and dead squares (an XSB level's void left as paper).

use super::scene::Scene;
use super::shapes::{blocks, path_data};
use super::{
    Caption, Escaped, Fixed, Layout, Svg, BOX_EDGE, BOX_FILL, DEAD, DEAD_HATCH, FLOOR, GRID_LINE,
    INK, MARGIN, MUTED, PAPER, PLAYER, ROCK, TARGET, TRAIL,
};

impl Svg {
    pub(super) fn open(&mut self, layout: &Layout, caption: &Caption) {
        let title = match &caption.note {
            Some(note) => format!("{} — {}", caption.headline, note),
            None => caption.headline.clone(),
        };
        self.put(format_args!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
             width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\">\n\
             <title>{t}</title>\n",
            w = Fixed(layout.width),
            h = Fixed(layout.height),
            t = Escaped(&title),
        ));
        self.put(format_args!(
            "<style>\
             text{{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;fill:{INK}}}\
             .rock{{fill:{ROCK}}}\
             .trail{{fill:none;stroke:{TRAIL};stroke-linecap:round;stroke-linejoin:round}}\
             .moves{{font-family:ui-monospace,'SFMono-Regular','DejaVu Sans Mono',Menlo,Consolas,monospace;fill:{MUTED}}}\
             .push{{fill:{TRAIL};font-weight:700}}\
             </style>\n"
        ));
        self.put(format_args!(
            "<defs>\n\
             <pattern id=\"floor-grid\" width=\"1\" height=\"1\" patternUnits=\"userSpaceOnUse\">\
             <rect width=\"1\" height=\"1\" fill=\"{FLOOR}\"/>\
             <path d=\"M1 0V1H0\" fill=\"none\" stroke=\"{GRID_LINE}\" stroke-width=\"0.05\"/></pattern>\n\
             <pattern id=\"dead-hatch\" width=\"0.35\" height=\"0.35\" patternUnits=\"userSpaceOnUse\" \
             patternTransform=\"rotate(45)\"><rect width=\"0.35\" height=\"0.35\" fill=\"{DEAD}\"/>\
             <rect width=\"0.1\" height=\"0.35\" fill=\"{DEAD_HATCH}\"/></pattern>\n\
             <g id=\"target-shape\"><circle r=\"0.33\" fill=\"none\" stroke=\"{TARGET}\" stroke-width=\"0.09\"/>\
             <circle r=\"0.13\" fill=\"{TARGET}\"/></g>\n\
             <g id=\"box-shape\"><rect x=\"-0.37\" y=\"-0.37\" width=\"0.74\" height=\"0.74\" rx=\"0.08\" \
             fill=\"{BOX_FILL}\" stroke=\"{BOX_EDGE}\" stroke-width=\"0.07\"/>\
             <path d=\"M-0.2 -0.2L0.2 0.2M0.2 -0.2L-0.2 0.2\" stroke=\"{BOX_EDGE}\" stroke-width=\"0.07\" \
             stroke-linecap=\"round\"/></g>\n\
             <g id=\"player-shape\"><circle r=\"0.32\" fill=\"{PLAYER}\" stroke=\"{FLOOR}\" stroke-width=\"0.07\"/>\
             <circle cx=\"-0.1\" cy=\"-0.1\" r=\"0.09\" fill=\"{FLOOR}\" fill-opacity=\"0.55\"/></g>\n\
             </defs>\n\
             <rect width=\"100%\" height=\"100%\" rx=\"10\" fill=\"{PAPER}\"/>\n"
        ));
    }

    /// Floor, dead squares, rock: in cell units, opening the scaled group that the
    /// trail joins and [`render`] closes.
    pub(super) fn board(&mut self, scene: &Scene, layout: &Layout) {
        self.put(format_args!(
            "<g id=\"board\" transform=\"translate({} {}) scale({})\">\n",
            Fixed(layout.board_x),
            Fixed(MARGIN),
            Fixed(layout.cell)
        ));
        let floor_fill = if layout.detailed() {
            "url(#floor-grid)"
        } else {
            FLOOR
        };
        let dead_fill = if layout.detailed() {
            "url(#dead-hatch)"
        } else {
            DEAD
        };
        let (rows, cols) = (scene.rows, scene.cols);
        let rock = blocks(rows, cols, |cell| scene.walls[cell]);
        let floor = blocks(rows, cols, |cell| !scene.walls[cell] && !scene.void[cell]);
        if scene.void.contains(&true) {
            // Around a level: paper, so only floor and rock are painted.
            self.put(format_args!(
                "<path id=\"floor\" fill=\"{floor_fill}\" d=\"{}\"/>\n<path class=\"rock\" d=\"{}\"/>\n",
                path_data(&floor),
                path_data(&rock)
            ));
        } else if floor.len() < rock.len() {
            // Paint the kind with more rectangles as the background, the other on top.
            self.put(format_args!(
                "<rect class=\"rock\" width=\"{cols}\" height=\"{rows}\"/>\n<path id=\"floor\" fill=\"{floor_fill}\" d=\"{}\"/>\n",
                path_data(&floor)
            ));
        } else {
            self.put(format_args!(
                "<rect id=\"floor\" fill=\"{floor_fill}\" width=\"{cols}\" height=\"{rows}\"/>\n<path class=\"rock\" d=\"{}\"/>\n",
                path_data(&rock)
            ));
        }
        let dead_blocks = blocks(rows, cols, |cell| scene.dead.get(cell) == Some(&true));
        if !dead_blocks.is_empty() {
            self.put(format_args!(
                "<path id=\"dead\" fill=\"{dead_fill}\" d=\"{}\"/>\n",
                path_data(&dead_blocks)
            ));
        }
    }
}
