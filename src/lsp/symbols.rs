//! Document symbols (`Maze #k (r×c)`) and one folding range per maze.

use tower_lsp_server::ls_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};

use super::state::{summary, View};

pub fn document_symbols(view: &View) -> Vec<DocumentSymbol> {
    view.mazes()
        .map(|(maze, status)| {
            let name = match maze.declared {
                Some((rows, cols)) => format!("Maze #{} ({rows}×{cols})", maze.index),
                None => format!("Maze #{}", maze.index),
            };
            #[allow(deprecated)] // `deprecated` is a required field of the type.
            DocumentSymbol {
                name,
                detail: summary(status),
                kind: SymbolKind::STRUCT,
                tags: None,
                deprecated: None,
                range: view.range(maze.extent.clone()),
                selection_range: view.range(maze.header.clone()),
                children: None,
            }
        })
        .collect()
}

pub fn folding_ranges(view: &View) -> Vec<FoldingRange> {
    view.mazes()
        .filter_map(|(maze, _)| {
            let start = view.position(maze.extent.start).line;
            let end = view.position(maze.extent.end).line;
            (end > start).then(|| FoldingRange {
                start_line: start,
                end_line: end,
                kind: Some(FoldingRangeKind::Region),
                collapsed_text: Some(format!("Maze #{}", maze.index)),
                ..FoldingRange::default()
            })
        })
        .collect()
}
