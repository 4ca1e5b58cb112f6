//! Inlay hints: the optimal counts (or why there are none) after each maze's header;
//! in a Sokoban document, each level's solve at the end of its first board row.

use tower_lsp_server::ls_types::{InlayHint, InlayHintLabel, Range};

use super::view::View;
use crate::ide;

pub fn inlay_hints(view: &View, visible: Range) -> Vec<InlayHint> {
    if !view.config.inlay_hints {
        return Vec::new();
    }
    let visible = view.byte_range(visible);
    if let Some(levels) = view.levels() {
        return ide::level_hints(&levels, &view.level_statuses)
            .into_iter()
            .filter(|(offset, _)| visible.contains(offset) || *offset == visible.end)
            .map(|(offset, label)| hint(view, offset, label))
            .collect();
    }
    view.file()
        .mazes()
        .filter(|(maze, _)| maze.header.end >= visible.start && maze.header.start <= visible.end)
        .filter_map(|(maze, status)| Some(hint(view, maze.header.end, ide::summary(status)?)))
        .collect()
}

fn hint(view: &View, offset: usize, label: String) -> InlayHint {
    InlayHint {
        position: view.position(offset),
        label: InlayHintLabel::String(label),
        kind: None,
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}
