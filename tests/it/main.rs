//! The one integration-test binary: every suite is a module here.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

mod cli;
mod design;
mod differential;
mod gen;
mod generate;
mod incremental;
mod judge;
mod large;
mod layering;
mod levels;
mod levels_cli;
mod lsp;
mod parser;
mod props;
mod reference;
mod render;
mod sokoban;
mod stress;
mod xsb_board;
