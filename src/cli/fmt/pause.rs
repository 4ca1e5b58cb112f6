//! A test-only knob, not for users: with `BOXLS_TEST_FMT_PAUSE=STAGE` in its
//! environment, `fmt` stops at STAGE, says `boxls: test pause: STAGE` on stderr and
//! waits for a byte (or the end) on standard input, so a test can act at a certain
//! moment instead of hoping to catch it. Stages: `read` (the file read, nothing
//! written), `mid-write` (half the text in the temporary file), `checked` (the file
//! locked and found unchanged, just before the rename or the in-place write), `renamed`
//! (just after the rename); several, comma-separated, pause in turn.

use std::io::Read as _;

pub fn at(stage: &str) {
    let wanted = std::env::var("BOXLS_TEST_FMT_PAUSE").unwrap_or_default();
    if wanted.split(',').any(|wanted| wanted == stage) {
        eprintln!("boxls: test pause: {stage}");
        let _ = std::io::stdin().read(&mut [0u8; 1]);
    }
}
