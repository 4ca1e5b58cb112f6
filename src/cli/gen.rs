//! `boxls gen`: generated mazes as a `.box` file, each with its `; solution:` line and
//! a comment with its seed and metrics; byte-identical for the same arguments and
//! version (except with a time-bounded `--anneal`).

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use super::Failure;
use crate::design;
use crate::gen::{self, Family, GenOptions, Generated};

/// The longest `--anneal`, per maze: a day.
const MAX_ANNEAL_SECONDS: f64 = 86_400.0;

#[derive(Args)]
#[command(after_help = "\
Families: open (pillars on open floor), rooms (rooms joined by doors), caves (smooth
irregular caves), corridors (one-cell corridors with loops), traps (small mazes that
each defeat one classic wrong algorithm — visited on discovery, one visit per box
cell, fewest moves first, first path of a nested BFS, bridges for articulation points
— or are impossible only from the player's side; for problem setters).

The same arguments give the same file, byte for byte, for a given boxls version; a
time-bounded --anneal does not (use --anneal-steps for that).

Examples:
  boxls gen --seed 7 --count 10 --family caves -o caves.box
  boxls gen --rows 12 --cols 12 --hardest
  boxls gen --family traps --count 20 > traps.in
  boxls gen --hardest --anneal 5 --rows 10 --cols 10

--hardest and --anneal take mazes of at most 65536 cells (rows × cols): a larger size
is an error, not a random placement. A maze whose family had no solvable layout (a
tiny or nearly solid one) is open floor instead, with a warning on stderr.

Exit codes: 0 written (warnings on stderr), 2 bad arguments (--hardest or --anneal
above 65536 cells included) or unwritable output.")]
pub struct GenArgs {
    /// The first maze's seed; maze k uses seed + k - 1.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many mazes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    count: u64,
    /// Rows, the border of rock included (traps: at most).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(3..=4096))]
    rows: u64,
    /// Columns, the border of rock included (traps: at most).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(5..=4096))]
    cols: u64,
    /// The kind of layout.
    #[arg(long, default_value = "rooms", value_parser = family)]
    family: Family,
    /// Rock density in percent for the family's random part (default per family).
    #[arg(long, value_name = "PCT", value_parser = clap::value_parser!(u32).range(0..=100))]
    walls: Option<u32>,
    /// Try new layouts until the optimum has at least P pushes (the best of 200 is
    /// kept, with a warning, otherwise).
    #[arg(long, value_name = "P", default_value_t = 0)]
    min_pushes: u64,
    /// Place S, B and T at the exact hardest placement of each layout (at most 65536
    /// cells).
    #[arg(long)]
    hardest: bool,
    /// Then flip walls for SECONDS per maze (0 to 86400, a day) to make the hardest
    /// placement harder (implies --hardest).
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds(true, MAX_ANNEAL_SECONDS))]
    anneal: Option<f64>,
    /// Like --anneal, but for N flips per maze: reproducible.
    #[arg(long, value_name = "N", conflicts_with = "anneal")]
    anneal_steps: Option<u64>,
    /// Write to OUT instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

fn family(name: &str) -> Result<Family, String> {
    Family::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
        format!("expected one of {}", names.join(", "))
    })
}

pub fn gen(args: GenArgs) -> Result<ExitCode, Failure> {
    if args.family == Family::Traps
        && (args.hardest || args.anneal.is_some() || args.anneal_steps.is_some())
    {
        return Err(Failure::Message(
            "--family traps places S, B and T for its trap: --hardest and --anneal do not apply"
                .into(),
        ));
    }
    let hardest = args.hardest || args.anneal.is_some() || args.anneal_steps.is_some();
    let cells = args.rows.saturating_mul(args.cols);
    if hardest && cells > design::MAX_CELLS as u64 {
        return Err(Failure::Message(format!(
            "{} takes mazes of at most {} cells; {}×{} has {cells} \
             (leave it out for a random solvable placement)",
            if args.hardest {
                "--hardest"
            } else {
                "--anneal"
            },
            design::MAX_CELLS,
            args.rows,
            args.cols
        )));
    }
    let options = GenOptions {
        rows: args.rows as usize,
        cols: args.cols as usize,
        family: args.family,
        walls: args.walls,
        min_pushes: args.min_pushes,
        hardest,
    };
    let progress = io::stderr().is_terminal() && (args.count > 1 || args.anneal.is_some());
    let mut text = header(&args);
    for k in 0..args.count {
        if progress {
            eprint!("\rboxls gen: maze {} of {}", k + 1, args.count);
        }
        let mut maze = gen::generate(gen::maze_seed(args.seed, k), &options);
        if let Some(seconds) = args.anneal {
            let deadline = Instant::now() + Duration::from_secs_f64(seconds);
            maze = gen::anneal(&maze, &mut |_| Instant::now() < deadline);
        } else if let Some(steps) = args.anneal_steps {
            maze = gen::anneal(&maze, &mut |done| done < steps);
        }
        if maze.family != args.family {
            eprintln!(
                "{}boxls: warning: maze #{}: no {} layout of {}×{} had a solvable placement in {} \
                 layouts; it is {} instead (its comment says so)",
                if progress { "\n" } else { "" },
                k + 1,
                args.family,
                args.rows,
                args.cols,
                gen::MAX_ATTEMPTS,
                maze.family
            );
        }
        if maze.pushes() < args.min_pushes {
            eprintln!(
                "{}boxls: warning: maze #{}: {} pushes, below --min-pushes {} after {} layouts",
                if progress { "\n" } else { "" },
                k + 1,
                maze.pushes(),
                args.min_pushes,
                maze.attempts
            );
        }
        text.push_str(&render(k + 1, &maze));
    }
    if progress {
        eprintln!();
    }
    text.push_str("0 0\n");
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", path.display())))?,
        None => {
            let mut stdout = io::stdout().lock();
            stdout.write_all(text.as_bytes())?;
            stdout.flush()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The file's first comment: what made it.
fn header(args: &GenArgs) -> String {
    let mut line = format!(
        "; boxls {} gen --seed {} --count {} --rows {} --cols {} --family {}",
        env!("CARGO_PKG_VERSION"),
        args.seed,
        args.count,
        args.rows,
        args.cols,
        args.family
    );
    if let Some(walls) = args.walls {
        line.push_str(&format!(" --walls {walls}"));
    }
    if args.min_pushes > 0 {
        line.push_str(&format!(" --min-pushes {}", args.min_pushes));
    }
    if args.hardest {
        line.push_str(" --hardest");
    }
    if let Some(seconds) = args.anneal {
        line.push_str(&format!(" --anneal {seconds}"));
    }
    if let Some(steps) = args.anneal_steps {
        line.push_str(&format!(" --anneal-steps {steps}"));
    }
    line.push_str("\n\n");
    line
}

/// One maze: its comment, header, rows and solution line, then a blank line.
pub fn render(number: u64, maze: &Generated) -> String {
    let mut out = format!("; Maze #{number}: seed {}, {}", maze.seed, maze.family);
    if let Some(trap) = maze.trap {
        out.push_str(&format!(", trap: {trap}"));
    }
    match &maze.metrics {
        Some(metrics) => out.push_str(&format!(", {metrics}")),
        None => out.push_str(", impossible"),
    }
    out.push('\n');
    out.push_str(&format!("{} {}\n", maze.grid.rows, maze.grid.cols));
    for row in maze.grid.to_rows() {
        out.push_str(&row);
        out.push('\n');
    }
    if let Some(solution) = &maze.solution {
        out.push_str(&format!("; solution: {}\n", solution.path));
    }
    out.push('\n');
    out
}
