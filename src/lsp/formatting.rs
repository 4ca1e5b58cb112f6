//! `textDocument/formatting`: the core's formatter (the rules of `boxls fmt`) as LSP
//! text edits.

use tower_lsp_server::ls_types::TextEdit as LspTextEdit;

use super::view::View;
use crate::maze::format_edit;

/// The edits that format the document; none when it is formatted already.
pub fn formatting(view: &View) -> Vec<LspTextEdit> {
    format_edit(&view.text)
        .map(|edit| LspTextEdit {
            range: view.range(edit.range),
            new_text: edit.new_text,
        })
        .into_iter()
        .collect()
}
