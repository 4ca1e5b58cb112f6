//! The layering is checked, not promised: the core (`src/maze`, `src/solver`,
//! `src/analysis.rs`, `src/judge.rs`, `src/stress`), the picture (`src/svg`) and the IDE layer (`src/ide`) never
//! import the LSP crates, tokio or I/O.

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

const PURE: [&str; 8] = [
    "src/maze",
    "src/solver",
    "src/ide",
    "src/svg",
    "src/analysis.rs",
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
