//! The command line: `solve`, `check` and `lsp`, thin clients of the core.

mod picture;
mod render;

use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream, WriteColor};

use crate::analysis::check_text;
use crate::maze::{Diagnostic, MazeParser, Severity};
use crate::solver;
use render::SourceFile;

#[derive(Parser)]
#[command(
    name = "boxls",
    version,
    about = "Language server and solver for .box maze files (Pushing Boxes, POJ 1475)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Serve the Language Server Protocol on stdin/stdout (what editors pass).
    #[arg(long)]
    stdio: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Solve every maze and print the POJ 1475 output.
    Solve {
        /// A .box file; standard input when absent or `-`.
        file: Option<PathBuf>,
    },
    /// Serve the Language Server Protocol on stdin/stdout.
    Lsp {
        /// Accepted and ignored: stdio is the only transport, and LSP clients append it.
        #[arg(long)]
        stdio: bool,
    },
    /// Print every diagnostic in compiler style; exit 1 if any is an error.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Draw a maze and its optimal solution as an SVG picture.
    Render(picture::RenderArgs),
}

/// Exit code for unreadable input and bad arguments (clap uses the same).
const USAGE_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Solve { file }) => solve(file),
        Some(Command::Check { files }) => check(&files),
        Some(Command::Lsp { .. }) => serve_lsp(),
        Some(Command::Render(args)) => picture::render(args),
        None if cli.stdio => serve_lsp(),
        None => {
            let _ = <Cli as clap::CommandFactory>::command().print_help();
            Ok(ExitCode::from(USAGE_ERROR))
        }
    };
    match result {
        Ok(code) => code,
        Err(Failure::Message(message)) => {
            eprintln!("boxls: {message}");
            ExitCode::from(USAGE_ERROR)
        }
        Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
    }
}

/// LSP: exit code 0 after `shutdown` then `exit`, 1 when the client exits or goes
/// away without `shutdown`.
fn serve_lsp() -> Result<ExitCode, Failure> {
    let shut_down = crate::lsp::run_stdio()
        .map_err(|e| Failure::Message(format!("cannot start the language server: {e}")))?;
    Ok(if shut_down {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

enum Failure {
    Message(String),
    BrokenPipe,
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Message(format!("cannot write output: {error}"))
        }
    }
}

/// Reads a file, or standard input for `None` / `-`; invalid UTF-8 is replaced.
fn read_input(path: Option<&PathBuf>) -> Result<(String, String), Failure> {
    let (name, bytes) = match path.filter(|p| p.as_os_str() != "-") {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::Message(format!("cannot read `{}`: {e}", path.display())))?;
            (path.display().to_string(), bytes)
        }
        None => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::Message(format!("cannot read standard input: {e}")))?;
            ("<stdin>".to_string(), bytes)
        }
    };
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    };
    Ok((name, text))
}

fn color_for(stream_is_terminal: bool) -> ColorChoice {
    if stream_is_terminal && std::env::var_os("NO_COLOR").is_none() {
        ColorChoice::Auto
    } else {
        ColorChoice::Never
    }
}

/// `boxls solve`: two passes over the text so that nothing is printed for a broken
/// file, and only one maze is held in memory at a time.
fn solve(path: Option<PathBuf>) -> Result<ExitCode, Failure> {
    let (name, text) = read_input(path.as_ref())?;
    let mut problems = structural_problems(&text);
    problems.sort_by_key(|d| (d.range.start, d.range.end));
    let mut stderr = StandardStream::stderr(color_for(io::stderr().is_terminal()));
    let file = SourceFile::new(&name, &text);
    for diagnostic in &problems {
        render::emit(&mut stderr, &file, diagnostic)?;
    }
    if problems.iter().any(Diagnostic::is_error) {
        return Ok(ExitCode::FAILURE);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for (maze, _) in MazeParser::new(&text) {
        let Some(grid) = maze.grid else { continue };
        writeln!(out, "Maze #{}", maze.index)?;
        match solver::solve_path(&grid) {
            Some(solution) => writeln!(out, "{}", solution.path)?,
            None => writeln!(out, "Impossible.")?,
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn structural_problems(text: &str) -> Vec<Diagnostic> {
    let mut parser = MazeParser::new(text);
    let mut problems: Vec<Diagnostic> = parser
        .by_ref()
        .flat_map(|(_, diagnostics)| diagnostics)
        .collect();
    problems.extend(parser.finish().1);
    problems
}

/// `boxls check`: every diagnostic of every file, then a summary.
fn check(paths: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut stdout = StandardStream::stdout(color_for(io::stdout().is_terminal()));
    let (mut errors, mut warnings, mut unreadable) = (0usize, 0usize, false);
    for path in paths {
        let (name, text) = match read_input(Some(path)) {
            Ok(input) => input,
            Err(Failure::Message(message)) => {
                eprintln!("boxls: {message}");
                unreadable = true;
                continue;
            }
            Err(other) => return Err(other),
        };
        let report = check_text(&text);
        let file = SourceFile::new(&name, &text);
        for diagnostic in &report.diagnostics {
            render::emit(&mut stdout, &file, diagnostic)?;
            match diagnostic.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Information => {}
            }
        }
    }
    write_summary(&mut stdout, errors, warnings, paths.len())?;
    Ok(if unreadable {
        ExitCode::from(USAGE_ERROR)
    } else if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn write_summary(
    out: &mut dyn WriteColor,
    errors: usize,
    warnings: usize,
    files: usize,
) -> io::Result<()> {
    let count = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(
        out,
        "{}, {} in {}",
        count(errors, "error"),
        count(warnings, "warning"),
        count(files, "file")
    )
}
