//! The one integration-test binary: every suite is a module here.

mod cli;
mod differential;
mod generate;
mod incremental;
mod large;
mod lsp;
mod parser;
mod props;
mod reference;
mod render;
