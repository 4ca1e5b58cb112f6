//! Snapshot corpus for the parser: one `.box` file per situation under
//! `tests/fixtures/parse/`, each with a `.snap` next to it listing the mazes found and
//! every diagnostic (parser and solver, as `boxls check` reports them) with its quick
//! fix. Positions read `line:column..line:column` (1-based, columns in characters, end
//! exclusive) followed by the covered text in backquotes.
//!
//! Every quick fix is applied and must remove the diagnostic it targets; the `valid_*`
//! fixtures must have no structural diagnostic at all; every prefix of every fixture
//! must parse into sound ranges; and one broken line must never reach later mazes.
//!
//! Update the snapshots with `UPDATE_EXPECT=1 cargo test --test it parser`.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

use boxls::analysis::check_text;
use boxls::maze::{parse, Diagnostic, Fix, Maze, Severity, TextEdit};
use expect_test::expect_file;

/// Declares one test per fixture, and the list of them all.
macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_fixture(stringify!($name));
            }
        )*
        const FIXTURES: &[&str] = &[$(stringify!($name)),*];
    };
}

fixtures! {
    // Valid files: no structural diagnostic (maze 2 of the sample is unsolvable).
    valid_sample,
    valid_comments,
    valid_blank_lines,
    valid_crlf,
    valid_cr_only,
    valid_mixed_line_endings,
    valid_trailing_whitespace,
    valid_no_final_line_break,
    // The terminator.
    empty_file,
    missing_terminator,
    missing_terminator_no_final_line_break,
    after_terminator,
    // Headers.
    header_huge_number,
    header_negative,
    header_one_number,
    header_three_numbers,
    header_letters,
    header_zero_rows,
    header_zero_columns,
    header_too_many_cells,
    // Rows.
    row_length_rows_agree,
    row_length_rows_disagree,
    too_few_rows_header_early,
    too_few_rows_end_of_file,
    too_many_rows,
    // Player, box and target.
    missing_player,
    missing_box,
    missing_target,
    missing_everything,
    duplicate_player,
    duplicate_box,
    duplicate_target,
    // Cells.
    bad_char_lowercase,
    bad_char_space,
    bad_char_dash_underscore,
    bad_char_other_ascii,
    bad_char_non_ascii,
    // Solution lines.
    solution_valid,
    solution_illegal_move,
    solution_box_not_on_target,
    solution_not_optimal,
    solution_wrong_characters,
    solution_duplicate_and_misplaced,
    // What `boxls stress` records: `; solution: Impossible.` and `; failure:` lines.
    solution_impossible_and_recorded_failures,
    // Recovery: one bad line must not cascade onto later mazes.
    recovery_bad_header,
    recovery_garbage_between_mazes,
    recovery_missing_row,
    recovery_extra_row,
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parse")
}

fn read_fixture(name: &str) -> String {
    let path = fixture_dir().join(format!("{name}.box"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn check_fixture(name: &str) {
    let text = read_fixture(name);
    expect_file![format!("../fixtures/parse/{name}.snap")].assert_eq(&snapshot(&text));
    check_fixes(name, &text);
    if name.starts_with("valid_") {
        let diagnostics = parse(&text).diagnostics;
        assert!(diagnostics.is_empty(), "{name}: {diagnostics:#?}");
    }
}

#[test]
fn every_fixture_has_a_test() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fixture_dir())
        .expect("fixture directory")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "box"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<&str> = FIXTURES.to_vec();
    listed.sort();
    assert_eq!(on_disk, listed, "add every fixture to `fixtures!`");
}

/// The reviewer-facing text: the mazes, then every diagnostic with its fix.
fn snapshot(text: &str) -> String {
    let report = check_text(text);
    let at = Positions::new(text);
    let mut out = String::new();
    writeln!(out, "mazes: {}", report.parsed.mazes.len()).unwrap();
    for maze in &report.parsed.mazes {
        writeln!(out, "  {}", describe_maze(&at, maze)).unwrap();
    }
    match &report.parsed.terminator {
        Some(range) => writeln!(out, "terminator: {}", at.span(range)).unwrap(),
        None => writeln!(out, "terminator: none").unwrap(),
    }
    writeln!(out, "diagnostics: {}", report.diagnostics.len()).unwrap();
    for diagnostic in &report.diagnostics {
        out.push_str(&describe_diagnostic(&at, diagnostic));
    }
    out
}

fn describe_maze(at: &Positions, maze: &Maze) -> String {
    let declared = maze
        .declared
        .map_or("none".to_string(), |(r, c)| format!("{r}x{c}"));
    let grid = if maze.grid.is_some() { "yes" } else { "no" };
    let mut line = format!(
        "#{} header {}, declared {declared}, rows {}, grid {grid}",
        maze.index,
        at.span(&maze.header),
        maze.rows.len()
    );
    if let Some(solution) = &maze.solution {
        write!(line, ", solution {}", at.span(&solution.moves)).unwrap();
    }
    line
}

fn describe_diagnostic(at: &Positions, diagnostic: &Diagnostic) -> String {
    let severity = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information => "info",
    };
    let mut out = format!(
        "\n{severity}[{}] {}\n  {}\n",
        diagnostic.code.as_str(),
        at.span(&diagnostic.range),
        diagnostic.message
    );
    if let Some(fix) = &diagnostic.fix {
        writeln!(out, "  fix: {}", fix.title).unwrap();
        for edit in &fix.edits {
            writeln!(out, "    {}", describe_edit(at, edit)).unwrap();
        }
    }
    out
}

fn describe_edit(at: &Positions, edit: &TextEdit) -> String {
    format!("{} -> {}", at.span(&edit.range), quote(&edit.new_text))
}

/// Applies every quick fix and checks that the diagnostic it targets is gone.
fn check_fixes(name: &str, text: &str) {
    for diagnostic in check_text(text).diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        let fixed = fix.apply(text);
        let place = map_through(fix, diagnostic.range.start);
        let still_there = check_text(&fixed)
            .diagnostics
            .into_iter()
            .find(|d| d.code == diagnostic.code && d.range.start == place);
        assert!(
            still_there.is_none(),
            "{name}: fix `{}` leaves {} in place:\n{fixed}",
            fix.title,
            diagnostic.code.as_str()
        );
    }
}

/// Where byte `offset` of the original text ends up once `fix` is applied (an offset
/// inside a replaced range goes to the start of the replacement).
pub fn map_through(fix: &Fix, offset: usize) -> usize {
    let mut mapped = offset as isize;
    for edit in &fix.edits {
        if edit.range.end <= offset {
            mapped += edit.new_text.len() as isize - edit.range.len() as isize;
        } else if edit.range.start <= offset {
            mapped -= (offset - edit.range.start) as isize;
        }
    }
    mapped as usize
}

/// Every prefix of every fixture (a file being typed) parses without panicking into
/// ranges on character boundaries, with quick fixes whose edits apply cleanly.
#[test]
fn every_prefix_of_every_fixture_is_well_formed() {
    for name in FIXTURES {
        let text = read_fixture(name);
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            check_well_formed(&text[..end]);
        }
    }
}

pub fn check_well_formed(text: &str) {
    let valid = |range: &Range<usize>| {
        range.start <= range.end
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end)
    };
    let report = check_text(text);
    for diagnostic in &report.diagnostics {
        assert!(valid(&diagnostic.range), "{diagnostic:?} in {text:?}");
        let Some(fix) = &diagnostic.fix else { continue };
        let mut edits: Vec<Range<usize>> = fix.edits.iter().map(|e| e.range.clone()).collect();
        edits.sort_by_key(|range| range.start);
        let disjoint = edits.windows(2).all(|pair| pair[0].end <= pair[1].start);
        assert!(edits.iter().all(valid) && disjoint, "{fix:?} in {text:?}");
        fix.apply(text);
    }
    for maze in &report.parsed.mazes {
        let ranges = [&maze.header, &maze.extent].into_iter().chain(&maze.rows);
        assert!(ranges.into_iter().all(valid), "{maze:?} in {text:?}");
        if let Some(grid) = &maze.grid {
            assert_eq!(grid.walls.len(), grid.cell_count(), "{text:?}");
        }
    }
}

/// One broken line must not cascade: after deleting, duplicating or replacing any single
/// line of a valid fixture, every maze that started after that line still parses to
/// the same grid, and no diagnostic points inside it.
#[test]
fn one_bad_line_never_reaches_later_mazes() {
    let replacements = ["x", "7", "2 2", "#.#", "hello there"];
    for name in FIXTURES.iter().filter(|name| name.starts_with("valid_")) {
        let text = read_fixture(name);
        let lines = split_lines(&text);
        for at in 0..lines.len() {
            let mut variants = vec![
                edit_lines(&lines, at, |_| Vec::new()),
                edit_lines(&lines, at, |line| vec![with_break(line), line.to_string()]),
            ];
            for replacement in replacements {
                variants.push(edit_lines(&lines, at, |line| {
                    vec![format!("{replacement}{}", line_break(line))]
                }));
            }
            let after: usize = lines[..=at].iter().map(|line| line.len()).sum();
            for variant in variants {
                check_later_mazes_intact(&text, after, &variant);
            }
        }
    }
}

/// The mazes of `original` whose header starts at or after byte `after` must come out
/// of `mutated` unchanged, at the end of its maze list, without diagnostics.
fn check_later_mazes_intact(original: &str, after: usize, mutated: &str) {
    let later: Vec<_> = parse(original)
        .mazes
        .into_iter()
        .filter(|maze| maze.header.start >= after)
        .map(|maze| maze.grid)
        .collect();
    let parsed = parse(mutated);
    let tail = &parsed.mazes[parsed.mazes.len().saturating_sub(later.len())..];
    let grids: Vec<_> = tail.iter().map(|maze| maze.grid.clone()).collect();
    assert_eq!(grids, later, "later mazes changed in {mutated:?}");
    for maze in tail {
        let inside = parsed
            .diagnostics
            .iter()
            .find(|d| d.range.start < maze.extent.end && maze.extent.start < d.range.end);
        assert!(inside.is_none(), "{inside:?} cascades into {mutated:?}");
    }
}

/// The lines of `text`, each with its line break (LSP breaks: `\n`, `\r\n`, `\r`).
fn split_lines(text: &str) -> Vec<&str> {
    let starts = Positions::new(text).line_starts;
    let mut bounds = starts.clone();
    bounds.push(text.len());
    bounds.dedup();
    bounds
        .windows(2)
        .map(|pair| &text[pair[0]..pair[1]])
        .collect()
}

fn line_break(line: &str) -> &str {
    let content = line.trim_end_matches(['\n', '\r']);
    &line[content.len()..]
}

/// `line`, ending with a line break even when it was the last line of the file.
fn with_break(line: &str) -> String {
    if line_break(line).is_empty() {
        format!("{line}\n")
    } else {
        line.to_string()
    }
}

/// The lines joined back, with line `at` replaced by what `change` makes of it.
fn edit_lines(lines: &[&str], at: usize, change: impl Fn(&str) -> Vec<String>) -> String {
    let mut out = lines[..at].concat();
    out.extend(change(lines[at]));
    out.push_str(&lines[at + 1..].concat());
    out
}

/// 1-based line:column positions for byte offsets, with LSP line breaks (`\n`, `\r\n`,
/// `\r`) and columns counted in characters; computed independently of the parser.
struct Positions<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Positions<'a> {
    fn new(text: &'a str) -> Positions<'a> {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (i, &byte) in bytes.iter().enumerate() {
            let ends_line = byte == b'\n' || (byte == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if ends_line {
                line_starts.push(i + 1);
            }
        }
        Positions { text, line_starts }
    }

    fn position(&self, offset: usize) -> String {
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let column = self.text[self.line_starts[line]..offset].chars().count();
        format!("{}:{}", line + 1, column + 1)
    }

    /// `line:col..line:col` (end exclusive) and the covered text.
    fn span(&self, range: &Range<usize>) -> String {
        format!(
            "{}..{} {}",
            self.position(range.start),
            self.position(range.end),
            quote(&self.text[range.clone()])
        )
    }
}

/// Text in backquotes with line breaks, tabs and other control characters escaped.
fn quote(text: &str) -> String {
    let escaped: String = text
        .chars()
        .map(|ch| match ch {
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            '\t' => "\\t".to_string(),
            ch if ch.is_control() => ch.escape_unicode().to_string(),
            ch => ch.to_string(),
        })
        .collect();
    format!("`{escaped}`")
}
