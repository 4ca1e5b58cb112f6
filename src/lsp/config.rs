//! Server configuration (`workspace/configuration`, section `boxls`): the settings'
//! keys, defaults and descriptions, defined here once — the editors' copies are
//! generated from or checked against [`schema`] (`boxls lsp --print-schema`).

use serde_json::{json, Value};

/// One setting as the editors declare it.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// The full key, `boxls.solve.maxCells`.
    pub key: &'static str,
    pub default: DefaultValue,
    /// Smallest value for a number.
    pub minimum: Option<u64>,
    pub description: &'static str,
}

/// A setting's type and default value.
#[derive(Debug, Clone, Copy)]
pub enum DefaultValue {
    Integer(u64),
    Boolean(bool),
}

const MAX_CELLS: u64 = 4_000_000;
const TIMEOUT_MS: u64 = 10_000;
const SOKOBAN_TIME_LIMIT_S: u64 = 10;

/// Every setting the server reads, in the order editors list them.
pub const SETTINGS: [Setting; 5] = [
    Setting {
        key: "boxls.solve.maxCells",
        default: DefaultValue::Integer(MAX_CELLS),
        minimum: Some(1),
        description: "Largest maze (rows × columns) that the server solves; larger mazes get a `too-large` note instead of a solution.",
    },
    Setting {
        key: "boxls.solve.timeoutMs",
        default: DefaultValue::Integer(TIMEOUT_MS),
        minimum: Some(1),
        description: "Time limit for solving one maze, in milliseconds; a longer solve is stopped and gets a `too-large` note.",
    },
    Setting {
        key: "boxls.sokoban.timeLimit",
        default: DefaultValue::Integer(SOKOBAN_TIME_LIMIT_S),
        minimum: Some(1),
        description: "Time limit for solving one Sokoban level (`.xsb`, `.sok`), in seconds; a level not settled by then shows `unknown after N s`.",
    },
    Setting {
        key: "boxls.inlayHints.enable",
        default: DefaultValue::Boolean(true),
        minimum: None,
        description: "Show each maze's optimal counts (`6 pushes · 28 moves`, `unsolvable`) as an inlay hint at the end of its header.",
    },
    Setting {
        key: "boxls.deadSquares.enable",
        default: DefaultValue::Boolean(true),
        minimum: None,
        description: "Mark dead squares (free cells from which the box can never reach the target) in semantic highlighting and hover.",
    },
];

/// The facts editors share with the server: settings and the semantic token legend.
pub fn schema() -> Value {
    let settings: Vec<Value> = SETTINGS
        .iter()
        .map(|setting| {
            let (kind, default) = match setting.default {
                DefaultValue::Integer(n) => ("integer", json!(n)),
                DefaultValue::Boolean(b) => ("boolean", json!(b)),
            };
            let mut entry = json!({
                "key": setting.key,
                "type": kind,
                "default": default,
                "description": setting.description,
            });
            if let (Some(minimum), Some(object)) = (setting.minimum, entry.as_object_mut()) {
                object.insert("minimum".to_string(), json!(minimum));
            }
            entry
        })
        .collect();
    json!({
        "configuration": settings,
        "semanticTokens": {
            "types": crate::ide::TOKEN_KINDS,
            "modifiers": crate::ide::TOKEN_MODIFIERS,
        },
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Mazes with more cells are not solved (`too-large`).
    pub max_cells: usize,
    /// Solves running longer are stopped (`too-large`).
    pub timeout_ms: u64,
    /// Sokoban level solves stop after this many seconds (`unknown`).
    pub sokoban_time_limit_s: u64,
    pub inlay_hints: bool,
    pub dead_squares: bool,
}

impl Default for Config {
    /// The defaults of [`SETTINGS`].
    fn default() -> Config {
        let integer = |key| match SETTINGS.iter().find(|s| s.key == key).map(|s| s.default) {
            Some(DefaultValue::Integer(n)) => n,
            _ => 0,
        };
        let flag = |key| match SETTINGS.iter().find(|s| s.key == key).map(|s| s.default) {
            Some(DefaultValue::Boolean(b)) => b,
            _ => false,
        };
        Config {
            max_cells: usize::try_from(integer("boxls.solve.maxCells")).unwrap_or(usize::MAX),
            timeout_ms: integer("boxls.solve.timeoutMs"),
            sokoban_time_limit_s: integer("boxls.sokoban.timeLimit"),
            inlay_hints: flag("boxls.inlayHints.enable"),
            dead_squares: flag("boxls.deadSquares.enable"),
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
            sokoban_time_limit_s: number(&["sokoban", "timeLimit"])
                .filter(|&s| s >= 1)
                .unwrap_or(defaults.sokoban_time_limit_s),
            inlay_hints: flag(&["inlayHints", "enable"], defaults.inlay_hints),
            dead_squares: flag(&["deadSquares", "enable"], defaults.dead_squares),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_come_from_the_settings_table() {
        assert_eq!(
            Config::default(),
            Config {
                max_cells: 4_000_000,
                timeout_ms: 10_000,
                sokoban_time_limit_s: 10,
                inlay_hints: true,
                dead_squares: true,
            }
        );
    }

    #[test]
    fn every_setting_is_read_at_its_key() {
        // Setting each key to something other than its default changes the config.
        for setting in SETTINGS {
            let path: Vec<&str> = setting.key.split('.').skip(1).collect();
            let value = match setting.default {
                DefaultValue::Integer(n) => json!(n + 1),
                DefaultValue::Boolean(b) => json!(!b),
            };
            let section = path
                .iter()
                .rev()
                .fold(value, |inner, key| json!({ *key: inner }));
            assert_ne!(
                Config::from_json(&section),
                Config::default(),
                "{}",
                setting.key
            );
        }
    }

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
