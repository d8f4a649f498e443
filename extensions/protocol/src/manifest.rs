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
    /// (docs/rpc.md "Supervision"); `on-failure` when absent.
    #[serde(default, skip_serializing_if = "RestartMode::is_default")]
    #[ts(as = "Option<RestartMode>", optional)]
    pub restart: RestartMode,
    /// The extension's settings (docs/rpc.md "Extension settings"): what
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
    /// What the extension may do through the protocol (docs/protocol.md
    /// "Permissions"); absent means unrestricted, the seed's behaviour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub permissions: Option<Vec<Permission>>,
    /// What the entry is: a zot extension (absent or `"extension"`) or an
    /// MCP server (`"mcp"`, docs/rpc.md "MCP servers").
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
    /// When zot spawns the extension (docs/host.md "Activation on first
    /// use"); `eager` (at start) when absent.
    #[serde(default, skip_serializing_if = "Activation::is_default")]
    #[ts(as = "Option<Activation>", optional)]
    pub activation: Activation,
    /// The commands and tools an `on_use` extension will register, listed
    /// before it runs so the model and the user see them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub contributes: Option<Contributes>,
    /// Seconds an `on_use` extension may sit with no open panel and no
    /// call in flight before it is shut down (back to `idle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub idle_stop_after: Option<u64>,
    /// The absolute cap on one of its tool calls, in seconds (default 600,
    /// at most 3600); `tool_progress` frames keep a call alive until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tool_timeout_s: Option<u64>,
}

/// The manifest's `activation`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Activation {
    /// Spawned when zot starts (the default).
    #[default]
    Eager,
    /// Spawned on the first use of one of its commands, tools or panels.
    OnUse,
}

impl Activation {
    /// Whether this is the default (`eager`), left out when serialised.
    pub fn is_default(&self) -> bool {
        *self == Activation::Eager
    }
}

/// The manifest's `contributes`: what an `on_use` extension declares.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Contributes {
    /// Commands it will register, as its `register_command` frames.
    #[serde(default)]
    pub commands: Vec<crate::RegisterCommand>,
    /// Tools it will register, as its `register_tool` frames.
    #[serde(default)]
    pub tools: Vec<crate::RegisterTool>,
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

impl Manifest {
    /// What the manifest grants: its `permissions`, or everything when the
    /// field is absent.
    pub fn grant(&self) -> PermissionGrant {
        match &self.permissions {
            None => PermissionGrant::unrestricted(),
            Some(list) => PermissionGrant::List(list.clone()),
        }
    }
}

/// One thing an extension may do through the protocol; the manifest's
/// `permissions` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Permission {
    /// `register_command` (and answering `command_invoked`).
    Commands,
    /// `register_tool` (and answering `tool_call`).
    Tools,
    /// `subscribe.events`: observing turns, tool calls and replies.
    Events,
    /// `subscribe.intercept` and `event_intercept_response`.
    Intercept,
    /// `open_panel`, `panel_render`, `panel_close`.
    Panels,
    /// `notify`, `clear_notes` and the `display` action.
    Notes,
    /// The `insert` action.
    Insert,
    /// The `prompt` action.
    Prompt,
    /// The one-way `submit` frame.
    Submit,
    /// `ui_request`: asking the user through dialogs.
    Dialogs,
}

impl Permission {
    /// Every permission, in the spec's order.
    pub const ALL: [Permission; 10] = [
        Permission::Commands,
        Permission::Tools,
        Permission::Events,
        Permission::Intercept,
        Permission::Panels,
        Permission::Notes,
        Permission::Insert,
        Permission::Prompt,
        Permission::Submit,
        Permission::Dialogs,
    ];

    /// The manifest's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Commands => "commands",
            Permission::Tools => "tools",
            Permission::Events => "events",
            Permission::Intercept => "intercept",
            Permission::Panels => "panels",
            Permission::Notes => "notes",
            Permission::Insert => "insert",
            Permission::Prompt => "prompt",
            Permission::Submit => "submit",
            Permission::Dialogs => "dialogs",
        }
    }

    /// The permission spelled `name`, if any.
    pub fn parse(name: &str) -> Option<Permission> {
        Permission::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// Its position in [`Permission::ALL`] (a bit in a set, an index in a
    /// counter table).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What an extension was granted, as `ext_list` shows it: the list, or the
/// word `"unrestricted"` for a manifest without `permissions`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
#[ts(export)]
pub enum PermissionGrant {
    /// Only these.
    List(Vec<Permission>),
    /// Everything (no `permissions` field).
    Unrestricted(Unrestricted),
}

impl Default for PermissionGrant {
    fn default() -> Self {
        PermissionGrant::unrestricted()
    }
}

impl PermissionGrant {
    /// The grant of a manifest without `permissions`.
    pub fn unrestricted() -> Self {
        PermissionGrant::Unrestricted(Unrestricted::Unrestricted)
    }

    /// Whether this is the unrestricted grant.
    pub fn is_unrestricted(&self) -> bool {
        matches!(self, PermissionGrant::Unrestricted(_))
    }

    /// Whether `p` is granted.
    pub fn allows(&self, p: Permission) -> bool {
        match self {
            PermissionGrant::Unrestricted(_) => true,
            PermissionGrant::List(list) => list.contains(&p),
        }
    }

    /// What `self` grants that `accepted` does not, in the spec's order.
    pub fn beyond(&self, accepted: &PermissionGrant) -> Vec<Permission> {
        Permission::ALL
            .into_iter()
            .filter(|p| self.allows(*p) && !accepted.allows(*p))
            .collect()
    }
}

/// The one word `"unrestricted"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum Unrestricted {
    /// `"unrestricted"`.
    Unrestricted,
}

/// The manifest's `kind`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ExtKind {
    /// A zot extension speaking `docs/protocol.md`.
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
