//! Document symbols (nested, or flat `SymbolInformation` for clients without
//! hierarchical support) and folding ranges: one per maze, or per level of a Sokoban
//! collection.

use tower_lsp_server::ls_types::{
    DocumentSymbol, DocumentSymbolResponse, FoldingRange, FoldingRangeKind, Location,
    SymbolInformation, SymbolKind, Uri,
};

use super::view::View;
use crate::ide;

pub fn document_symbols(view: &View, uri: &Uri) -> DocumentSymbolResponse {
    let hierarchical = view.support.hierarchical_symbols;
    let symbols = match view.levels() {
        Some(levels) => ide::level_symbols(&levels),
        None => ide::symbols(&view.file()),
    };
    if !hierarchical {
        #[allow(deprecated)] // `deprecated` is a required field of the type.
        let flat = symbols
            .into_iter()
            .map(|symbol| SymbolInformation {
                name: symbol.name,
                kind: SymbolKind::STRUCT,
                tags: None,
                deprecated: None,
                location: Location::new(uri.clone(), view.range(symbol.range)),
                container_name: None,
            })
            .collect();
        return DocumentSymbolResponse::Flat(flat);
    }
    #[allow(deprecated)] // `deprecated` is a required field of the type.
    let nested = symbols
        .into_iter()
        .map(|symbol| DocumentSymbol {
            name: symbol.name,
            detail: symbol.detail,
            kind: SymbolKind::STRUCT,
            tags: None,
            deprecated: None,
            range: view.range(symbol.range),
            selection_range: view.range(symbol.selection),
            children: None,
        })
        .collect();
    DocumentSymbolResponse::Nested(nested)
}

pub fn folding_ranges(view: &View) -> Vec<FoldingRange> {
    let ranges = match view.levels() {
        Some(levels) => ide::level_folding_ranges(&levels),
        None => ide::folding_ranges(&view.file()),
    };
    ranges
        .into_iter()
        .filter_map(|(extent, collapsed)| {
            let start = view.position(extent.start).line;
            let end = view.position(extent.end).line;
            (end > start).then(|| FoldingRange {
                start_line: start,
                end_line: end,
                kind: Some(FoldingRangeKind::Region),
                collapsed_text: Some(collapsed),
                ..FoldingRange::default()
            })
        })
        .collect()
}
