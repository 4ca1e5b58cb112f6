//! Diagnostics reported compiler-style (file:line:col, the source line, a caret)
//! through codespan-reporting, with lines split exactly as the parser splits them.

use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as Level};
use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, termcolor::WriteColor, Config};

use crate::maze::{line_spans, Diagnostic, Severity};

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

/// Writes one diagnostic in compiler style.
pub fn emit(
    out: &mut dyn WriteColor,
    file: &SourceFile,
    diagnostic: &Diagnostic,
) -> std::io::Result<()> {
    let level = match diagnostic.severity {
        Severity::Error => Level::Error,
        Severity::Warning => Level::Warning,
        Severity::Information => Level::Note,
    };
    let mut report = Report::new(level)
        .with_code(diagnostic.code.as_str())
        .with_message(&diagnostic.message)
        .with_labels(vec![Label::primary((), diagnostic.range.clone())]);
    if let Some(fix) = &diagnostic.fix {
        report = report.with_notes(vec![format!("help: {}", fix.title)]);
    }
    term::emit_to_write_style(out, &Config::default(), file, &report).map_err(std::io::Error::other)
}
