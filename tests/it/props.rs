//! Property tests: no input panics the parser, the solver, `check_text` or any
//! language server feature; every move string the solver returns replays legally onto
//! the target with the reported counts (and matches the reference optimum); every
//! quick fix, applied, removes the diagnostic it targets.
//!
//! Inputs are arbitrary bytes (as lossy UTF-8) and `.box`-like files: headers right
//! and wrong, rows of `#.SBT` with typos, comments, solution lines, blank lines, a
//! byte order mark, `\n` / `\r\n` / `\r`, with or without the terminator. The seed is
//! fixed so CI is deterministic; `PROPTEST_RNG_SEED=<n>` and `PROPTEST_CASES=<n>`
//! explore further.

use std::sync::atomic::AtomicBool;

use boxls::analysis::check_text;
use boxls::lsp::Options;
use boxls::maze::{format, parse, Grid};
use boxls::solver::{analyze, replay, solve, Outcome};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{select, subsequence, Index};
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{json, Value};

use super::lsp::client::{action_edits, apply_edits, offset_of, Client, URI};
use super::parser::{check_well_formed, map_through};
use super::reference;

/// The cases each property runs (before `PROPTEST_CASES`).
const BYTES_CASES: u32 = 50_000;
const FILE_CASES: u32 = 10_000;
const GRID_CASES: u32 = 5_000;
const LSP_CASES: u32 = 400;
const FORMAT_CASES: u32 = 3_000;

fn config(cases: u32) -> Config {
    let defaults = Config::default();
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    let rng_seed = match defaults.rng_seed {
        RngSeed::Random => RngSeed::Fixed(0x1475),
        fixed => fixed,
    };
    Config {
        cases,
        rng_seed,
        failure_persistence: None,
        ..defaults
    }
}

// ---------------------------------------------------------------------------------
// Strategies.

/// Arbitrary bytes read as lossy UTF-8, plain or biased towards the format's bytes.
fn any_text() -> impl Strategy<Value = String> {
    const ALPHABET: &[u8] = b"#.SBTsbtx -_;:0123456789nsewNSEW\n\r\t\xef\xbb\xbf\xf0\x9f\xa7\xb1";
    prop_oneof![vec(any::<u8>(), 0..300), vec(select(ALPHABET), 0..300),]
        .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// A small grid: `#`/`.` cells with S, B and T on three distinct cells when it fits.
fn grid_rows(max_rows: usize, max_cols: usize) -> impl Strategy<Value = Vec<String>> {
    (1..=max_rows, 1..=max_cols)
        .prop_flat_map(|(rows, cols)| {
            let cells = rows * cols;
            (
                Just(cols),
                vec(select(&['.', '.', '.', '#'][..]), cells),
                subsequence((0..cells).collect::<Vec<_>>(), cells.min(3)),
                0..6usize,
            )
        })
        .prop_map(|(cols, mut cells, spots, order)| {
            const ORDERS: [[char; 3]; 6] = [
                ['S', 'B', 'T'],
                ['S', 'T', 'B'],
                ['B', 'S', 'T'],
                ['B', 'T', 'S'],
                ['T', 'S', 'B'],
                ['T', 'B', 'S'],
            ];
            for (spot, symbol) in spots.into_iter().zip(ORDERS[order]) {
                cells[spot] = symbol;
            }
            cells.chunks(cols).map(|row| row.iter().collect()).collect()
        })
}

/// A change that makes a row wrong, the way typing does.
#[derive(Debug, Clone)]
enum Typo {
    Replace(Index, char),
    Delete(Index),
    Insert(Index, char),
    DropRow,
    DuplicateRow,
    Trailing(&'static str),
}

fn typo() -> impl Strategy<Value = (Index, Typo)> {
    let symbol = select(
        &[
            's', 'b', 't', ' ', '-', '_', 'x', 'é', '🧱', 'S', 'B', 'T', '#',
        ][..],
    );
    let kind = prop_oneof![
        (any::<Index>(), symbol.clone()).prop_map(|(at, c)| Typo::Replace(at, c)),
        any::<Index>().prop_map(Typo::Delete),
        (any::<Index>(), symbol).prop_map(|(at, c)| Typo::Insert(at, c)),
        Just(Typo::DropRow),
        Just(Typo::DuplicateRow),
        select(&[" ", "\t", "  \t", "x"][..]).prop_map(Typo::Trailing),
    ];
    (any::<Index>(), kind)
}

fn apply_typo(rows: &mut Vec<String>, (row, typo): &(Index, Typo)) {
    if rows.is_empty() {
        return;
    }
    let at = row.index(rows.len());
    let chars: Vec<char> = rows[at].chars().collect();
    let pick = |i: &Index, extra: usize| i.index(chars.len() + extra);
    let mut edited = chars.clone();
    match typo {
        Typo::Replace(i, c) if !chars.is_empty() => edited[pick(i, 0)] = *c,
        Typo::Delete(i) if !chars.is_empty() => {
            edited.remove(pick(i, 0));
        }
        Typo::Insert(i, c) => edited.insert(pick(i, 1), *c),
        Typo::DropRow => {
            rows.remove(at);
            return;
        }
        Typo::DuplicateRow => {
            rows.insert(at, rows[at].clone());
            return;
        }
        Typo::Trailing(blank) => edited.extend(blank.chars()),
        _ => {}
    }
    rows[at] = edited.into_iter().collect();
}

/// The header for a `rows`×`cols` maze: mostly right, sometimes wrong in every way.
fn header(rows: usize, cols: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        6 => Just(format!("{rows} {cols}")),
        1 => Just(format!(" \t{rows}\t {cols}  ")),
        1 => Just(format!("{} {cols}", rows + 1)),
        1 => Just(format!("{rows} {}", cols.saturating_sub(1))),
        1 => select(&["0 3", "3 0", "abc", "4", "1 2 3", "-1 2", "99999999999999999999 1", "5000 5000", "4096 4097", "3 x"][..])
            .prop_map(str::to_string),
    ]
}

/// What follows a maze's rows.
#[derive(Debug, Clone)]
enum Solution {
    None,
    /// The solver's own answer (a valid solution line).
    Optimal,
    /// The solver's answer with a detour added (legal and worse, or illegal).
    Detour(&'static str),
    Moves(String),
    Raw(&'static str),
}

fn solution() -> impl Strategy<Value = Solution> {
    prop_oneof![
        4 => Just(Solution::None),
        2 => Just(Solution::Optimal),
        1 => select(&["ew", "we", "ns", "sn", "W", "x"][..]).prop_map(Solution::Detour),
        1 => vec(select(&['n', 's', 'e', 'w', 'N', 'S', 'E', 'W'][..]), 0..12)
            .prop_map(|moves| Solution::Moves(moves.into_iter().collect())),
        1 => select(&[";solution:", "; solution: nsewX", "; solution:   ", "; solution: é🧱"][..])
            .prop_map(Solution::Raw),
    ]
}

fn solution_line(rows: &[String], solution: &Solution) -> Option<String> {
    let optimal = || {
        let grid = Grid::from_rows(rows)?;
        match solve(&grid) {
            Outcome::Solved(solution) => Some(solution.path),
            Outcome::Unsolvable(_) => None,
        }
    };
    let moves = match solution {
        Solution::None => return None,
        Solution::Raw(line) => return Some(line.to_string()),
        Solution::Optimal => optimal()?,
        Solution::Detour(detour) => optimal()? + detour,
        Solution::Moves(moves) => moves.clone(),
    };
    Some(format!("; solution: {moves}"))
}

/// One maze's lines: comments, header, rows with typos, a solution line.
fn maze_lines() -> impl Strategy<Value = Vec<String>> {
    grid_rows(6, 8)
        .prop_flat_map(|rows| {
            let (r, c) = (rows.len(), rows[0].chars().count());
            (
                Just(rows),
                header(r, c),
                prop_oneof![2 => Just(Vec::new()), 1 => vec(typo(), 1..3)],
                prop_oneof![4 => Just(false), 1 => Just(true)],
                solution(),
            )
        })
        .prop_map(|(mut rows, header, typos, comment, solution)| {
            let line = solution_line(&rows, &solution);
            for typo in &typos {
                apply_typo(&mut rows, typo);
            }
            let mut lines = Vec::new();
            if comment {
                lines.push("; a maze 🧱".to_string());
            }
            lines.push(header);
            lines.extend(rows);
            lines.extend(line);
            lines
        })
}

/// Lines that turn up between mazes in files being edited.
fn stray_line() -> impl Strategy<Value = String> {
    select(
        &[
            "", "   ", "\t", "; note", "#..#", "3 4", "x", "0 0", "S.B.T",
        ][..],
    )
    .prop_map(str::to_string)
}

/// A whole `.box`-like file.
fn box_file() -> impl Strategy<Value = String> {
    (
        vec((maze_lines(), vec(stray_line(), 0..2)), 0..4),
        prop_oneof![6 => Just("0 0"), 2 => Just(""), 1 => Just("0 0\nxyz"), 1 => Just("  0   0  ")],
        select(&["\n", "\r\n", "\r"][..]),
        vec(select(&["\n", "\r\n", "\r"][..]), 64),
        prop_oneof![4 => Just(false), 1 => Just(true)],
        prop_oneof![4 => Just(false), 1 => Just(true)],
        prop_oneof![4 => Just(true), 1 => Just(false)],
    )
        .prop_map(
            |(mazes, terminator, ending, mixed, use_mixed, bom, final_break)| {
                let mut lines: Vec<String> = Vec::new();
                for (maze, strays) in mazes {
                    lines.extend(maze);
                    lines.extend(strays);
                }
                if !terminator.is_empty() {
                    lines.extend(terminator.split('\n').map(str::to_string));
                }
                let mut text = String::from(if bom { "\u{feff}" } else { "" });
                for (i, line) in lines.iter().enumerate() {
                    text.push_str(line);
                    if i + 1 < lines.len() || final_break {
                        text.push_str(if use_mixed {
                            mixed[i % mixed.len()]
                        } else {
                            ending
                        });
                    }
                }
                text
            },
        )
}

/// Either kind of text.
fn some_text() -> impl Strategy<Value = String> {
    prop_oneof![3 => box_file(), 1 => any_text()]
}

// ---------------------------------------------------------------------------------
// The core: parser, solver, check_text, quick fixes.

/// Every solved maze's move string replays onto the target with the reported counts,
/// and the counts are the reference optimum; `analyze` agrees with `solve`.
fn check_solutions(text: &str) -> Result<(), TestCaseError> {
    let report = check_text(text);
    for (maze, outcome) in report.parsed.mazes.iter().zip(&report.outcomes) {
        let (Some(grid), Some(outcome)) = (&maze.grid, outcome) else {
            continue;
        };
        check_outcome(grid, outcome)?;
    }
    Ok(())
}

fn check_outcome(grid: &Grid, outcome: &Outcome) -> Result<(), TestCaseError> {
    let analysis = analyze(grid, &AtomicBool::new(false))
        .map_err(|_| TestCaseError::fail("analyze was cancelled"))?;
    prop_assert_eq!(&analysis.outcome, outcome);
    prop_assert_eq!(analysis.dead.len(), grid.cell_count());
    let expected = reference::solve(grid);
    match outcome {
        Outcome::Solved(solution) => {
            let replayed = replay(grid, &solution.path)
                .map_err(|illegal| TestCaseError::fail(format!("{illegal:?} in {solution:?}")))?;
            prop_assert!(replayed.solved, "{:?} leaves the box off T", solution);
            prop_assert_eq!(
                (replayed.pushes, replayed.moves),
                (solution.pushes, solution.moves)
            );
            prop_assert_eq!(expected, Some((solution.pushes, solution.moves)));
            prop_assert!(
                !analysis.dead[grid.boxed],
                "a solvable box on a dead square"
            );
        }
        Outcome::Unsolvable(reason) => prop_assert_eq!(expected, None, "{:?}", reason),
    }
    Ok(())
}

/// Every quick fix applies cleanly, leaves text that parses into as many mazes, and
/// removes the diagnostic it targets.
fn check_fixes(text: &str) -> Result<(), TestCaseError> {
    let before = check_text(text);
    for diagnostic in &before.diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        let fixed = fix.apply(text);
        check_well_formed(&fixed);
        let after = check_text(&fixed);
        prop_assert_eq!(
            after.parsed.mazes.len(),
            before.parsed.mazes.len(),
            "{}",
            fixed
        );
        let place = map_through(fix, diagnostic.range.start);
        let still_there = after
            .diagnostics
            .iter()
            .find(|d| d.code == diagnostic.code && d.range.start == place);
        prop_assert!(
            still_there.is_none(),
            "fix `{}` leaves {} in place:\n{:?}",
            fix.title,
            diagnostic.code,
            fixed
        );
    }
    Ok(())
}

#[test]
fn arbitrary_text_never_panics_and_ranges_are_sound() {
    let mut runner = TestRunner::new(config(BYTES_CASES));
    let result = runner.run(&any_text(), |text| {
        check_well_formed(&text);
        check_solutions(&text)?;
        check_fixes(&text)
    });
    result.unwrap_or_else(|failure| panic!("{failure}"));
}

#[test]
fn box_like_files_parse_solve_and_replay() {
    let mut runner = TestRunner::new(config(FILE_CASES));
    let result = runner.run(&box_file(), |text| {
        check_well_formed(&text);
        check_solutions(&text)
    });
    result.unwrap_or_else(|failure| panic!("{failure}"));
}

#[test]
fn quick_fixes_remove_their_diagnostic() {
    let mut runner = TestRunner::new(config(FILE_CASES));
    let result = runner.run(&box_file(), |text| check_fixes(&text));
    result.unwrap_or_else(|failure| panic!("{failure}"));
}

#[test]
fn solver_answers_replay_and_match_the_reference() {
    let mut runner = TestRunner::new(config(GRID_CASES));
    let result = runner.run(&grid_rows(10, 12), |rows| {
        let Some(grid) = Grid::from_rows(&rows) else {
            return Ok(());
        };
        check_outcome(&grid, &solve(&grid))
    });
    result.unwrap_or_else(|failure| panic!("{failure}"));
}

#[test]
fn the_generator_covers_valid_and_broken_files() {
    let mut runner = TestRunner::new(config(200));
    let (mut valid, mut broken, mut solved) = (0, 0, 0);
    for _ in 0..200 {
        let text = box_file().new_tree(&mut runner).expect("a value").current();
        let parsed = parse(&text);
        valid += parsed.mazes.iter().filter(|m| m.grid.is_some()).count();
        broken += parsed.mazes.iter().filter(|m| m.grid.is_none()).count();
        solved += usize::from(text.contains("; solution: "));
    }
    assert!(
        valid > 100 && broken > 50 && solved > 20,
        "{valid} {broken} {solved}"
    );
}

// ---------------------------------------------------------------------------------
// The formatter.

/// The lines a formatter must keep word for word: rows and comments (trailing blanks
/// aside), in order; headers, solution lines and blank lines are its to lay out.
fn kept_lines(text: &str) -> Vec<&str> {
    let is_header = |line: &str| {
        let mut words = line.split([' ', '\t']).filter(|w| !w.is_empty());
        let numeric = |w: Option<&str>| w.is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()));
        numeric(words.next()) && numeric(words.next()) && words.next().is_none()
    };
    let is_solution = |line: &str| {
        line.trim_start_matches([' ', '\t'])
            .strip_prefix(';')
            .is_some_and(|c| c.trim_start_matches([' ', '\t']).starts_with("solution:"))
    };
    text.trim_start_matches('\u{feff}')
        .split(['\n', '\r'])
        .map(|line| line.trim_end_matches([' ', '\t']))
        .filter(|line| !line.trim_start_matches([' ', '\t']).is_empty())
        .filter(|line| !is_header(line) && !is_solution(line))
        .collect()
}

/// Formatting twice is formatting once; rows and comments are kept; every maze that
/// had a grid keeps its number, grid and recorded moves, so its answer is unchanged.
fn check_format(text: &str) -> Result<(), TestCaseError> {
    let formatted = format(text);
    prop_assert_eq!(
        &format(&formatted),
        &formatted,
        "not idempotent on {:?}",
        text
    );
    prop_assert_eq!(kept_lines(text), kept_lines(&formatted), "{:?}", formatted);
    let (before, after) = (parse(text), parse(&formatted));
    prop_assert_eq!(before.mazes.len(), after.mazes.len(), "{:?}", formatted);
    for (old, new) in before.mazes.iter().zip(&after.mazes) {
        if old.grid.is_some() {
            prop_assert_eq!(
                &old.grid,
                &new.grid,
                "maze {} of {:?}",
                old.index,
                formatted
            );
            let moves = |text: &str, maze: &boxls::maze::Maze| {
                maze.solution
                    .as_ref()
                    .map(|line| text[line.moves.clone()].to_string())
            };
            prop_assert_eq!(moves(text, old), moves(&formatted, new));
        }
    }
    prop_assert!(after.terminator.is_some(), "no `0 0` in {:?}", formatted);
    Ok(())
}

#[test]
fn formatting_is_idempotent_and_keeps_cells_comments_and_answers() {
    let mut runner = TestRunner::new(config(FORMAT_CASES));
    let result = runner.run(&some_text(), |text| check_format(&text));
    result.unwrap_or_else(|failure| panic!("{failure}"));
}

/// POJ 1475 input: headers and rows only, the terminator, `\n` line breaks.
fn poj_input() -> impl Strategy<Value = String> {
    vec(grid_rows(6, 8), 1..5).prop_map(|mazes| {
        let mut text = String::new();
        for rows in mazes.iter().filter(|rows| Grid::from_rows(rows).is_some()) {
            text.push_str(&format!("{} {}\n", rows.len(), rows[0].len()));
            for row in rows {
                text.push_str(row);
                text.push('\n');
            }
        }
        text + "0 0\n"
    })
}

#[test]
fn formatted_poj_input_stays_valid_with_the_same_answers() {
    let mut runner = TestRunner::new(config(FORMAT_CASES));
    let result = runner.run(&poj_input(), |text| {
        let formatted = format(&text);
        let (before, after) = (parse(&text), parse(&formatted));
        prop_assert_eq!(&after.diagnostics, &Vec::new(), "{:?}", formatted);
        let grids = |file: &boxls::maze::ParsedFile| {
            file.mazes
                .iter()
                .map(|m| m.grid.clone())
                .collect::<Vec<_>>()
        };
        prop_assert_eq!(grids(&before), grids(&after));
        // The same grids under the same numbers: the same answers.
        Ok(())
    });
    result.unwrap_or_else(|failure| panic!("{failure}"));
}

// ---------------------------------------------------------------------------------
// The language server, end to end over the in-process client.

/// A position anywhere, including past the end of the line or the document.
fn position() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        4 => (0..12u32, 0..14u32),
        1 => (0..2000u32, 0..2000u32),
        1 => Just((u32::MAX, u32::MAX)),
    ]
}

fn edit_text() -> impl Strategy<Value = &'static str> {
    select(
        &[
            "",
            "#",
            ".",
            "S",
            "B",
            "T",
            "\n",
            "\r\n",
            "\r",
            "3 4\n",
            "; 🧱 é\n",
            "0 0",
            "x",
        ][..],
    )
}

type Edit = ((u32, u32), (u32, u32), &'static str);

fn lsp_case() -> impl Strategy<Value = (String, Vec<(u32, u32)>, Vec<Edit>, bool)> {
    (
        some_text(),
        vec(position(), 1..4),
        vec((position(), position(), edit_text()), 0..4),
        any::<bool>(),
    )
}

fn at((line, character): (u32, u32)) -> Value {
    json!({ "line": line, "character": character })
}

fn span(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({ "start": at(start), "end": at(end) })
}

/// Every request a document supports, and that the server's text stays the client's.
async fn drive((text, probes, edits, utf8): (String, Vec<(u32, u32)>, Vec<Edit>, bool)) {
    let mut client = Client::start(Options::default());
    client.initialize(utf8).await;
    client.open(&text, 1).await;
    let diagnostics = client.diagnostics_for(1).await;
    check_ranges(&text, &diagnostics, utf8);
    every_feature(&mut client, &probes).await;
    let mut text = text;
    for (version, (a, b, insert)) in (2..).zip(edits) {
        let edit = super::lsp::edit(a.min(b), a.max(b), insert);
        text = super::lsp::change(&mut client, &text, version, edit).await;
    }
    assert_eq!(client.server_text().await, text);
    every_feature(&mut client, &probes).await;
    let everything = span((0, 0), (u32::MAX, u32::MAX));
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": URI }, "range": everything, "context": { "diagnostics": [] } }),
        )
        .await;
    // Apply the first action the way an editor would, and stay in step.
    if let Some(action) = actions.as_array().and_then(|all| all.first()) {
        let edits = action_edits(action);
        let fixed = apply_edits(&text, &edits, utf8);
        client
            .notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": URI, "version": 100 }, "contentChanges": [{ "text": fixed }] }),
            )
            .await;
        assert_eq!(client.server_text().await, fixed);
    }
}

async fn every_feature(client: &mut Client, probes: &[(u32, u32)]) {
    let doc = json!({ "uri": URI });
    let everything = span((0, 0), (u32::MAX, u32::MAX));
    client.settled_hints().await;
    for &probe in probes {
        client
            .request(
                "textDocument/hover",
                json!({ "textDocument": doc, "position": at(probe) }),
            )
            .await;
        client
            .request(
                "textDocument/codeAction",
                json!({ "textDocument": doc, "range": span(probe, (0, 0)), "context": { "diagnostics": [] } }),
            )
            .await;
        client
            .request(
                "textDocument/inlayHint",
                json!({ "textDocument": doc, "range": span((0, 0), probe) }),
            )
            .await;
    }
    for method in [
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
        "textDocument/codeLens",
    ] {
        client.request(method, json!({ "textDocument": doc })).await;
    }
    let tokens = client
        .request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc }),
        )
        .await;
    let data = tokens["data"].as_array().map_or(0, Vec::len);
    assert_eq!(data % 5, 0, "semantic tokens come in fives");
    client
        .request(
            "workspace/executeCommand",
            json!({ "command": "boxls.insertSolution", "arguments": [URI, 1] }),
        )
        .await;
    client
        .request(
            "textDocument/inlayHint",
            json!({ "textDocument": doc, "range": everything }),
        )
        .await;
}

/// Every diagnostic range lies in the document, start before end.
fn check_ranges(text: &str, diagnostics: &Value, utf8: bool) {
    for diagnostic in diagnostics.as_array().into_iter().flatten() {
        let offset = |p: &Value| {
            let (line, character) = (p["line"].as_u64(), p["character"].as_u64());
            offset_of(text, line.unwrap_or(0), character.unwrap_or(0), utf8)
        };
        let range = &diagnostic["range"];
        assert!(
            offset(&range["start"]) <= offset(&range["end"]),
            "{diagnostic} in {text:?}"
        );
    }
}

#[test]
fn lsp_features_never_fail_on_any_text() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut runner = TestRunner::new(config(LSP_CASES));
    let result = runner.run(&lsp_case(), |case| {
        runtime.block_on(drive(case));
        Ok(())
    });
    result.unwrap_or_else(|failure| panic!("{failure}"));
}
