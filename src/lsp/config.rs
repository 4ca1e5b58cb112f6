//! Server configuration (`workspace/configuration`, section `boxls`).

use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Mazes with more cells are not solved (`too-large`).
    pub max_cells: usize,
    /// Solves running longer are stopped (`too-large`).
    pub timeout_ms: u64,
    pub inlay_hints: bool,
    pub dead_squares: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_cells: 4_000_000,
            timeout_ms: 10_000,
            inlay_hints: true,
            dead_squares: true,
        }
    }
}

impl Config {
    /// What the IDE layer is asked to show.
    pub fn ide_options(&self) -> crate::ide::Options {
        crate::ide::Options {
            inlay_hints: self.inlay_hints,
            dead_squares: self.dead_squares,
        }
    }

    /// Reads the `boxls` section; missing or mistyped keys keep their defaults.
    pub fn from_json(section: &Value) -> Config {
        Config::default().updated(section)
    }

    /// This configuration with what `section` sets; missing or mistyped keys keep
    /// their current values.
    pub fn updated(&self, section: &Value) -> Config {
        let defaults = *self;
        let get = |path: &[&str]| path.iter().try_fold(section, |value, key| value.get(key));
        let number = |path: &[&str]| get(path).and_then(Value::as_u64);
        let flag =
            |path: &[&str], default: bool| get(path).and_then(Value::as_bool).unwrap_or(default);
        Config {
            max_cells: number(&["solve", "maxCells"]).map_or(defaults.max_cells, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            }),
            timeout_ms: number(&["solve", "timeoutMs"]).unwrap_or(defaults.timeout_ms),
            inlay_hints: flag(&["inlayHints", "enable"], defaults.inlay_hints),
            dead_squares: flag(&["deadSquares", "enable"], defaults.dead_squares),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nested_keys_and_keeps_defaults() {
        let config = Config::from_json(&serde_json::json!({
            "solve": { "maxCells": 100, "timeoutMs": "soon" },
            "inlayHints": { "enable": false }
        }));
        assert_eq!(
            config,
            Config {
                max_cells: 100,
                inlay_hints: false,
                ..Config::default()
            }
        );
    }
}
