//! `boxls solve` and `boxls check`: the POJ output, and diagnostics in compiler style.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codespan_reporting::term::termcolor::{StandardStream, WriteColor};

use super::input::{self, format_of, FormatArg, Input};
use super::levels;
use super::report::{self, Finding, SourceFile};
use super::{color_for, Failure, USAGE_ERROR};
use crate::analysis::{check_text, recorded_solution_diagnostic};
use crate::level::Format;
use crate::maze::{Diagnostic, MazeParser, Severity};
use crate::solver;

/// `boxls solve`: streams the file a maze at a time: each valid maze's answer goes to
/// stdout, each problem to stderr; exit 1 when anything was an error.
pub fn solve(
    path: Option<&Path>,
    metrics: bool,
    format: Option<FormatArg>,
    json: bool,
    options: super::solve_levels::SolveOptions,
) -> Result<ExitCode, Failure> {
    let input = input::read(path, "solve")?;
    let text = input.lossy_text();
    if format_of(&input, format) == Format::Xsb {
        return super::solve_levels::solve(&input.name, &text, options, json);
    }
    if json {
        return Err(Failure::Message(
            "`--json` is for Sokoban levels (.xsb, .sok, or --format xsb)".into(),
        ));
    }
    let file = SourceFile::new(&input.name, &text);
    let mut stderr = StandardStream::stderr(color_for(io::stderr().is_terminal()));
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut parser = MazeParser::new(&text);
    let (mut mazes, mut errors) = (0usize, false);
    for (maze, mut diagnostics) in parser.by_ref() {
        mazes += 1;
        if let Some(grid) = &maze.grid {
            let solution = solver::solve_path(grid);
            writeln!(out, "Maze #{}", maze.index)?;
            match &solution {
                Some(solution) if metrics => writeln!(
                    out,
                    "{}\n; {}",
                    solution.path,
                    crate::design::metrics(&solution.path)
                )?,
                Some(solution) => writeln!(out, "{}", solution.path)?,
                None => writeln!(out, "Impossible.")?,
            }
            writeln!(out)?;
            diagnostics.extend(recorded_solution_diagnostic(
                &text,
                &maze,
                solution.as_ref(),
            ));
        }
        if !diagnostics.is_empty() {
            // Keep a terminal's interleaving of answers and problems in file order.
            out.flush()?;
            errors |= emit_sorted(&mut stderr, &file, diagnostics)?;
        }
    }
    out.flush()?;
    errors |= emit_sorted(&mut stderr, &file, parser.finish().1)?;
    if mazes == 0 {
        eprintln!("boxls: note: no mazes in `{}`", input.name);
    }
    Ok(if errors {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes diagnostics in source order; whether any was an error.
fn emit_sorted(
    out: &mut dyn WriteColor,
    file: &SourceFile,
    mut diagnostics: Vec<Diagnostic>,
) -> io::Result<bool> {
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    for diagnostic in &diagnostics {
        report::emit(out, file, diagnostic)?;
    }
    Ok(diagnostics.iter().any(Diagnostic::is_error))
}

/// What `check` found so far.
#[derive(Default)]
struct Tally {
    errors: usize,
    warnings: usize,
    files: usize,
    unreadable: bool,
}

/// `boxls check`: every diagnostic of every file (standard input when none is named),
/// then a summary of the files actually read.
pub fn check(
    paths: &[PathBuf],
    format: Option<FormatArg>,
    json: bool,
    time_limit: Option<std::time::Duration>,
) -> Result<ExitCode, Failure> {
    let mut stdout = StandardStream::stdout(color_for(io::stdout().is_terminal()));
    let stdin = [PathBuf::from("-")];
    let paths = if paths.is_empty() { &stdin[..] } else { paths };
    let mut tally = Tally::default();
    for path in paths {
        let input = match input::read(Some(path), "check") {
            Ok(input) => input,
            Err(Failure::Message(message)) => {
                eprintln!("boxls: {message}");
                tally.unreadable = true;
                continue;
            }
            Err(other) => return Err(other),
        };
        check_one(&mut stdout, &input, (format, time_limit), json, &mut tally)?;
    }
    if !json && (tally.files > 0 || !tally.unreadable) {
        write_summary(&mut stdout, &tally)?;
    }
    Ok(if tally.unreadable {
        ExitCode::from(USAGE_ERROR)
    } else if tally.errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn check_one(
    out: &mut dyn WriteColor,
    input: &Input,
    (format, time_limit): (Option<FormatArg>, Option<std::time::Duration>),
    json: bool,
    tally: &mut Tally,
) -> io::Result<()> {
    let text = input.lossy_text();
    let findings: Vec<Finding> = match format_of(input, format) {
        Format::Box => check_text(&text)
            .diagnostics
            .iter()
            .map(Finding::from)
            .collect(),
        Format::Xsb => levels::check_findings(&text, time_limit),
    };
    let file = SourceFile::new(&input.name, &text);
    for finding in &findings {
        if json {
            writeln!(out, "{}", report::json_line(&file, finding))?;
        } else {
            report::emit_finding(out, &file, finding)?;
        }
        match finding.severity {
            Severity::Error => tally.errors += 1,
            Severity::Warning => tally.warnings += 1,
            Severity::Information => {}
        }
    }
    tally.files += 1;
    Ok(())
}

fn write_summary(out: &mut dyn WriteColor, tally: &Tally) -> io::Result<()> {
    let count = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(
        out,
        "{}, {} in {}",
        count(tally.errors, "error"),
        count(tally.warnings, "warning"),
        count(tally.files, "file")
    )
}
