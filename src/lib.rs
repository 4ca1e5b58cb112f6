//! boxls: a language server and command-line solver for `.box` maze files.
//!
//! The core (`maze`, `level`, `solver`, `analysis`, `judge`) is pure: text in, plain data out,
//! byte ranges only. `svg` draws a maze and its solution as a picture, and `ide`
//! answers an editor's questions as plain data; both are pure too. The command line
//! (`cli`) and the language server (`lsp`) are thin clients of them.

pub mod analysis;
pub mod cli;
pub mod design;
pub mod gen;
pub mod ide;
pub mod judge;
pub mod level;
pub mod lsp;
pub mod maze;
pub mod sokoban;
pub mod solver;
pub mod stress;
pub mod svg;
