//! boxls: a language server and command-line solver for `.box` maze files.
//!
//! The core (`maze`, `solver`, `analysis`) is pure: text in, plain data out, byte
//! ranges only. `svg` draws a maze and its solution as a picture, also pure. The
//! command line (`cli`) and the language server (`lsp`) are thin clients of it.

pub mod analysis;
pub mod cli;
pub mod ide;
pub mod lsp;
pub mod maze;
pub mod solver;
pub mod svg;
