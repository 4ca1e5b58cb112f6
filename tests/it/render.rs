//! `boxls render` and the SVG it draws: file snapshots of small pictures; the XML read
//! back element by element against the solver (the trail is the replayed box cells,
//! rock and dead squares are covered exactly, the animation passes through every frame
//! of the replay); big mazes stay small; the binary's arguments, output file and errors;
//! and the pictures committed for the README are what the binary draws today.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::AtomicBool;

use boxls::maze::{plural, Grid};
use boxls::solver::{analyze, replay_frames, Analysis, Frame, Outcome};
use boxls::svg::{render, Options};
use expect_test::{expect, expect_file};
use roxmltree::{Document, Node};

use crate::generate::{self, Placement, Rng, Style};

fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows).expect("a valid test maze")
}

fn analysis(grid: &Grid) -> Analysis {
    analyze(grid, &AtomicBool::new(false)).expect("never cancelled")
}

fn picture(grid: &Grid, animate: bool) -> String {
    render(grid, 1, &analysis(grid), &Options { animate })
}

/// A small maze with a bend, dead squares and a walk round the box.
const SMALL: [&str; 6] = [
    "########", "#T....##", "#.##B..#", "#......#", "##S#...#", "########",
];

#[test]
fn snapshot_of_a_solved_maze() {
    expect_file!["../fixtures/render/solved.svg"].assert_eq(&picture(&grid(&SMALL), false));
}

#[test]
fn snapshot_of_an_animated_maze() {
    expect_file!["../fixtures/render/animated.svg"].assert_eq(&picture(&grid(&SMALL), true));
}

#[test]
fn snapshot_of_an_unsolvable_maze() {
    let unsolvable = grid(&["#######", "#S#...#", "#.B.#T#", "#######"]);
    let svg = picture(&unsolvable, true);
    expect_file!["../fixtures/render/unsolvable.svg"].assert_eq(&svg);
}

// ---- The XML, read back ----

fn by_id<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Option<Node<'a, 'i>> {
    doc.descendants().find(|n| n.attribute("id") == Some(id))
}

fn count_id(doc: &Document, id: &str) -> usize {
    doc.descendants()
        .filter(|n| n.attribute("id") == Some(id))
        .count()
}

/// The numbers of an attribute such as `translate(20 30) scale(4)` or `1,2 3,4`.
fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a number"))
        .collect()
}

/// Cells covered by a path of rectangles, `M{col} {row}h{w}v{h}h-{w}z` and then
/// `m{dcol} {drow}…` relative to the previous rectangle's corner, each cell as often
/// as it is covered.
fn covered_cells(d: &str, cols: usize) -> Vec<usize> {
    assert!(
        d.is_empty() || (d.starts_with('M') && !d[1..].contains('M')),
        "one absolute move first: {d}"
    );
    let mut cells = Vec::new();
    let (mut col, mut row) = (0i64, 0i64);
    for (index, rect) in d.split(['M', 'm']).filter(|s| !s.is_empty()).enumerate() {
        let n = numbers(rect);
        assert_eq!(n.len(), 5, "a rectangle: {rect}");
        assert_eq!(n[2], -n[4], "closed: {rect}");
        if index > 0 {
            (col, row) = (col + n[0] as i64, row + n[1] as i64);
        } else {
            (col, row) = (n[0] as i64, n[1] as i64);
        }
        let (w, h) = (n[2] as i64, n[3] as i64);
        for r in row..row + h {
            for c in col..col + w {
                cells.push((r * cols as i64 + c) as usize);
            }
        }
    }
    cells.sort_unstable();
    cells
}

/// Where the board is: its top-left corner and pixels per cell.
fn board_scale(doc: &Document) -> (f64, f64, f64) {
    let board = by_id(doc, "board").expect("a board group");
    match numbers(board.attribute("transform").expect("a transform"))[..] {
        [x, y, cell] => (x, y, cell),
        ref other => panic!("board transform {other:?}"),
    }
}

/// The pixel centre of a cell.
fn centre_px(doc: &Document, grid: &Grid, cell: usize) -> (f64, f64) {
    let (x, y, size) = board_scale(doc);
    let (row, col) = grid.coords(cell);
    (x + (col as f64 + 0.5) * size, y + (row as f64 + 0.5) * size)
}

fn translation(node: Node) -> (f64, f64) {
    let n = numbers(node.attribute("transform").expect("a transform"));
    (n[0], n[1])
}

fn close(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() < 0.1 && (a.1 - b.1).abs() < 0.1
}

/// Checks every drawn element of `svg` against the grid and the solver.
fn check_picture(grid: &Grid, analysis: &Analysis, svg: &str, animate: bool) {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    for id in ["board", "target", "box", "player", "headline"] {
        assert_eq!(count_id(&doc, id), 1, "one #{id}");
    }
    for (id, cell) in [
        ("target", grid.target),
        ("box", grid.boxed),
        ("player", grid.player),
    ] {
        let node = by_id(&doc, id).expect("present");
        assert!(
            close(translation(node), centre_px(&doc, grid, cell)),
            "#{id} is drawn on its cell"
        );
    }
    check_board(&doc, grid, &analysis.dead);
    check_pieces(&doc, None);
    match &analysis.outcome {
        Outcome::Solved(solution) => {
            let frames = replay_frames(grid, &solution.path).expect("the solution replays");
            check_trail(&doc, grid, &frames);
            let headline = by_id(&doc, "headline").and_then(|n| n.text()).unwrap_or("");
            let counts = format!(
                "{} · {}",
                plural(solution.pushes, "push", "pushes"),
                plural(solution.moves, "move", "moves")
            );
            assert!(headline.ends_with(&counts), "{headline}");
            assert_eq!(count_id(&doc, "note"), 0);
            if animate {
                check_animation(&doc, grid, &frames);
                check_pieces(&doc, Some(&frames));
            }
        }
        Outcome::Unsolvable(reason) => {
            assert_eq!(count_id(&doc, "trail"), 0);
            let note = by_id(&doc, "note").and_then(|n| n.text()).unwrap_or("");
            let reason = reason.to_string();
            assert!(note.to_lowercase().contains(&reason), "{note} / {reason}");
            assert_eq!(
                doc.descendants()
                    .filter(|n| n.has_tag_name("animateTransform"))
                    .count(),
                0
            );
        }
    }
}

/// Rock, floor and dead squares: each cell painted exactly as it is.
fn check_board(doc: &Document, grid: &Grid, dead: &[bool]) {
    let floor = by_id(doc, "floor").expect("#floor");
    let rock = doc
        .descendants()
        .find(|n| {
            n.attribute("class") == Some("rock")
                && n.ancestors().any(|a| a.attribute("id") == Some("board"))
        })
        .expect("rock");
    let walls: Vec<usize> = (0..grid.cell_count()).filter(|&c| grid.walls[c]).collect();
    let free: Vec<usize> = (0..grid.cell_count()).filter(|&c| !grid.walls[c]).collect();
    // One of them is a rectangle under the whole board, the other the cells on top.
    match (floor.tag_name().name(), rock.tag_name().name()) {
        ("rect", "path") => assert_eq!(
            covered_cells(rock.attribute("d").unwrap_or(""), grid.cols),
            walls
        ),
        ("path", "rect") => assert_eq!(
            covered_cells(floor.attribute("d").unwrap_or(""), grid.cols),
            free
        ),
        other => panic!("floor and rock drawn as {other:?}"),
    }
    let dead_cells: Vec<usize> = (0..grid.cell_count()).filter(|&c| dead[c]).collect();
    match by_id(doc, "dead") {
        Some(node) => assert_eq!(
            covered_cells(node.attribute("d").unwrap_or(""), grid.cols),
            dead_cells
        ),
        None => assert!(dead_cells.is_empty()),
    }
}

/// The trail's points are the box's cells, start and after each push, in cell units.
fn check_trail(doc: &Document, grid: &Grid, frames: &[Frame]) {
    let mut cells: Vec<usize> = frames.iter().map(|f| f.boxed).collect();
    cells.dedup();
    let expected: Vec<f64> = cells
        .iter()
        .flat_map(|&cell| {
            let (row, col) = grid.coords(cell);
            [col as f64 + 0.5, row as f64 + 0.5]
        })
        .collect();
    let trail = by_id(doc, "trail").expect("#trail");
    assert_eq!(numbers(trail.attribute("points").unwrap_or("")), expected);
    if let Some(arrows) = by_id(doc, "pushes") {
        let d = arrows.attribute("d").unwrap_or("");
        assert_eq!(
            d.matches('M').count(),
            cells.len() - 1,
            "one arrow per push"
        );
    }
}

/// A SMIL animation's key times and values.
type Keyframes = (Vec<f64>, Vec<Vec<f64>>);

/// The smallest a piece may be drawn, in pixels, to stay legible.
const LEGIBLE_PX: f64 = 16.0;

/// A piece as drawn: its cell's centre, its marker's offset from it, and its width.
struct Drawn {
    anchor: (f64, f64),
    offset: (f64, f64),
    width: f64,
}

/// Target, box and player are legible at any size and never cover one another (nor,
/// where a cell is big enough, reach past their cell): read from the markers' geometry,
/// on the still picture or, with `frames`, at every move of the animation.
fn check_pieces(doc: &Document, frames: Option<&[Frame]>) {
    let (_, _, cell) = board_scale(doc);
    let pieces: Vec<(Node, Node, f64)> = ["target", "box", "player"]
        .iter()
        .map(|id| {
            let piece = by_id(doc, id).expect("a piece");
            let marker = piece
                .children()
                .find(|n| n.attribute("class") == Some("marker"))
                .unwrap_or_else(|| panic!("#{id} has a marker"));
            let shape = marker
                .children()
                .find(|n| n.has_tag_name("use"))
                .expect("the marker's shape");
            let width = numbers(shape.attribute("transform").unwrap_or(""))[0];
            assert!(width >= LEGIBLE_PX - 1e-9, "#{id} is {width} px wide");
            if cell >= LEGIBLE_PX {
                assert!(
                    width <= cell + 1e-9,
                    "#{id} ({width} px) fits its {cell} px cell"
                );
            } else {
                let pin = piece
                    .children()
                    .find(|n| n.attribute("class") == Some("pin"));
                assert!(pin.is_some(), "#{id} enlarged keeps a pin on its cell");
            }
            (piece, marker, width)
        })
        .collect();
    let width = pieces[0].2;
    let apart = |at: [Drawn; 3], when: &str| {
        let centre = |d: &Drawn| (d.anchor.0 + d.offset.0, d.anchor.1 + d.offset.1);
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            if i == 0 && close(at[0].anchor, at[j].anchor) {
                continue; // the box or the player on the target: that is where they are
            }
            let (a, b) = (centre(&at[i]), centre(&at[j]));
            let distance = (a.0 - b.0).hypot(a.1 - b.1);
            assert!(
                // Touching is apart; key times are written to a millionth of the loop, so
                // a long animation sampled at a move is good to a few hundredths of a pixel.
                distance >= at[i].width.max(at[j].width) - 0.05,
                "{when}: pieces {i} and {j} overlap ({distance} px apart, {width} px wide)"
            );
        }
    };
    let still = |k: usize| Drawn {
        anchor: translation(pieces[k].0),
        offset: translation(pieces[k].1),
        width: pieces[k].2,
    };
    let Some(frames) = frames else {
        apart([still(0), still(1), still(2)], "the still picture");
        return;
    };
    // Anchors and offsets animated on one clock: sample both at each move.
    let track = |node: Node, fallback: (f64, f64)| {
        let animated = node.children().any(|n| n.has_tag_name("animateTransform"));
        if animated {
            animation(node)
        } else {
            (vec![0.0, 1.0], vec![vec![fallback.0, fallback.1]; 2])
        }
    };
    let tracks: Vec<[Keyframes; 2]> = (0..3)
        .map(|k| {
            [
                track(pieces[k].0, translation(pieces[k].0)),
                track(pieces[k].1, translation(pieces[k].1)),
            ]
        })
        .collect();
    let (box_times, _) = animation(pieces[1].0);
    let (first, last) = (box_times[1], box_times[box_times.len() - 2]);
    let moves = frames.len() - 1;
    for i in 0..=moves {
        let t = first + (last - first) * i as f64 / moves.max(1) as f64;
        let at = |k: usize| {
            let [(at, av), (ot, ov)] = &tracks[k];
            let (a, o) = (sample(at, av, t), sample(ot, ov, t));
            Drawn {
                anchor: (a[0], a[1]),
                offset: (o[0], o[1]),
                width,
            }
        };
        apart([at(0), at(1), at(2)], &format!("move {i}"));
    }
}

/// A linear SMIL animation sampled at `t` (0..=1).
fn sample(key_times: &[f64], values: &[Vec<f64>], t: f64) -> Vec<f64> {
    let i = key_times
        .windows(2)
        .position(|w| w[0] <= t && t <= w[1])
        .expect("t within the key times");
    let span = key_times[i + 1] - key_times[i];
    let f = if span > 0.0 {
        (t - key_times[i]) / span
    } else {
        0.0
    };
    values[i]
        .iter()
        .zip(&values[i + 1])
        .map(|(a, b)| a + (b - a) * f)
        .collect()
}

fn animation<'a, 'i>(node: Node<'a, 'i>) -> (Vec<f64>, Vec<Vec<f64>>) {
    let anim = node
        .descendants()
        .find(|n| n.has_tag_name("animateTransform") || n.has_tag_name("animate"))
        .expect("an animation");
    assert_eq!(anim.attribute("repeatCount"), Some("indefinite"));
    let key_times = numbers(&anim.attribute("keyTimes").unwrap_or("").replace(';', " "));
    let values: Vec<Vec<f64>> = anim
        .attribute("values")
        .unwrap_or("")
        .split(';')
        .map(numbers)
        .collect();
    assert_eq!(key_times.len(), values.len());
    assert_eq!(key_times.first(), Some(&0.0));
    assert_eq!(key_times.last(), Some(&1.0));
    assert!(key_times.windows(2).all(|w| w[0] <= w[1]), "{key_times:?}");
    (key_times, values)
}

/// Sampled at each move's moment, the player and the box are where the replay puts
/// them, and the growing trail shows the pushes made so far.
fn check_animation(doc: &Document, grid: &Grid, frames: &[Frame]) {
    let (box_times, box_values) = animation(by_id(doc, "box").expect("#box"));
    let (player_times, player_values) = animation(by_id(doc, "player").expect("#player"));
    // Frame 0 is shown at the second key time, the last frame at the last but one.
    let first = box_times[1];
    let last = box_times[box_times.len() - 2];
    let moves = frames.len() - 1;
    let mut pushes = 0.0;
    let progress = by_id(doc, "trail-progress").map(animation);
    for (i, frame) in frames.iter().enumerate() {
        let t = first + (last - first) * i as f64 / moves as f64;
        let at = |v: Vec<f64>| (v[0], v[1]);
        assert!(
            close(
                at(sample(&box_times, &box_values, t)),
                centre_px(doc, grid, frame.boxed)
            ),
            "box at move {i}"
        );
        assert!(
            close(
                at(sample(&player_times, &player_values, t)),
                centre_px(doc, grid, frame.player)
            ),
            "player at move {i}"
        );
        if i > 0 && frames[i - 1].boxed != frame.boxed {
            pushes += 1.0;
        }
        if let Some((times, values)) = &progress {
            let offset = sample(times, values, t)[0];
            let total = values[0][0];
            assert!(
                (total - offset - pushes).abs() < 0.01,
                "trail after move {i}"
            );
        }
    }
}

#[test]
fn the_classic_sample_reads_back_exactly() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sample.box"))
            .expect("the sample");
    let parsed = boxls::maze::parse(&text);
    for maze in &parsed.mazes {
        let grid = maze.grid.as_ref().expect("the sample is valid");
        let analysis = analysis(grid);
        for animate in [false, true] {
            let svg = render(grid, maze.index, &analysis, &Options { animate });
            check_picture(grid, &analysis, &svg, animate);
        }
    }
}

#[test]
fn generated_mazes_read_back_exactly() {
    let mut rng = Rng::new(0x5766);
    for round in 0..300 {
        let size = generate::size(&mut rng, 16);
        let grid = generate::mixed(&mut rng, size);
        let analysis = analysis(&grid);
        let animate = round % 2 == 0;
        let svg = render(&grid, round + 1, &analysis, &Options { animate });
        check_picture(&grid, &analysis, &svg, animate);
    }
}

#[test]
fn a_solution_that_does_not_replay_is_a_note_not_a_wrong_trail() {
    let g = grid(&["SB..T"]);
    let mut broken = analysis(&g);
    broken.outcome = Outcome::Solved(boxls::solver::Solution {
        pushes: 1,
        moves: 1,
        path: "W".into(),
    });
    let svg = render(&g, 1, &broken, &Options { animate: true });
    let doc = Document::parse(&svg).expect("XML");
    let note = by_id(&doc, "note").and_then(|n| n.text()).unwrap_or("");
    assert_eq!(
        note,
        "internal error: the solution does not replay (`W` walks off the edge of the maze)"
    );
    assert_eq!(count_id(&doc, "trail"), 0);
}

/// A solvable 300×300 maze of `style` and its analysis: S, B and T anywhere in the
/// largest open region (so the box usually travels far), or for corridors (where
/// that is hardly ever solvable) the box pulled away from T.
fn big_maze(seed: u64, style: Style) -> (Grid, Analysis) {
    let mut rng = Rng::new(seed);
    let placement = match style {
        Style::Corridors { .. } => Placement::Pulled,
        _ => Placement::Region,
    };
    loop {
        let grid = generate::generate(&mut rng, style, placement, (300, 300));
        let analysis = analysis(&grid);
        if matches!(analysis.outcome, Outcome::Solved(_)) {
            return (grid, analysis);
        }
    }
}

#[test]
fn big_mazes_stay_small() {
    for (seed, style) in [
        (1, Style::Rooms(0.04)),
        (2, Style::Scatter(0.3)),
        (3, Style::Corridors { loops: 40 }),
    ] {
        let (grid, analysis) = big_maze(seed, style);
        for animate in [false, true] {
            let svg = render(&grid, 1, &analysis, &Options { animate });
            check_picture(&grid, &analysis, &svg, animate);
            // Merged rectangles and one path per layer, not one element per cell.
            let doc = Document::parse(&svg).expect("XML");
            assert!(
                doc.descendants().count() < 120,
                "{style:?}: {} nodes",
                doc.descendants().count()
            );
            assert!(svg.len() < 1_200_000, "{style:?}: {} bytes", svg.len());
        }
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("render-300-{seed}.box"));
        std::fs::write(path, generate::render_file(&[grid])).expect("write the maze for measuring");
    }
}

/// A 1000×1000 open room with the pieces crowded together: the player below the box
/// (it must walk round it), the target two cells to the right.
fn crowded_room() -> Grid {
    let n = 1000;
    Grid {
        rows: n,
        cols: n,
        walls: vec![false; n * n],
        player: 501 * n + 500,
        boxed: 500 * n + 500,
        target: 500 * n + 502,
    }
}

#[test]
fn pieces_on_a_1000_by_1000_board_are_legible_and_apart() {
    let grid = crowded_room();
    let analysis = analysis(&grid);
    assert!(matches!(analysis.outcome, Outcome::Solved(_)));
    for animate in [false, true] {
        let svg = render(&grid, 1, &analysis, &Options { animate });
        // check_picture reads the pieces back: on their cells, legible, apart.
        check_picture(&grid, &analysis, &svg, animate);
        let doc = Document::parse(&svg).expect("XML");
        let (_, _, cell) = board_scale(&doc);
        assert!(cell < 1.0, "a fine board: {cell} px a cell");
        // Crowded, so some marker had to move aside from its cell.
        let moved = ["box", "player"].iter().any(|id| {
            let marker = by_id(&doc, id)
                .and_then(|p| {
                    p.children()
                        .find(|n| n.attribute("class") == Some("marker"))
                })
                .expect("a marker");
            let (dx, dy) = translation(marker);
            dx != 0.0
                || dy != 0.0
                || marker
                    .children()
                    .any(|n| n.has_tag_name("animateTransform"))
        });
        assert!(moved, "crowded pieces move aside (animate: {animate})");
    }
}

// ---- The binary ----

fn boxls(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boxls"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boxls runs");
    let mut pipe = child.stdin.take().expect("piped stdin");
    std::io::Write::write_all(&mut pipe, stdin).expect("write stdin");
    drop(pipe);
    child.wait_with_output().expect("boxls finishes")
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8")
}

fn sample_file() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sample.box"))
        .expect("the sample")
}

#[test]
fn render_reads_a_file_or_stdin() {
    let from_file = boxls(&["render", "examples/sample.box", "--maze", "3"], b"");
    assert_eq!(
        from_file.status.code(),
        Some(0),
        "{}",
        text(&from_file.stderr)
    );
    assert_eq!(text(&from_file.stderr), "");
    assert!(text(&from_file.stdout).starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(text(&from_file.stdout).contains("Maze #3 · 7×11 · 6 pushes · 28 moves"));
    for args in [
        &["render", "--maze", "3"][..],
        &["render", "-", "--maze", "3"],
    ] {
        let from_stdin = boxls(args, &sample_file());
        assert_eq!(from_stdin.status.code(), Some(0));
        assert_eq!(from_stdin.stdout, from_file.stdout, "{args:?}");
    }
}

#[test]
fn render_draws_the_first_maze_by_default() {
    let run = boxls(&["render"], b"1 7\nSB....T\n0 0\n");
    assert_eq!(run.status.code(), Some(0));
    assert!(text(&run.stdout).contains("Maze #1 · 1×7 · 5 pushes · 5 moves"));
}

#[test]
fn render_an_unsolvable_maze_draws_the_board_with_a_note() {
    let run = boxls(
        &["render", "examples/sample.box", "--maze", "2", "--animate"],
        b"",
    );
    assert_eq!(run.status.code(), Some(0));
    let svg = text(&run.stdout);
    let doc = Document::parse(svg).expect("XML");
    assert_eq!(
        by_id(&doc, "note").and_then(|n| n.text()),
        Some("No push can ever move the box onto the target.")
    );
    assert!(by_id(&doc, "trail").is_none() && !svg.contains("<animate"));
}

#[test]
fn render_writes_the_output_file() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("render-out.svg");
    let _ = std::fs::remove_file(&out);
    let out_arg = out.to_str().expect("a UTF-8 path");
    let run = boxls(
        &[
            "render",
            "examples/sample.box",
            "--maze",
            "3",
            "--animate",
            "-o",
            out_arg,
        ],
        b"",
    );
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert_eq!(run.stdout, b"");
    let written = std::fs::read(&out).expect("the output file");
    let to_stdout = boxls(
        &["render", "examples/sample.box", "--maze", "3", "--animate"],
        b"",
    );
    assert_eq!(written, to_stdout.stdout);
}

#[test]
fn render_refuses_a_maze_that_is_not_there() {
    let run = boxls(&["render", "examples/sample.box", "--maze", "5"], b"");
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(run.stdout, b"");
    assert_eq!(
        text(&run.stderr),
        "boxls: there is no maze #5 in `examples/sample.box`: it has 4 mazes\n"
    );
    let run = boxls(&["render"], b"; nothing here\n0 0\n");
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(
        text(&run.stderr),
        "boxls: there is no maze #1 in `<stdin>`: it has 0 mazes\n"
    );
    for bad in ["0", "three", "-1"] {
        let run = boxls(&["render", "examples/sample.box", "--maze", bad], b"");
        assert_eq!(run.status.code(), Some(2), "--maze {bad}");
        let stderr = text(&run.stderr);
        // clap reads `-1` as an unknown option.
        assert!(
            stderr.contains("expected a maze number") || bad == "-1",
            "{stderr}"
        );
        assert!(
            stderr.starts_with("error: ") && stderr.contains("'-"),
            "{stderr}"
        );
    }
}

#[test]
fn render_of_a_broken_maze_prints_its_diagnostics() {
    let run = boxls(
        &["render", "tests/fixtures/cli/broken.box", "--maze", "2"],
        b"",
    );
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(run.stdout, b"");
    expect![[r#"
        error[bad-char]: `s` is not a cell: use `#` `.` `S` `B` `T`
          ┌─ tests/fixtures/cli/broken.box:5:2
          │
        5 │ #sBT#
          │  ^
          │
          = help: Replace with `S`

    "#]]
    .assert_eq(text(&run.stderr));
    // Another maze of the same file is fine.
    let run = boxls(
        &["render", "tests/fixtures/cli/broken.box", "--maze", "3"],
        b"",
    );
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
}

#[test]
fn render_reports_an_unwritable_output() {
    let run = boxls(
        &[
            "render",
            "examples/sample.box",
            "-o",
            "tests/fixtures/no-such-dir/out.svg",
        ],
        b"",
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).starts_with("boxls: cannot write `tests/fixtures/no-such-dir/out.svg`: "),
        "{}",
        text(&run.stderr)
    );
}

#[test]
fn render_help_shows_examples_and_exit_codes() {
    let run = boxls(&["render", "--help"], b"");
    assert_eq!(run.status.code(), Some(0));
    let help = text(&run.stdout);
    for needle in [
        "Usage: boxls render [OPTIONS] [FILE]",
        "--maze <N>",
        "--animate",
        "-o, --output <OUT>",
        "Examples:",
        "Exit codes:",
    ] {
        assert!(help.contains(needle), "{needle}:\n{help}");
    }
}

/// The pictures in the manual are what the binary draws now (regenerate with the
/// commands in its Pictures chapter).
#[test]
fn committed_pictures_are_current() {
    for (file, args) in [
        (
            "docs/src/images/sample-maze3.svg",
            &["render", "examples/sample.box", "--maze", "3"][..],
        ),
        (
            "docs/src/images/sample-maze3-animated.svg",
            &["render", "examples/sample.box", "--maze", "3", "--animate"],
        ),
    ] {
        let committed =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap_or_default();
        let now = boxls(args, b"");
        assert_eq!(now.status.code(), Some(0));
        assert!(
            committed == now.stdout,
            "{file} is stale: run `boxls {}` (see the manual's Pictures chapter)",
            args.join(" ")
        );
    }
}

// ---- Sokoban levels ----

/// Level `index` (from 1) of `text`, drawn with the solver's answer.
fn level_picture(text: &str, index: usize, animate: bool) -> (boxls::level::Position, String) {
    use boxls::sokoban::{self, Limits, Mode, Outcome as Solved};
    let collection = boxls::level::parse(text);
    let level = &collection.levels[index - 1];
    let position = level.board.position().expect("one player");
    let outcome = match sokoban::solve(
        &position,
        Mode::Optimal,
        &Limits::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    ) {
        Solved::Solved(solution) => boxls::svg::LevelOutcome::Solved {
            lurd: solution.lurd,
            optimal: solution.optimal,
        },
        Solved::Unsolvable => boxls::svg::LevelOutcome::Unsolvable,
        other => panic!("small levels are settled: {other:?}"),
    };
    let name = format!("Level {index}");
    let svg = boxls::svg::render_level(
        &level.board,
        &position,
        name,
        &outcome,
        &Options { animate },
    );
    (position, svg)
}

const LEVELS: &str = "\
Warehouse
#######
#     #
# $$  #
# @   #
#..   #
#######

  ####
###  #
#.$@ #
#  $.#
######

#####
#@$ #
#$ .#
#  .#
#####
";

#[test]
fn snapshot_of_a_level() {
    expect_file!["../fixtures/render/level.svg"].assert_eq(&level_picture(LEVELS, 1, false).1);
}

/// Every goal and box drawn once (`goal-k`, `box-k`) at its cell; animated, each box
/// starts where the level has it and ends on a goal, and each that moves has a trail.
#[test]
fn level_pictures_show_every_box_and_play_to_solved() {
    for index in 1..=2 {
        for animate in [false, true] {
            let (position, svg) = level_picture(LEVELS, index, animate);
            let doc = Document::parse(&svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
            let (x, y, size) = board_scale(&doc);
            let centre = |cell: usize| {
                let (row, col) = (cell / position.width, cell % position.width);
                (x + (col as f64 + 0.5) * size, y + (row as f64 + 0.5) * size)
            };
            let goals: Vec<usize> = (0..position.goals.len())
                .filter(|&c| position.goals[c])
                .collect();
            for (k, &goal) in goals.iter().enumerate() {
                let node = by_id(&doc, &format!("goal-{}", k + 1)).expect("a goal");
                assert!(close(translation(node), centre(goal)), "goal {k}");
            }
            assert_eq!(count_id(&doc, "box"), 0, "a level's boxes are numbered");
            for (k, &start) in position.boxes.iter().enumerate() {
                let node = by_id(&doc, &format!("box-{}", k + 1)).expect("a box");
                assert!(close(translation(node), centre(start)), "box {k} starts");
                if !animate {
                    continue;
                }
                let (times, values) = animation(node);
                let end = sample(&times, &values, times[times.len() - 2]);
                let on = goals.iter().any(|&g| close((end[0], end[1]), centre(g)));
                assert!(on, "level {index}: box {k} ends on a goal at {end:?}");
                let moved = values.windows(2).any(|w| w[0] != w[1]);
                let trail = by_id(&doc, &format!("trail-{}", k + 1));
                assert_eq!(trail.is_some(), moved, "box {k}: a trail when it moves");
            }
            let headline = by_id(&doc, "headline").and_then(|n| n.text()).unwrap_or("");
            let boxes = plural(position.boxes.len() as u64, "box", "boxes");
            assert!(
                headline.starts_with(&format!("Level {index} · ")) && headline.contains(&boxes),
                "{headline}"
            );
            assert!(headline.ends_with("(optimal)"), "{headline}");
        }
    }
}

/// The void round an XSB board is paper: neither floor nor rock covers it.
#[test]
fn a_levels_void_is_left_as_paper() {
    let (position, svg) = level_picture(LEVELS, 2, false);
    let doc = Document::parse(&svg).expect("XML");
    let path = |id: &str| {
        let node = doc
            .descendants()
            .find(|n| {
                n.attribute("id") == Some(id)
                    || (id == "rock"
                        && n.attribute("class") == Some("rock")
                        && n.has_tag_name("path"))
            })
            .expect("a path");
        covered_cells(node.attribute("d").unwrap_or(""), position.width)
    };
    let (floor, rock) = (path("floor"), path("rock"));
    // Row 0 of level 2 starts with two void cells.
    assert!(!floor.contains(&0) && !rock.contains(&0) && !rock.contains(&1));
    assert!(rock.contains(&2), "the first wall");
    assert_eq!(
        floor.len() + rock.len(),
        position.width * position.height - 2
    );
}

#[test]
fn an_unsolvable_level_is_drawn_with_a_note() {
    let (_, svg) = level_picture(LEVELS, 3, true);
    let doc = Document::parse(&svg).expect("XML");
    let headline = by_id(&doc, "headline").and_then(|n| n.text()).unwrap_or("");
    assert!(headline.ends_with("· unsolvable"), "{headline}");
    assert!(by_id(&doc, "note").is_some());
    assert_eq!(count_id(&doc, "trail-1"), 0);
}
