//! The manual (`docs/src`) against the code: every diagnostic code has its example in the
//! diagnostics chapter and that example really gets it; the README's snippets are the
//! manual's (which the editor tests run), not copies that could drift.

use std::collections::BTreeSet;
use std::path::Path;

use boxls::analysis::check_text;
use boxls::maze::Code;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The `### `code`` sections of the diagnostics chapter's examples, each with its
/// first ```box block (None where it has prose only).
fn examples(chapter: &str) -> Vec<(String, Option<String>)> {
    let examples = chapter
        .split("\n## Examples")
        .nth(1)
        .expect("the diagnostics chapter has an Examples section");
    examples
        .split("\n### `")
        .skip(1)
        .map(|section| {
            let code = section.split('`').next().unwrap_or_default().to_string();
            let block = section
                .split("```box\n")
                .nth(1)
                .and_then(|rest| rest.split("```").next())
                .map(str::to_string);
            (code, block)
        })
        .collect()
}

#[test]
fn every_diagnostic_code_has_an_example_that_gets_it() {
    let chapter = read("docs/src/user/diagnostics.md");
    let examples = examples(&chapter);
    let documented: BTreeSet<&str> = examples.iter().map(|(code, _)| code.as_str()).collect();
    // The server adds one code of its own, for a document it could not keep in sync.
    let known: BTreeSet<&str> = Code::ALL
        .iter()
        .map(|code| code.as_str())
        .chain(["out-of-sync"])
        .collect();
    assert_eq!(
        documented, known,
        "the chapter's examples against Code::ALL"
    );
    // Limits, a solver failure and a server-side state have no file that shows them.
    let prose_only = ["too-large", "internal-error", "out-of-sync"];
    for (code, block) in &examples {
        let Some(text) = block else {
            assert!(
                prose_only.contains(&code.as_str()),
                "`{code}` has no example"
            );
            continue;
        };
        let got: Vec<&str> = check_text(text)
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert!(
            got.contains(&code.as_str()),
            "the example of `{code}` gets {got:?}:\n{text}"
        );
    }
}

/// Every line of the README's set-up blocks (shell, Lua, Emacs Lisp) stands word for
/// word in the manual, where the editor tests read their set-up from; the command-line
/// summary (`boxls …` lines) is a short form of the Command line chapter's.
#[test]
fn the_readmes_snippets_are_the_manuals() {
    let readme = read("README.md");
    let manual: String = [
        "user/install.md",
        "user/editors.md",
        "contributor/testing.md",
    ]
    .iter()
    .map(|chapter| read(&format!("docs/src/{chapter}")))
    .collect();
    let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let manual = squeeze(&manual);
    for lang in ["```sh\n", "```lua\n", "```elisp\n"] {
        for block in readme.split(lang).skip(1) {
            let block = block.split("```").next().unwrap_or_default();
            // The README's shell blocks may be a few lines of a longer one in the manual.
            let setup = block
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with("boxls "));
            for line in setup {
                assert!(
                    manual.contains(&squeeze(line)),
                    "README line not in the manual: {line}"
                );
            }
        }
    }
}

/// Every source file under `src/` has its line in the architecture chapter's code map,
/// under its folder's entry (a `mod.rs` is its folder's).
#[test]
fn the_code_map_names_every_source_file() {
    let chapter = read("docs/src/contributor/architecture.md");
    let map = chapter
        .split("```\nsrc/\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the architecture chapter opens with the code map");
    // The map's entries for src/'s children: the lines indented two spaces start one.
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in map.lines() {
        let top = line.starts_with("  ") && !line.starts_with("   ");
        if top {
            let name = line
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string();
            entries.push((name, String::new()));
        } else if !line.starts_with(' ') {
            break; // tests/, benches/ …: past src/
        }
        if let Some((_, body)) = entries.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    let words = |text: &str| -> BTreeSet<String> {
        text.split(|c: char| !(c.is_alphanumeric() || "_./".contains(c)))
            .map(str::to_string)
            .collect()
    };
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for file in rust_files(&src) {
        let inside = file.strip_prefix(&src).unwrap();
        let parts: Vec<String> = inside
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        let name = parts.last().unwrap().clone();
        let listed = if parts.len() == 1 {
            entries.iter().any(|(_, body)| {
                body.lines()
                    .next()
                    .is_some_and(|first| words(first).contains(&name))
            })
        } else {
            // `fmt/replace.rs` or `replace.rs` under `fmt/` both name src/cli/fmt/replace.rs.
            let folder = format!("{}/", parts[0]);
            let nested = parts[1..].join("/");
            entries.iter().any(|(entry, body)| {
                let words = words(body);
                let under = |sub: &String| words.iter().any(|w| w.starts_with(&format!("{sub}/")));
                *entry == folder
                    && (words.contains(&nested)
                        || (name == "mod.rs" || words.contains(&name))
                            && parts[1..parts.len() - 1].iter().all(under))
            })
        };
        if !listed {
            missing.push(inside.display().to_string());
        }
    }
    assert!(missing.is_empty(), "not in the code map: {missing:?}");
}

fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}
