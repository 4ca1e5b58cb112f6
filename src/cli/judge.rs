//! `boxls judge`: the core's judge on two files, reporting as a person or an online
//! judge (Kattis / DOMjudge output validator) expects.

use std::path::Path;
use std::process::ExitCode;

use super::input;
use super::Failure;
use crate::judge::{judge as judge_texts, Verdict};

/// Kattis / DOMjudge output-validator exit codes.
const KATTIS_ACCEPTED: u8 = 42;
const KATTIS_REJECTED: u8 = 43;

pub fn judge(input: &Path, output: &Path, kattis: Option<&Path>) -> Result<ExitCode, Failure> {
    if input::is_stdin(Some(input)) && input::is_stdin(Some(output)) {
        return Err(Failure::Message(
            "INPUT and OUTPUT cannot both be standard input".to_string(),
        ));
    }
    let input_text = input::read(Some(input), "judge")?.lossy_text();
    // The contestant's output is judged whatever it holds: binary bytes are a wrong
    // answer (the judge says where), not a file this command refuses to read.
    let output_text = input::read_raw(Some(output), "judge")?.lossy_text();
    let verdict = judge_texts(&input_text, &output_text)
        .map_err(|bad| Failure::Message(format!("{}: {}", input.display(), bad.0)))?;
    let report = report(&verdict);
    print!("{report}");
    match kattis {
        None if verdict.accepted() => Ok(ExitCode::SUCCESS),
        None => Ok(ExitCode::FAILURE),
        Some(feedback) => {
            let file = feedback.join("judgemessage.txt");
            std::fs::write(&file, &report)
                .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", file.display())))?;
            Ok(ExitCode::from(if verdict.accepted() {
                KATTIS_ACCEPTED
            } else {
                KATTIS_REJECTED
            }))
        }
    }
}

/// One line per rejection, then the verdict.
fn report(verdict: &Verdict) -> String {
    let mazes = crate::maze::plural(verdict.mazes as u64, "maze", "mazes");
    let mut out: String = verdict
        .rejections
        .iter()
        .map(|rejection| format!("{rejection}\n"))
        .collect();
    if verdict.accepted() {
        out.push_str(&format!("accepted: {mazes}, every answer optimal\n"));
    } else {
        out.push_str(&format!(
            "rejected: {} ({mazes})\n",
            crate::maze::plural(verdict.rejections.len() as u64, "problem", "problems")
        ));
    }
    out
}
