//! `boxls render`: one maze of a `.box` file, or one level of an `.xsb`/`.sok` file, as
//! a self-contained SVG picture (the board, dead squares, each box's path; `--animate`
//! plays the solution), on standard output or in a file.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use codespan_reporting::term::termcolor::StandardStream;

use super::input::{self, format_of, FormatArg};
use super::report::{emit, emit_finding, Finding, SourceFile};
use super::solve_levels::{seconds, solve_position, Answer, SolveOptions};
use super::{color_for, Failure};
use crate::level::{self, Diagnostic, Format};
use crate::maze::{plural, Maze, MazeParser};
use crate::solver::{self, Cancelled};
use crate::svg::{self, LevelOutcome, Options};

#[derive(Args)]
#[command(after_help = "\
Examples:
  boxls render examples/sample.box --maze 3 -o maze3.svg
  boxls render --maze 3 --animate < examples/sample.box > maze3-play.svg
  boxls render examples/levels.xsb --maze 2 --animate -o level2.svg

An unsolvable maze is drawn without a path, with a note saying why. A Sokoban
level (.xsb, .sok) is solved like `boxls solve` does (--time-limit, --optimal);
one the solver cannot settle in time is drawn without a path, saying so.

Exit codes: 0 rendered; 1 the maze has errors (printed on standard error);
2 no such maze, unreadable input, unwritable output or bad arguments.")]
pub struct RenderArgs {
    /// A .box, .xsb or .sok file; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Which maze (or level) to draw, counting from 1.
    #[arg(long, alias = "level", value_name = "N", default_value_t = 1, value_parser = maze_number)]
    maze: usize,
    /// Read the input as this format instead of going by the file's extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<FormatArg>,
    /// Levels: the time the solver may take, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = super::positive_seconds)]
    time_limit: f64,
    /// Levels: the fewest pushes, then the fewest moves (proved), instead of a solution
    /// found fast.
    #[arg(long)]
    optimal: bool,
    /// Play the solution: the player and the box move, looping (SMIL, no script).
    #[arg(long)]
    animate: bool,
    /// Write the SVG to OUT instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

fn maze_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a maze number: 1 for the first maze, 2 for the second…".into()),
    }
}

pub fn render(args: RenderArgs) -> Result<ExitCode, Failure> {
    let input = input::read(args.file.as_deref(), "render")?;
    let (name, text) = (input.name.clone(), input.lossy_text());
    if format_of(&input, args.format) == Format::Xsb {
        return render_level(&args, &name, &text);
    }
    let Some((maze, diagnostics)) = nth_maze(&text, args.maze) else {
        let count = MazeParser::new(&text).count();
        return Err(Failure::Message(format!(
            "there is no maze #{} in `{name}`: it has {}",
            args.maze,
            plural(count as u64, "maze", "mazes")
        )));
    };
    let Some(grid) = &maze.grid else {
        let mut stderr = StandardStream::stderr(color_for(io::stderr().is_terminal()));
        let file = SourceFile::new(&name, &text);
        for diagnostic in &diagnostics {
            emit(&mut stderr, &file, diagnostic)?;
        }
        return Ok(ExitCode::FAILURE);
    };
    let never = AtomicBool::new(false);
    let analysis = solver::analyze(grid, &never)
        .map_err(|Cancelled| Failure::Message("the solve was cancelled".into()))?;
    let picture = svg::render(
        grid,
        maze.index,
        &analysis,
        &Options {
            animate: args.animate,
        },
    );
    write_picture(&args, &picture)
}

fn write_picture(args: &RenderArgs, picture: &str) -> Result<ExitCode, Failure> {
    match &args.output {
        Some(path) => std::fs::write(path, picture)
            .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", path.display())))?,
        None => {
            let mut stdout = io::stdout().lock();
            stdout.write_all(picture.as_bytes())?;
            stdout.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Maze number `n` (from 1) and the diagnostics the parser gave with it.
fn nth_maze(text: &str, n: usize) -> Option<(Maze, Vec<crate::maze::Diagnostic>)> {
    MazeParser::new(text).nth(n - 1)
}

/// Level `args.maze` of a file of levels: its errors on standard error (exit 1), or
/// its picture with the solver's answer.
fn render_level(args: &RenderArgs, name: &str, text: &str) -> Result<ExitCode, Failure> {
    let collection = level::parse(text);
    let Some(found) = collection.levels.get(args.maze - 1) else {
        return Err(Failure::Message(format!(
            "there is no level {} in `{name}`: it has {}",
            args.maze,
            plural(collection.levels.len() as u64, "level", "levels")
        )));
    };
    let diagnostics = level::level_diagnostics(text, found);
    let position = found.board.position();
    let Some(position) = position.filter(|_| !diagnostics.iter().any(Diagnostic::is_error)) else {
        let mut stderr = StandardStream::stderr(color_for(io::stderr().is_terminal()));
        let file = SourceFile::new(name, text);
        for diagnostic in diagnostics.iter().filter(|d| d.is_error()) {
            emit_finding(&mut stderr, &file, &Finding::from(diagnostic))?;
        }
        return Ok(ExitCode::FAILURE);
    };
    let options = SolveOptions {
        time_limit: Duration::from_secs_f64(args.time_limit),
        optimal: args.optimal,
        jobs: 1,
    };
    let outcome = match solve_position(&position, options) {
        Answer::Solved(solution) => LevelOutcome::Solved {
            lurd: solution.lurd,
            optimal: solution.optimal,
        },
        Answer::Unsolvable => LevelOutcome::Unsolvable,
        Answer::Unknown { lower_bound } => LevelOutcome::Unknown {
            limit: seconds(Duration::from_secs_f64(args.time_limit)),
            lower_bound,
        },
        Answer::Broken(why) => {
            return Err(Failure::Message(format!(
                "level {}: internal error: {why}",
                args.maze
            )))
        }
    };
    let title = found.title.as_ref().map(|t| format!(" “{}”", t.text));
    let heading = format!("Level {}{}", args.maze, title.unwrap_or_default());
    let picture = svg::render_level(
        &found.board,
        &position,
        heading,
        &outcome,
        &Options {
            animate: args.animate,
        },
    );
    write_picture(args, &picture)
}
