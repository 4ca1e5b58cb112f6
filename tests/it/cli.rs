//! The `boxls` binary end to end: `solve` (file, stdin, broken input), `check`
//! (compiler-style output and exit codes), `--help`, `--version`, unreadable files, bad
//! arguments and colour. Output is captured through pipes, so it is never coloured.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use expect_test::expect;

const SAMPLE: &str = "examples/sample.box";
const BROKEN: &str = "tests/fixtures/cli/broken.box";

/// What one run of the binary printed, and how it exited.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

impl Run {
    fn assert_code(&self, expected: i32) -> &Run {
        assert_eq!(
            self.code,
            Some(expected),
            "exit code\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }
}

/// A command for the built binary, run from the package root without colour.
fn boxls(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boxls"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1");
    command
}

/// Runs `command` with `stdin` as its standard input (empty when `None`).
fn run_with(command: &mut Command, stdin: Option<&[u8]>) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the boxls binary runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    pipe.write_all(stdin.unwrap_or_default())
        .expect("write stdin");
    drop(pipe);
    let output = child.wait_with_output().expect("boxls finishes");
    Run {
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        code: output.status.code(),
    }
}

fn run(args: &[&str]) -> Run {
    run_with(&mut boxls(args), None)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).expect("read test input")
}

fn assert_sample_solved(run: &Run) {
    run.assert_code(0);
    assert_eq!(run.stdout.as_bytes(), read("examples/sample.out"));
    assert_eq!(run.stderr, "");
}

#[test]
fn solve_prints_the_sample_output_byte_for_byte() {
    assert_sample_solved(&run(&["solve", SAMPLE]));
}

#[test]
fn solve_reads_stdin_without_a_file() {
    assert_sample_solved(&run_with(&mut boxls(&["solve"]), Some(&read(SAMPLE))));
}

#[test]
fn solve_reads_stdin_for_a_dash() {
    assert_sample_solved(&run_with(&mut boxls(&["solve", "-"]), Some(&read(SAMPLE))));
}

#[test]
fn solve_accepts_comments_solutions_and_any_line_ending() {
    let text = "; comment\r\n1 7\r\nSB....T\r\n; solution: EEEEE\r\n\r\n1 7\rSB..#.T\r0 0";
    let run = run_with(&mut boxls(&["solve"]), Some(text.as_bytes()));
    run.assert_code(0);
    assert_eq!(run.stdout, "Maze #1\nEEEEE\n\nMaze #2\nImpossible.\n\n");
    assert_eq!(run.stderr, "");
}

#[test]
fn solve_on_a_broken_file_prints_diagnostics_on_stderr_only() {
    let run = run(&["solve", BROKEN]);
    run.assert_code(1);
    assert_eq!(run.stdout, "");
    expect![[r#"
        error[bad-char]: `x` is not a cell: use `#` `.` `S` `B` `T`
          ┌─ tests/fixtures/cli/broken.box:3:5
          │
        3 │ SB..x.T
          │     ^

        error[bad-char]: `s` is not a cell: use `#` `.` `S` `B` `T`
          ┌─ tests/fixtures/cli/broken.box:5:2
          │
        5 │ #sBT#
          │  ^
          │
          = help: Replace with `S`

        warning[missing-terminator]: the file does not end with the `0 0` terminator
           ┌─ tests/fixtures/cli/broken.box:11:1
           │
        11 │ ; solution: sewnEEE
           │ ^^^^^^^^^^^^^^^^^^^
           │
           = help: Append `0 0`

    "#]]
    .assert_eq(&run.stderr);
}

#[test]
fn solve_names_stdin_in_diagnostics() {
    let run = run_with(&mut boxls(&["solve"]), Some(b"1 3\nSBx\n0 0\n"));
    run.assert_code(1);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("<stdin>:2:3"), "{}", run.stderr);
}

#[test]
fn solve_with_only_warnings_still_solves() {
    let run = run_with(&mut boxls(&["solve", "-"]), Some(b"1 7\nSB....T"));
    run.assert_code(0);
    assert_eq!(run.stdout, "Maze #1\nEEEEE\n\n");
    assert!(
        run.stderr.contains("warning[missing-terminator]"),
        "{}",
        run.stderr
    );
}

#[test]
fn solve_replaces_invalid_utf8_and_reports_it() {
    let run = run_with(&mut boxls(&["solve"]), Some(b"1 7\nSB\xff...T\n0 0\n"));
    run.assert_code(1);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains("error[bad-char]") && run.stderr.contains("<stdin>:2:3"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_reports_every_diagnostic_of_a_broken_file() {
    let run = run(&["check", BROKEN]);
    run.assert_code(1);
    assert_eq!(run.stderr, "");
    expect![[r#"
        error[bad-char]: `x` is not a cell: use `#` `.` `S` `B` `T`
          ┌─ tests/fixtures/cli/broken.box:3:5
          │
        3 │ SB..x.T
          │     ^

        error[bad-char]: `s` is not a cell: use `#` `.` `S` `B` `T`
          ┌─ tests/fixtures/cli/broken.box:5:2
          │
        5 │ #sBT#
          │  ^
          │
          = help: Replace with `S`

        warning[missing-terminator]: the file does not end with the `0 0` terminator
           ┌─ tests/fixtures/cli/broken.box:11:1
           │
        11 │ ; solution: sewnEEE
           │ ^^^^^^^^^^^^^^^^^^^
           │
           = help: Append `0 0`

        warning[solution-not-optimal]: this solution takes 3 pushes and 7 moves; the optimum is 3 pushes and 3 moves
           ┌─ tests/fixtures/cli/broken.box:11:13
           │
        11 │ ; solution: sewnEEE
           │             ^^^^^^^
           │
           = help: Replace with the optimal solution

        2 errors, 2 warnings in 1 file
    "#]].assert_eq(&run.stdout);
}

#[test]
fn check_passes_on_the_valid_sample() {
    let run = run(&["check", SAMPLE]);
    run.assert_code(0);
    assert_eq!(run.stderr, "");
    expect![[r#"
        warning[unsolvable]: this maze is unsolvable: no push can ever move the box onto the target
          ┌─ examples/sample.box:3:1
          │
        3 │ 1 7
          │ ^^^

        0 errors, 1 warning in 1 file
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn check_counts_line_breaks_as_lsp_does() {
    let run = run_with(&mut boxls(&["check", "-"]), Some(b"1 7\rSB..x.T\r\n0 0\r"));
    run.assert_code(1);
    expect![[r#"
        error[bad-char]: `x` is not a cell: use `#` `.` `S` `B` `T`
          ┌─ <stdin>:2:5
          │
        2 │ SB..x.T
          │     ^

        1 error, 0 warnings in 1 file
    "#]]
    .assert_eq(&run.stdout);
}

#[test]
fn check_goes_on_after_an_unreadable_file() {
    let run = run(&["check", "tests/fixtures/cli/no-such-file.box", SAMPLE]);
    run.assert_code(2);
    assert!(
        run.stderr
            .contains("cannot read `tests/fixtures/cli/no-such-file.box`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("examples/sample.box:3:1"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("0 errors, 1 warning in 2 files\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_missing_file_is_a_clear_error() {
    let run = run(&["solve", "tests/fixtures/cli/no-such-file.box"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("boxls: cannot read `tests/fixtures/cli/no-such-file.box`: "),
        "{}",
        run.stderr
    );
}

#[test]
fn a_directory_is_a_clear_error() {
    let run = run(&["solve", "tests/fixtures"]);
    run.assert_code(2);
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr
            .starts_with("boxls: cannot read `tests/fixtures`: "),
        "{}",
        run.stderr
    );
}

#[test]
fn help_lists_the_commands() {
    for args in [&["--help"][..], &["help"], &["-h"]] {
        let run = run(args);
        run.assert_code(0);
        for needle in ["Usage: boxls", "solve", "check", "--version"] {
            assert!(run.stdout.contains(needle), "{args:?}: {}", run.stdout);
        }
    }
    let run = run(&["solve", "--help"]);
    run.assert_code(0);
    assert!(
        run.stdout.contains("Usage: boxls solve [FILE]"),
        "{}",
        run.stdout
    );
}

#[test]
fn version_prints_the_package_version() {
    let run = run(&["--version"]);
    run.assert_code(0);
    assert_eq!(run.stdout, format!("boxls {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn bad_arguments_are_usage_errors() {
    let cases: [(&[&str], &str); 4] = [
        (&["--bogus"], "unexpected argument '--bogus'"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (&["solve", "a.box", "b.box"], "unexpected argument 'b.box'"),
        (&["check"], "required arguments were not provided"),
    ];
    for (args, message) in cases {
        let run = run(args);
        run.assert_code(2);
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("Usage: boxls"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn piped_output_is_never_coloured() {
    let mut command = boxls(&["check", BROKEN]);
    command.env_remove("NO_COLOR").env("TERM", "xterm-256color");
    let run = run_with(&mut command, None);
    assert!(!run.stdout.contains('\x1b'), "{}", run.stdout);
}

/// On a terminal the output is coloured unless `NO_COLOR` is set. Needs util-linux
/// `script` for a pseudo-terminal; skipped where it is missing.
#[cfg(target_os = "linux")]
#[test]
fn a_terminal_gets_colour_unless_no_color_is_set() {
    if !Path::new("/usr/bin/script").exists() {
        eprintln!("skipped: /usr/bin/script is not installed");
        return;
    }
    let on_terminal = |no_color: bool| {
        let shell = format!("'{}' check {BROKEN}", env!("CARGO_BIN_EXE_boxls"));
        let mut command = Command::new("/usr/bin/script");
        command
            .args(["-qec", &shell, "/dev/null"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR");
        if no_color {
            command.env("NO_COLOR", "1");
        }
        run_with(&mut command, None).stdout
    };
    assert!(on_terminal(false).contains('\x1b'));
    let plain = on_terminal(true);
    assert!(plain.contains("error[bad-char]"), "{plain}");
    assert!(!plain.contains('\x1b'), "{plain}");
}
