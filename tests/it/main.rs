//! The one integration-test binary: every suite is a module here.

#![allow(clippy::unwrap_used, clippy::expect_used)] // Tests and benches may fail loudly.

mod book;
mod cli;
mod design;
mod differential;
mod fmt_safety;
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
