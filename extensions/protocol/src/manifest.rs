//! `extension.json`, as the spec's table defines it. Parsing with field-level
//! error messages is the host's job; this is the shape.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An extension's manifest. Unknown fields are kept out of this type but
/// tolerated, so newer manifests still load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Manifest {
    /// How zot identifies the extension; must match `hello.name`.
    pub name: String,
    /// Shown in `zot ext list`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
    /// The executable: absolute, `./`-relative to the manifest, or a bare
    /// name on PATH. Absent for theme-only extensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub exec: Option<String>,
    /// Extra argv passed to `exec`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub args: Vec<String>,
    /// Informational (`go`, `python`, `typescript`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub language: Option<String>,
    /// Shown in `zot ext list`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// `false` disables without removing; defaults to `true`.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// What zot does when the extension exits unexpectedly after `ready`
    /// (spec/rpc.md "Supervision"); `on-failure` when absent.
    #[serde(default, skip_serializing_if = "RestartMode::is_default")]
    #[ts(as = "Option<RestartMode>", optional)]
    pub restart: RestartMode,
    /// The extension's settings (spec/rpc.md "Extension settings"): what
    /// zot asks the user for and sends in `hello_ack.config`.
    #[serde(default, skip_serializing_if = "indexmap::IndexMap::is_empty")]
    #[ts(
        as = "Option<std::collections::HashMap<String, crate::settings::SettingSpec>>",
        optional
    )]
    pub config: crate::settings::SettingsSchema,
    /// The OS sandbox the extension runs in (docs/security.md). Absent:
    /// it runs with the user's full rights, as before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sandbox: Option<Sandbox>,
}

/// The manifest's `sandbox`: what the extension may see besides its own
/// directory, zot's SDKs and the system's read-only runtime. Paths are
/// absolute or start with `~/` (the user's home).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export)]
pub struct Sandbox {
    /// Paths it may read (missing ones are skipped at start).
    #[serde(default)]
    pub read: Vec<String>,
    /// Paths it may read and write (missing ones are skipped at start).
    #[serde(default)]
    pub write: Vec<String>,
    /// Whether it may use the network; `false` gives it no network at all
    /// (not even loopback).
    #[serde(default)]
    pub net: bool,
}

/// The manifest's `restart`: whether a crashed extension is started again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum RestartMode {
    /// Restart after a backoff, within the budget (the default).
    #[default]
    OnFailure,
    /// Never restart automatically; only `ext_restart` or a reload.
    Never,
}

impl RestartMode {
    /// Whether this is the default (`on-failure`), left out when serialised.
    pub fn is_default(&self) -> bool {
        *self == RestartMode::OnFailure
    }
}

fn yes() -> bool {
    true
}
