//! Code lens over each header: the optimal counts; clicking inserts the solution.

use tower_lsp_server::ls_types::{CodeLens, Command, Uri};

use super::code_actions::INSERT_COMMAND;
use super::solves::SolveResult;
use super::state::{summary, Status, View};
use crate::solver::Outcome;

pub fn code_lenses(view: &View, uri: &Uri) -> Vec<CodeLens> {
    view.mazes()
        .filter_map(|(maze, status)| {
            let title = summary(status)?;
            let solved = matches!(status, Status::Known(result)
                if matches!(&**result, SolveResult::Done(a) if matches!(a.outcome, Outcome::Solved(_))));
            let command = if solved {
                Command {
                    title: format!("{title} — insert solution"),
                    command: INSERT_COMMAND.to_string(),
                    arguments: Some(vec![
                        serde_json::Value::String(uri.as_str().to_string()),
                        serde_json::Value::from(maze.index),
                    ]),
                }
            } else {
                Command {
                    title,
                    command: String::new(),
                    arguments: None,
                }
            };
            Some(CodeLens {
                range: view.range(maze.header.clone()),
                command: Some(command),
                data: None,
            })
        })
        .collect()
}
