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
    /// What the entry is: a zot extension (absent or `"extension"`) or an
    /// MCP server (`"mcp"`, spec/rpc.md "MCP servers").
    #[serde(default, skip_serializing_if = "ExtKind::is_default")]
    #[ts(as = "Option<ExtKind>", optional)]
    pub kind: ExtKind,
    /// An MCP stdio server: the program to run (with `args` and `env`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub command: Option<String>,
    /// An MCP stdio server's extra environment.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[ts(as = "Option<std::collections::BTreeMap<String, String>>", optional)]
    pub env: std::collections::BTreeMap<String, String>,
    /// An MCP streamable-HTTP server: its endpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub url: Option<String>,
    /// Headers sent with every request to `url` (e.g. `Authorization`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[ts(as = "Option<std::collections::BTreeMap<String, String>>", optional)]
    pub headers: std::collections::BTreeMap<String, String>,
    /// How a zot extension is reached when it is not spawned over stdio.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transport: Option<Transport>,
}

/// The manifest's `kind`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ExtKind {
    /// A zot extension speaking `spec/extensions.md`.
    #[default]
    Extension,
    /// A Model Context Protocol server.
    Mcp,
}

impl ExtKind {
    /// Whether this is the default (`extension`), left out when serialising.
    pub fn is_default(&self) -> bool {
        *self == ExtKind::Extension
    }
}

/// The manifest's `transport`: `{"type":"websocket","url":"ws://…"}` makes
/// the host connect to an extension that runs elsewhere; `stdio` (the
/// default) spawns `exec`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "lowercase")]
#[ts(export)]
pub enum Transport {
    /// Spawn `exec` and speak over its stdin/stdout.
    Stdio,
    /// Connect to `url` and speak one frame per WebSocket text message.
    Websocket {
        /// `ws://` or `wss://` address.
        url: String,
    },
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
