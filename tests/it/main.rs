//! The one integration-test binary: every suite is a module here.

mod cli;
mod differential;
mod generate;
mod lsp;
mod parser;
mod props;
mod reference;
