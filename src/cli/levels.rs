//! Sokoban levels (`.xsb`, `.sok`) on the command line: what `check` finds in them,
//! and `boxls convert` between `.box` and `.xsb` for levels with one box.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use codespan_reporting::term::termcolor::StandardStream;

use super::input::{self, format_of, FormatArg};
use super::report::{emit_finding, Finding, SourceFile};
use super::solve_levels::{solve_position, solver_diagnostics, SolveOptions};
use super::{color_for, Failure};
use crate::level::{self, ConvertError, Format, RunLength};
use crate::maze::Severity;

/// `--run-length` for `fmt`: what happens to run-length rows of levels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum RunLengthArg {
    // Each row as written (plain comments: see `FormatArg`).
    #[default]
    Keep,
    // Every row cell by cell (`4#` → `####`).
    Expand,
    // Runs counted (`####` → `4#`).
    Compress,
}

impl From<RunLengthArg> for RunLength {
    fn from(arg: RunLengthArg) -> RunLength {
        match arg {
            RunLengthArg::Keep => RunLength::Keep,
            RunLengthArg::Expand => RunLength::Expand,
            RunLengthArg::Compress => RunLength::Compress,
        }
    }
}

/// Every diagnostic of a file of levels, in source order: the static ones, and with a
/// time limit what the solver says of each level without errors.
pub fn check_findings(text: &str, time_limit: Option<Duration>) -> Vec<Finding> {
    let checked = level::check(text);
    let mut diagnostics = checked.diagnostics;
    if let Some(limit) = time_limit {
        let options = SolveOptions {
            time_limit: limit,
            optimal: false,
            jobs: 1,
        };
        for level in &checked.collection.levels {
            let clean = !level::level_diagnostics(text, level)
                .iter()
                .any(|d| d.is_error());
            if let (true, Some(position)) = (clean, level.board.position()) {
                let answer = solve_position(&position, options);
                diagnostics.extend(solver_diagnostics(text, level, &answer, limit));
            }
        }
        diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    }
    diagnostics.iter().map(Finding::from).collect()
}

#[derive(Args)]
#[command(after_help = "\
A .box file becomes XSB levels (`; k`, a blank line, the board with a wall round it
when the maze has free cells on its edge, its `; solution:` as `Solution:` in LURD);
an .xsb/.sok file of one-box levels becomes a .box file (cells the player can never
reach become rock, the first recorded solution that solves the level becomes
`; solution:`). The input's format comes from its extension or --format.

Examples:
  boxls convert examples/sample.box -o sample.xsb
  boxls convert level.xsb > level.box
  boxls convert --format box --run-length < maze.box

Exit codes: 0 converted, 1 something cannot be converted (each reason on standard
error: a level with errors, more than one box, S, B or T sharing a cell), 2 bad
arguments, unreadable input or unwritable output.")]
pub struct ConvertArgs {
    /// The file to convert; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Read the input as this format whatever its name says (standard input: `.box`
    /// unless given).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// Write XSB rows run-length encoded (`4#`).
    #[arg(long)]
    run_length: bool,
    /// Write to OUT instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

/// `boxls convert`: `.box` → `.xsb` or `.xsb` → `.box`, by the input's format.
pub fn convert(args: ConvertArgs) -> Result<ExitCode, Failure> {
    let input = input::read(args.file.as_deref(), "convert")?;
    let text = input.lossy_text();
    let converted = match format_of(&input, args.format) {
        Format::Box => level::box_to_xsb(&text, args.run_length),
        Format::Xsb => level::xsb_to_box(&text),
    };
    match converted {
        Ok(out) => {
            match &args.output {
                Some(path) => std::fs::write(path, out).map_err(|e| {
                    Failure::Message(format!("cannot write `{}`: {e}", path.display()))
                })?,
                None => {
                    let mut stdout = io::stdout().lock();
                    stdout.write_all(out.as_bytes())?;
                    stdout.flush()?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            let mut stderr = StandardStream::stderr(color_for(io::stderr().is_terminal()));
            let file = SourceFile::new(&input.name, &text);
            for error in &errors {
                emit_finding(&mut stderr, &file, &convert_finding(error))?;
            }
            Ok(ExitCode::FAILURE)
        }
    }
}

fn convert_finding(error: &ConvertError) -> Finding {
    Finding {
        code: "cannot-convert",
        severity: Severity::Error,
        range: error.range.clone(),
        message: format!("#{}: {}", error.index, error.message),
        help: None,
    }
}
