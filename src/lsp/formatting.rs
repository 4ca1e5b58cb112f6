//! `textDocument/formatting`: the core's formatter (the rules of `boxls fmt`) as LSP
//! text edits.

use tower_lsp_server::ls_types::TextEdit as LspTextEdit;

use super::view::View;
use crate::level::{self, RunLength};
use crate::maze::format_edit;

/// The edits that format the document (canonical XSB for a Sokoban document, its
/// run-length rows kept as written); none when it is formatted already.
pub fn formatting(view: &View) -> Vec<LspTextEdit> {
    let edit = match view.levels {
        Some(_) => level::format_edit(&view.text, RunLength::Keep),
        None => format_edit(&view.text),
    };
    edit.map(|edit| LspTextEdit {
        range: view.range(edit.range),
        new_text: edit.new_text,
    })
    .into_iter()
    .collect()
}
