//! The layering is checked, not promised: the core (`src/maze`, `src/level`, `src/solver`,
//! `src/sokoban`, `src/analysis.rs`, `src/judge.rs`, `src/design`, `src/gen`, `src/stress`), the
//! picture (`src/svg`) and the IDE layer (`src/ide`) never import the LSP crates, tokio
//! or I/O; and the modules of `src/lsp` import each other without a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What a protocol-free module must not name.
const FORBIDDEN: [&str; 7] = [
    "tower_lsp",
    "ls_types",
    "lsp_types",
    "tokio",
    "std::io",
    "std::fs",
    "std::net",
];

const PURE: &[&str] = &[
    "src/maze",
    "src/level",
    "src/solver",
    "src/sokoban",
    "src/ide",
    "src/svg",
    "src/analysis.rs",
    "src/judge.rs",
    "src/design",
    "src/gen",
    "src/stress",
];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .expect("a readable source directory")
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            rust_files(&entry, out);
        }
    } else if path.extension().is_some_and(|ext| ext == "rs") {
        out.push(path.to_path_buf());
    }
}

/// `file:line: name` for each forbidden name outside comments.
fn violations(files: &[PathBuf]) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for name in FORBIDDEN.iter().filter(|name| code.contains(*name)) {
                found.push(format!("{}:{}: {name}", file.display(), number + 1));
            }
        }
    }
    found
}

#[test]
fn the_core_the_picture_and_the_ide_layer_never_import_the_protocol_tokio_or_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for part in PURE {
        rust_files(&root.join(part), &mut files);
    }
    assert!(files.len() > 20, "found only {} files", files.len());
    let found = violations(&files);
    assert!(found.is_empty(), "layering broken:\n{}", found.join("\n"));
}

#[test]
fn the_check_finds_what_it_looks_for() {
    let dir = std::env::temp_dir().join(format!("boxls-layering-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let file = dir.join("bad.rs");
    std::fs::write(
        &file,
        "use tokio::sync::watch;\n// tower_lsp in a comment is fine\n",
    )
    .expect("writable");
    assert_eq!(
        violations(std::slice::from_ref(&file)),
        [format!("{}:1: tokio", file.display())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Which sibling modules each module of a flat module directory names: every
/// `super::name` path (grouped ones included, `super::{a, b::c}`) and
/// `crate::lsp::name` path outside comments, for names that are files of the
/// directory (`mod.rs` is the parent, not a sibling).
fn imports(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (module, text) in files {
        let mut named = BTreeSet::new();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for prefix in ["super::", "crate::lsp::"] {
                for (at, _) in code.match_indices(prefix) {
                    let rest = &code[at + prefix.len()..];
                    let names: Vec<&str> = match rest.strip_prefix('{') {
                        Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                        None => vec![rest],
                    };
                    for name in names {
                        let name: String = name
                            .trim()
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if files.contains_key(&name) && &name != module {
                            named.insert(name);
                        }
                    }
                }
            }
        }
        graph.insert(module.clone(), named);
    }
    graph
}

/// A circle in `graph`, as the modules along it, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut found = path[start..].to_vec();
            found.push(module.to_string());
            return Some(found);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_modules_of_src_lsp_import_each_other_without_a_circle() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lsp");
    let mut paths = Vec::new();
    rust_files(&dir, &mut paths);
    let files: BTreeMap<String, String> = paths
        .iter()
        .filter(|path| path.file_stem().is_some_and(|stem| stem != "mod"))
        .map(|path| {
            let stem = path.file_stem().expect("a file name");
            let text = std::fs::read_to_string(path).expect("a readable source file");
            (stem.to_string_lossy().into_owned(), text)
        })
        .collect();
    assert!(files.len() > 20, "found only {} modules", files.len());
    let graph = imports(&files);
    // The check sees the imports it must: the server names the state and the view.
    assert!(graph["server"].contains("state") && graph["state"].contains("view"));
    if let Some(found) = circle(&graph) {
        panic!("src/lsp has an import circle: {}", found.join(" → "));
    }
}

#[test]
fn the_circle_check_finds_a_circle() {
    let files: BTreeMap<String, String> = [
        ("a", "use super::{b, c::Thing};\n"),
        (
            "b",
            "// use super::a; in a comment is not an import\nuse super::c;\n",
        ),
        ("c", "fn f() { crate::lsp::a::g() }\n"),
        ("d", "use super::*;\n"),
    ]
    .into_iter()
    .map(|(name, text)| (name.to_string(), text.to_string()))
    .collect();
    let graph = imports(&files);
    assert_eq!(graph["b"], BTreeSet::from(["c".to_string()]));
    let found = circle(&graph).expect("a → b → c → a");
    assert_eq!(found.first(), found.last());
    assert_eq!(found.len(), 4, "{found:?}");
    let mut broken = files.clone();
    broken.insert("c".into(), "fn f() {}\n".into());
    assert_eq!(circle(&imports(&broken)), None);
}
