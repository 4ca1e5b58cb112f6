//! Inlay hints: the optimal counts (or why there are none) after each maze's header.

use tower_lsp_server::ls_types::{InlayHint, InlayHintLabel, Range};

use super::view::View;
use crate::ide;

pub fn inlay_hints(view: &View, visible: Range) -> Vec<InlayHint> {
    if !view.config.inlay_hints {
        return Vec::new();
    }
    let visible = view.byte_range(visible);
    view.file()
        .mazes()
        .filter(|(maze, _)| maze.header.end >= visible.start && maze.header.start <= visible.end)
        .filter_map(|(maze, status)| {
            Some(InlayHint {
                position: view.position(maze.header.end),
                label: InlayHintLabel::String(ide::summary(status)?),
                kind: None,
                text_edits: None,
                tooltip: None,
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
        })
        .collect()
}
