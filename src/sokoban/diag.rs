//! Temporary session-38 diagnostics (env `BOXLS_DIAG`) and positions cap (`BOXLS_CAP`).

use std::sync::OnceLock;

use super::board::Board;

pub fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("BOXLS_DIAG").is_ok())
}

pub fn cap() -> usize {
    static CAP: OnceLock<usize> = OnceLock::new();
    *CAP.get_or_init(|| {
        std::env::var("BOXLS_CAP")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(usize::MAX)
    })
}

pub fn render(board: &Board, boxes: &[u16], player: usize, mark: &[usize]) -> String {
    let width = board.step(0, 1);
    let mut s = String::new();
    for row in 0..board.len() / width {
        let mut line = String::new();
        for col in 0..width {
            let c = row * width + col;
            let b = boxes.contains(&(c as u16));
            let ch = if !board.floor[c] {
                '#'
            } else if b && board.goal[c] {
                '*'
            } else if b {
                '$'
            } else if c == player {
                '@'
            } else if mark.contains(&c) {
                'E'
            } else if board.goal[c] {
                '.'
            } else if !board.live[c] {
                ','
            } else {
                ' '
            };
            line.push(ch);
        }
        s.push_str(line.trim_end_matches('#'));
        s.push('\n');
    }
    s
}

/// Whether variant `name` is listed in `BOXLS_V` (comma-separated).
pub fn flag(name: &str) -> bool {
    static V: OnceLock<String> = OnceLock::new();
    V.get_or_init(|| std::env::var("BOXLS_V").unwrap_or_default())
        .split(',')
        .any(|v| v == name)
}
