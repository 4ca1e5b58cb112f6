//! `workspace/executeCommand`: the command and action-kind names, their arguments
//! parsed into a [`Command`], and the edits they apply. A command that carries an edit
//! is checked first: only text edits to documents the server has open are relayed.

use std::collections::HashMap;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    DocumentChangeOperation, DocumentChanges, OneOf, TextEdit, Uri, WorkspaceEdit,
};

/// The code action kind of "Insert all optimal solutions".
pub const INSERT_ALL_KIND: &str = "source.boxls.insertAllSolutions";
/// Inserts one maze's solution; arguments: the document URI and the maze index.
pub const INSERT_COMMAND: &str = "boxls.insertSolution";
/// Inserts every maze's solution; argument: the document URI.
pub const INSERT_ALL_COMMAND: &str = "boxls.insertAllSolutions";
/// Applies a `WorkspaceEdit` (the quick fixes, for clients that only run commands).
pub const APPLY_EDIT_COMMAND: &str = "boxls.applyEdit";
/// The code action kind of *Make Maze #k hardest* (both modes).
pub const HARDEST_KIND: &str = "refactor.rewrite.hardest";
/// Makes one maze hardest (clients without `codeAction/resolve`); argument: the
/// action's request object (see `hardest.rs`).
pub const MAKE_HARDEST_COMMAND: &str = "boxls.makeHardest";
pub const COMMANDS: [&str; 4] = [
    INSERT_COMMAND,
    INSERT_ALL_COMMAND,
    APPLY_EDIT_COMMAND,
    MAKE_HARDEST_COMMAND,
];

/// A command with its arguments read.
#[derive(Debug, PartialEq)]
pub enum Command {
    /// An edit boxls makes itself from its copy of the document.
    Write(Write),
    /// Relay an edit (not yet checked: see [`checked_edit`]).
    ApplyEdit(WorkspaceEdit),
    /// Make one maze hardest (its request object, read by `hardest.rs`).
    MakeHardest(Value),
}

/// The solution lines a command writes.
#[derive(Debug, PartialEq)]
pub enum Write {
    /// Maze `index`'s solution line.
    Insert { uri: Uri, index: usize },
    /// Every maze's.
    InsertAll { uri: Uri },
}

impl Write {
    /// The document written to.
    pub fn uri(&self) -> &Uri {
        match self {
            Write::Insert { uri, .. } | Write::InsertAll { uri } => uri,
        }
    }
}

impl Command {
    pub fn parse(command: &str, arguments: &[Value]) -> Result<Command> {
        let uri = |value: &Value| value.as_str().and_then(|uri| uri.parse::<Uri>().ok());
        match (command, arguments) {
            (INSERT_COMMAND, [document, index]) => {
                let index = index.as_u64().and_then(|i| usize::try_from(i).ok());
                match (uri(document), index) {
                    (Some(uri), Some(index)) => Ok(Command::Write(Write::Insert { uri, index })),
                    _ => Err(Error::invalid_params(
                        "expected arguments [uri, maze index]",
                    )),
                }
            }
            (INSERT_COMMAND, _) => Err(Error::invalid_params(
                "expected arguments [uri, maze index]",
            )),
            (INSERT_ALL_COMMAND, [document]) => uri(document)
                .map(|uri| Command::Write(Write::InsertAll { uri }))
                .ok_or_else(|| Error::invalid_params("expected arguments [uri]")),
            (INSERT_ALL_COMMAND, _) => Err(Error::invalid_params("expected arguments [uri]")),
            (APPLY_EDIT_COMMAND, [edit]) => serde_json::from_value(edit.clone())
                .map(Command::ApplyEdit)
                .map_err(|_| Error::invalid_params("expected a WorkspaceEdit")),
            (APPLY_EDIT_COMMAND, _) => Err(Error::invalid_params("expected a WorkspaceEdit")),
            (MAKE_HARDEST_COMMAND, [request]) => Ok(Command::MakeHardest(request.clone())),
            (MAKE_HARDEST_COMMAND, _) => Err(Error::invalid_params("expected one request object")),
            (other, _) => Err(Error::invalid_params(format!("unknown command `{other}`"))),
        }
    }
}

/// `edit` if it only changes the text of documents that `is_open` (at their current
/// version, where it names one): the edits boxls itself makes. Anything else —
/// another file, a document never opened, creating, renaming or deleting files,
/// annotations, an empty edit — is refused with `InvalidParams`.
pub fn checked_edit(
    edit: WorkspaceEdit,
    is_open: impl Fn(&Uri, Option<i32>) -> bool,
) -> Result<WorkspaceEdit> {
    let refuse = |why: &str| Err(Error::invalid_params(format!("boxls.applyEdit: {why}")));
    if edit.change_annotations.is_some() {
        return refuse("annotated edits are not accepted");
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (uri, edits) in edit.changes.into_iter().flatten() {
        changes.entry(uri).or_default().extend(edits);
    }
    let document_edits = match edit.document_changes {
        None => Vec::new(),
        Some(DocumentChanges::Edits(edits)) => edits,
        Some(DocumentChanges::Operations(operations)) => {
            let mut edits = Vec::new();
            for operation in operations {
                match operation {
                    DocumentChangeOperation::Edit(edit) => edits.push(edit),
                    DocumentChangeOperation::Op(_) => {
                        return refuse("creating, renaming or deleting files is not accepted")
                    }
                }
            }
            edits
        }
    };
    for document in document_edits {
        let uri = document.text_document.uri;
        if !is_open(&uri, document.text_document.version) {
            return refuse(&format!("{} is not open at that version", uri.as_str()));
        }
        let edits = document.edits.into_iter().map(|edit| match edit {
            OneOf::Left(edit) => Ok(edit),
            OneOf::Right(_) => Err(()),
        });
        let edits: std::result::Result<Vec<TextEdit>, ()> = edits.collect();
        let Ok(edits) = edits else {
            return refuse("annotated edits are not accepted");
        };
        changes.entry(uri).or_default().extend(edits);
    }
    if changes.is_empty() {
        return refuse("the edit changes nothing");
    }
    if let Some(uri) = changes.keys().find(|uri| !is_open(uri, None)) {
        return refuse(&format!(
            "{} is not a document boxls has open",
            uri.as_str()
        ));
    }
    Ok(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn edit(value: Value) -> WorkspaceEdit {
        serde_json::from_value(value).unwrap_or_default()
    }

    fn open(uri: &Uri, version: Option<i32>) -> bool {
        uri.as_str() == "file:///a.box" && version.is_none_or(|v| v == 3)
    }

    #[test]
    fn arguments_are_read_or_refused() {
        let uri: Value = json!("file:///a.box");
        assert!(matches!(
            Command::parse(INSERT_COMMAND, &[uri.clone(), json!(2)]),
            Ok(Command::Write(Write::Insert { index: 2, .. }))
        ));
        assert!(Command::parse(INSERT_COMMAND, &[uri.clone(), json!(-1)]).is_err());
        assert!(Command::parse(INSERT_ALL_COMMAND, std::slice::from_ref(&uri)).is_ok());
        assert!(Command::parse(INSERT_ALL_COMMAND, &[json!(7)]).is_err());
        assert!(Command::parse(APPLY_EDIT_COMMAND, &[json!("x")]).is_err());
        assert!(Command::parse("rm -rf", &[]).is_err());
    }

    #[test]
    fn only_text_edits_to_open_documents_pass() {
        let text = json!({ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } }, "newText": "x" });
        let passes = |value: Value| checked_edit(edit(value), open).is_ok();
        assert!(passes(json!({ "changes": { "file:///a.box": [text] } })));
        assert!(passes(
            json!({ "documentChanges": [{ "textDocument": { "uri": "file:///a.box", "version": 3 }, "edits": [text] }] })
        ));
        assert!(!passes(
            json!({ "documentChanges": [{ "textDocument": { "uri": "file:///a.box", "version": 2 }, "edits": [text] }] })
        ));
        assert!(!passes(
            json!({ "changes": { "file:///etc/passwd": [text] } })
        ));
        assert!(!passes(
            json!({ "documentChanges": [{ "kind": "delete", "uri": "file:///a.box" }] })
        ));
        assert!(!passes(json!({})));
    }
}
