//! `boxls render`: one maze of a file as a self-contained SVG picture (the board, dead
//! squares, the box's optimal path; `--animate` plays the solution), on standard output
//! or in a file.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::Args;
use codespan_reporting::term::termcolor::StandardStream;

use super::input;
use super::report::{emit, SourceFile};
use super::{color_for, Failure};
use crate::maze::{plural, Maze, MazeParser};
use crate::solver::{self, Cancelled};
use crate::svg::{self, Options};

#[derive(Args)]
#[command(after_help = "\
Examples:
  boxls render examples/sample.box --maze 3 -o maze3.svg
  boxls render --maze 3 --animate < examples/sample.box > maze3-play.svg

An unsolvable maze is drawn without a path, with a note saying why.

Exit codes: 0 rendered; 1 the maze has errors (printed on standard error);
2 no such maze, unreadable input, unwritable output or bad arguments.")]
pub struct RenderArgs {
    /// A .box file; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Which maze to draw, counting from 1.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = maze_number)]
    maze: usize,
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
