//! What each headless/IPC command answers: the `data` of its `response`
//! (`docs/rpc.md`), one type per command, exported with ts-rs so the UI
//! reads typed results instead of casting JSON.

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::panel::PanelSpec;
use crate::rpc::{
    CommandInfo, ExtState, ExtensionSummary, ModelInfo, ReloadError, TrustStatus, UsageReport,
};
use crate::CommandAction;

/// The answer to any command; serialised as the variant's own object.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
#[ts(export)]
pub enum RpcResult {
    /// `hello`.
    Hello(HelloResult),
    /// `prompt`: accepted, running.
    Started(StartedResult),
    /// `command`.
    Command(CommandResult),
    /// `abort`.
    Aborted(AbortedResult),
    /// `panel_key`, `panel_close`: done, nothing to say.
    Done(DoneResult),
    /// `panel_mouse`, `panel_resize`: whether the frame went to the owner.
    Delivered(DeliveredResult),
    /// `app_tool_call`.
    AppTool(crate::AppToolResult),
    /// `ext_list`.
    Extensions(ExtListResult),
    /// `get_state`.
    State(StateResult),
    /// `get_messages`.
    Messages(MessagesResult),
    /// `clear` (and `/clear`).
    Cleared(ClearedResult),
    /// `set_model` (and `/model`).
    Model(ModelResult),
    /// `get_models`.
    Models(ModelsResult),
    /// `ping`.
    Pong(PongResult),
    /// `trust_project`.
    Trusted(TrustedResult),
    /// `untrust_project`.
    Untrusted(UntrustedResult),
    /// `trust_status`.
    TrustStatus(TrustStatus),
    /// `ext_restart`.
    Restarted(ExtRestartResult),
    /// `session_list`.
    Sessions(SessionsResult),
    /// `session_open`.
    SessionOpened(SessionOpenResult),
    /// `session_delete`.
    SessionDeleted(SessionDeletedResult),
    /// `compact`.
    Compacted(CompactResult),
    /// `approve_tool`.
    Approved(ApproveToolResult),
    /// `approval_rules` and `approval_rule_forget`.
    ApprovalRules(ApprovalRulesResult),
    /// `ext_config_get` and `ext_config_set`.
    Config(ExtConfigResult),
    /// `ui_respond`.
    UiResponded(UiRespondResult),
    /// `checkpoints`.
    Checkpoints(crate::checkpoints::CheckpointsResult),
    /// `checkpoint_preview`.
    CheckpointPreview(crate::checkpoints::CheckpointPreviewResult),
    /// `rewind`.
    Rewound(crate::checkpoints::RewindResult),
    /// `fork`.
    Forked(crate::checkpoints::ForkResult),
    /// `ext_update`.
    Updates(crate::updates::ExtUpdateResult),
    /// `ext_rollback`.
    RolledBack(crate::updates::ExtRollbackResult),
}

impl RpcResult {
    /// The name of the result type inside, as
    /// [`crate::rpc_commands::CommandSpec::result`] names it: with
    /// [`RpcCommand::spec`](crate::rpc::RpcCommand::spec) it ties each answer
    /// to its command.
    pub fn type_name(&self) -> &'static str {
        match self {
            RpcResult::Hello(_) => "HelloResult",
            RpcResult::Started(_) => "StartedResult",
            RpcResult::Command(_) => "CommandResult",
            RpcResult::Aborted(_) => "AbortedResult",
            RpcResult::Done(_) => "DoneResult",
            RpcResult::Delivered(_) => "DeliveredResult",
            RpcResult::AppTool(_) => "AppToolResult",
            RpcResult::Extensions(_) => "ExtListResult",
            RpcResult::State(_) => "StateResult",
            RpcResult::Messages(_) => "MessagesResult",
            RpcResult::Cleared(_) => "ClearedResult",
            RpcResult::Model(_) => "ModelResult",
            RpcResult::Models(_) => "ModelsResult",
            RpcResult::Pong(_) => "PongResult",
            RpcResult::Trusted(_) => "TrustedResult",
            RpcResult::Untrusted(_) => "UntrustedResult",
            RpcResult::TrustStatus(_) => "TrustStatus",
            RpcResult::Restarted(_) => "ExtRestartResult",
            RpcResult::Sessions(_) => "SessionsResult",
            RpcResult::SessionOpened(_) => "SessionOpenResult",
            RpcResult::SessionDeleted(_) => "SessionDeletedResult",
            RpcResult::Compacted(_) => "CompactResult",
            RpcResult::Approved(_) => "ApproveToolResult",
            RpcResult::ApprovalRules(_) => "ApprovalRulesResult",
            RpcResult::Config(_) => "ExtConfigResult",
            RpcResult::UiResponded(_) => "UiRespondResult",
            RpcResult::Checkpoints(_) => "CheckpointsResult",
            RpcResult::CheckpointPreview(_) => "CheckpointPreviewResult",
            RpcResult::Rewound(_) => "RewindResult",
            RpcResult::Forked(_) => "ForkResult",
            RpcResult::Updates(_) => "ExtUpdateResult",
            RpcResult::RolledBack(_) => "ExtRollbackResult",
        }
    }
}

/// `ui_respond`: the answer went to the extension.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct UiRespondResult {
    /// The request answered.
    pub request_id: String,
    /// How.
    pub action: crate::DialogAction,
}

/// `session_list`: newest first.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct SessionsResult {
    /// The project's sessions.
    pub sessions: Vec<crate::rpc::SessionInfo>,
}

/// `session_open`: what is now the current session.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct SessionOpenResult {
    /// The file now written to (a new copy when `readable_part` was used).
    pub path: String,
    /// Messages resumed.
    pub messages: u32,
    /// Said once to the user (damaged lines skipped, a copy made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub warning: Option<String>,
}

/// `session_delete`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct SessionDeletedResult {
    /// True when it went to the OS trash (restorable), false when it was
    /// deleted because no trash was available.
    pub trashed: bool,
}

/// `compact` and `/compact`: what the compaction did.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct CompactResult {
    /// Estimated tokens of the next request before compaction.
    #[ts(type = "number")]
    pub before_tokens: u64,
    /// The same after it.
    #[ts(type = "number")]
    pub after_tokens: u64,
    /// Messages replaced by the summary.
    #[ts(type = "number")]
    pub summarized_messages: usize,
    /// Messages kept verbatim after the summary.
    #[ts(type = "number")]
    pub kept_messages: usize,
}

/// `approve_tool`: the answer was taken.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ApproveToolResult {
    /// The approval answered.
    pub id: String,
    /// What was decided.
    pub decision: crate::approvals::ApprovalDecision,
    /// The rule written to `config.json` (`remember:true`), in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub remembered: Option<String>,
}

/// `approval_rules` / `approval_rule_forget`: the rules remembered in
/// `config.json`, and the mode the window asks in.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ApprovalRulesResult {
    /// Every rule, in the file's order by kind.
    pub rules: Vec<crate::approvals::RememberedRule>,
    /// Why the section cannot be used, when it cannot (the rules are then
    /// empty and nothing can be forgotten until it is fixed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<String>,
}

/// `ext_config_get` / `ext_config_set`: an extension's settings as a
/// front end may see them.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ExtConfigResult {
    /// The extension.
    pub name: String,
    /// Every setting's current value (defaults filled in); a sensitive one
    /// is `"••••"` plus at most its last 4 characters, never in full.
    #[ts(as = "std::collections::BTreeMap<String, Value>")]
    pub values: crate::settings::SettingValues,
    /// The manifest's `config`, in its order.
    #[ts(as = "std::collections::HashMap<String, crate::settings::SettingSpec>")]
    pub schema: crate::settings::SettingsSchema,
    /// The order of the settings in the manifest (a JSON object's key
    /// order is not kept by every client).
    pub order: Vec<String>,
    /// Required settings that have no value yet.
    pub missing: Vec<String>,
    /// Where secrets are kept: `"keychain"` or `"file"` (no keychain
    /// reachable: a 0600 file under `$ZOT_HOME`).
    pub secret_store: String,
    /// Said once when secrets fall back to a file, or when a corrupt
    /// settings file was moved aside.
    pub warnings: Vec<String>,
    /// `ext_config_set`: whether a running extension was sent
    /// `config_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub delivered: Option<bool>,
}

/// `ext_restart`: how the fresh run settled.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ExtRestartResult {
    /// The extension.
    pub name: String,
    /// Its state once the new run settled (`ready`, or why not).
    pub state: ExtState,
    /// Its error, when it did not become ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// `trust_project`: the project extensions it started.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct TrustedResult {
    /// Their names, in load order.
    pub started: Vec<String>,
    /// Whether the trust was saved for later runs.
    pub remembered: bool,
}

/// `untrust_project`: the extensions it stopped.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct UntrustedResult {
    /// Their names.
    pub stopped: Vec<String>,
}

/// `hello`: who answers.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct HelloResult {
    /// The extension protocol version.
    pub protocol_version: u32,
    /// zot's version.
    pub version: String,
    /// The provider in use.
    pub provider: String,
    /// The model in use.
    pub model: String,
    /// The working directory.
    #[ts(type = "string")]
    pub cwd: PathBuf,
}

/// `prompt`: the turn started.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct StartedResult {
    /// Always `true`.
    pub started: bool,
}

/// `abort`: whether a turn was running.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct AbortedResult {
    /// A turn was running and was asked to stop.
    pub aborted: bool,
}

/// An empty object: the command did what it said.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct DoneResult {}

/// `ext_list`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ExtListResult {
    /// Every extension, in load order.
    pub extensions: Vec<ExtensionSummary>,
}

/// `get_state`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct StateResult {
    /// The provider in use.
    pub provider: String,
    /// The model in use.
    pub model: String,
    /// The working directory.
    #[ts(type = "string")]
    pub cwd: PathBuf,
    /// Messages in the transcript.
    #[ts(type = "number")]
    pub message_count: usize,
    /// A turn is running.
    pub busy: bool,
    /// Tokens and cost so far.
    pub usage: UsageReport,
    /// The session file, when sessions are on.
    #[ts(type = "string | null")]
    pub session: Option<PathBuf>,
}

/// `get_messages`: the transcript, as the agent stores it (its shape is
/// the agent's, see `docs/agent.md`).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct MessagesResult {
    /// Every message, oldest first.
    #[ts(type = "Array<unknown>")]
    pub messages: Vec<Value>,
}

/// `clear`: the conversation and notes are gone.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ClearedResult {
    /// Always `true`.
    pub cleared: bool,
}

/// `set_model`, `/model`: the model now in use.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ModelResult {
    /// Its id.
    pub model: String,
}

/// `get_models`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ModelsResult {
    /// What the provider offers.
    pub models: Vec<ModelInfo>,
}

/// `ping`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct PongResult {
    /// Always `true`.
    pub pong: bool,
}

/// `command`: a built-in's answer or an extension command's.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
#[ts(export)]
pub enum CommandResult {
    /// `/clear`.
    Cleared(ClearedResult),
    /// `/help`.
    Help(HelpResult),
    /// `/model`.
    Model(ModelResult),
    /// `/reload-ext`.
    Reload(ReloadResult),
    /// `/compact`.
    Compacted(CompactResult),
    /// An extension command.
    Extension(ExtCommandResult),
}

/// `/help`: every command, as text and as a list.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct HelpResult {
    /// One line per command.
    pub text: String,
    /// Built-ins first, then extension commands in load order.
    pub commands: Vec<CommandInfo>,
}

/// `/reload-ext`: what the reload did.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ReloadResult {
    /// Extensions that were running and were stopped.
    pub stopped: u32,
    /// Extensions spawned again.
    pub loaded: u32,
    /// Of those, how many became ready.
    pub ready: u32,
    /// One per extension that failed.
    pub errors: Vec<ReloadError>,
}

/// An extension command's answer, as applied.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ExtCommandResult {
    /// The extension that answered.
    pub extension: String,
    /// What it asked for (`unknown` is reported as `noop`).
    pub action: CommandAction,
    /// Its error, when it sent one (or asked for a panel without content).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    /// The prompt it submitted (`prompt`, when not blank).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub prompt: Option<String>,
    /// The text to insert (`insert`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub insert: Option<String>,
    /// The text to display (`display`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub display: Option<String>,
    /// The panel it opened (`open_panel`); boxed, as an HTML panel's
    /// spec is the largest answer a command has.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<PanelSpec>")]
    pub open_panel: Option<Box<PanelSpec>>,
}

/// `panel_mouse`, `panel_resize`: `false` when the owner did not declare
/// the capability or the panel is gone (its owner crashed); the command
/// succeeds either way.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct DeliveredResult {
    /// The frame was written to the owner.
    pub delivered: bool,
}
