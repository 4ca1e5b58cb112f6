//! Any bytes (as lossy UTF-8) through the parser, the solver and `check_text`: no
//! panic, every range and fix on character boundaries inside the text, every solved
//! maze's move string replays legally onto the target with the reported counts.

#![no_main]

use std::ops::Range;

use boxls::analysis::check_text;
use boxls::solver::{replay, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let report = check_text(&text);
    let valid = |range: &Range<usize>| {
        range.start <= range.end
            && range.end <= text.len()
            && text.is_char_boundary(range.start)
            && text.is_char_boundary(range.end)
    };
    for diagnostic in &report.diagnostics {
        assert!(valid(&diagnostic.range), "{diagnostic:?}");
        if let Some(fix) = &diagnostic.fix {
            assert!(fix.edits.iter().all(|edit| valid(&edit.range)), "{fix:?}");
            let _ = check_text(&fix.apply(&text));
        }
    }
    for (maze, outcome) in report.parsed.mazes.iter().zip(&report.outcomes) {
        assert!(valid(&maze.header) && valid(&maze.extent) && maze.rows.iter().all(valid));
        let (Some(grid), Some(Outcome::Solved(solution))) = (&maze.grid, outcome) else {
            continue;
        };
        let replayed = replay(grid, &solution.path).expect("the solver's moves are legal");
        assert!(replayed.solved, "the solver's moves end with the box on T");
        assert_eq!(
            (replayed.pushes, replayed.moves),
            (solution.pushes, solution.moves)
        );
    }
});
