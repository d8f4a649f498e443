//! What the desktop app's own IPC commands (beside `rpc`) send and take:
//! the manager's install summary, progress and log chunks, and the
//! settings view's shapes. Here, exported with ts-rs, so the UI imports
//! them instead of keeping hand-copied TypeScript.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One progress line of an install.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct InstallProgress {
    /// What is being installed.
    pub source: String,
    /// What is happening now.
    pub message: String,
}

/// What an install put on disk and what it registers (the UI shows it
/// before the user enables it).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct InstallSummary {
    /// The extension's name.
    pub name: String,
    /// Its manifest version.
    #[ts(optional = nullable)]
    pub version: Option<String>,
    /// Where it was installed.
    pub dir: String,
    /// Its manifest description.
    #[ts(optional = nullable)]
    pub description: Option<String>,
    /// Commands it will register, as its manifest's `contributes` declares
    /// them (zot runs nothing of it before the user enables it).
    pub commands: Vec<String>,
    /// Tools it will register, from `contributes` too.
    pub tools: Vec<String>,
    /// Themes it ships.
    pub themes: Vec<String>,
    /// Whether `commands` and `tools` are known: `false` when its manifest
    /// declares no `contributes`, so what it registers is known only once
    /// it is enabled.
    pub registers_known: bool,
    /// Required settings that have no value yet: the summary asks for them
    /// before the first start.
    pub settings_required: Vec<String>,
    /// What its manifest grants: the list, or `"unrestricted"`.
    pub permissions: crate::PermissionGrant,
    /// The grant in plain words, one line each (`zot_ext_host::
    /// permission_words`), the same lines `zot ext install` prints.
    pub permission_words: Vec<String>,
    /// What it still needs before it can start (a build, a missing tool).
    pub notes: Vec<String>,
    /// Whether it replaced an installed copy.
    pub replaced: bool,
    /// Whether it is enabled now.
    pub enabled: bool,
    /// For a bundle or a catalog entry: "signed by NAME" ("signed by zot"
    /// for zot's own catalog), "signed by an unknown key" or "unsigned"
    /// (the manager asks before enabling the last two).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signature: Option<String>,
}

/// New bytes of a log from `offset`, for the viewer that follows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct LogChunk {
    /// The log file.
    pub path: String,
    /// The new text.
    pub text: String,
    /// Where the next read starts.
    #[ts(type = "number")]
    pub offset: u64,
}

/// What a settings view shows.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Settings {
    /// The active provider.
    pub provider: String,
    /// The active model.
    pub model: String,
    /// The key's last four characters (e.g. `sk-…a1b2`, never the whole
    /// key), or `None` when no key is set.
    pub key_hint: Option<String>,
    /// The chosen theme's name.
    pub theme: String,
    /// Every provider that can be picked.
    pub providers: Vec<String>,
    /// Whether tool calls wait for approval in this app (saved as
    /// `approvals.desktop` in `config.json`; default `ask`).
    pub approvals: crate::approvals::ApprovalMode,
    /// Which OS notifications the window sends while it is not focused
    /// (saved as `notifications` in `config.json`; each off by default).
    pub notifications: NotificationSettings,
    /// Bytes the checkpoints of every project take under
    /// `$ZOT_HOME/checkpoints` (docs/desktop.md "Checkpoints").
    #[ts(type = "number")]
    pub checkpoints_bytes: u64,
    /// Whether zot checks for extension updates in the background, at
    /// most once a day (saved as `update_check` in `config.json`; off by
    /// default). The check runs nothing of the extensions.
    pub update_check: bool,
}

/// Which events raise an OS notification while the window is not focused.
/// Each kind is off until the user turns it on: a notification the user
/// did not ask for is noise. Missing keys in `config.json` read as off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
#[ts(export)]
pub struct NotificationSettings {
    /// A prompt's turn finished (answered, stopped at its limit, failed or
    /// blocked); not when the user stopped it.
    pub turn_end: bool,
    /// A tool call waits for the user's approval.
    pub approval: bool,
    /// An extension crashed or failed to start.
    pub extension_crash: bool,
}

/// A change from a settings view; absent fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, TS)]
#[ts(export)]
pub struct SettingsUpdate {
    /// Takes effect at once (with that provider's default model unless
    /// `model` is given too).
    #[ts(optional)]
    pub provider: Option<String>,
    /// Takes effect at once.
    #[ts(optional)]
    pub model: Option<String>,
    /// Saved to `auth.json` for the chosen (or current) provider, and used
    /// from the next prompt on.
    #[ts(optional)]
    pub api_key: Option<String>,
    /// Saved for the next start; the page applies it live.
    #[ts(optional)]
    pub theme: Option<String>,
    /// Saved, and used from the next tool call on.
    #[serde(default)]
    #[ts(optional)]
    pub approvals: Option<crate::approvals::ApprovalMode>,
    /// Saved, and used from the next event on.
    #[serde(default)]
    #[ts(optional)]
    pub notifications: Option<NotificationSettings>,
    /// Saved; the app asks for the daily check from then on.
    #[serde(default)]
    #[ts(optional)]
    pub update_check: Option<bool>,
}

/// What "Develop a folder…" started.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct DevelopSummary {
    /// The folder, resolved; its card carries the "dev" mark.
    pub dir: String,
    /// Extensions ready after the reload that started it.
    pub ready: u32,
    /// Load errors of that reload (a broken dev extension is one); the
    /// next good save recovers.
    pub errors: Vec<String>,
}

/// Where the user put one extension panel. Remembered per extension and
/// panel id across restarts; it wins over the extension's `placement` hint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelPlacementChoice {
    /// The extension that owns the panel.
    pub extension: String,
    /// The panel's id, as its extension names it.
    pub panel_id: String,
    /// Where the user put it.
    pub placement: crate::PanelPlacement,
}

/// An HTML panel's page, handed to the window's frame server
/// (`panel_frame_open`): the frame then loads it from
/// `zotpanel://localhost/<token>` with its own Content-Security-Policy.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelFrameOpen {
    /// A fresh random token the page chose; the frame's URL path.
    pub token: String,
    /// The extension's document, as `ext_panel_open` carried it.
    pub html: String,
    /// Its owner's manifest grants `sandbox.net` (`ext_panel_open.net`).
    pub net: bool,
    /// Esc in the page returns the keyboard to the editor (its owner did
    /// not declare `panel_esc`).
    pub esc_leaves: bool,
    /// The theme's CSS variables, as `--name: value;` declarations.
    pub theme: String,
    /// An MCP App's frame: the origins its resource declared (empty: no
    /// network at all); `net` is then ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub app: Option<crate::AppCsp>,
}
