//! The one integration-test binary: every suite is a module here.

mod cli;
mod differential;
mod generate;
mod parser;
mod reference;
