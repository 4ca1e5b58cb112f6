//! The timing of an animated replay: one step per move, a pause before the first move
//! and after the last, and keyframes only where a motion changes (a straight run of
//! moves at constant speed needs just its two ends).

use std::fmt::Write as _;

/// Seconds per move for short solutions.
const STEP: f64 = 0.25;
/// Long solutions are sped up to last about this long.
const LONGEST_PLAY: f64 = 60.0;
/// Still frames before the first move and after the last, in seconds.
const HOLD_START: f64 = 0.75;
const HOLD_END: f64 = 1.75;

/// When each frame of a replay of `moves` moves is shown, on one looping clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Clock {
    moves: usize,
    step: f64,
}

impl Clock {
    pub fn new(moves: usize) -> Clock {
        let step = if moves as f64 * STEP > LONGEST_PLAY {
            LONGEST_PLAY / moves as f64
        } else {
            STEP
        };
        Clock { moves, step }
    }

    /// One loop, in seconds.
    pub fn duration(&self) -> f64 {
        HOLD_START + self.moves as f64 * self.step + HOLD_END
    }

    /// Where the first move starts and the last one ends, from 0 to 1.
    pub fn span(&self) -> (f64, f64) {
        (self.key_time(0), self.key_time(self.moves))
    }

    /// Where frame `index` falls in the loop, from 0 to 1.
    fn key_time(&self, index: usize) -> f64 {
        (HOLD_START + index as f64 * self.step) / self.duration()
    }
}

/// `keyTimes` and `values` of a linear animation through `values` (one per frame),
/// holding the first value before frame 0 and the last after the final frame.
/// `delta` tells the motion between two frames' values; a frame in the middle of a
/// run of equal motions is left out, as linear interpolation puts it back exactly.
pub fn keyframes<T: Copy + PartialEq, D: PartialEq>(
    clock: &Clock,
    values: &[T],
    delta: impl Fn(T, T) -> D,
    show: impl Fn(T) -> String,
) -> (String, String) {
    let (mut times, mut shown) = (String::from("0"), String::new());
    let Some(&first) = values.first() else {
        return (times, shown);
    };
    shown.push_str(&show(first));
    let last = values.len() - 1;
    for (index, &value) in values.iter().enumerate() {
        let turns = index == 0
            || index == last
            || delta(values[index - 1], value) != delta(value, values[index + 1]);
        if turns {
            // Writing to a String cannot fail.
            let _ = write!(times, ";{}", Fixed(clock.key_time(index)));
            let _ = write!(shown, ";{}", show(value));
        }
    }
    let _ = write!(shown, ";{}", show(values[last]));
    times.push_str(";1");
    (times, shown)
}

/// A number with at most six decimals and no trailing zeros.
pub struct Fixed(pub f64);

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = format!("{:.6}", self.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if text == "-0" { "0" } else { text })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_runs_keep_only_their_ends() {
        let clock = Clock::new(4);
        assert_eq!(clock.duration(), 3.5);
        let cells = [0i32, 1, 2, 2, 2];
        let (times, values) = keyframes(&clock, &cells, |a, b| b - a, |v| v.to_string());
        assert_eq!(times, "0;0.214286;0.357143;0.5;1");
        assert_eq!(values, "0;0;2;2;2");
    }

    #[test]
    fn long_solutions_are_sped_up() {
        let clock = Clock::new(10_000);
        assert!((clock.duration() - (60.0 + HOLD_START + HOLD_END)).abs() < 1e-9);
    }

    #[test]
    fn fixed_trims_zeros() {
        assert_eq!(Fixed(2.5).to_string(), "2.5");
        assert_eq!(Fixed(3.0).to_string(), "3");
        assert_eq!(Fixed(-0.0000001).to_string(), "0");
        assert_eq!(Fixed(0.1234567).to_string(), "0.123457");
    }
}
