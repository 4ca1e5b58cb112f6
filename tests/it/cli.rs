//! The `boxls` binary end to end: `solve` (file, stdin, broken input), `check`
//! (compiler-style output and exit codes), `fmt`, `judge`, `completions`, `--help`,
//! `--version`, unreadable and binary files, bad arguments, colour and the stdin hint
//! on a terminal. Output is captured through pipes, so it is never coloured.

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
fn solve_on_a_broken_file_prints_the_valid_mazes_and_reports_the_rest() {
    let run = run(&["solve", BROKEN]);
    run.assert_code(1);
    assert_eq!(run.stdout, "Maze #3\nEEE\n\n");
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

        warning[solution-not-optimal]: this solution takes 3 pushes and 7 moves; the optimum is 3 pushes and 3 moves
           ┌─ tests/fixtures/cli/broken.box:11:13
           │
        11 │ ; solution: sewnEEE
           │             ^^^^^^^
           │
           = help: Replace with the optimal solution

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
        run.stdout.ends_with("0 errors, 1 warning in 1 file\n"),
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
        run.stdout.contains("Usage: boxls solve [OPTIONS] [FILE]"),
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
        (&["judge", "in.box"], "required arguments were not provided"),
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

/// A scratch file under Cargo's temporary directory for integration tests.
fn scratch(name: &str, contents: &[u8]) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write a scratch file");
    path.to_string_lossy().into_owned()
}

#[test]
fn a_binary_file_is_one_clear_error() {
    let elf = scratch(
        "program.box",
        b"\x7fELF\x02\x01\x01\x00\x00\x00\x03\x00>\x00\x01\x1b[2J\n1 3\nSBT\n",
    );
    for command in ["solve", "check", "fmt"] {
        let run = run(&[command, &elf]);
        run.assert_code(2);
        assert_eq!(run.stdout, "", "{command}");
        assert_eq!(
            run.stderr,
            format!("boxls: `{elf}` is not a text file (it contains NUL bytes)\n"),
            "{command}"
        );
    }
    let controls = run_with(
        &mut boxls(&["solve"]),
        Some(b"\x01\x02\x03\x04\x05\x06\x07\x08 1 3"),
    );
    controls.assert_code(2);
    assert_eq!(
        controls.stderr,
        "boxls: `<stdin>` is not a text file (it is mostly control characters)\n"
    );
}

#[test]
fn check_counts_only_the_files_it_read() {
    let run = run(&[
        "check",
        "tests/fixtures/cli/no-such-file.box",
        SAMPLE,
        "tests/fixtures",
    ]);
    run.assert_code(2);
    assert!(
        run.stderr.contains("cannot read `tests/fixtures`: "),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.ends_with("0 errors, 1 warning in 1 file\n"),
        "{}",
        run.stdout
    );
    let nothing_read = self::run(&["check", "tests/fixtures"]);
    nothing_read.assert_code(2);
    assert_eq!(nothing_read.stdout, "");
}

#[test]
fn check_reads_stdin_without_a_file_or_for_a_dash() {
    for args in [&["check"][..], &["check", "-"]] {
        let run = run_with(&mut boxls(args), Some(b"1 4\nSBxT\n0 0\n"));
        run.assert_code(1);
        assert!(run.stdout.contains("<stdin>:2:3"), "{}", run.stdout);
        assert!(
            run.stdout.ends_with("1 error, 0 warnings in 1 file\n"),
            "{}",
            run.stdout
        );
    }
}

/// A `rows`×`cols` room with S, B and T in its first row.
fn room(rows: usize, cols: usize) -> String {
    let mut text = String::new();
    for row in 0..rows {
        let mut line = ".".repeat(cols);
        if row == 0 {
            line.replace_range(0..3, "SBT");
        }
        text.push_str(&line);
        text.push('\n');
    }
    text
}

#[test]
fn a_header_that_disagrees_with_every_row_is_one_error() {
    let text = format!("300 299\n{}0 0\n", room(300, 300));
    let run = run_with(&mut boxls(&["check"]), Some(text.as_bytes()));
    run.assert_code(1);
    expect![[r#"
        error[row-length]: every row has 300 cells; the header declares 299
          ┌─ <stdin>:1:5
          │
        1 │ 300 299
          │     ^^^
          │
          = help: Set header to `300 300`

        1 error, 0 warnings in 1 file
    "#]]
    .assert_eq(&run.stdout);
    // Rows that disagree among themselves are each reported.
    let run = run_with(
        &mut boxls(&["check"]),
        Some(b"2 4\nSB.T\n#..\n#...#\n0 0\n"),
    );
    assert_eq!(
        run.stdout.matches("error[row-length]").count(),
        2,
        "{}",
        run.stdout
    );
}

const MIXED: &str = "1 7\nSB....T\n1 3\nSBx\n1 7\nSB..#.T\n0 0\n";

#[test]
fn solve_prints_every_valid_maze_and_reports_the_broken_ones() {
    let run = run_with(&mut boxls(&["solve"]), Some(MIXED.as_bytes()));
    run.assert_code(1);
    assert_eq!(run.stdout, "Maze #1\nEEEEE\n\nMaze #3\nImpossible.\n\n");
    assert!(run.stderr.contains("error[bad-char]"), "{}", run.stderr);
    assert!(run.stderr.contains("<stdin>:4:3"), "{}", run.stderr);
}

#[test]
fn solve_and_check_agree_on_recorded_solutions() {
    let illegal = "1 7\nSB....T\n; solution: EEwE\n0 0\n";
    let worse = "1 7\nSB....T\n; solution: EEEEweE\n0 0\n";
    for (text, code, expected) in [
        (illegal, 1, "error[solution-illegal]"),
        (worse, 0, "warning[solution-not-optimal]"),
    ] {
        let solve = run_with(&mut boxls(&["solve"]), Some(text.as_bytes()));
        solve.assert_code(code);
        assert_eq!(solve.stdout, "Maze #1\nEEEEE\n\n");
        assert!(solve.stderr.contains(expected), "{}", solve.stderr);
        let check = run_with(&mut boxls(&["check"]), Some(text.as_bytes()));
        check.assert_code(code);
        assert!(check.stdout.contains(expected), "{}", check.stdout);
    }
}

#[test]
fn solve_says_when_there_are_no_mazes() {
    for text in [&b""[..], b"; only a comment\n0 0\n"] {
        let run = run_with(&mut boxls(&["solve"]), Some(text));
        run.assert_code(0);
        assert_eq!(run.stdout, "");
        assert!(
            run.stderr.contains("boxls: note: no mazes in `<stdin>`"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn duplicate_and_misplaced_solution_lines_are_warned() {
    let text = "; solution: E\n1 7\nSB....T\n; solution: EEEEE\n; solution: EEEE\n2 3\nSBT\n; solution: E\n...\n0 0\n";
    let run = run_with(&mut boxls(&["check"]), Some(text.as_bytes()));
    run.assert_code(0);
    for (code, line) in [
        ("misplaced-solution", 1),
        ("duplicate-solution", 5),
        ("misplaced-solution", 8),
    ] {
        let needle = format!("warning[{code}]");
        let at = run
            .stdout
            .find(&needle)
            .unwrap_or_else(|| panic!("{needle}: {}", run.stdout));
        assert!(
            run.stdout[at..].contains(&format!("<stdin>:{line}:1")),
            "{}",
            run.stdout
        );
    }
    assert!(
        run.stdout.ends_with("0 errors, 3 warnings in 1 file\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_dead_square_start_reads_as_one_sentence() {
    let run = run_with(&mut boxls(&["check"]), Some(b"3 3\nB.T\nS..\n...\n0 0\n"));
    assert!(
        run.stdout
            .contains("unsolvable: the box starts on a dead square, from which no sequence"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("dead square:"), "{}", run.stdout);
}

/// The lines of a help text's `Arguments:` and `Options:` sections that name an
/// argument without describing it.
fn undescribed(help: &str) -> Vec<String> {
    let mut in_section = false;
    let mut out = Vec::new();
    for line in help.lines() {
        if line == "Arguments:" || line == "Options:" {
            in_section = true;
        } else if line.is_empty() || !line.starts_with(' ') {
            in_section = false;
        } else if in_section {
            let trimmed = line.trim_start();
            let name_end = trimmed.find("  ").unwrap_or(trimmed.len());
            let is_entry = trimmed.starts_with(['-', '<', '[']);
            if is_entry && trimmed[name_end..].trim().is_empty() {
                out.push(line.to_string());
            }
        }
    }
    out
}

#[test]
fn every_command_documents_its_arguments_examples_and_exit_codes() {
    for command in ["solve", "check", "fmt", "judge", "lsp", "completions"] {
        let run = run(&[command, "--help"]);
        run.assert_code(0);
        assert!(
            run.stdout.contains("Examples:") || run.stdout.contains("Example:"),
            "{command}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains("Exit codes: 0"),
            "{command}: {}",
            run.stdout
        );
        assert_eq!(
            undescribed(&run.stdout),
            Vec::<String>::new(),
            "{command}: {}",
            run.stdout
        );
    }
    let run = run(&["check", "--help"]);
    assert!(
        run.stdout
            .contains("[FILES]...  The .box files to check; standard input"),
        "{}",
        run.stdout
    );
    let top = self::run(&["--help"]);
    for command in ["solve", "check", "fmt", "judge", "lsp", "completions"] {
        assert!(
            top.stdout.contains(&format!("  {command} ")),
            "{}",
            top.stdout
        );
    }
    assert!(top.stdout.contains("Exit codes:"), "{}", top.stdout);
}

/// Runs `boxls <args>` with a pseudo-terminal as its standard input (util-linux
/// `script`); returns what the terminal showed.
#[cfg(target_os = "linux")]
fn on_a_terminal(args: &str) -> Option<String> {
    if !Path::new("/usr/bin/script").exists() {
        eprintln!("skipped: /usr/bin/script is not installed");
        return None;
    }
    let shell = format!("'{}' {args}", env!("CARGO_BIN_EXE_boxls"));
    let mut command = Command::new("/usr/bin/script");
    command
        .args(["-qec", &shell, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1");
    let run = run_with(&mut command, None);
    Some(run.stdout)
}

#[cfg(target_os = "linux")]
#[test]
fn a_terminal_on_stdin_gets_a_hint() {
    for command in ["solve", "check", "fmt"] {
        let Some(screen) = on_a_terminal(command) else {
            return;
        };
        let hint = format!("boxls: reading a .box file from standard input (end it with Ctrl-D; `boxls {command} --help` for usage)");
        assert!(screen.contains(&hint), "{command}: {screen:?}");
        assert_eq!(screen.matches("boxls: reading").count(), 1, "{screen:?}");
    }
    // A file named on the command line: no hint.
    let screen = on_a_terminal(&format!("solve {SAMPLE}")).unwrap_or_default();
    assert!(!screen.contains("standard input"), "{screen:?}");
}

/// A copy of `text` to format in place.
fn unformatted(name: &str) -> String {
    scratch(
        name,
        b"  1   7 \n\nSB....T  \n;solution:EEEEE\n1 3\r\nSBT\n",
    )
}

const FORMATTED: &str = "1 7\nSB....T\n; solution: EEEEE\n\n1 3\r\nSBT\n0 0\n";

#[test]
fn fmt_rewrites_files_in_place() {
    let path = unformatted("fmt-in-place.box");
    let run = run(&["fmt", &path]);
    run.assert_code(0);
    assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""));
    assert_eq!(
        std::fs::read_to_string(&path).expect("read back"),
        FORMATTED
    );
    // Idempotent: a second run changes nothing and --check passes.
    run_fmt_check_passes(&path);
}

fn run_fmt_check_passes(path: &str) {
    let run = run(&["fmt", "--check", path]);
    run.assert_code(0);
    assert_eq!(run.stdout, "");
    assert_eq!(std::fs::read_to_string(path).expect("read back"), FORMATTED);
}

#[test]
fn fmt_check_names_the_files_that_would_change_and_changes_none() {
    let path = unformatted("fmt-check.box");
    let before = std::fs::read(&path).expect("read");
    let run = run(&["fmt", "--check", &path, SAMPLE]);
    run.assert_code(1);
    assert_eq!(
        run.stdout,
        format!("{path} would be reformatted\n{SAMPLE} would be reformatted\n")
    );
    assert_eq!(std::fs::read(&path).expect("read"), before);
}

#[test]
fn fmt_filters_stdin_to_stdout() {
    for args in [&["fmt"][..], &["fmt", "-"]] {
        let run = run_with(&mut boxls(args), Some(&read(SAMPLE)));
        run.assert_code(0);
        let expected = "1 7\nSB....T\n\n1 7\nSB..#.T\n\n7 11\n";
        assert!(run.stdout.starts_with(expected), "{}", run.stdout);
        assert!(run.stdout.ends_with("###T\n0 0\n"), "{}", run.stdout);
    }
    let check = run_with(
        &mut boxls(&["fmt", "--check", "-"]),
        Some(b"1 3\nSBT\n0 0\n"),
    );
    check.assert_code(0);
    assert_eq!(check.stdout, "");
}

#[test]
fn fmt_refuses_text_that_is_not_utf8() {
    let path = scratch("latin1.box", b"; caf\xe9\n1 3\nSBT  \n0 0\n");
    let run = run(&["fmt", &path]);
    run.assert_code(2);
    assert!(run.stderr.contains("is not UTF-8"), "{}", run.stderr);
    assert_eq!(
        std::fs::read(&path).expect("read"),
        b"; caf\xe9\n1 3\nSBT  \n0 0\n"
    );
}

/// A fresh, empty directory of its own for one `fmt` test, so the test can see that
/// nothing else (no temporary file) is left in it.
fn fmt_dir(name: &str) -> std::path::PathBuf {
    fresh_dir("fmt", name)
}

/// `<target tmp>/<group>/<name>`, emptied or made.
pub fn fresh_dir(group: &str, name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test's directory");
    dir
}

/// The names in `dir`, sorted.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list the directory")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// `boxls fmt` under `sh`, so a test can set limits before it starts.
fn fmt_under_sh(script: &str, dir: &Path) -> Run {
    let mut command = Command::new("sh");
    command
        .args(["-c", script, "sh", env!("CARGO_BIN_EXE_boxls")])
        .current_dir(dir);
    run_with(&mut command, None)
}

#[test]
fn fmt_keeps_the_original_whole_when_the_write_fails() {
    let dir = fmt_dir("write-fails");
    // 2 KiB of unformatted text; the file-size limit (one 512-byte block) stops any
    // write past it, and with SIGXFSZ ignored the write fails with EFBIG.
    let mut original = String::new();
    for _ in 0..100 {
        original.push_str("  1   7 \nSB....T   \n");
    }
    std::fs::write(dir.join("big.box"), &original).expect("write");
    let run = fmt_under_sh("trap '' XFSZ; ulimit -f 1; exec \"$1\" fmt big.box", &dir);
    run.assert_code(2);
    assert!(
        run.stderr.starts_with("boxls: cannot write `big.box`: "),
        "{}",
        run.stderr
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("big.box")).expect("read"),
        original
    );
    assert_eq!(entries(&dir), ["big.box"], "no temporary file is left");
    // Without the limit the same file is formatted.
    fmt_under_sh("exec \"$1\" fmt big.box", &dir).assert_code(0);
    let formatted = std::fs::read_to_string(dir.join("big.box")).expect("read");
    assert!(
        formatted.starts_with("1 7\nSB....T\n\n1 7\n"),
        "{formatted}"
    );
    assert_eq!(entries(&dir), ["big.box"]);
}

#[test]
fn fmt_keeps_the_mode_and_replaces_a_symlinks_target() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = fmt_dir("mode-and-symlink");
    let target = dir.join("target.box");
    std::fs::write(&target, "  1 3\nSBT  \n").expect("write");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    std::os::unix::fs::symlink("target.box", dir.join("link.box")).expect("symlink");
    let link = dir.join("link.box").to_string_lossy().into_owned();
    run(&["fmt", &link]).assert_code(0);
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "1 3\nSBT\n0 0\n"
    );
    let mode = std::fs::metadata(&target)
        .expect("stat")
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o640);
    let link_meta = std::fs::symlink_metadata(dir.join("link.box")).expect("lstat");
    assert!(
        link_meta.file_type().is_symlink(),
        "the link is still a link"
    );
    assert_eq!(entries(&dir), ["link.box", "target.box"]);
}

#[test]
fn judge_accepts_the_sample_and_rejects_a_wrong_answer() {
    let run = run(&["judge", SAMPLE, "examples/sample.out"]);
    run.assert_code(0);
    assert_eq!(run.stdout, "accepted: 4 mazes, every answer optimal\n");
    let sample_out = String::from_utf8(read("examples/sample.out")).expect("UTF-8");
    let maze_3 = sample_out
        .lines()
        .nth(7)
        .expect("maze 3's answer")
        .to_string();
    let wrong = scratch(
        "wrong.out",
        sample_out.replacen(&maze_3, "Impossible.", 1).as_bytes(),
    );
    let run = self::run(&["judge", SAMPLE, &wrong]);
    run.assert_code(1);
    assert!(
        run.stdout
            .starts_with("Maze #3: answered `Impossible.`, but the maze is solvable with "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("rejected: 1 problem (4 mazes)\n"),
        "{}",
        run.stdout
    );
    let piped = run_with(
        &mut boxls(&["judge", SAMPLE, "-"]),
        Some(&read("examples/sample.out")),
    );
    piped.assert_code(0);
}

#[test]
fn judge_follows_the_kattis_output_validator_convention() {
    let feedback = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kattis-feedback");
    std::fs::create_dir_all(&feedback).expect("feedback dir");
    let dir = feedback.to_string_lossy().into_owned();
    let accepted = run_with(
        &mut boxls(&["judge", "--kattis", &dir, SAMPLE, "-"]),
        Some(&read("examples/sample.out")),
    );
    accepted.assert_code(42);
    let message =
        std::fs::read_to_string(feedback.join("judgemessage.txt")).expect("judgemessage.txt");
    assert_eq!(message, "accepted: 4 mazes, every answer optimal\n");
    let rejected = run_with(
        &mut boxls(&["judge", "--kattis", &dir, SAMPLE, "-"]),
        Some(b"Maze #1\nEEEEE\n\n"),
    );
    rejected.assert_code(43);
    let message =
        std::fs::read_to_string(feedback.join("judgemessage.txt")).expect("judgemessage.txt");
    assert!(
        message.starts_with("Maze #2: missing: the output ends before `Maze #2`"),
        "{message}"
    );
}

#[test]
fn judge_rejects_nul_and_control_characters_in_the_answer() {
    let input = scratch("controls.box", b"1 7\nSB....T\n0 0\n");
    let answer = scratch("controls.out", b"Maze #1\nEE\0EE\n\n");
    let plain = run(&["judge", &input, &answer]);
    plain.assert_code(1);
    assert_eq!(
        plain.stdout,
        "Maze #1: column 3 holds a NUL byte; an answer is text (`Maze #k`, the moves or \
         `Impossible.`, a blank line) (output line 2)\nrejected: 1 problem (1 maze)\n"
    );
    assert_eq!(plain.stderr, "");
    let feedback = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kattis-controls");
    std::fs::create_dir_all(&feedback).expect("feedback dir");
    let _ = std::fs::remove_file(feedback.join("judgemessage.txt"));
    let binary = b"\x7fELF\x02\x01\x01\x00\x00\x00\x03\x00>\x00\x01";
    let kattis = run_with(
        &mut boxls(&[
            "judge",
            "--kattis",
            &feedback.to_string_lossy(),
            &input,
            "-",
        ]),
        Some(binary),
    );
    kattis.assert_code(43);
    let message =
        std::fs::read_to_string(feedback.join("judgemessage.txt")).expect("judgemessage.txt");
    assert_eq!(
        message,
        "output line 1: column 1 holds the control character U+007F; an answer is text \
         (`Maze #k`, the moves or `Impossible.`, a blank line)\nrejected: 1 problem (1 maze)\n"
    );
}

#[test]
fn judge_usage_and_input_errors_exit_2() {
    let broken = run(&["judge", BROKEN, "examples/sample.out"]);
    broken.assert_code(2);
    assert!(
        broken.stderr.contains("the input has errors (line 3:"),
        "{}",
        broken.stderr
    );
    let missing = run(&["judge", SAMPLE, "tests/fixtures/cli/no-such-file.out"]);
    missing.assert_code(2);
    assert!(
        missing
            .stderr
            .contains("cannot read `tests/fixtures/cli/no-such-file.out`"),
        "{}",
        missing.stderr
    );
    let both = run(&["judge", "-", "-"]);
    both.assert_code(2);
    let one = run(&["judge", SAMPLE]);
    one.assert_code(2);
    assert!(
        one.stderr.contains("required arguments were not provided"),
        "{}",
        one.stderr
    );
}

#[test]
fn hidden_man_prints_a_man_page_naming_every_command() {
    let man = run(&["man"]);
    man.assert_code(0);
    assert!(
        man.stdout.starts_with(".ie \\n(.g .ds Aq"),
        "{}",
        man.stdout
    );
    assert!(man.stdout.contains(".TH boxls 1"), "{}", man.stdout);
    for command in [
        "solve",
        "check",
        "fmt",
        "judge",
        "lsp",
        "completions",
        "render",
    ] {
        assert!(
            man.stdout.contains(&format!("boxls\\-{command}")),
            "{command}: {}",
            man.stdout
        );
    }
    // Hidden: not a command users are told about.
    let top = run(&["--help"]);
    assert!(!top.stdout.contains("  man "), "{}", top.stdout);
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    let bash = run(&["completions", "bash"]);
    bash.assert_code(0);
    let script = scratch("boxls.bash", bash.stdout.as_bytes());
    let sourced = Command::new("bash")
        .args([
            "--norc",
            "-c",
            &format!("set -e; source '{script}'; complete -p boxls"),
        ])
        .output()
        .expect("bash runs");
    assert!(
        sourced.status.success(),
        "{}",
        String::from_utf8_lossy(&sourced.stderr)
    );
    assert!(String::from_utf8_lossy(&sourced.stdout).contains("boxls"));
    for shell in ["bash", "zsh", "fish"] {
        let run = run(&["completions", shell]);
        run.assert_code(0);
        for command in [
            "solve",
            "check",
            "fmt",
            "judge",
            "lsp",
            "completions",
            "kattis",
        ] {
            assert!(run.stdout.contains(command), "{shell}: {command}");
        }
    }
    let bad = run(&["completions", "cmd.exe"]);
    bad.assert_code(2);
}

#[cfg(target_os = "linux")]
#[test]
fn stress_shows_progress_on_a_terminal_and_is_quiet_otherwise() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stress-progress");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("failure.box").to_string_lossy().into_owned();
    let bin = env!("CARGO_BIN_EXE_boxls");
    let args = format!("stress --tests 30 -o '{file}' -- '{bin}' solve");
    if let Some(screen) = on_a_terminal(&args) {
        assert!(screen.contains("30 tests · "), "{screen:?}");
        assert!(screen.contains(" tests/s · 0 failing"), "{screen:?}");
        assert!(
            screen.contains("no failure in 30 tests (seed 1, "),
            "{screen:?}"
        );
    }
    let piped = run(&["stress", "--tests", "30", "-o", &file, "--", bin, "solve"]);
    piped.assert_code(0);
    assert_eq!(piped.stderr, "");
    assert!(
        piped.stdout.starts_with("no failure in 30 tests (seed 1, "),
        "{}",
        piped.stdout
    );
}

/// An open `rows × cols` room with S, B and T in a row near its top left.
fn open_room(rows: usize, cols: usize) -> String {
    let mut text = format!("{rows} {cols}\n");
    for r in 0..rows {
        let row: String = (0..cols)
            .map(|c| match (r, c) {
                (1, 1) => 'S',
                (1, 2) => 'B',
                (1, 4) => 'T',
                _ if r == 0 || c == 0 || r + 1 == rows || c + 1 == cols => '#',
                _ => '.',
            })
            .collect();
        text.push_str(&row);
        text.push('\n');
    }
    text
}

#[test]
fn hardest_refuses_a_maze_too_large_for_its_search_by_name_and_exits_1() {
    // 257 × 256 cells: one row past the design searches' 65,536. The small maze after
    // it is still made hardest, as it is alone; the large one is left byte for byte.
    let small = "1 5\nSB..T\n; solution: EEE\n";
    let alone = run_with(
        &mut boxls(&["hardest"]),
        Some(format!("{small}0 0\n").as_bytes()),
    );
    alone.assert_code(0);
    let big = open_room(257, 256);
    let input = format!("{big}{small}0 0\n");
    let run = run_with(&mut boxls(&["hardest"]), Some(input.as_bytes()));
    run.assert_code(1);
    assert_eq!(
        run.stderr,
        format!(
            "Maze #1: 257×256 is 65792 cells, more than the 65536 the hardest-placement \
             search takes; left as it is\nMaze #2{}",
            alone.stderr.trim_start_matches("Maze #1")
        )
    );
    assert_eq!(run.stdout, format!("{big}{}", alone.stdout));
}
