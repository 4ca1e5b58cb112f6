//! The command line: `solve`, `check`, `fmt`, `judge`, `render`, `hardest`, `gen`, `stress`,
//! `convert`, `lsp` and `completions`, thin clients of the core.

mod check;
mod fmt;
mod gen;
mod hardest;
mod input;
mod judge;
mod levels;
mod render;
mod report;
mod solve_levels;
mod stress;

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use clap_complete::Shell;
use codespan_reporting::term::termcolor::ColorChoice;

#[derive(Parser)]
#[command(
    name = "boxls",
    version,
    about = "Language server and solver for .box maze files (Pushing Boxes, POJ 1475)",
    after_help = "\
Examples:
  boxls solve examples/sample.box     print the POJ output
  boxls check mazes/*.box             every diagnostic, compiler style
  boxls fmt --check mazes/*.box       is every file formatted?
  boxls judge maze.in contestant.out  is this answer file optimal?
  boxls lsp                           the language server (what editors run)

Exit codes: 0 success, 1 problems found (errors, rejected answers, unformatted
files), 2 bad arguments or unreadable input. `boxls help COMMAND` says more."
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
    #[command(after_help = "\
For maze k: `Maze #k`, the optimal move string (fewest pushes, then fewest moves;
n s e w walk, N S E W push) or `Impossible.`, then a blank line. A maze with errors
is skipped (the others keep their numbers) and its diagnostics go to stderr, as do
problems with recorded `; solution:` lines.

Sokoban levels (.xsb, .sok): one line per level, `Level 3 \"Title\": LURD`,
`Level 4 \"Title\": no solution` or `Level 5 \"Title\": unknown after 10 s`
(--json: one object per level); a level with errors is reported on stderr and skipped.

Examples:
  boxls solve examples/sample.box
  boxls solve < maze.in > maze.out
  boxls solve --json --time-limit 30 --jobs 2 levels.xsb

Exit codes: 0 every maze solved or impossible, 1 some maze has errors (or a recorded
solution is illegal), 2 bad arguments or unreadable input.")]
    Solve {
        /// The .box, .xsb or .sok file to solve; standard input when absent or `-`.
        file: Option<PathBuf>,
        /// Read the input as this format whatever its name says (standard input:
        /// `.box` unless given).
        #[arg(long, value_enum)]
        format: Option<input::FormatArg>,
        /// Levels: one JSON object per level per line: {"level", "title", "status":
        /// "solved"|"unsolvable"|"unknown", "solution", "pushes", "moves", "optimal",
        /// "seconds"}.
        #[arg(long)]
        json: bool,
        /// Levels: the time each level may take, in seconds.
        #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = positive_seconds)]
        time_limit: f64,
        /// Levels: the fewest pushes, then the fewest moves (proved), instead of a
        /// solution soon.
        #[arg(long)]
        optimal: bool,
        /// Levels: how many to solve at once.
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// After each move string, a line `; 6 pushes · 28 moves · 2 box lines · 1 box
        /// turn · 2 walk segments` (box lines: runs of pushes in one direction; box
        /// turns: changes of push direction; walk segments: runs of walks).
        #[arg(long)]
        metrics: bool,
    },
    /// Print every diagnostic in compiler style; exit 1 if any is an error.
    #[command(after_help = "\
Each diagnostic shows file:line:column, its code, the line and a caret, and the
quick fix when there is one; a summary line ends the output.

Sokoban levels (.xsb, .sok) get the static checks: cells, players, boxes and
goals, the player's region, static deadlocks (dead-square, frozen-boxes,
unmatched-boxes) and recorded `Solution:` lines.

Examples:
  boxls check maze.box
  boxls check mazes/*.box levels/*.xsb
  boxls check --json levels/*.xsb
  cat maze.box | boxls check

Exit codes: 0 no errors (warnings allowed), 1 some file has an error, 2 bad
arguments or a file that cannot be read (the others are still checked).")]
    Check {
        /// The .box files to check; standard input when none is given or for `-`
        /// (.xsb and .sok levels too).
        files: Vec<PathBuf>,
        /// Read every file as this format whatever its name says (standard input:
        /// `.box` unless given).
        #[arg(long, value_enum)]
        format: Option<input::FormatArg>,
        /// One JSON object per diagnostic per line: {"file", "line", "column",
        /// "endLine", "endColumn", "severity", "code", "message"}, 1-based, columns in
        /// characters, the end just past the last character; no summary line.
        #[arg(long)]
        json: bool,
        /// Levels: also solve each one for up to SECS seconds (`unsolvable`,
        /// `solver-unknown`, recorded solutions worse than the solver's).
        #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
        time_limit: Option<f64>,
    },
    /// Lay .box files out canonically, in place.
    #[command(after_help = "\
Headers are set to the size the rows agree on, trailing blanks dropped, blank lines
inside mazes removed and one left between mazes, `; solution:` lines spaced
`; solution: moves`, and `0 0` ensured. Cells, comments and line endings are kept.
A file is written to a temporary file beside it (given its owner, group and mode) and
renamed over it under a lock, and left as it is if it changed since it was read; one
with several hard links is written in place. Only regular files are rewritten:
devices, FIFOs and read-only files are refused. `/dev/stdin` is standard input.

Sokoban levels (.xsb, .sok): trailing blanks dropped, one blank line between levels,
metadata, comments and cells kept; --run-length expand or compress rewrites the rows.

Examples:
  boxls fmt maze.box                rewrite maze.box
  boxls fmt --run-length expand levels.xsb
  boxls fmt --check mazes/*.box     list the files that would change
  boxls fmt < maze.box > tidy.box

Exit codes: 0 done (with --check: every file is formatted), 1 with --check: some file
would change, 2 bad arguments, unreadable input (or over 64 MiB), not a regular file,
read-only, an owner it cannot keep, a failed write or a file changed meanwhile (each
left as it was).")]
    Fmt {
        /// The .box, .xsb or .sok files to rewrite; standard input to standard output
        /// when none is given or for `-`.
        files: Vec<PathBuf>,
        /// Change nothing: name the files that would change, and exit 1 if any would.
        #[arg(long)]
        check: bool,
        /// Read every file as this format whatever its name says (standard input:
        /// `.box` unless given).
        #[arg(long, value_enum)]
        format: Option<input::FormatArg>,
        /// Sokoban levels: keep run-length rows as written, expand or compress them.
        #[arg(long, value_enum, default_value_t)]
        run_length: levels::RunLengthArg,
    },
    /// Judge an answer file: accept any optimal answer per maze.
    #[command(after_help = "\
Per maze k the output must be `Maze #k`, the moves or `Impossible.`, and a blank line.
Any move string with the fewest pushes, then the fewest moves, that replays legally
and leaves the box on T is accepted. Wrong `Impossible.`, illegal, suboptimal and
malformed answers are rejected, each naming `Maze #k`, the output line and why; so is
an answer holding NUL or other control bytes.

Examples:
  boxls judge maze.in contestant.out
  ./contestant < maze.in | boxls judge maze.in -
  boxls judge --kattis feedback/ maze.in - < contestant.out   (an output validator)

Exit codes: 0 accepted, 1 rejected, 2 bad arguments, unreadable files or an input with
errors. With --kattis: 42 accepted, 43 rejected (the reasons in judgemessage.txt).")]
    Judge {
        /// The .box input the answers are for (POJ 1475 input is valid .box).
        input: PathBuf,
        /// The answer file to judge; `-` for standard input.
        output: PathBuf,
        /// Kattis / DOMjudge output-validator convention: exit 42 when accepted, 43 when
        /// rejected, and write the reasons to FEEDBACK_DIR/judgemessage.txt.
        #[arg(long, value_name = "FEEDBACK_DIR")]
        kattis: Option<PathBuf>,
    },
    /// Serve the Language Server Protocol on stdin/stdout.
    #[command(after_help = "\
Editors start this themselves (see the manual's Editors chapter).

Example:
  boxls lsp

Exit codes: 0 after `shutdown` then `exit`, 1 when the client exits without `shutdown`
or closes the connection.")]
    Lsp {
        /// Accepted and ignored: stdio is the only transport, and LSP clients append it.
        #[arg(long)]
        stdio: bool,
        /// Print the facts editors share with the server (settings with their defaults
        /// and descriptions, the semantic token legend) as JSON, and exit.
        #[arg(long, hide = true)]
        print_schema: bool,
    },
    /// Print a shell completion script.
    #[command(after_help = "\
Examples:
  boxls completions bash > ~/.local/share/bash-completion/completions/boxls
  boxls completions zsh > ~/.zfunc/_boxls
  boxls completions fish > ~/.config/fish/completions/boxls.fish

Exit codes: 0 printed, 2 bad arguments.")]
    Completions {
        /// The shell to complete for.
        shell: Shell,
    },
    /// Draw a maze and its optimal solution as an SVG picture.
    Render(render::RenderArgs),
    /// Generate mazes as a .box file (open, rooms, caves, corridors or traps).
    Gen(gen::GenArgs),
    /// Move S, B and T to the hardest placement (most pushes, then moves).
    Hardest(hardest::HardestArgs),
    /// Print the man page (roff) made from this command line's definition; hidden:
    /// `cargo xtask dist` ships its output as `man/boxls.1`.
    #[command(hide = true)]
    Man,
    /// Run a solver on generated mazes; shrink the first failure to a small maze.
    Stress(stress::StressArgs),
    /// Convert between .box mazes and .xsb levels (one box).
    Convert(levels::ConvertArgs),
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs <= 86_400.0 => Ok(secs),
        _ => Err("expected seconds: a number above 0 and at most 86400".into()),
    }
}

/// Exit code for unreadable input and bad arguments (clap uses the same).
const USAGE_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Solve {
            file,
            metrics,
            format,
            json,
            time_limit,
            optimal,
            jobs,
        }) => check::solve(
            file.as_deref(),
            metrics,
            format,
            json,
            solve_levels::SolveOptions {
                time_limit: std::time::Duration::from_secs_f64(time_limit),
                optimal,
                jobs,
            },
        ),
        Some(Command::Check {
            files,
            format,
            json,
            time_limit,
        }) => check::check(
            &files,
            format,
            json,
            time_limit.map(std::time::Duration::from_secs_f64),
        ),
        Some(Command::Fmt {
            files,
            check,
            format,
            run_length,
        }) => fmt::fmt(&files, check, format, run_length.into()),
        Some(Command::Convert(args)) => levels::convert(args),
        Some(Command::Judge {
            input,
            output,
            kattis,
        }) => judge::judge(&input, &output, kattis.as_deref()),
        Some(Command::Lsp {
            print_schema: true, ..
        }) => print_schema(),
        Some(Command::Lsp { .. }) => serve_lsp(),
        Some(Command::Render(args)) => render::render(args),
        Some(Command::Gen(args)) => gen::gen(args),
        Some(Command::Hardest(args)) => hardest::run(args),
        Some(Command::Stress(args)) => stress::stress(args),
        Some(Command::Completions { shell }) => completions(shell),
        Some(Command::Man) => man(),
        None if cli.stdio => serve_lsp(),
        None => {
            let _ = Cli::command().print_help();
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

fn print_schema() -> Result<ExitCode, Failure> {
    let schema = serde_json::to_string_pretty(&crate::lsp::schema())
        .map_err(|e| Failure::Message(format!("cannot print the schema: {e}")))?;
    println!("{schema}");
    Ok(ExitCode::SUCCESS)
}

fn completions(shell: Shell) -> Result<ExitCode, Failure> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "boxls", &mut out);
    io::Write::write_all(&mut io::stdout().lock(), &out)?;
    Ok(ExitCode::SUCCESS)
}

fn man() -> Result<ExitCode, Failure> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    io::Write::write_all(&mut io::stdout().lock(), &out)?;
    Ok(ExitCode::SUCCESS)
}

/// Why a command stopped early.
pub enum Failure {
    /// Printed as `boxls: <message>`; exit code 2.
    Message(String),
    /// The reader of our output went away: nothing more to say.
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

/// A clap parser of a number of seconds: finite, above 0 (or 0 too, with
/// `zero`), at most `max`; so a `Duration` made of it cannot overflow.
fn seconds(zero: bool, max: f64) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text| {
        let value: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("`{text}` is not a number of seconds"))?;
        let low = if zero { value >= 0.0 } else { value > 0.0 };
        if low && value <= max {
            Ok(value)
        } else {
            let from = if zero { "0" } else { "more than 0" };
            Err(format!("expected {from} to {max} seconds"))
        }
    }
}

fn color_for(stream_is_terminal: bool) -> ColorChoice {
    if stream_is_terminal && std::env::var_os("NO_COLOR").is_none() {
        ColorChoice::Auto
    } else {
        ColorChoice::Never
    }
}
