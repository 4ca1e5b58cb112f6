//! Incremental reparsing against the full parser: for random `.box`-like texts and
//! random edits (insertions, deletions and replacements anywhere, across lines, through
//! `\r\n`, before a byte order mark), `old.reparse(new, edit, len)` must equal
//! `parse(new)` exactly — mazes, numbers, diagnostics and their fixes — including
//! chains of edits where each parse is the previous reparse.

use std::ops::Range;
use std::path::Path;

use boxls::maze::{parse, ParsedFile};

use super::generate::Rng;

/// Whole lines the text generator strings together.
const LINES: &[&str] = &[
    "3 3",
    "  2\t4  ",
    "1 1",
    "0 0",
    " 0 0 ",
    "0 3",
    "2 0",
    "99999999999 1",
    "4294967296 4294967296",
    "3",
    "12 x",
    "; a comment",
    "  ; solution: nnEE",
    ";solution:",
    "; solution: xyz",
    "; é 🧱",
    "",
    "  ",
    "\t",
    "hello there",
    "a b",
    "#S#",
    "#B.",
    "T##",
    "...",
    "sbt",
    "#-_",
    "###",
    "é#.",
    "🧱🧱",
    "#.S.B.T",
];

/// Pieces an edit inserts: characters, line breaks, whole lines, fragments.
const PIECES: &[&str] = &[
    "#",
    ".",
    "S",
    "B",
    "T",
    " ",
    "0",
    "3",
    "\n",
    "\r",
    "\r\n",
    "3 3\n",
    "0 0",
    "0 0\r\n",
    "; ",
    "; solution: ",
    "é",
    "🧱",
    "\u{feff}",
    "#S#\n#B.\r\nT##",
    "\n2 2\n##\n",
    "x",
];

const BREAKS: [&str; 3] = ["\n", "\r\n", "\r"];

/// One maze drawn from cells, mostly well-formed, sometimes with the wrong size.
fn maze(rng: &mut Rng, out: &mut String, line_break: &mut impl FnMut(&mut Rng) -> &'static str) {
    let (rows, cols) = (rng.between(1, 4), rng.between(1, 4));
    let declared = if rng.chance(0.8) {
        (rows, cols)
    } else {
        (rng.between(1, 5), rng.between(1, 5))
    };
    out.push_str(&format!("{} {}", declared.0, declared.1));
    out.push_str(line_break(rng));
    for _ in 0..rows {
        for _ in 0..cols {
            out.push(['#', '.', '.', 'S', 'B', 'T', 's', ' '][rng.below(8)]);
        }
        out.push_str(line_break(rng));
    }
    if rng.chance(0.3) {
        out.push_str("; solution: nsEW");
        out.push_str(line_break(rng));
    }
}

/// A `.box`-like text: mazes, stray lines, comments, a terminator now and then.
fn text(rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.chance(0.1) {
        out.push('\u{feff}');
    }
    // Mostly one line break per file, sometimes a mixture.
    let fixed = BREAKS[rng.below(3)];
    let mixed = rng.chance(0.3);
    let mut line_break = move |rng: &mut Rng| {
        if mixed {
            BREAKS[rng.below(3)]
        } else {
            fixed
        }
    };
    for _ in 0..rng.below(12) {
        if rng.chance(0.5) {
            maze(rng, &mut out, &mut line_break);
        } else {
            out.push_str(LINES[rng.below(LINES.len())]);
            out.push_str(line_break(rng));
        }
    }
    if rng.chance(0.6) {
        out.push_str("0 0");
        out.push_str(line_break(rng));
    }
    if rng.chance(0.2) {
        out.push_str(LINES[rng.below(LINES.len())]);
    }
    if rng.chance(0.2) {
        out.truncate(floor_boundary(&out, out.len().saturating_sub(1)));
    }
    out
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A random char-boundary offset, biased towards line breaks (where the trouble is).
fn offset(rng: &mut Rng, text: &str) -> usize {
    if rng.chance(0.3) {
        let breaks: Vec<usize> = text
            .match_indices(['\r', '\n'])
            .map(|(i, _)| i + rng.below(2))
            .collect();
        if !breaks.is_empty() {
            return floor_boundary(text, breaks[rng.below(breaks.len())]);
        }
    }
    floor_boundary(text, rng.below(text.len() + 1))
}

/// A random edit of `text`: the old range it replaces and the inserted text.
fn edit(rng: &mut Rng, text: &str) -> (Range<usize>, String) {
    let start = offset(rng, text);
    let end = match rng.below(4) {
        0 => start,
        1 => floor_boundary(text, start + rng.below(4)),
        2 => offset(rng, text).max(start),
        _ => floor_boundary(text, start + rng.below(40)),
    };
    let inserted = match rng.below(4) {
        0 => String::new(),
        1 => {
            let mut lines = String::new();
            for _ in 0..rng.between(1, 3) {
                lines.push_str(LINES[rng.below(LINES.len())]);
                lines.push_str(BREAKS[rng.below(3)]);
            }
            lines
        }
        _ => PIECES[rng.below(PIECES.len())].to_string(),
    };
    (start..end, inserted)
}

/// Applies one edit, checks the reparse against a full parse, returns the new state.
fn step(text: &str, parsed: &ParsedFile, rng: &mut Rng, history: &str) -> (String, ParsedFile) {
    let (range, inserted) = edit(rng, text);
    let mut new = text.to_string();
    new.replace_range(range.clone(), &inserted);
    let reparsed = parsed.reparse(&new, range.clone(), inserted.len());
    let expected = parse(&new);
    assert!(
        reparsed == expected,
        "reparse differs from parse\n{history}\nold text: {text:?}\nedit: {range:?} -> {inserted:?}\nnew text: {new:?}\nreparse: {reparsed:#?}\nparse: {expected:#?}"
    );
    check_splice(text, parsed, &new, range, inserted.len());
    (new, reparsed)
}

/// What `update` says it re-read: the mazes before are untouched, those after are the
/// old ones moved (same text, same grid), and the counts add up. The server keeps
/// per-maze results by this.
fn check_splice(old_text: &str, old: &ParsedFile, new_text: &str, range: Range<usize>, len: usize) {
    let mut new = old.clone();
    let splice = new.update(new_text, range, len);
    let context = || format!("{splice:?}\nold: {old_text:?}\nnew: {new_text:?}");
    assert_eq!(
        old.mazes.len() - splice.removed + splice.inserted,
        new.mazes.len(),
        "{}",
        context()
    );
    assert_eq!(
        old.mazes[..splice.start],
        new.mazes[..splice.start],
        "{}",
        context()
    );
    let moved_old = &old.mazes[splice.start + splice.removed..];
    let moved_new = &new.mazes[splice.start + splice.inserted..];
    for (was, now) in moved_old.iter().zip(moved_new) {
        assert_eq!(was.grid, now.grid, "{}", context());
        assert_eq!(
            old_text[was.extent.clone()],
            new_text[now.extent.clone()],
            "{}",
            context()
        );
    }
}

/// A chain of edits on `text`, each reparse building on the previous one.
fn chain(rng: &mut Rng, mut text: String, edits: usize, what: &str) {
    let mut parsed = parse(&text);
    for i in 0..edits {
        let history = format!("{what}, edit {i}");
        (text, parsed) = step(&text, &parsed, rng, &history);
    }
}

#[test]
fn reparse_equals_parse_on_random_texts_and_edits() {
    let mut rng = Rng::new(0x1_2c4e);
    for case in 0..4_000 {
        let text = text(&mut rng);
        chain(&mut rng, text, 8, &format!("random case {case}"));
    }
}

#[test]
fn reparse_equals_parse_along_long_edit_chains() {
    let mut rng = Rng::new(0xc4a1_0001);
    for case in 0..100 {
        let text = text(&mut rng);
        chain(&mut rng, text, 200, &format!("chain {case}"));
    }
}

#[test]
fn reparse_equals_parse_on_the_fixture_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parse");
    let mut rng = Rng::new(0xf1_7e55);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the fixture directory")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "box"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a UTF-8 fixture");
        for round in 0..40 {
            let what = format!("{} round {round}", path.display());
            chain(&mut rng, text.clone(), 10, &what);
        }
    }
}

#[test]
fn reparse_handles_the_edges() {
    let cases: &[(&str, Range<usize>, &str)] = &[
        // Empty text, to and from.
        ("", 0..0, ""),
        ("", 0..0, "1 1\nS"),
        ("1 1\nS\n", 0..6, ""),
        // A byte order mark appearing, disappearing, being typed after.
        ("1 1\nSBT\n0 0\n", 0..0, "\u{feff}"),
        ("\u{feff}1 1\nSBT\n", 0..3, ""),
        ("\u{feff}1 1\nSBT\n", 3..3, "x"),
        // Joining and splitting `\r\n`.
        ("1 3\r\nSBT\r\n1 3\r\nSBT\r\n", 4..4, "x"),
        ("1 3\rSBT\n1 3\r\nSBT\r\n", 4..4, "\n"),
        ("1 3\r\nSBT\r\n1 3\r\nSBT\r\n", 9..10, ""),
        ("1 3\r\nSBT\r\n1 3\r\nSBT\r\n", 3..4, ""),
        // A header turned into a row: the maze before absorbs it.
        ("1 3\nSBT\n1 3\nSBT\n1 3\nSBT\n0 0\n", 8..9, "#"),
        // The terminator typed, removed, and content after it.
        ("1 3\nSBT\n1 3\nSBT\n", 8..8, "0 0\n"),
        ("1 3\nSBT\n0 0\n1 3\nSBT\n", 8..12, ""),
        ("1 3\nSBT\n0 0\nmore\n", 17..17, " text"),
        // The missing terminator's fix follows the first line break.
        ("; top\n1 3\nSBT\n1 3\nSBT", 5..6, "\r\n"),
        // Edits at the very end.
        ("1 3\nSBT\n1 3\nSBT", 15..15, "\n"),
        ("1 3\nSBT\n1 3\nSBT\n", 15..16, ""),
    ];
    for (text, range, inserted) in cases {
        let mut new = text.to_string();
        new.replace_range(range.clone(), inserted);
        assert_eq!(
            parse(text).reparse(&new, range.clone(), inserted.len()),
            parse(&new),
            "{text:?} {range:?} -> {inserted:?}"
        );
    }
}

#[test]
fn an_edit_that_is_not_one_falls_back_to_a_full_parse() {
    let old = parse("1 3\nSBT\n");
    let new = "1 3\nSB🧱\n";
    // Out of range, and not on a char boundary: the result is still right.
    assert_eq!(old.reparse(new, 40..50, 3), parse(new));
    assert_eq!(old.reparse(new, 7..7, 1), parse(new));
}
