//! The headless RPC vocabulary (`docs/rpc.md`). The desktop UI uses the same
//! command and event names over Tauri IPC, so these types are exported to
//! TypeScript too and both front ends share one test vocabulary.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{ContentBlock, LevelName, NoteLevel, PanelCapability, PanelSpec};

/// One command line from the client: an optional `id` plus the command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RpcRequest {
    /// Echoed in the response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    /// The command itself.
    #[serde(flatten)]
    pub command: RpcCommand,
}

/// Every command a client may send, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum RpcCommand {
    /// Handshake; `token` is checked when `ZOT_RPC_TOKEN` is set.
    Hello {
        /// The shared secret, if one is required.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        token: Option<String>,
    },
    /// Runs (or queues) a turn.
    Prompt {
        /// The user's text.
        message: String,
        /// Images attached to the message.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(as = "Option<Vec<ImageInput>>", optional)]
        images: Vec<ImageInput>,
    },
    /// Runs a slash command (built-in or extension) without the `/`.
    Command {
        /// Command name.
        name: String,
        /// Everything after the name.
        #[serde(default)]
        args: String,
    },
    /// Stops the turn in flight.
    Abort {},
    /// Forwards a key to a panel's owner.
    PanelKey {
        /// Which panel.
        panel_id: String,
        /// A normalised key name.
        key: crate::PanelKey,
        /// For `rune`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        text: Option<String>,
    },
    /// Closes a panel and tells its owner.
    PanelClose {
        /// Which panel.
        panel_id: String,
    },
    /// Sends a `panel_mouse` frame to a panel's owner, when it declared
    /// `panel_mouse`; answers `data.delivered`.
    PanelMouse {
        /// Which panel.
        panel_id: String,
        /// What the pointer did.
        action: crate::MouseAction,
        /// The line (clicks; required there).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        row: Option<u32>,
        /// The character in the line (clicks; required there).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        col: Option<u32>,
        /// Lines, positive = down (`wheel`; required there).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        delta: Option<i32>,
    },
    /// Sends a `panel_resize` frame to a panel's owner, when it declared
    /// `panel_resize`; answers `data.delivered`.
    PanelResize {
        /// Which panel.
        panel_id: String,
        /// Cells across.
        cols: u32,
        /// Lines down.
        rows: u32,
    },
    /// Delivers `data` to the owner of HTML panel `panel_id` as a
    /// `panel_message`, as if its page had posted it; answers
    /// `data.delivered`.
    PanelMessage {
        /// Which HTML panel.
        panel_id: String,
        /// Any JSON value (at most 256 KiB serialised).
        #[serde(default)]
        #[ts(type = "unknown")]
        data: serde_json::Value,
    },
    /// An MCP App's `tools/call`: runs `tool` of the MCP server
    /// `extension` (the app's own; a tool of another extension is
    /// refused) through the approval policy; answers `data` as
    /// [`crate::AppToolResult`].
    AppToolCall {
        /// The MCP server whose app asks.
        extension: String,
        /// The tool, by its zot name.
        tool: String,
        /// Its arguments (an object).
        #[serde(default)]
        #[ts(type = "unknown")]
        args: Value,
    },
    /// An MCP App's `ui/message`: `text` becomes a prompt that says it
    /// came from the app (`user_message.app`); answers `started`.
    AppMessage {
        /// The MCP server whose app sent it.
        extension: String,
        /// The app's `ui://` resource.
        resource_uri: String,
        /// The message.
        text: String,
    },
    /// Lists every extension.
    ExtList {},
    /// Provider, model, cwd, counts.
    GetState {},
    /// The transcript as the model sees it.
    GetMessages {},
    /// Drops the transcript and every note.
    Clear {},
    /// Switches the model.
    SetModel {
        /// The model id.
        model: String,
    },
    /// Lists the provider's models.
    GetModels {},
    /// Liveness check.
    Ping {},
    /// Trusts the project (the cwd) and starts its extensions; answers
    /// `data.started:[name…]` (docs/rpc.md "Project trust").
    TrustProject {
        /// Also remember it in `$ZOT_HOME/trust.json`; otherwise for this run.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        remember: Option<bool>,
    },
    /// Forgets the trust of the project (or of `dir`, a folder listed by
    /// `trust_status`) and stops the project's extensions; answers
    /// `data.stopped:[name…]`.
    UntrustProject {
        /// Another remembered folder to forget; the cwd when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        dir: Option<String>,
    },
    /// Whether the project is trusted, what would run in it, and every
    /// remembered folder; answers a [`TrustStatus`].
    TrustStatus {},
    /// Starts a `crashed`, `exited` or `failed` extension again and resets
    /// its restart budget; answers `data.state` once it is ready or not.
    ExtRestart {
        /// The extension's name.
        name: String,
    },
    /// The project's sessions, newest first (docs/rpc.md "Sessions");
    /// with `query`, only those whose title or text contains it
    /// (case-insensitive).
    SessionList {
        /// Text to look for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        query: Option<String>,
    },
    /// Resumes a session of this project in place of the current one.
    /// A session that cannot be continued as it is (written by a newer
    /// zot) is refused unless `readable_part` is true, which opens a copy
    /// of what could be read.
    SessionOpen {
        /// Its file, as `session_list` gave it.
        path: String,
        /// Open a copy of the readable part of a session that cannot be
        /// continued as it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        readable_part: Option<bool>,
    },
    /// Gives a session a title of the user's own.
    SessionRename {
        /// Its file.
        path: String,
        /// The new title; empty goes back to the first prompt.
        title: String,
    },
    /// Moves a session to the OS trash (or deletes it where there is none).
    SessionDelete {
        /// Its file.
        path: String,
    },
    /// Summarises the older part of the transcript into one message
    /// (`/compact` does the same); answers a `CompactResult`.
    Compact {
        /// What the summary should keep or focus on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        instructions: Option<String>,
    },
    /// Answers a `tool_approval` (docs/rpc.md "Tool approvals").
    ApproveTool {
        /// The approval's `id` (not the tool call's). On the RPC wire it is
        /// the request's own `id`, which the response echoes; the RPC
        /// mode copies it here.
        #[serde(default)]
        id: String,
        /// Run it or not.
        decision: crate::approvals::ApprovalDecision,
        /// With `allow`: also write a rule to `config.json` so the next
        /// such call runs without asking.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        remember: Option<bool>,
        /// With `remember` on a `bash` call: the rule to write instead of
        /// the exact command, e.g. `cargo test *`; it must match the
        /// command being approved (docs/security.md "Tool approvals").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        rule: Option<String>,
        /// With `remember`: which of the call's offered `scopes` to
        /// remember; the first offered one when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        scope: Option<crate::approvals::ApprovalScope>,
    },
    /// Every rule remembered in `config.json`'s `approvals` section;
    /// answers an [`ApprovalRulesResult`](crate::rpc_results::ApprovalRulesResult).
    ApprovalRules {},
    /// Forgets one remembered rule (as `approval_rules` listed it) and
    /// answers the rules left.
    ApprovalRuleForget {
        /// The rule.
        rule: crate::approvals::RememberedRule,
    },
    /// An extension's settings: the values (secrets masked) and the schema
    /// (docs/rpc.md "Extension settings").
    ExtConfigGet {
        /// The extension's name.
        name: String,
    },
    /// Validates and stores settings of an extension (secrets in the OS
    /// keychain) and sends it `config_changed` when it runs. A `null`
    /// value clears the setting; a masked secret sent back unchanged
    /// keeps the stored one.
    ExtConfigSet {
        /// The extension's name.
        name: String,
        /// The settings to change, keyed by name.
        #[ts(as = "std::collections::BTreeMap<String, Value>")]
        values: crate::settings::SettingValues,
    },
    /// Checks for (`check`) or installs the updates of one extension, or
    /// of every installed one that recorded its source when `name` is
    /// absent (docs/rpc.md "Extension updates and bundles"); answers
    /// `data.updates`.
    ExtUpdate {
        /// The extension's name; absent for all of them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        name: Option<String>,
        /// Only say what would change.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        check: Option<bool>,
        /// The daily background check (implies `check`): runs only when
        /// the last one is a day old or more, and otherwise answers what
        /// that one found; refused unless Settings turned it on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        daily: Option<bool>,
    },
    /// Puts back the copy an update replaced, with the permissions that
    /// were accepted for it.
    ExtRollback {
        /// The extension's name.
        name: String,
    },
    /// Answers a `ui_request` event (docs/rpc.md "Dialogs"); refused with
    /// the reason for an unknown id or a value that does not fit, and the
    /// dialog then stays open.
    UiRespond {
        /// The event's `request_id`.
        request_id: String,
        /// How the user answered.
        action: crate::DialogAction,
        /// With `accept`: the answer (see `ui_response.value`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        value: Option<Value>,
    },
    /// Lists the checkpoints of the prompts in the transcript (docs/rpc.md
    /// "Checkpoints and rewind"); answers a `CheckpointsResult`.
    Checkpoints {},
    /// What `rewind{scope:"code"}` to `checkpoint` would change, file by
    /// file, without changing anything; answers a
    /// `CheckpointPreviewResult`.
    CheckpointPreview {
        /// A checkpoint id from `checkpoints`.
        checkpoint: String,
    },
    /// Restores the files, truncates the transcript to before that
    /// prompt, or both; refused while a prompt runs. Answers a
    /// `RewindResult`.
    Rewind {
        /// A checkpoint id from `checkpoints` (for `code`, also a
        /// `RewindResult.undo`).
        checkpoint: String,
        /// What to restore.
        scope: crate::checkpoints::RewindScope,
    },
    /// Continues in a new session holding the conversation before that
    /// checkpoint's prompt (and the extensions' state then), with the
    /// files restored to it when `code` is true. Answers a `ForkResult`.
    Fork {
        /// A checkpoint id from `checkpoints`.
        checkpoint: String,
        /// Also restore the files.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        code: Option<bool>,
    },
}

/// One session of the project, for the sidebar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SessionInfo {
    /// Its file.
    pub path: String,
    /// The user's title, else the first prompt's first line.
    pub title: String,
    /// Last written, in milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub modified_ms: u64,
    /// Messages in it.
    pub messages: u32,
    /// Whether it is the one this window writes to.
    pub current: bool,
    /// What is wrong with it, for a warning badge (damaged lines, a newer
    /// format); absent when it reads cleanly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<String>,
}

/// An image attached to a prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ImageInput {
    /// For example `image/png`.
    pub mime_type: String,
    /// Base64 bytes.
    pub data: String,
}

/// The answer to one command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RpcResponse {
    /// Always `"response"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The request's id, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    /// The request's `type` (or `"unknown"` when it had none).
    pub command: String,
    /// Whether it worked.
    pub success: bool,
    /// Command-specific data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub data: Option<Value>,
    /// What went wrong, when `success` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    /// The error's kind (`invalid`, `not_found`, `denied`, `busy`,
    /// `failed`), beside `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<crate::rpc_error::ErrorCode>,
}

impl RpcResponse {
    /// A successful response.
    pub fn ok(id: Option<String>, command: &str, data: Option<Value>) -> Self {
        RpcResponse {
            kind: "response".into(),
            id,
            command: command.into(),
            success: true,
            data,
            error: None,
            code: None,
        }
    }

    /// A failed response: the error's message says what was wrong, its
    /// code what kind of failure it was.
    pub fn err(
        id: Option<String>,
        command: &str,
        error: impl Into<crate::rpc_error::RpcError>,
    ) -> Self {
        let error = error.into();
        RpcResponse {
            kind: "response".into(),
            id,
            command: command.into(),
            success: false,
            data: None,
            error: Some(error.message),
            code: Some(error.code),
        }
    }

    /// A failed response to a line or command that is malformed
    /// ([`crate::rpc_error::ErrorCode::Invalid`]).
    pub fn invalid(id: Option<String>, command: &str, message: impl Into<String>) -> Self {
        Self::err(id, command, crate::rpc_error::RpcError::invalid(message))
    }
}

/// Why a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum StopReason {
    /// The model finished.
    EndTurn,
    /// The model asked for tools (a step ended; the turn goes on).
    ToolUse,
    /// The model hit its output limit.
    Length,
    /// A provider or loop error.
    Error,
    /// The user aborted.
    Aborted,
    /// An interceptor blocked the turn.
    Blocked,
}

impl StopReason {
    /// The spelling extensions get in a lifecycle `turn_end` event. The
    /// reference zot sends `end` where a turn finished normally (its stop
    /// values are `end`, `length`, `tool_use`, `error`, `aborted`), and
    /// extensions in the wild test for it, although the extension spec's
    /// example shows `end_turn` (docs/compat.md). RPC clients keep
    /// [`StopReason::as_str`], as docs/rpc.md says.
    pub fn as_ext_str(self) -> &'static str {
        match self {
            StopReason::EndTurn => "end",
            other => other.as_str(),
        }
    }

    /// The RPC spelling, as the client's `turn_end` event carries it.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::ToolUse => "tool_use",
            StopReason::Length => "length",
            StopReason::Error => "error",
            StopReason::Aborted => "aborted",
            StopReason::Blocked => "blocked",
        }
    }
}

/// Token counts for one model call (or a running total).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Usage {
    /// Prompt tokens not served from the provider's cache (OpenAI counts
    /// cached tokens inside its prompt tokens; zot subtracts them so every
    /// provider means the same here).
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// Prompt tokens served from the provider's cache.
    #[serde(default)]
    pub cache_read_tokens: u64,
    /// Prompt tokens written to the provider's cache.
    #[serde(default)]
    pub cache_write_tokens: u64,
}

impl Usage {
    /// Adds `other` to these counts.
    pub fn add(&mut self, other: &Usage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.cache_read_tokens = self
            .cache_read_tokens
            .saturating_add(other.cache_read_tokens);
        self.cache_write_tokens = self
            .cache_write_tokens
            .saturating_add(other.cache_write_tokens);
    }
}

/// Tokens and cost since the session started (or the last `clear`), under
/// the names the reference zot's RPC clients read (`cumulative.input`,
/// `cumulative.output`, `cumulative.cost_usd`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UsageTotals {
    /// Prompt tokens not served from the cache.
    pub input: u64,
    /// Completion tokens.
    pub output: u64,
    /// Prompt tokens read from the cache.
    pub cache_read: u64,
    /// Prompt tokens written to the cache.
    pub cache_write: u64,
    /// US dollars at the built-in price list; absent when a call used a
    /// model whose price zot does not know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cost_usd: Option<f64>,
}

/// The `usage` event, and `get_state.usage`: this call's tokens (for
/// `get_state`, the session's), what they cost, and the session's totals.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UsageReport {
    /// Token counts.
    #[serde(flatten)]
    pub tokens: Usage,
    /// What these tokens cost in US dollars, when the model's price is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cost_usd: Option<f64>,
    /// The session's totals so far.
    pub cumulative: UsageTotals,
}

/// Where an extension was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum Scope {
    /// `--ext PATH` for this run.
    Explicit,
    /// `./.zot/extensions/`.
    Project,
    /// `$ZOT_HOME/extensions/`.
    Global,
}

/// Where an extension is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ExtState {
    /// Spawned, handshake or registration under way.
    Loading,
    /// Registered and serving.
    Ready,
    /// Could not be loaded (manifest, spawn, handshake).
    Failed,
    /// Was running and exited or crashed.
    Exited,
    /// `enabled: false` in its manifest.
    Disabled,
    /// Theme-only; never spawned.
    Theme,
    /// A project-local extension in a project the user has not trusted:
    /// listed, never spawned, registers nothing.
    Untrusted,
    /// It crashed more often than its restart budget allows (3 automatic
    /// restarts in 5 minutes); stays down until `ext_restart` or a reload.
    Crashed,
    /// An `on_use` extension that is not running: its declared commands
    /// and tools are listed; the first use spawns it.
    Idle,
}

/// One project extension that did not start because the project is not
/// trusted: what would run if the user trusted it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UntrustedExtension {
    /// Manifest name.
    pub name: String,
    /// Its directory.
    pub dir: String,
    /// The program it would run (the manifest's `exec`, resolved).
    pub exec: String,
    /// Manifest description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// When a global extension has the same name: that extension's
    /// directory, which this one would replace once trusted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shadows_global: Option<String>,
    /// The project is trusted, but zot has never run this extension: it
    /// appeared in `.zot/extensions` since (a pull, or a file the model
    /// wrote), so it waits for the user like an untrusted one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub new: bool,
}

/// The answer to `trust_status`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TrustStatus {
    /// The project directory (canonical).
    pub dir: String,
    /// Whether its extensions may run now (remembered, `--trust-project`
    /// or trusted for this run).
    pub trusted: bool,
    /// Whether that trust is remembered in `trust.json`.
    pub remembered: bool,
    /// Project extensions waiting for trust.
    pub extensions: Vec<UntrustedExtension>,
    /// Every folder remembered in `trust.json`, sorted.
    pub trusted_dirs: Vec<String>,
    /// Why `trust.json` could not be used, when it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<String>,
}

/// A command as listed for autocomplete and `/help`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CommandInfo {
    /// Canonical spelling, without `/`.
    pub name: String,
    /// One-line description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// The owning extension; `None` for built-ins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub extension: Option<String>,
}

/// A tool as listed in the manager.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolInfo {
    /// Tool name.
    pub name: String,
    /// One-line description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// Registered as deferred.
    #[serde(default)]
    pub deferred: bool,
    /// A deferred tool that a `tool_result` has activated.
    #[serde(default)]
    pub active: bool,
    /// It only reads (MCP `readOnlyHint`).
    #[serde(default)]
    pub read_only: bool,
    /// It may destroy data (MCP `destructiveHint`).
    #[serde(default)]
    pub destructive: bool,
}

/// What kind of name was shadowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ShadowKind {
    /// A whole extension (same name in a lower-precedence scope).
    Extension,
    /// A slash command.
    Command,
    /// A tool.
    Tool,
    /// A theme.
    Theme,
}

/// One shadowing: `name` of this extension lost to `by`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Shadowing {
    /// What was shadowed.
    pub kind: ShadowKind,
    /// The shadowed name.
    pub name: String,
    /// Who won: `built-in` or an extension's name (with its scope).
    pub by: String,
    /// Why, in words.
    pub reason: String,
}

/// One extension as `ext_list` and the manager show it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExtensionSummary {
    /// Manifest name.
    pub name: String,
    /// Manifest version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
    /// Manifest description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// Manifest language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub language: Option<String>,
    /// Where it was found.
    pub scope: Scope,
    /// Its directory.
    pub dir: String,
    /// The manifest's `enabled`.
    pub enabled: bool,
    /// Its state now.
    pub state: ExtState,
    /// Commands it owns (shadowed ones are in `shadowed`).
    #[serde(default)]
    pub commands: Vec<CommandInfo>,
    /// Tools it owns.
    #[serde(default)]
    pub tools: Vec<ToolInfo>,
    /// Theme names it adds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub themes: Vec<String>,
    /// Everything of it that lost to someone else.
    #[serde(default)]
    pub shadowed: Vec<Shadowing>,
    /// The last error, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    /// `$ZOT_HOME/logs/ext-<name>.log`.
    pub log_path: String,
    /// While `loading`: milliseconds since its process was spawned, so a
    /// slow first start (a `go run .` build) shows as progress, not a hang.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub starting_ms: Option<u64>,
    /// Once `ready`: how long spawn → ready took, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub startup_ms: Option<u64>,
    /// Automatic restarts in the current 5-minute window.
    #[serde(default)]
    pub restarts: u32,
    /// How its last process ended, e.g. `"status 3"` or
    /// `"signal 9 (SIGKILL)"`; null when none has ended on its own.
    #[serde(default)]
    pub last_exit: Option<String>,
    /// Its tool calls and commands so far, and its log's size.
    #[serde(default)]
    pub health: ExtHealth,
    /// The names of its settings (its manifest's `config`), in order; the
    /// manager offers "Configure…" when there are any. Never values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub settings: Vec<String>,
    /// Whether its manifest declares a `sandbox`, so it runs under one (or
    /// does not run at all: docs/security.md).
    #[serde(default)]
    pub sandboxed: bool,
    /// What its manifest grants (docs/protocol.md "Permissions"): the list, or
    /// `"unrestricted"` when the manifest has no `permissions` field.
    #[serde(default)]
    #[ts(as = "Option<crate::PermissionGrant>", optional)]
    pub permissions: crate::PermissionGrant,
    /// What it may do, in the words of the install summary and the
    /// catalog (its permissions, then its sandbox; a theme says it runs no
    /// code), so the three say the same thing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub permission_words: Vec<String>,
    /// Frames refused because their permission was not granted, counted
    /// per permission (its manifest spelling) in this load.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[ts(type = "Record<string, number>", optional)]
    pub refused: std::collections::BTreeMap<String, u64>,
    /// Permissions its manifest asks for that the user has not accepted
    /// (an update asked for more): it is `failed` until they are accepted
    /// (`zot ext accept NAME`, or the manager's dialog).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<crate::Permission>>", optional)]
    pub unaccepted: Vec<crate::Permission>,
    /// `unaccepted` in plain words (the host's one wording), for the
    /// manager's review dialog.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub unaccepted_words: Vec<String>,
    /// Everything its manifest now asks for beyond what the user accepted
    /// (new permissions, a removed or wider sandbox, a changed program,
    /// arguments, environment, kind or URL), each in words: it is `failed`
    /// until they are accepted (`zot ext accept NAME`, or the manager's
    /// review card).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<crate::Widening>>", optional)]
    pub widened: Vec<crate::Widening>,
    /// `extension` or `mcp` (the manifest's `kind`).
    #[serde(default)]
    pub kind: crate::manifest::ExtKind,
    /// Where it was installed from (docs/rpc.md "Extension updates and
    /// bundles"); absent for a project's extension, an `--ext` path, or
    /// one installed before zot recorded sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub source: Option<crate::updates::ExtSource>,
    /// The version `ext_rollback` would put back (`"-"` when the kept
    /// copy has none); absent when no earlier copy is kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rollback_to: Option<String>,
    /// What it needs before it can run at all, as the one step that fixes
    /// it (a Rust extension shipped as source whose binary is not built:
    /// "its binary `x` is not built: run `cargo build -p x` in …"). An
    /// enabled one in need is not started and is `failed`; the manager
    /// shows "needs setup", and `zot ext doctor` says the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub setup: Option<String>,
}

/// How an extension is doing, for `ext_list` and the manager's cards
/// (docs/rpc.md "Supervision"): kept across its restarts in this load.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExtHealth {
    /// Tool calls and commands sent to it.
    #[ts(type = "number")]
    pub calls: u64,
    /// Of those, how many failed without an answer (timeout, crash,
    /// protocol error); an error result it sent is an answer.
    #[ts(type = "number")]
    pub errors: u64,
    /// Median latency of its last 512 calls, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub p50_ms: Option<u64>,
    /// 99th-percentile latency of its last 512 calls, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub p99_ms: Option<u64>,
    /// Size of its log file (`log_path`) in bytes.
    #[ts(type = "number")]
    pub log_bytes: u64,
    /// Total time the agent and the user waited on its calls, in
    /// milliseconds: the "cost" the manager's Running view sorts by.
    #[serde(default)]
    #[ts(type = "number")]
    pub busy_ms: u64,
    /// Resident memory of its process tree now, in bytes; only in
    /// `ext_list` answers (reading it walks /proc), absent when it is not
    /// running or the system has no /proc.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub rss_bytes: Option<u64>,
}

/// A model the provider offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ModelInfo {
    /// Model id.
    pub id: String,
    /// Provider name.
    pub provider: String,
    /// Tokens of context, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub context_window: Option<u64>,
    /// Max output tokens, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_output: Option<u64>,
}

/// One load error in an `ext_reload` report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ReloadError {
    /// Which extension.
    pub extension: String,
    /// What went wrong.
    pub message: String,
    /// Its stderr log.
    pub log_path: String,
}

/// Everything zot tells a client (RPC stdout line or Tauri event), tagged
/// by `type`. Agent events first, then extension events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum UiEvent {
    /// Every extension is ready or its grace has passed.
    Ready {},
    /// The transcript was compacted: estimated request tokens before and
    /// after.
    CompactDone {
        /// Before.
        #[ts(type = "number")]
        before_tokens: u64,
        /// After.
        #[ts(type = "number")]
        after_tokens: u64,
    },
    /// A session began.
    SessionStart {},
    /// A model step begins.
    TurnStart {
        /// From 1.
        step: u32,
    },
    /// The user's prompt, as it enters the transcript.
    UserMessage {
        /// The text.
        content: String,
        /// The checkpoint taken before this prompt (`rewind` takes it),
        /// unless checkpoints are off for the project.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        checkpoint: Option<String>,
        /// The extension that sent this prompt (its command's `prompt`
        /// action, or `submit`); absent for the user's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        extension: Option<String>,
        /// The slash command (without `/`) whose `prompt` action sent it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        command: Option<String>,
        /// The MCP App (its `ui://` resource) whose `ui/message` sent it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        app: Option<String>,
    },
    /// The model began answering.
    AssistantStart {},
    /// Streamed assistant text.
    TextDelta {
        /// The new text.
        delta: String,
    },
    /// The model called a tool.
    ToolCall {
        /// The call id.
        id: String,
        /// The tool name.
        name: String,
        /// Its args (after any rewrite).
        args: Value,
        /// The owning extension, for extension tools.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        extension: Option<String>,
    },
    /// A pending extension tool call reported progress (coalesced to at
    /// most one event per call per UI frame; `partial` is the text new
    /// since the previous event, the UI appends it).
    ToolProgress {
        /// The model's tool call id, as in `tool_call`.
        id: String,
        /// The extension that owns the tool.
        extension: String,
        /// The latest message, when it sent one.
        message: Option<String>,
        /// How far along, clamped to 0..=total (never NaN).
        progress: Option<f64>,
        /// The amount of work, when known (positive, finite).
        total: Option<f64>,
        /// New output text since the previous event.
        partial: Option<String>,
    },
    /// A tool finished.
    ToolResult {
        /// The call id.
        id: String,
        /// Whether it failed.
        is_error: bool,
        /// What it returned.
        content: Vec<ContentBlock>,
        /// The owning extension, for extension tools.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        extension: Option<String>,
        /// The MCP App its card shows (docs/mcp.md "MCP Apps").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        app: Option<crate::ToolApp>,
        /// Why the tool's MCP App is not shown, for one line in its card.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        app_note: Option<String>,
    },
    /// The user-visible text of a finished assistant message.
    AssistantMessage {
        /// After any `replace_text`.
        content: String,
    },
    /// Token usage of one model call.
    Usage(UsageReport),
    /// A step or turn ended.
    TurnEnd {
        /// Why.
        stop: StopReason,
        /// The error, when `stop` is `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        error: Option<String>,
    },
    /// The prompt is finished.
    Done {},
    /// Non-fatal trouble.
    Error {
        /// What happened and what to do.
        message: String,
    },
    /// An extension's `notify`.
    ExtNotify {
        /// Who.
        extension: String,
        /// The level exactly as the extension sent it (clients of the
        /// reference zot read it verbatim, e.g. `warning`).
        level: LevelName,
        /// How to colour it: `level` mapped onto the spec's four levels
        /// (unknown strings are `info`).
        style: NoteLevel,
        /// Text.
        message: String,
    },
    /// A `display` action.
    ExtDisplay {
        /// Who.
        extension: String,
        /// Text.
        text: String,
    },
    /// An extension's `clear_notes`.
    ExtClearNotes {
        /// Whose notes to drop.
        extension: String,
    },
    /// An `insert` action.
    ExtInsert {
        /// Who.
        extension: String,
        /// Text for the editor.
        text: String,
    },
    /// An `open_panel` action.
    ExtPanelOpen {
        /// The owner.
        extension: String,
        /// Initial content.
        panel: PanelSpec,
        /// The panel input its owner declared in `hello.capabilities`
        /// (e.g. `panel_esc`: Esc goes to it instead of closing the
        /// panel); absent when none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(as = "Option<Vec<PanelCapability>>", optional)]
        capabilities: Vec<PanelCapability>,
        /// An HTML panel whose owner's manifest grants `sandbox.net`: its
        /// page may use the network. Absent (false) otherwise.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        #[ts(as = "Option<bool>", optional)]
        net: bool,
    },
    /// A `panel_render` frame.
    ExtPanelRender {
        /// The owner.
        extension: String,
        /// Which panel.
        panel_id: String,
        /// New title.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        title: Option<String>,
        /// New lines.
        lines: Vec<String>,
        /// New footer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        footer: Option<String>,
        /// The extension's placement hint (`bottom` when it gave none or
        /// one the host does not know).
        #[serde(default)]
        placement: crate::PanelPlacement,
    },
    /// A panel closed (by its owner, or because its owner died).
    ExtPanelClose {
        /// The owner.
        extension: String,
        /// Which panel.
        panel_id: String,
        /// Why, when its owner went away (e.g. "'todo' crashed; restarting
        /// in 0.5 s"); absent when the owner or the user closed it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    },
    /// What an extension sent to the page of its HTML panel
    /// (`panel_message`); the window hands `data` to the page.
    ExtPanelMessage {
        /// Which panel.
        panel_id: String,
        /// The owner.
        extension: String,
        /// Any JSON value.
        #[ts(type = "unknown")]
        data: serde_json::Value,
    },
    /// A status line, e.g. a blocked turn's reason.
    ExtStatus {
        /// Who.
        extension: String,
        /// Colour.
        level: NoteLevel,
        /// Text.
        text: String,
    },
    /// An extension failed to load, crashed or broke the protocol.
    ExtError {
        /// Who.
        extension: String,
        /// What happened.
        message: String,
        /// Its stderr log.
        log_path: String,
        /// Exit status or signal, when it exited.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        exit_status: Option<String>,
    },
    /// A crashed extension will be started again after `delay_ms`
    /// (docs/rpc.md "Supervision"); an `ext_error` reported the crash.
    ExtRestarting {
        /// Who.
        extension: String,
        /// Which automatic restart in the current 5-minute window (1-3).
        attempt: u32,
        /// The backoff before the restart.
        delay_ms: u64,
        /// How it exited, e.g. `"status 3"`, `"signal 9 (SIGKILL)"`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        exit_status: Option<String>,
    },
    /// The result of `/reload-ext`.
    ExtReload {
        /// Extensions stopped.
        stopped: u32,
        /// Extensions spawned.
        loaded: u32,
        /// Extensions that became ready.
        ready: u32,
        /// Load errors.
        errors: Vec<ReloadError>,
    },
    /// The extension list or a registry changed; clients re-read `ext_list`.
    ExtChanged {},
    /// Once after `ready`: the project has extensions that did not start
    /// because it is not trusted.
    ProjectUntrusted {
        /// The project directory (canonical).
        dir: String,
        /// Their names, in load order.
        extensions: Vec<String>,
        /// What each would run, and which global extension it would shadow.
        details: Vec<UntrustedExtension>,
    },
    /// A tool call waits for the user (`--approvals ask`); answer with
    /// `approve_tool`. Sent after the call's `tool_call` event, with the
    /// arguments that will run (after every interceptor).
    ToolApproval {
        /// The approval's id, for `approve_tool`.
        id: String,
        /// The tool call's id (its `tool_call` event).
        call_id: String,
        /// The tool's name.
        tool: String,
        /// The arguments that will run.
        args: Value,
        /// The owning extension, for extension tools.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        extension: Option<String>,
        /// The extension marks the tool read-only (its `read_only`, an MCP
        /// server's `readOnlyHint`): its own claim, which zot does not
        /// take as a grant; a client shows it as such.
        #[serde(default, skip_serializing_if = "crate::ext_to_host::is_false")]
        #[ts(as = "Option<bool>", optional)]
        read_only_claim: bool,
        /// Why it needs approval, in words.
        reason: String,
        /// What "always allow" would remember, in words (e.g. `bash
        /// command "git status"`, `every write call`).
        remember: String,
        /// The scopes "always allow" may remember, narrowest first (the
        /// first is what `remember` says); empty when the call may only
        /// be allowed once (zot's own state, `/proc`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(as = "Option<Vec<crate::approvals::ScopeChoice>>", optional)]
        scopes: Vec<crate::approvals::ScopeChoice>,
        /// For `write`/`edit`: the file's current text (absent when the
        /// file does not exist, is not text, or is over 256 KiB), so a
        /// client can show a diff.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        before: Option<String>,
    },
    /// An extension or MCP server asks the user (docs/rpc.md "Dialogs");
    /// emitted at once for every accepted request, queued or not. Answer
    /// with `ui_respond`. Boxed: it is much larger than the other events.
    UiRequest(Box<crate::dialogs::UiRequestEvent>),
    /// A `ui_request` ended other than by `ui_respond` (timeout, the
    /// extension stopped, the turn was aborted).
    UiRequestDone {
        /// Its `request_id`.
        request_id: String,
        /// How it ended.
        action: crate::DialogAction,
        /// Why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    },
}
