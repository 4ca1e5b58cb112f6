//! The manual's internal links: every relative link of `docs/src/**/*.md` and the
//! README names a file that exists and, with `#anchor`, a heading of that file (as
//! mdBook and GitHub make anchors); every chapter is in `SUMMARY.md`.

use std::collections::HashSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// A broken link: the file and line it is on, and why.
#[derive(Debug, PartialEq)]
pub struct Broken {
    pub file: PathBuf,
    pub line: usize,
    pub why: String,
}

/// Every broken link of `files` (read from disk), and every chapter under `src` that
/// `src/SUMMARY.md` does not list.
pub fn check(files: &[PathBuf], src: &Path) -> Vec<Broken> {
    let mut broken = Vec::new();
    for file in files {
        let Ok(text) = fs::read_to_string(file) else {
            broken.push(Broken {
                file: file.clone(),
                line: 0,
                why: "cannot be read".into(),
            });
            continue;
        };
        for (line, target) in links(&text) {
            if let Err(why) = resolve(file, &target) {
                broken.push(Broken {
                    file: file.clone(),
                    line,
                    why,
                });
            }
        }
    }
    broken.extend(unlisted_chapters(src, files));
    broken
}

/// The lines outside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    text.lines().enumerate().filter_map(move |(i, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((i + 1, line))
    })
}

/// The targets of `[text](target)` links and images outside code, with their lines;
/// links to other sites and mail addresses are not ours to check.
pub fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find([')', ' ']).unwrap_or(rest.len());
            let target = &rest[..end];
            let external = target.contains("://") || target.starts_with("mailto:");
            if !external && !target.is_empty() {
                found.push((number, target.to_string()));
            }
            rest = &rest[end..];
        }
    }
    found
}

fn without_code_spans(line: &str) -> String {
    line.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join("")
}

/// Checks one link of `from`: the file it names exists and holds the anchor.
fn resolve(from: &Path, target: &str) -> Result<(), String> {
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        from.to_path_buf()
    } else {
        normalise(&from.parent().unwrap_or(Path::new(".")).join(path))
    };
    if !file.exists() {
        return Err(format!("`{target}`: no file {}", file.display()));
    }
    let Some(anchor) = anchor else {
        return Ok(());
    };
    let text = fs::read_to_string(&file).map_err(|e| format!("`{target}`: {e}"))?;
    if anchors(&text).contains(anchor) {
        Ok(())
    } else {
        Err(format!(
            "`{target}`: {} has no heading `#{anchor}`",
            file.display()
        ))
    }
}

/// `a/b/../c` → `a/c`, without touching the disk.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The anchors of a Markdown file's headings, as mdBook (and GitHub) derive them:
/// the heading's text without markup, lower case, spaces to `-`, other punctuation
/// dropped; a repeated one gets `-1`, `-2`, ….
pub fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for (_, line) in prose_lines(text) {
        let Some(heading) = heading_text(line) else {
            continue;
        };
        let base = slug(&heading);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

fn heading_text(line: &str) -> Option<String> {
    let hashes = line.len() - line.trim_start_matches('#').len();
    if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
        return None;
    }
    let text = line[hashes..].trim();
    // `[text](target)` reads as its text.
    let mut plain = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        plain.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find("](").and_then(|mid| {
            let close = after[mid..].find(')')? + mid;
            Some((mid, close))
        }) {
            Some((mid, close)) => {
                plain.push_str(&after[..mid]);
                rest = &after[close + 1..];
            }
            None => {
                plain.push('[');
                rest = after;
            }
        }
    }
    plain.push_str(rest);
    Some(plain)
}

pub fn slug(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|ch| {
            if ch.is_alphanumeric() || ch == '_' || ch == '-' {
                Some(ch.to_ascii_lowercase())
            } else if ch.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// Chapters under `src` that `SUMMARY.md` does not link (mdBook would leave them out).
fn unlisted_chapters(src: &Path, files: &[PathBuf]) -> Vec<Broken> {
    let summary = src.join("SUMMARY.md");
    let listed: HashSet<PathBuf> = fs::read_to_string(&summary)
        .map(|text| {
            links(&text)
                .into_iter()
                .map(|(_, target)| normalise(&src.join(target)))
                .collect()
        })
        .unwrap_or_default();
    files
        .iter()
        .filter(|file| file.starts_with(src) && **file != summary)
        .filter(|file| !listed.contains(&normalise(file)))
        .map(|file| Broken {
            file: file.clone(),
            line: 0,
            why: "not listed in SUMMARY.md".into(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_mdbooks() {
        let text =
            "# Editors\n## Neovim (0.11+)\n## Emacs (28+, Eglot)\n```\n# not a heading\n```\n\
                    ## `boxls fmt` and [links](x.md)\n## Editors\n";
        let got = anchors(text);
        for want in [
            "editors",
            "neovim-011",
            "emacs-28-eglot",
            "boxls-fmt-and-links",
            "editors-1",
        ] {
            assert!(got.contains(want), "{want} not in {got:?}");
        }
        assert!(!got.contains("not-a-heading"));
    }

    #[test]
    fn links_outside_code_only_and_not_external() {
        let text =
            "see [a](a.md#x) and ![p](images/p.svg)\n`[no](code.md)`\n```\n[no](fenced.md)\n```\n\
                    [web](https://example.org) [mail](mailto:x@y)\n";
        let got: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(got, ["a.md#x", "images/p.svg"]);
    }

    #[test]
    fn broken_files_anchors_and_unlisted_chapters_are_found() {
        let dir = std::env::temp_dir().join(format!("xtask-links-{}", std::process::id()));
        let src = dir.join("src");
        let _ = fs::create_dir_all(src.join("user"));
        let write = |p: &str, t: &str| fs::write(src.join(p), t).is_ok();
        assert!(write("SUMMARY.md", "- [A](user/a.md)\n"));
        assert!(write(
            "user/a.md",
            "# A\n[ok](#a) [ok](../SUMMARY.md) [gone](b.md) [no](#nope)\n"
        ));
        assert!(write("user/orphan.md", "# O\n"));
        let files = vec![
            src.join("SUMMARY.md"),
            src.join("user/a.md"),
            src.join("user/orphan.md"),
        ];
        let whys: Vec<String> = check(&files, &src).into_iter().map(|b| b.why).collect();
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(whys.len(), 3, "{whys:?}");
        assert!(whys[0].contains("`b.md`: no file"), "{whys:?}");
        assert!(whys[1].contains("no heading `#nope`"), "{whys:?}");
        assert!(whys[2].contains("not listed in SUMMARY.md"), "{whys:?}");
    }
}
