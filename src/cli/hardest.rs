//! `boxls hardest`: the file with each maze's (or one maze's) S, B and T moved to the
//! hardest placement and its solution line written; everything else byte for byte.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use codespan_reporting::term::termcolor::StandardStream;

use super::input;
use super::report::{emit, SourceFile};
use super::{color_for, Failure};
use crate::design::{hardest, MAX_CELLS};
use crate::ide::{hardest_fix, hardest_title};
use crate::maze::{parse, plural, Severity};
use crate::solver::{solve_path, Solution};

#[derive(Args)]
#[command(after_help = "\
The hardest placement has the most optimal pushes, then the most moves, then the
first (T, B, S) in row-major order. Walls, comments and the other mazes are kept byte
for byte; each changed maze gets its `; solution:` line (a recorded one is replaced).
One line per maze on standard error, e.g.
  Maze #3: 6 pushes · 28 moves → 31 pushes · 112 moves

Examples:
  boxls hardest maze.box -o harder.box
  boxls hardest --keep-target --maze 2 < mazes.box > out.box

The search takes mazes of at most 65536 cells (rows × cols); a larger one is left as
it is and named on standard error, and the run exits 1.

Exit codes: 0 written; 1 some maze has errors or is too large for the search (left as
it is, reported; the others are still written); 2 no such maze, unreadable input,
unwritable output or bad arguments.")]
pub struct HardestArgs {
    /// A .box file; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Keep each maze's target where it is; move S and B only.
    #[arg(long)]
    keep_target: bool,
    /// Only maze N (counting from 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    maze: Option<u64>,
    /// Write the file to OUT instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

fn counts(solution: Option<&Solution>) -> String {
    solution.map_or_else(
        || "unsolvable".to_string(),
        |s| {
            format!(
                "{} · {}",
                plural(s.pushes, "push", "pushes"),
                plural(s.moves, "move", "moves")
            )
        },
    )
}

pub fn run(args: HardestArgs) -> Result<ExitCode, Failure> {
    let input = input::read(args.file.as_deref(), "hardest")?;
    let text = input.lossy_text();
    let parsed = parse(&text);
    if let Some(n) = args.maze {
        if n as usize > parsed.mazes.len() {
            return Err(Failure::Message(format!(
                "there is no maze #{n} in `{}`: it has {}",
                input.name,
                plural(parsed.mazes.len() as u64, "maze", "mazes")
            )));
        }
    }
    let file = SourceFile::new(&input.name, &text);
    let mut stderr = StandardStream::stderr(color_for(io::stderr().is_terminal()));
    let mut edits = Vec::new();
    let mut errors = false;
    // A maze too large for the search: left as it is, and the run fails like for errors.
    let mut refused = false;
    for maze in &parsed.mazes {
        if args.maze.is_some_and(|n| n as usize != maze.index) {
            continue;
        }
        let k = maze.index;
        let Some(grid) = &maze.grid else {
            errors = true;
            for diagnostic in parsed.diagnostics.iter().filter(|d| {
                d.severity == Severity::Error
                    && d.range.start >= maze.extent.start
                    && d.range.start <= maze.extent.end
            }) {
                emit(&mut stderr, &file, diagnostic)?;
            }
            eprintln!("Maze #{k}: has errors; left as it is");
            continue;
        };
        if grid.cell_count() > MAX_CELLS {
            // Refused before its solve: a maze this size can take seconds to solve.
            refused = true;
            eprintln!(
                "Maze #{k}: {}×{} is {} cells, more than the {MAX_CELLS} the hardest-placement \
                 search takes; left as it is",
                grid.rows,
                grid.cols,
                grid.cell_count()
            );
            continue;
        }
        let before = solve_path(grid);
        let placement = match hardest(grid, args.keep_target) {
            Ok(Some(placement)) => placement,
            Ok(None) => {
                eprintln!(
                    "Maze #{k}: {} → no solvable placement; left as it is",
                    counts(before.as_ref())
                );
                continue;
            }
            Err(error) => {
                refused = true;
                eprintln!("Maze #{k}: {error}; left as it is");
                continue;
            }
        };
        let Some(after) = solve_path(&placement.apply(grid)) else {
            return Err(Failure::Message(format!(
                "Maze #{k}: the hardest placement did not solve (a boxls bug)"
            )));
        };
        eprintln!(
            "Maze #{k}: {} → {}",
            counts(before.as_ref()),
            counts(Some(&after))
        );
        let title = hardest_title(k, args.keep_target, before.map(|s| s.pushes), &placement);
        edits.extend(hardest_fix(&text, maze, grid, &placement, &after.path, title).edits);
    }
    let out = crate::maze::Fix {
        title: String::new(),
        edits,
    }
    .apply(&text);
    match &args.output {
        Some(path) => std::fs::write(path, out)
            .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", path.display())))?,
        None => {
            let mut stdout = io::stdout().lock();
            stdout.write_all(out.as_bytes())?;
            stdout.flush()?;
        }
    }
    Ok(if errors || refused {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
