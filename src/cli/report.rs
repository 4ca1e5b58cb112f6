//! Diagnostics reported compiler-style (file:line:col, the source line, a caret)
//! through codespan-reporting, with lines split exactly as the parser splits them.

use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as Level};
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, termcolor::WriteColor, Config};

use crate::maze::{line_spans, Diagnostic, DiagnosticCode, Severity};

/// One source file, with LSP line breaks (`\n`, `\r\n`, `\r`).
pub struct SourceFile<'a> {
    name: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> SourceFile<'a> {
    pub fn new(name: &'a str, text: &'a str) -> SourceFile<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(line_spans(text, 0).map(|line| line.end));
        if line_starts.last() == Some(&text.len()) && line_starts.len() > 1 {
            line_starts.pop();
        }
        SourceFile {
            name,
            text,
            line_starts,
        }
    }

    /// 1-based (line, column) of a byte offset, the column counted in characters.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self
            .line_starts
            .binary_search(&offset)
            .unwrap_or_else(|next| next.saturating_sub(1));
        let start = self.line_starts[line].min(offset);
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().count());
        (line + 1, column + 1)
    }

    fn line_start(&self, line: usize) -> Result<usize, files::Error> {
        match line.cmp(&self.line_starts.len()) {
            std::cmp::Ordering::Less => Ok(self.line_starts[line]),
            std::cmp::Ordering::Equal => Ok(self.text.len()),
            std::cmp::Ordering::Greater => Err(files::Error::LineTooLarge {
                given: line,
                max: self.line_starts.len() - 1,
            }),
        }
    }
}

impl<'a> Files<'a> for SourceFile<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, files::Error> {
        Ok(self
            .line_starts
            .binary_search(&byte_index)
            .unwrap_or_else(|next| next.saturating_sub(1)))
    }

    fn line_range(&'a self, (): (), line: usize) -> Result<Range<usize>, files::Error> {
        Ok(self.line_start(line)?..self.line_start(line + 1)?)
    }
}

/// A diagnostic of either format, as the command line reports it.
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub range: Range<usize>,
    pub message: String,
    /// The quick fix's title, when there is one.
    pub help: Option<String>,
}

impl<C: DiagnosticCode> From<&Diagnostic<C>> for Finding {
    fn from(d: &Diagnostic<C>) -> Finding {
        Finding {
            code: d.code.as_str(),
            severity: d.severity,
            range: d.range.clone(),
            message: d.message.clone(),
            help: d.fix.as_ref().map(|fix| fix.title.clone()),
        }
    }
}

/// Writes one diagnostic in compiler style.
pub fn emit(
    out: &mut dyn WriteColor,
    file: &SourceFile,
    diagnostic: &Diagnostic,
) -> std::io::Result<()> {
    emit_finding(out, file, &Finding::from(diagnostic))
}

/// Writes one finding in compiler style.
pub fn emit_finding(
    out: &mut dyn WriteColor,
    file: &SourceFile,
    finding: &Finding,
) -> std::io::Result<()> {
    let level = match finding.severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Information => Level::Note,
    };
    let mut report = Report::new(level)
        .with_code(finding.code)
        .with_message(&finding.message)
        .with_labels(vec![Label::primary((), finding.range.clone())]);
    if let Some(help) = &finding.help {
        report = report.with_notes(vec![format!("help: {help}")]);
    }
    term::emit_to_write_style(out, &Config::default(), file, &report).map_err(std::io::Error::other)
}

/// One finding as a JSON object on one line: 1-based lines and columns, columns
/// counted in characters, the end just past the range's last character.
pub fn json_line(file: &SourceFile, finding: &Finding) -> String {
    /// The fields in the order the README gives them.
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Line<'a> {
        file: &'a str,
        line: usize,
        column: usize,
        end_line: usize,
        end_column: usize,
        severity: &'static str,
        code: &'static str,
        message: &'a str,
    }
    let (line, column) = file.line_column(finding.range.start);
    let (end_line, end_column) = file.line_column(finding.range.end);
    let line = Line {
        file: file.name,
        line,
        column,
        end_line,
        end_column,
        severity: match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "information",
        },
        code: finding.code,
        message: &finding.message,
    };
    serde_json::to_string(&line).unwrap_or_default()
}
