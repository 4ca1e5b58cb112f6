//! Hover: the IDE layer's text, as markdown or plain text as the client prefers.

use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use super::view::View;
use crate::ide::{self, HoverFormat};

pub fn hover(view: &View, offset: usize) -> Option<Hover> {
    let format = view.support.hover_format;
    let (text, range) = match view.levels() {
        Some(levels) => ide::level_hover(&levels, offset, format)?,
        None => ide::hover(&view.file(), offset, format)?,
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: match format {
                HoverFormat::Markdown => MarkupKind::Markdown,
                HoverFormat::PlainText => MarkupKind::PlainText,
            },
            value: text,
        }),
        range: range.map(|range| view.range(range)),
    })
}
