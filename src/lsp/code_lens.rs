//! Code lens over each header (a Sokoban document: each level's first board row): the
//! IDE layer's title; clicking runs `boxls.insertSolution`, which inserts the solution
//! or says why there is none.

use tower_lsp_server::ls_types::{CodeLens, Command, Uri};

use super::commands::INSERT_COMMAND;
use super::view::View;
use crate::ide;

pub fn code_lenses(view: &View, uri: &Uri) -> Vec<CodeLens> {
    let lenses = match view.levels() {
        Some(levels) => ide::level_lenses(&levels, &view.level_statuses),
        None => ide::lenses(&view.file()),
    };
    lenses
        .into_iter()
        .map(|lens| CodeLens {
            range: view.range(lens.range),
            command: Some(Command {
                title: lens.title,
                command: INSERT_COMMAND.to_string(),
                arguments: Some(vec![
                    serde_json::Value::String(uri.as_str().to_string()),
                    serde_json::Value::from(lens.maze),
                ]),
            }),
            data: None,
        })
        .collect()
}
