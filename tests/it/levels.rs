//! Sokoban levels in the core: the three collections of `tests/levels/` read exactly as
//! the `soukoban` crate reads them and check clean; run-length and formatting round
//! trips on every level (and the editor's *Expand*/*Compress run-length rows* on each
//! level alone); `.box` ⇄ `.xsb` keeps the puzzle; and the static deadlock
//! rules never flag a solvable position (an exhaustive search over thousands of small
//! generated positions, in this file).

use std::collections::{HashSet, VecDeque};

use boxls::level::{
    box_to_xsb, check, compress_row, expand_row, format, parse, xsb_to_box, Cell, Code, Collection,
    Position, RunLength,
};

use crate::generate::Rng;

const COLLECTIONS: [(&str, usize); 3] = [
    ("Microban_155.xsb", 155),
    ("XSokoban_90.xsb", 90),
    ("Sasquatch_50.xsb", 50),
];

fn collection(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/levels")
        .join(name);
    std::fs::read_to_string(path).expect("the collections are in tests/levels")
}

/// (walls, boxes, goals, player) as sorted (column, row) pairs.
type Cells = (
    Vec<(i32, i32)>,
    Vec<(i32, i32)>,
    Vec<(i32, i32)>,
    (i32, i32),
);

fn ours(collection: &Collection) -> Vec<Cells> {
    collection
        .levels
        .iter()
        .map(|level| {
            let board = &level.board;
            let at = |cell: usize| {
                let (row, col) = board.coords(cell);
                (col as i32, row as i32)
            };
            let pick = |keep: fn(Cell) -> bool| {
                let mut cells: Vec<_> = (0..board.cells.len())
                    .filter(|&i| keep(board.cells[i]))
                    .map(at)
                    .collect();
                cells.sort_unstable();
                cells
            };
            let [player] = board.players()[..] else {
                panic!("level {} has one player", level.index)
            };
            (
                pick(|c| c == Cell::Wall),
                pick(Cell::has_box),
                pick(Cell::has_goal),
                at(player),
            )
        })
        .collect()
}

fn soukobans(text: &str) -> Vec<Cells> {
    soukoban::level::Level::load_from_str(text)
        .map(|level| {
            let map = level.expect("soukoban reads the level").map().clone();
            let sorted = |cells: &mut dyn Iterator<Item = (i32, i32)>| {
                let mut cells: Vec<_> = cells.collect();
                cells.sort_unstable();
                cells
            };
            let size = map.dimensions();
            let walls = sorted(
                &mut (0..size.y)
                    .flat_map(|y| (0..size.x).map(move |x| (x, y)))
                    .filter(|&(x, y)| {
                        map[soukoban::Vector2::new(x, y)].intersects(soukoban::tiles::Tiles::Wall)
                    }),
            );
            let boxes = sorted(&mut map.box_positions().iter().map(|p| (p.x, p.y)));
            let goals = sorted(&mut map.goal_positions().iter().map(|p| (p.x, p.y)));
            let player = map.player_position();
            (walls, boxes, goals, (player.x, player.y))
        })
        .collect()
}

#[test]
fn every_level_reads_as_the_soukoban_crate_reads_it() {
    for (name, count) in COLLECTIONS {
        let text = collection(name);
        let mine = ours(&parse(&text));
        let theirs = soukobans(&text);
        assert_eq!(mine.len(), count, "{name}");
        assert_eq!(theirs.len(), count, "{name}");
        for (k, (a, b)) in mine.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{name} level {}", k + 1);
        }
    }
}

#[test]
fn every_level_of_the_collections_checks_clean_and_has_its_title() {
    for (name, count) in COLLECTIONS {
        let text = collection(name);
        let checked = check(&text);
        let shown: Vec<_> = checked
            .diagnostics
            .iter()
            .map(|d| format!("{} at {:?}: {}", d.code, d.range, d.message))
            .collect();
        assert!(shown.is_empty(), "{name}: {shown:#?}");
        let titles: Vec<_> = checked
            .collection
            .levels
            .iter()
            .map(|level| level.title.as_ref().map(|t| t.text.as_str()))
            .collect();
        assert_eq!(titles.len(), count);
        assert!(titles.iter().all(Option::is_some), "{name}: {titles:?}");
        match name {
            "Microban_155.xsb" => {
                assert_eq!(titles[0], Some("1"));
                assert_eq!(titles[43], Some("Duh!"));
                assert_eq!(titles[154], Some("The Dungeon"));
            }
            "XSokoban_90.xsb" => assert_eq!(titles[1], Some("screen.02")),
            _ => assert_eq!(titles[49], Some("Particle Theory")),
        }
    }
}

/// Each level's board as rows, for comparing two readings of the same levels.
fn boards(text: &str) -> Vec<(Vec<String>, Option<String>)> {
    parse(text)
        .levels
        .iter()
        .map(|level| {
            (
                level.board.to_rows(),
                level.title.as_ref().map(|t| t.text.clone()),
            )
        })
        .collect()
}

#[test]
fn run_length_expand_after_compress_is_the_identity_on_every_row() {
    for (name, _) in COLLECTIONS {
        let text = collection(name);
        let collection = parse(&text);
        for level in &collection.levels {
            for row in &level.board.rows {
                let row = &text[row.clone()];
                let compressed = compress_row(row);
                assert_eq!(expand_row(&compressed), row, "{name} level {}", level.index);
                assert!(compressed.len() <= row.len());
            }
        }
        let compressed = format(&text, RunLength::Compress);
        assert_ne!(compressed, format(&text, RunLength::Keep));
        assert_eq!(
            format(&compressed, RunLength::Expand),
            format(&text, RunLength::Keep),
            "{name}"
        );
        assert_eq!(boards(&compressed), boards(&text), "{name}");
    }
}

/// The editor's *Expand run-length rows* and *Compress run-length rows* of each level
/// of the collections, applied one level at a time: every level reads as before (its
/// board, title, solutions and diagnostics), the others are untouched, and expanding
/// the compressed level gives its rows back.
#[test]
fn expanding_or_compressing_one_level_keeps_every_level() {
    use boxls::ide::{level_actions, ActionKinds, LevelFile, LevelStatus, Options};
    let rewrite = |text: &str,
                   checked: &boxls::level::CheckedFile,
                   index: usize,
                   title: &str|
     -> Option<String> {
        let file = LevelFile {
            text,
            checked,
            options: Options::default(),
        };
        let statuses = vec![LevelStatus::Skipped; checked.collection.levels.len()];
        let level = &checked.collection.levels[index];
        let at = level.board_lines.start;
        let action = level_actions(&file, &statuses, at..at, ActionKinds::ALL)
            .into_iter()
            .find(|action| action.title == title)?;
        let mut edited = text.to_string();
        for edit in action.edits.iter().rev() {
            edited.replace_range(edit.range.clone(), &edit.new_text);
        }
        Some(edited)
    };
    let solutions = |text: &str| -> Vec<Vec<String>> {
        parse(text)
            .levels
            .iter()
            .map(|level| {
                level
                    .solutions
                    .iter()
                    .map(|s| s.parts.iter().map(|p| &text[p.clone()]).collect())
                    .collect()
            })
            .collect()
    };
    let codes = |checked: &boxls::level::CheckedFile| -> Vec<&'static str> {
        checked
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect()
    };
    let (mut expanded, mut compressed) = (0, 0);
    for (name, count) in COLLECTIONS {
        let text = collection(name);
        let checked = check(&text);
        let before = (boards(&text), solutions(&text), codes(&checked));
        for index in 0..count {
            let Some(small) = rewrite(&text, &checked, index, "Compress run-length rows") else {
                continue;
            };
            compressed += 1;
            let context = format!("{name} level {}", index + 1);
            let small_checked = check(&small);
            assert_eq!(
                (boards(&small), solutions(&small), codes(&small_checked)),
                before,
                "{context}"
            );
            let back = rewrite(&small, &small_checked, index, "Expand run-length rows")
                .unwrap_or_else(|| panic!("{context}: a compressed level expands"));
            expanded += 1;
            assert_eq!(
                (boards(&back), solutions(&back), codes(&check(&back))),
                before,
                "{context}"
            );
            // The collections write one row per line, cell by cell (a trailing blank
            // is all a round trip may drop).
            let trimmed = |text: &str| -> Vec<String> {
                text.lines()
                    .map(|line| line.trim_end().to_string())
                    .collect()
            };
            assert!(
                trimmed(&back) == trimmed(&text),
                "{context}: expand after compress"
            );
            assert_eq!(
                rewrite(&text, &checked, index, "Expand run-length rows"),
                None
            );
        }
    }
    assert_eq!(
        (compressed, expanded),
        (295, 295),
        "every level has a row to compress"
    );
}

#[test]
fn formatting_twice_is_once_and_reads_the_same_levels() {
    for (name, _) in COLLECTIONS {
        let text = collection(name);
        for mode in [RunLength::Keep, RunLength::Expand, RunLength::Compress] {
            let once = format(&text, mode);
            assert_eq!(format(&once, mode), once, "{name} {mode:?}");
            assert_eq!(boards(&once), boards(&text), "{name} {mode:?}");
            assert!(check(&once).diagnostics.is_empty(), "{name} {mode:?}");
            assert!(!once.contains("\n\n\n") && !once.contains(" \n"));
        }
    }
    // CRLF stays CRLF.
    let crlf = "; 1\r\n\r\n\r\n####  \r\n#@$.#\r\n####\r\n";
    assert_eq!(
        format(crlf, RunLength::Keep),
        "; 1\r\n\r\n####\r\n#@$.#\r\n####\r\n"
    );
}

#[test]
fn box_to_xsb_and_back_keeps_every_sample_maze_and_its_answer() {
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sample.box"),
    )
    .unwrap();
    for run_length in [false, true] {
        let xsb = box_to_xsb(&sample, run_length).unwrap();
        // Impossible mazes stay impossible: out of the player's reach, nothing else.
        let errors: Vec<_> = check(&xsb)
            .diagnostics
            .into_iter()
            .filter(|d| d.is_error() && d.code != Code::UnreachableGoal)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let back = xsb_to_box(&xsb).unwrap();
        let before = boxls::maze::parse(&sample);
        let after = boxls::maze::parse(&back);
        assert!(after.diagnostics.is_empty(), "{:?}", after.diagnostics);
        assert_eq!(before.mazes.len(), after.mazes.len());
        for (a, b) in before.mazes.iter().zip(&after.mazes) {
            let solve = |maze: &boxls::maze::Maze| {
                boxls::solver::solve_path(maze.grid.as_deref().unwrap())
                    .map(|s| (s.pushes, s.moves))
            };
            assert_eq!(solve(a), solve(b), "maze {}", a.index);
        }
    }
}

// ---- Static deadlocks against an exhaustive search ----------------------------------

/// Whether `position` can be solved: breadth-first search over (player's region, boxes).
fn solvable(position: &Position) -> bool {
    let mut boxes = position.boxes.clone();
    boxes.sort_unstable();
    let start = (normal_player(position, position.player, &boxes), boxes);
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some((player, boxes)) = queue.pop_front() {
        if boxes.iter().all(|&b| position.goals[b]) {
            return true;
        }
        let mut occupied = vec![false; position.walls.len()];
        for &b in &boxes {
            occupied[b] = true;
        }
        let reach = position.walkable_from(player, &occupied);
        for (i, &b) in boxes.iter().enumerate() {
            for direction in 0..4 {
                let from = opposite(direction);
                let (Some(stand), Some(to)) = (
                    position.open_step(b, from),
                    position.open_step(b, direction),
                ) else {
                    continue;
                };
                if !reach[stand] || occupied[to] {
                    continue;
                }
                let mut next = boxes.clone();
                next[i] = to;
                next.sort_unstable();
                let state = (normal_player(position, b, &next), next);
                if seen.insert(state.clone()) {
                    queue.push_back(state);
                }
            }
        }
    }
    false
}

fn opposite(direction: usize) -> usize {
    [1, 0, 3, 2][direction]
}

/// The smallest cell of the player's region: one name per region.
fn normal_player(position: &Position, player: usize, boxes: &[usize]) -> usize {
    let mut occupied = vec![false; position.walls.len()];
    for &b in boxes {
        occupied[b] = true;
    }
    let reach = position.walkable_from(player, &occupied);
    (0..reach.len()).find(|&c| reach[c]).unwrap_or(player)
}

/// A small walled level: random inner walls, `boxes` boxes and as many goals, a player.
fn random_level(rng: &mut Rng) -> String {
    let (rows, cols) = (rng.between(3, 6), rng.between(3, 6));
    let walls = [0.0, 0.1, 0.2, 0.3][rng.below(4)];
    let mut cells = vec!['#'; (rows + 2) * (cols + 2)];
    let mut free = Vec::new();
    for r in 1..=rows {
        for c in 1..=cols {
            let cell = r * (cols + 2) + c;
            if !rng.chance(walls) {
                cells[cell] = ' ';
                free.push(cell);
            }
        }
    }
    let boxes = rng.between(1, 3);
    if free.len() < boxes + 1 {
        return String::new();
    }
    for i in (1..free.len()).rev() {
        free.swap(i, rng.below(i + 1));
    }
    for &cell in &free[..boxes] {
        cells[cell] = '$';
    }
    // Goals anywhere free, so some boxes start on them.
    let mut goals = free.clone();
    for i in (1..goals.len()).rev() {
        goals.swap(i, rng.below(i + 1));
    }
    let mut placed = 0;
    for &cell in &goals {
        if placed == boxes {
            break;
        }
        if cells[cell] == '$' {
            cells[cell] = '*';
            placed += 1;
        } else if cells[cell] == ' ' {
            cells[cell] = '.';
            placed += 1;
        }
    }
    let player = free
        .iter()
        .copied()
        .find(|&cell| cells[cell] == ' ' || cells[cell] == '.');
    let Some(player) = player else {
        return String::new();
    };
    cells[player] = if cells[player] == '.' { '+' } else { '@' };
    cells
        .chunks(cols + 2)
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect()
}

#[test]
fn static_deadlocks_are_never_reported_on_a_solvable_position() {
    let mut rng = Rng::new(0x50C0_BA29);
    let mut flagged = std::collections::BTreeMap::<&str, usize>::new();
    let (mut positions, mut unsolvable) = (0, 0);
    while positions < 6000 {
        let text = random_level(&mut rng);
        if text.is_empty() {
            continue;
        }
        let checked = check(&text);
        let Some(position) = checked.collection.levels[0].board.position() else {
            continue;
        };
        positions += 1;
        let solvable = solvable(&position);
        unsolvable += usize::from(!solvable);
        for diagnostic in &checked.diagnostics {
            assert!(
                !solvable,
                "{} on a solvable position:\n{text}{}",
                diagnostic.code, diagnostic.message
            );
            *flagged.entry(diagnostic.code.as_str()).or_default() += 1;
        }
    }
    // The rules must have been exercised, each of them, for the test to mean anything.
    for code in [Code::DeadSquare, Code::FrozenBoxes, Code::UnmatchedBoxes] {
        assert!(
            flagged.get(code.as_str()).copied().unwrap_or(0) >= 20,
            "{code} too rare: {flagged:?} of {unsolvable} unsolvable in {positions}"
        );
    }
}
