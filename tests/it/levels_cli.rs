//! The `boxls` binary on Sokoban levels: `check` (compiler style and `--json`, for
//! levels and `.box` alike), `fmt` (run-length modes, `--format` on standard input),
//! `convert` both ways (the sample survives the round trip byte for byte through
//! `solve`), and `solve` on levels (text and `--json`).

use expect_test::expect;

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

/// One run of the binary (the runner `gen.rs` has for every suite).
fn run(args: &[&str], stdin: &str) -> Run {
    let (stdout, stderr, code) = crate::gen::run(args, stdin.as_bytes());
    Run {
        stdout,
        stderr,
        code,
    }
}

const FROZEN: &str =
    "; 1\n\n#######\n#.$$  #\n#.  @ #\n#######\n\n; 2 é\n\n######\n#@$ .#\n######\nSolution: RRR\n";

#[test]
fn check_json_gives_one_object_per_diagnostic_with_character_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.xsb");
    std::fs::write(&path, FROZEN).unwrap();
    let out = run(&["check", "--json", path.to_str().unwrap()], "");
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let shown = out.stdout.replace(path.to_str().unwrap(), "two.xsb");
    expect![[r#"
        {"file":"two.xsb","line":4,"column":3,"endLine":4,"endColumn":4,"severity":"warning","code":"frozen-boxes","message":"frozen: this box and 1 other can never move again, and not all of them are on goals"}
        {"file":"two.xsb","line":4,"column":4,"endLine":4,"endColumn":5,"severity":"warning","code":"frozen-boxes","message":"frozen: this box and 1 other can never move again, and not all of them are on goals"}
        {"file":"two.xsb","line":13,"column":13,"endLine":13,"endColumn":14,"severity":"error","code":"solution-illegal","message":"move 3 (`R`) pushes a box into a wall or another box"}
    "#]]
    .assert_eq(&shown);
    // Compiler style by default, with the summary line.
    let out = run(&["check", "--format", "xsb", "-"], FROZEN);
    assert!(
        out.stdout.contains("warning[frozen-boxes]"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("1 error, 2 warnings in 1 file\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn check_json_on_a_box_file_and_on_every_collection() {
    let out = run(&["check", "--json", "-"], "1 3\nSBX\n0 0\n");
    assert_eq!(out.code, Some(1));
    expect![[r#"
        {"file":"<stdin>","line":1,"column":1,"endLine":1,"endColumn":4,"severity":"error","code":"missing-target","message":"this maze has no target (`T`)"}
        {"file":"<stdin>","line":2,"column":3,"endLine":2,"endColumn":4,"severity":"error","code":"bad-char","message":"`X` is not a cell: use `#` `.` `S` `B` `T`"}
    "#]]
    .assert_eq(&out.stdout);
    let out = run(
        &[
            "check",
            "--json",
            "tests/levels/Microban_155.xsb",
            "tests/levels/XSokoban_90.xsb",
            "tests/levels/Sasquatch_50.xsb",
        ],
        "",
    );
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (Some(0), ""),
        "{}",
        out.stderr
    );
}

#[test]
fn fmt_levels_from_stdin_in_each_run_length_mode() {
    let messy = "\n; 1  \n\n\n4#|#@$.#\n4#\n";
    let out = run(&["fmt", "--format", "xsb", "-"], messy);
    assert_eq!(out.stdout, "; 1\n\n4#|#@$.#\n4#\n");
    let out = run(
        &["fmt", "--format", "xsb", "--run-length", "expand", "-"],
        messy,
    );
    assert_eq!(out.stdout, "; 1\n\n####\n#@$.#\n####\n");
    let out = run(
        &["fmt", "--format", "xsb", "--run-length", "compress", "-"],
        &out.stdout,
    );
    assert_eq!(out.stdout, "; 1\n\n4#\n#@$.#\n4#\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("level.sok");
    std::fs::write(&path, messy).unwrap();
    assert_eq!(
        run(&["fmt", "--check", path.to_str().unwrap()], "").code,
        Some(1)
    );
    assert_eq!(run(&["fmt", path.to_str().unwrap()], "").code, Some(0));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "; 1\n\n4#|#@$.#\n4#\n"
    );
    assert_eq!(
        run(&["fmt", "--check", path.to_str().unwrap()], "").code,
        Some(0)
    );
}

#[test]
fn convert_round_trips_the_sample_and_refuses_many_boxes() {
    let dir = tempfile::tempdir().unwrap();
    let xsb = dir.path().join("sample.xsb");
    let out = run(
        &[
            "convert",
            "examples/sample.box",
            "-o",
            xsb.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let text = std::fs::read_to_string(&xsb).unwrap();
    assert!(text.starts_with("; 1\n\n"), "{text}");
    let back = run(&["convert", xsb.to_str().unwrap()], "");
    assert_eq!(back.code, Some(0), "{}", back.stderr);
    let solved = run(&["solve", "-"], &back.stdout);
    let expected = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sample.out"),
    )
    .unwrap();
    assert_eq!(solved.stdout, expected);
    let rle = run(
        &["convert", "--run-length", "--format", "box", "-"],
        "1 3\nSBT\n0 0\n",
    );
    assert_eq!(rle.stdout, "; 1\n\n5#\n#@$.#\n5#\n");
    let refused = run(
        &["convert", "--format", "xsb", "-"],
        "######\n#@$$..#\n#######\n",
    );
    assert_eq!(refused.code, Some(1));
    assert!(
        refused
            .stderr
            .contains("#1: a .box maze has one box; this level has more"),
        "{}",
        refused.stderr
    );
}

const THREE: &str = "; 1\n\n#####\n#@$.#\n#####\n\n; 2\n'Stuck'\n\n#####\n#$ .#\n# @ #\n#####\n\n; 3\n\n######\n#@$$..#\n#######\n";

#[test]
fn solve_levels_prints_one_line_per_level_in_text_and_json() {
    let out = run(&["solve", "--format", "xsb", "--jobs", "2", "-"], THREE);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "Level 1 \"1\": R\nLevel 2 \"Stuck\": no solution\nLevel 3 \"3\": no solution\n"
    );
    let out = run(
        &["solve", "--format", "xsb", "--json", "--optimal", "-"],
        THREE,
    );
    let shown: Vec<String> = out
        .stdout
        .lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(value["seconds"].as_f64().unwrap() >= 0.0);
            value["seconds"] = serde_json::json!(0);
            value.to_string()
        })
        .collect();
    expect![[r#"
        {"level":1,"moves":1,"optimal":true,"pushes":1,"seconds":0,"solution":"R","status":"solved","title":"1"}
        {"level":2,"moves":null,"optimal":false,"pushes":null,"seconds":0,"solution":null,"status":"unsolvable","title":"Stuck"}
        {"level":3,"moves":null,"optimal":false,"pushes":null,"seconds":0,"solution":null,"status":"unsolvable","title":"3"}"#]].assert_eq(&shown.join("\n"));
    let broken = run(&["solve", "--format", "xsb", "-"], "#####\n# $.#\n#####\n");
    assert_eq!((broken.code, broken.stdout.as_str()), (Some(1), ""));
    assert!(
        broken.stderr.contains("missing-player"),
        "{}",
        broken.stderr
    );
    let json_on_box = run(&["solve", "--json", "examples/sample.box"], "");
    assert_eq!(json_on_box.code, Some(2));
}

#[test]
fn check_with_a_time_limit_adds_what_the_solver_proves() {
    let out = run(
        &[
            "check",
            "--json",
            "--format",
            "xsb",
            "--time-limit",
            "10",
            "-",
        ],
        THREE,
    );
    let codes: Vec<_> = out
        .stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            format!("{} {}", value["line"], value["code"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        codes,
        [
            "10 unsolvable",
            "11 dead-square",
            "17 unsolvable",
            "18 frozen-boxes",
            "18 frozen-boxes"
        ],
        "{}",
        out.stdout
    );
}

#[test]
fn render_draws_a_level_or_says_what_is_wrong_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.xsb");
    let levels = FROZEN.replace("Solution: RRR\n", "");
    std::fs::write(&path, &levels).unwrap();
    let file = path.to_str().unwrap();
    // Level 2 is solved (one box: the `.box` solver's optimum).
    let out = run(&["render", file, "--level", "2", "--animate"], "");
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let doc = roxmltree::Document::parse(&out.stdout).expect("SVG");
    let headline = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("headline"))
        .and_then(|n| n.text())
        .unwrap_or("");
    assert_eq!(
        headline,
        "Level 2 “2 é” · 3×6 · 2 pushes · 2 moves (optimal)"
    );
    // Level 1 is frozen: unsolvable, drawn without a path.
    let out = run(&["render", "--format", "xsb", "-"], &levels);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(out.stdout.contains("· unsolvable</text>"), "{}", out.stdout);
    assert!(!out.stdout.contains("id=\"trail"), "no trail");
    // No level 3; a level with errors prints them.
    let out = run(&["render", file, "--maze", "3"], "");
    assert_eq!(out.code, Some(2));
    assert!(out.stderr.contains("there is no level 3"), "{}", out.stderr);
    let out = run(
        &["render", "--format", "xsb", "-"],
        "#####\n#@$.#\n#@  #\n#####\n",
    );
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("error["), "{}", out.stderr);
    assert!(out.stdout.is_empty());
}
