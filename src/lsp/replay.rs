//! `boxls/replay`: the solved maze at a position, frame by frame, for the editors'
//! previews. The answer carries the document version it was computed for, so a
//! preview can drop an answer older than what it shows.

use serde::Deserialize;
use serde_json::{json, Value};
use tower_lsp_server::ls_types::{Position, TextDocumentIdentifier};

use super::view::View;
use crate::ide;

pub const METHOD: &str = "boxls/replay";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplayParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
}

/// `{ maze, version, rows, cols, cells, moves, pushes, frames, dead }` or `null`.
pub fn replay(view: &View, position: Position) -> Value {
    let Some(replay) = ide::replay(&view.file(), view.offset(position)) else {
        return Value::Null;
    };
    let pair = |(r, c): (usize, usize)| json!([r, c]);
    json!({
        "maze": replay.index,
        "version": view.version,
        "rows": replay.rows,
        "cols": replay.cols,
        "cells": replay.cells,
        "moves": replay.moves,
        "pushes": replay.pushes,
        "frames": replay
            .frames
            .iter()
            .map(|frame| json!({ "player": pair(frame.player), "box": pair(frame.boxed) }))
            .collect::<Vec<_>>(),
        "dead": replay.dead.into_iter().map(pair).collect::<Vec<_>>(),
    })
}
