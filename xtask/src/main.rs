//! `cargo xtask dist`: builds everything a release ships into `target/dist/` — the
//! archive (binary, completions, man page, Neovim package, the manual, README, licences),
//! the VS Code extension with the server inside, and `SHA256SUMS`. `cargo xtask book`
//! checks the manual's internal links and builds it with mdBook into `docs/book/`.
//!
//! ```text
//! cargo xtask book                       # the manual: links checked, HTML in docs/book/
//! cargo xtask dist                       # for this machine's target
//! cargo xtask dist --target TRIPLE       # for another target (its binary must run here:
//!                                        # completions and man page come from it)
//! cargo xtask dist --universal           # only the .vsix without a server (any platform)
//! ```
//!
//! Same inputs, same bytes: the archive is written here with sorted names, one fixed
//! time (`SOURCE_DATE_EPOCH`, else the last commit's), owner 0 and a gzip header without
//! a timestamp; `vsce` is given the same `SOURCE_DATE_EPOCH` (and `TZ=UTC`, as zip
//! times are local times), which it uses for every entry of the .vsix.

use std::env;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use sha2::{Digest, Sha256};

mod links;

type Result<T> = std::result::Result<T, String>;

const USAGE: &str = "usage: cargo xtask dist [--target TRIPLE] [--universal] | cargo xtask book";

/// What CI installs (`.ci/run`): the manual is built with this mdBook.
const MDBOOK_INSTALL: &str =
    "cargo install mdbook --version 0.5.4 --locked --no-default-features --features search";

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let done = if args.first().map(String::as_str) == Some("book") && args.len() == 1 {
        book(&project_root()).map(|_| ())
    } else {
        run(args)
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Default)]
struct Options {
    target: Option<String>,
    universal: bool,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut options = Options::default();
    let mut args = args.iter();
    if args.next().map(String::as_str) != Some("dist") {
        return Err(USAGE.to_string());
    }
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--target" => options.target = Some(args.next().ok_or(USAGE)?.clone()),
            "--universal" => options.universal = true,
            _ => return Err(format!("unknown argument {arg:?}\n{USAGE}")),
        }
    }
    Ok(options)
}

fn run(args: Vec<String>) -> Result<()> {
    let options = parse(&args)?;
    let started = Instant::now();
    let root = project_root();
    let version = package_version(&root)?;
    let dist = root.join("target/dist");
    if dist.exists() {
        fs::remove_dir_all(&dist).map_err(|e| format!("cannot empty {}: {e}", dist.display()))?;
    }
    mkdir(&dist)?;
    let epoch = source_date_epoch(&root);

    let mut made = Vec::new();
    if options.universal {
        made.push(vsix(&root, &dist, &version, None, epoch)?);
    } else {
        let target = match &options.target {
            Some(t) => t.clone(),
            None => host_target()?,
        };
        let binary = build_server(&root, options.target.as_deref(), &target)?;
        let manual = book(&root)?;
        made.push(archive(
            &root, &dist, &version, &target, &binary, &manual, epoch,
        )?);
        match vscode_target(&target) {
            Some(platform) => made.push(vsix(
                &root,
                &dist,
                &version,
                Some((platform, &binary)),
                epoch,
            )?),
            None => eprintln!("xtask: no VS Code platform for {target}: no .vsix"),
        }
    }
    let sums = sha256sums(&made)?;
    write(&dist.join("SHA256SUMS"), sums.as_bytes())?;
    for file in made.iter().chain([&dist.join("SHA256SUMS")]) {
        let size = fs::metadata(file).map_err(|e| e.to_string())?.len();
        println!("{:>10} bytes  {}", size, relative(&root, file));
    }
    println!(
        "xtask: dist done in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn project_root() -> PathBuf {
    // xtask/ is one level below the workspace root.
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(Path::to_path_buf).unwrap_or(here)
}

fn relative(root: &Path, file: &Path) -> String {
    file.strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string()
}

/// The server's version from `Cargo.toml`; the extension's `package.json` must agree.
fn package_version(root: &Path) -> Result<String> {
    let manifest = read_text(&root.join("Cargo.toml"))?;
    let version = manifest
        .split("\n[")
        .find(|section| section.starts_with("package]") || section.starts_with("[package]"))
        .and_then(|section| {
            section
                .lines()
                .find_map(|line| line.strip_prefix("version = \""))
        })
        .and_then(|rest| rest.strip_suffix('"'))
        .ok_or("no version = \"…\" in Cargo.toml's [package]")?
        .to_string();
    let package_json = read_text(&root.join("editors/vscode/package.json"))?;
    if !package_json.contains(&format!("\"version\": \"{version}\"")) {
        return Err(format!(
            "editors/vscode/package.json's version is not {version} (Cargo.toml's)"
        ));
    }
    Ok(version)
}

/// `SOURCE_DATE_EPOCH` if set, else the last commit's time, else 0.
fn source_date_epoch(root: &Path) -> u64 {
    if let Some(epoch) = env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return epoch;
    }
    Command::new("git")
        .args(["log", "-1", "--format=%ct"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8_lossy(&out.stdout).trim().parse().ok())
        .unwrap_or(0)
}

fn host_target() -> Result<String> {
    let out = output(Command::new("rustc").arg("-vV"))?;
    out.lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV printed no host".to_string())
}

/// The VS Code platform a Rust target's binary runs on (`vsce package --target`).
fn vscode_target(target: &str) -> Option<&'static str> {
    Some(match target {
        "x86_64-unknown-linux-gnu" => "linux-x64",
        "aarch64-unknown-linux-gnu" => "linux-arm64",
        "x86_64-apple-darwin" => "darwin-x64",
        "aarch64-apple-darwin" => "darwin-arm64",
        "x86_64-pc-windows-msvc" => "win32-x64",
        "aarch64-pc-windows-msvc" => "win32-arm64",
        _ => return None,
    })
}

fn exe_name(target: &str) -> &'static str {
    if target.contains("windows") {
        "boxls.exe"
    } else {
        "boxls"
    }
}

fn build_server(root: &Path, target: Option<&str>, triple: &str) -> Result<PathBuf> {
    let mut cargo = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .args(["build", "--release", "--locked", "--package", "boxls"])
        .current_dir(root);
    let mut dir = root.join("target");
    if let Some(t) = target {
        cargo.args(["--target", t]);
        dir.push(t);
    }
    status(&mut cargo)?;
    Ok(dir.join("release").join(exe_name(triple)))
}

/// A file of the archive: its path inside, its bytes and its Unix mode.
struct Entry {
    path: String,
    data: Vec<u8>,
    mode: u32,
}

fn archive(
    root: &Path,
    dist: &Path,
    version: &str,
    target: &str,
    binary: &Path,
    manual: &Path,
    epoch: u64,
) -> Result<PathBuf> {
    let base = format!("boxls-{version}-{target}");
    let mut entries = vec![
        Entry {
            path: format!("{base}/bin/{}", exe_name(target)),
            data: read(binary)?,
            mode: 0o755,
        },
        doc(&base, "man/boxls.1", server_output(binary, &["man"])?),
    ];
    for (shell, name) in [
        ("bash", "boxls.bash"),
        ("zsh", "_boxls"),
        ("fish", "boxls.fish"),
    ] {
        let script = server_output(binary, &["completions", shell])?;
        entries.push(doc(&base, &format!("completions/{name}"), script));
    }
    for name in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        entries.push(doc(&base, name, read(&root.join(name))?));
    }
    // The manual as HTML: `book/index.html` opens it, offline.
    for file in files_under(manual)? {
        let inside = file
            .strip_prefix(manual)
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .replace('\\', "/");
        entries.push(doc(&base, &format!("book/{inside}"), read(&file)?));
    }
    // The Neovim plugin as a native package (its tests stay in the repository); it finds
    // `../bin/boxls` from its own folder when none is on PATH.
    let nvim = root.join("editors/nvim");
    for file in files_under(&nvim)? {
        let inside = file
            .strip_prefix(&nvim)
            .map_err(|e| e.to_string())?
            .to_string_lossy()
            .replace('\\', "/");
        if inside.starts_with("test/") {
            continue;
        }
        entries.push(doc(&base, &format!("nvim/{inside}"), read(&file)?));
    }
    let out = dist.join(format!("{base}.tar.gz"));
    write(&out, &targz(entries, epoch)?)?;
    Ok(out)
}

/// `cargo xtask book`: the manual's links checked (README included), then built with
/// mdBook into `docs/book/`; returns that folder.
fn book(root: &Path) -> Result<PathBuf> {
    let docs = root.join("docs");
    let src = docs.join("src");
    let mut pages: Vec<PathBuf> = files_under(&src)?
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.push(root.join("README.md"));
    let broken = links::check(&pages, &src);
    if !broken.is_empty() {
        let list: Vec<String> = broken
            .iter()
            .map(|b| format!("  {}:{}: {}", relative(root, &b.file), b.line, b.why))
            .collect();
        return Err(format!(
            "{} broken link(s) in the manual:\n{}",
            broken.len(),
            list.join("\n")
        ));
    }
    let out = docs.join("book");
    let mdbook = env::var_os("MDBOOK").unwrap_or_else(|| "mdbook".into());
    let built = Command::new(&mdbook)
        .arg("build")
        .arg(&docs)
        .arg("--dest-dir")
        .arg(&out)
        .output()
        .map_err(|e| {
            format!(
                "cannot run {} ({e}); install it with `{MDBOOK_INSTALL}`",
                mdbook.to_string_lossy()
            )
        })?;
    if !built.status.success() {
        return Err(format!(
            "mdbook build failed:\n{}",
            String::from_utf8_lossy(&built.stderr)
        ));
    }
    println!(
        "xtask: the manual: {} pages, links checked, HTML in {}",
        pages.len(),
        relative(root, &out)
    );
    Ok(out)
}

fn doc(base: &str, path: &str, data: Vec<u8>) -> Entry {
    Entry {
        path: format!("{base}/{path}"),
        data,
        mode: 0o644,
    }
}

/// What the freshly built server prints (completions, the man page).
fn server_output(binary: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let out = Command::new(binary).args(args).output().map_err(|e| {
        format!(
            "cannot run {} (built for another machine?): {e}",
            binary.display()
        )
    })?;
    if !out.status.success() {
        return Err(format!(
            "{} {} failed: {}",
            binary.display(),
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out.stdout)
}

/// Every file below `dir`, sorted.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for item in fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))? {
            let path = item.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A .tar.gz of `entries` and their folders, the same bytes for the same entries.
fn targz(mut entries: Vec<Entry>, epoch: u64) -> Result<Vec<u8>> {
    let mut dirs: Vec<String> = entries
        .iter()
        .flat_map(|e| {
            let parts: Vec<&str> = e.path.split('/').collect();
            (1..parts.len())
                .map(|n| format!("{}/", parts[..n].join("/")))
                .collect::<Vec<_>>()
        })
        .collect();
    dirs.sort();
    dirs.dedup();
    entries.extend(dirs.into_iter().map(|path| Entry {
        path,
        data: Vec::new(),
        mode: 0o755,
    }));
    entries.sort_by(|a, b| a.path.cmp(&b.path));

    let gz = flate2::GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), flate2::Compression::best());
    let mut tar = tar::Builder::new(gz);
    for entry in &entries {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(if entry.path.ends_with('/') {
            tar::EntryType::Directory
        } else {
            tar::EntryType::Regular
        });
        header.set_size(entry.data.len() as u64);
        header.set_mode(entry.mode);
        header.set_mtime(epoch);
        header.set_uid(0);
        header.set_gid(0);
        tar.append_data(&mut header, &entry.path, entry.data.as_slice())
            .map_err(|e| format!("tar {}: {e}", entry.path))?;
    }
    let gz = tar.into_inner().map_err(|e| e.to_string())?;
    gz.finish().map_err(|e| e.to_string())
}

/// The copies `vsix` puts into the extension's folder for `vsce`, removed when done.
struct Staged(Vec<PathBuf>);

impl Drop for Staged {
    fn drop(&mut self) {
        for path in &self.0 {
            let _ = fs::remove_dir_all(path).or_else(|_| fs::remove_file(path));
        }
    }
}

/// `boxls-<version>-<platform>.vsix` with the server at `extension/server/boxls`, or the
/// universal `boxls-<version>.vsix` without one (it then looks on `PATH`).
fn vsix(
    root: &Path,
    dist: &Path,
    version: &str,
    server: Option<(&str, &Path)>,
    epoch: u64,
) -> Result<PathBuf> {
    let ext = root.join("editors/vscode");
    status(
        npm()
            .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
            .current_dir(&ext),
    )?;

    let server_dir = ext.join("server");
    let _ = fs::remove_dir_all(&server_dir);
    let mut staged = Staged(vec![server_dir.clone()]);
    for name in ["LICENSE-MIT", "LICENSE-APACHE"] {
        fs::copy(root.join(name), ext.join(name)).map_err(|e| format!("{name}: {e}"))?;
        staged.0.push(ext.join(name));
    }
    // vsce shows one licence file (LICENSE.md); it points at the two.
    write(&ext.join("LICENSE.md"), LICENSE_MD.as_bytes())?;
    staged.0.push(ext.join("LICENSE.md"));

    let mut vsce = Command::new("node");
    vsce.arg("node_modules/@vscode/vsce/vsce")
        .args(["package", "--no-dependencies", "--allow-missing-repository"])
        .env("SOURCE_DATE_EPOCH", epoch.to_string())
        .env("TZ", "UTC")
        .current_dir(&ext);
    let name = match server {
        Some((platform, binary)) => {
            mkdir(&server_dir)?;
            let file_name = binary.file_name().ok_or("no binary name")?;
            let bundled = server_dir.join(file_name);
            fs::copy(binary, &bundled).map_err(|e| format!("{}: {e}", binary.display()))?;
            executable(&bundled)?;
            vsce.args(["--target", platform]);
            format!("boxls-{version}-{platform}.vsix")
        }
        None => format!("boxls-{version}.vsix"),
    };
    let out = dist.join(&name);
    vsce.arg("-o").arg(&out);
    status(&mut vsce)?;
    Ok(out)
}

const LICENSE_MD: &str = "boxls is licensed under either of

- the Apache License, Version 2.0 (`LICENSE-APACHE`), or
- the MIT license (`LICENSE-MIT`),

at your option.
";

#[cfg(unix)]
fn executable(file: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(file, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())
}

#[cfg(not(unix))]
fn executable(_file: &Path) -> Result<()> {
    Ok(())
}

fn npm() -> Command {
    // npm is a .cmd script on Windows, which only a shell runs.
    if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.args(["/C", "npm"]);
        c
    } else {
        Command::new("npm")
    }
}

fn sha256sums(files: &[PathBuf]) -> Result<String> {
    let mut lines = Vec::new();
    for file in files {
        let digest = Sha256::digest(read(file)?);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let name = file.file_name().ok_or("no file name")?.to_string_lossy();
        lines.push(format!("{hex}  {name}\n"));
    }
    lines.sort_by(|a, b| a[66..].cmp(&b[66..]));
    Ok(lines.concat())
}

fn status(cmd: &mut Command) -> Result<()> {
    let shown = format!("{cmd:?}");
    let st = cmd
        .status()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({st})"))
    }
}

fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({})", out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn read_text(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, data: &[u8]) -> Result<()> {
    fs::File::create(path)
        .and_then(|mut f| f.write_all(data))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn mkdir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, data: &[u8]) -> Entry {
        Entry {
            path: path.into(),
            data: data.to_vec(),
            mode: 0o644,
        }
    }

    #[test]
    fn the_archive_is_the_same_bytes_whatever_the_order_of_its_entries() {
        let a = targz(vec![entry("x/b", b"2"), entry("x/a/c", b"1")], 7);
        let b = targz(vec![entry("x/a/c", b"1"), entry("x/b", b"2")], 7);
        assert!(a.is_ok());
        assert_eq!(a, b);
    }

    #[test]
    fn the_archive_lists_folders_before_their_files_with_fixed_times_and_owners() {
        let bytes = targz(vec![entry("x/a/c", b"1"), entry("x/b", b"22")], 7).unwrap_or_default();
        let gz = flate2::read::GzDecoder::new(bytes.as_slice());
        assert_eq!(gz.header().map(|h| h.mtime()), Some(0));
        let mut tar = tar::Archive::new(gz);
        let mut seen = Vec::new();
        for e in tar.entries().into_iter().flatten().flatten() {
            let h = e.header();
            seen.push((
                e.path()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                h.mtime().unwrap_or(0),
                h.uid().unwrap_or(1),
                h.gid().unwrap_or(1),
            ));
        }
        let paths: Vec<&str> = seen.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(paths, ["x/", "x/a/", "x/a/c", "x/b"]);
        assert!(seen.iter().all(|s| s.1 == 7 && s.2 == 0 && s.3 == 0));
    }

    #[test]
    fn rust_targets_map_to_vscode_platforms() {
        assert_eq!(vscode_target("x86_64-unknown-linux-gnu"), Some("linux-x64"));
        assert_eq!(vscode_target("aarch64-apple-darwin"), Some("darwin-arm64"));
        assert_eq!(vscode_target("x86_64-pc-windows-msvc"), Some("win32-x64"));
        assert_eq!(vscode_target("riscv64gc-unknown-linux-gnu"), None);
        assert_eq!(exe_name("x86_64-pc-windows-msvc"), "boxls.exe");
    }

    #[test]
    fn arguments() {
        let args = |a: &[&str]| parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(args(&[]).is_err());
        assert!(args(&["dist", "--bogus"]).is_err());
        let o = args(&["dist", "--target", "aarch64-apple-darwin"]).unwrap_or_default();
        assert_eq!(o.target.as_deref(), Some("aarch64-apple-darwin"));
        assert!(args(&["dist", "--universal"]).is_ok_and(|o| o.universal));
    }
}
