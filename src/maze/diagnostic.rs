//! Diagnostics and quick fixes as plain data over byte ranges.

use std::fmt;
use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
}

/// The stable diagnostic codes of the specification (§3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    BadHeader,
    TooFewRows,
    TooManyRows,
    RowLength,
    BadChar,
    MissingPlayer,
    MissingBox,
    MissingTarget,
    DuplicatePlayer,
    DuplicateBox,
    DuplicateTarget,
    Unsolvable,
    SolutionIllegal,
    SolutionNotOptimal,
    /// A second `; solution:` line for the same maze.
    DuplicateSolution,
    /// A `; solution:` line inside a maze's rows or before any maze.
    MisplacedSolution,
    MissingTerminator,
    AfterTerminator,
    TooLarge,
    /// Not in the specification's table: the solver itself failed on this maze.
    InternalError,
    /// Not in the specification's table: a `; failure: <kind>: <why>` line, which
    /// `boxls stress` writes into its failure file (the program failed on this maze).
    RecordedFailure,
}

impl Code {
    /// Every code, in the specification's order: a new code goes here too, and the
    /// manual's diagnostics chapter then needs its example (`tests/it/book.rs`).
    pub const ALL: [Code; 21] = [
        Code::BadHeader,
        Code::TooFewRows,
        Code::TooManyRows,
        Code::RowLength,
        Code::BadChar,
        Code::MissingPlayer,
        Code::MissingBox,
        Code::MissingTarget,
        Code::DuplicatePlayer,
        Code::DuplicateBox,
        Code::DuplicateTarget,
        Code::Unsolvable,
        Code::SolutionIllegal,
        Code::SolutionNotOptimal,
        Code::DuplicateSolution,
        Code::MisplacedSolution,
        Code::MissingTerminator,
        Code::AfterTerminator,
        Code::TooLarge,
        Code::InternalError,
        Code::RecordedFailure,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::BadHeader => "bad-header",
            Code::TooFewRows => "too-few-rows",
            Code::TooManyRows => "too-many-rows",
            Code::RowLength => "row-length",
            Code::BadChar => "bad-char",
            Code::MissingPlayer => "missing-player",
            Code::MissingBox => "missing-box",
            Code::MissingTarget => "missing-target",
            Code::DuplicatePlayer => "duplicate-player",
            Code::DuplicateBox => "duplicate-box",
            Code::DuplicateTarget => "duplicate-target",
            Code::Unsolvable => "unsolvable",
            Code::SolutionIllegal => "solution-illegal",
            Code::SolutionNotOptimal => "solution-not-optimal",
            Code::DuplicateSolution => "duplicate-solution",
            Code::MisplacedSolution => "misplaced-solution",
            Code::MissingTerminator => "missing-terminator",
            Code::AfterTerminator => "after-terminator",
            Code::TooLarge => "too-large",
            Code::InternalError => "internal-error",
            Code::RecordedFailure => "recorded-failure",
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            Code::Unsolvable
            | Code::SolutionNotOptimal
            | Code::DuplicateSolution
            | Code::MisplacedSolution
            | Code::MissingTerminator
            | Code::AfterTerminator
            | Code::InternalError => Severity::Warning,
            Code::TooLarge => Severity::Information,
            _ => Severity::Error,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Replace the bytes of `range` with `new_text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: Range<usize>,
    pub new_text: String,
}

/// A quick fix: a title and non-overlapping edits of the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

impl Fix {
    pub fn replace(
        title: impl Into<String>,
        range: Range<usize>,
        new_text: impl Into<String>,
    ) -> Fix {
        Fix {
            title: title.into(),
            edits: vec![TextEdit {
                range,
                new_text: new_text.into(),
            }],
        }
    }

    /// The text with this fix's edits applied (edits must not overlap).
    pub fn apply(&self, text: &str) -> String {
        let mut edits: Vec<&TextEdit> = self.edits.iter().collect();
        edits.sort_by_key(|edit| edit.range.start);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for edit in edits {
            out.push_str(&text[at..edit.range.start]);
            out.push_str(&edit.new_text);
            at = edit.range.end;
        }
        out.push_str(&text[at..]);
        out
    }
}

/// What a diagnostic needs from its code list: the stable name and the severity. Both
/// lists (mazes here, Sokoban levels in `level::code`) implement it, so one
/// [`Diagnostic`] serves both.
pub trait DiagnosticCode: Copy {
    fn as_str(self) -> &'static str;
    fn severity(self) -> Severity;
}

impl DiagnosticCode for Code {
    fn as_str(self) -> &'static str {
        Code::as_str(self)
    }

    fn severity(self) -> Severity {
        Code::severity(self)
    }
}

/// A diagnostic with a code from list `C` (a maze's [`Code`] unless said otherwise).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic<C = Code> {
    pub code: C,
    pub severity: Severity,
    /// Byte range in the source text.
    pub range: Range<usize>,
    pub message: String,
    pub fix: Option<Fix>,
}

impl<C: DiagnosticCode> Diagnostic<C> {
    pub fn new(code: C, range: Range<usize>, message: impl Into<String>) -> Diagnostic<C> {
        Diagnostic {
            code,
            severity: code.severity(),
            range,
            message: message.into(),
            fix: None,
        }
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic<C> {
        self.fix = Some(fix);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `1 push`, `2 pushes`: a count with its noun in the right number.
pub fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}
