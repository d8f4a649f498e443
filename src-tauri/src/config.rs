//! `$ZOT_HOME/config.json`, the user's choices that outlive a run: the
//! provider, model and theme Settings saves, the notifications, the daily
//! update check, the approval rules, the compaction window, how long an
//! extension may take to start, the variables a shell may keep. A leaf: the tools, the
//! backend and the settings read the file through here, so none of them
//! has to reach into another for it (docs/architecture.md).
//!
//! Each section is read where it is used (approval rules by
//! `agent::approval::rules`, compaction by `agent::compaction`); what no
//! one else owns is typed here.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use serde_json::{json, Value};

/// `config.json` as read at one moment. A missing or broken file reads as
/// empty: a bad edit must never stop zot from starting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    json: Value,
}

impl Config {
    /// Reads `$ZOT_HOME/config.json` now.
    pub fn read(home: &Path) -> Config {
        Config { json: read(home) }
    }

    /// The whole object, for the sections their owners parse.
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// `ext_start_timeout_secs`: how long an extension may take to say
    /// `hello` (docs/host.md). Anything but a positive number of seconds up
    /// to a day is ignored, keeping the default.
    pub fn ext_start_timeout(&self) -> Option<Duration> {
        start_timeout(&self.json)
    }

    /// `"shell_env": {"keep": ["NAME", …]}`: the secret-looking variables
    /// the user lets the bash tool's shell inherit (docs/security.md).
    pub fn shell_env_keep(&self) -> Vec<String> {
        self.json
            .get("shell_env")
            .and_then(|s| s.get("keep"))
            .and_then(Value::as_array)
            .map(|names| {
                names
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// `config.json` as an object; a missing or broken file reads as `{}`.
pub fn read(home: &Path) -> Value {
    std::fs::read_to_string(home.join("config.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}))
}

/// Whether the daily background check for extension updates is on
/// (`update_check`, which Settings saves; anything but `true` is off).
pub fn update_check(home: &Path) -> bool {
    read(home)["update_check"].as_bool().unwrap_or(false)
}

/// Writes `config.json` atomically, at mode 0600 in a 0700 `$ZOT_HOME`.
pub fn write(home: &Path, config: &Value) -> anyhow::Result<()> {
    let path = home.join("config.json");
    let bytes = serde_json::to_vec_pretty(config)?;
    crate::state_dir::write_private(&path, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}

fn start_timeout(config: &Value) -> Option<Duration> {
    let secs = config.get("ext_start_timeout_secs")?.as_f64()?;
    (secs.is_finite() && secs > 0.0 && secs <= 86_400.0).then(|| Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_round_trips_and_keeps_other_keys() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &json!({"theme": "light", "other": 1})).unwrap();
        let mut c = read(dir.path());
        c["theme"] = json!("dark");
        write(dir.path(), &c).unwrap();
        assert_eq!(read(dir.path()), json!({"theme": "dark", "other": 1}));
    }

    #[test]
    fn a_broken_config_reads_as_empty() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.json"), "{not json").unwrap();
        assert_eq!(read(dir.path()), json!({}));
        assert_eq!(Config::read(dir.path()), Config { json: json!({}) });
    }

    #[test]
    fn the_start_timeout_comes_from_config_json_when_it_is_sane() {
        let t = |v| start_timeout(&json!({ "ext_start_timeout_secs": v }));
        assert_eq!(t(json!(300)), Some(Duration::from_secs(300)));
        assert_eq!(t(json!(0.5)), Some(Duration::from_millis(500)));
        for bad in [json!(0), json!(-3), json!(1e20), json!("60"), json!(null)] {
            assert_eq!(t(bad.clone()), None, "{bad}");
        }
        assert_eq!(start_timeout(&json!({})), None);
    }

    #[test]
    fn the_shell_keeps_only_the_names_listed() {
        let c = |v| Config { json: v }.shell_env_keep();
        assert_eq!(
            c(json!({"shell_env": {"keep": ["GH_TOKEN", 3, "NPM_TOKEN"]}})),
            ["GH_TOKEN", "NPM_TOKEN"]
        );
        assert!(c(json!({"shell_env": {"keep": "GH_TOKEN"}})).is_empty());
        assert!(c(json!({})).is_empty());
    }
}
