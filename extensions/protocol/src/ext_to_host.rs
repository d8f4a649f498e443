//! Frames an extension writes to its stdout.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{ContentBlock, EventName, PanelSpec, RequestId};

/// Every frame an extension may send, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum ExtToHost {
    /// Required first frame.
    Hello(Hello),
    /// Adds a slash command.
    RegisterCommand(RegisterCommand),
    /// Adds a tool the model can call.
    RegisterTool(RegisterTool),
    /// All initial registrations are flushed.
    Ready(Ready),
    /// Reply to `tool_call`.
    ToolResult(ToolResult),
    /// How a pending `tool_call` is getting on (optional, any number).
    ToolProgress(ToolProgress),
    /// Which lifecycle events to observe and to intercept.
    Subscribe(Subscribe),
    /// Reply to `event_intercept`.
    EventInterceptResponse(EventInterceptResponse),
    /// Reply to `command_invoked`.
    CommandResponse(CommandResponse),
    /// Submits text as a user prompt (interactive hosts only).
    Submit(Submit),
    /// Redraws an open panel.
    PanelRender(PanelRender),
    /// Closes a panel the extension opened.
    PanelClose(PanelClose),
    /// A message for the page of one of its HTML panels.
    PanelMessage(crate::PanelMessage),
    /// A note under the transcript.
    Notify(Notify),
    /// Removes this extension's notes.
    ClearNotes(ClearNotes),
    /// Reply to `shutdown`.
    ShutdownAck(ShutdownAck),
    /// Asks the user (a dialog); answered by exactly one `ui_response`.
    UiRequest(crate::UiRequest),
    /// Stores a value in the current session (docs/protocol.md
    /// "Session state").
    StateSet(crate::StateSet),
}

/// `hello`: who the extension is.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Hello {
    /// Must match the manifest's `name`.
    pub name: String,
    /// The extension's own version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
    /// Informational: `commands`, `tools`, `panels`, ….
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub capabilities: Vec<String>,
    /// Over a WebSocket only: the endpoint's proof that it holds the
    /// extension's token, lowercase hex of HMAC-SHA256(token,
    /// `"zot-ws-auth-v1\n"` + the `Zot-Challenge` header of the upgrade
    /// request). zot checks it before `hello_ack`, which carries the
    /// extension's settings (docs/mcp.md "Native extensions over a
    /// WebSocket").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub auth: Option<String>,
}

/// `register_command`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RegisterCommand {
    /// The command without `/`; matched case-insensitively.
    pub name: String,
    /// Shown in autocomplete and `/help`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
}

/// `register_tool`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RegisterTool {
    /// The tool name, in the same namespace as built-in tools.
    pub name: String,
    /// What the model reads to decide when to call it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// A JSON Schema object for the arguments.
    #[serde(default)]
    pub schema: Value,
    /// Registered but not advertised until a `tool_result` activates it.
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub deferred: bool,
    /// It only reads (MCP `readOnlyHint`), as the extension claims: shown
    /// with the approval, which it skips only when the user trusts this
    /// extension's claims.
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub read_only: bool,
    /// It may destroy data (MCP `destructiveHint`).
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub destructive: bool,
}

/// `ready`: the registration window is over.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Ready {}

/// `tool_result`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolResult {
    /// The `tool_call` id this answers.
    pub id: RequestId,
    /// Text and image blocks.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// Marks the call as failed.
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub is_error: bool,
    /// Deferred tools that become available after this result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub activate_tools: Vec<String>,
    /// The MCP App to show in the tool's card (set by zot's MCP
    /// translator; ignored from other extensions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub app: Option<crate::ToolApp>,
    /// Why the tool's MCP App is not shown (a missing resource, a wrong
    /// MIME type), for one line in its card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub app_note: Option<String>,
    /// An MCP result's `structuredContent` (for its app).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub structured_content: Option<Value>,
}

/// `tool_progress`: sent while a `tool_call` is pending. Each one
/// restarts the call's idle timeout; none is needed for a quick tool.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolProgress {
    /// The pending `tool_call`'s id.
    pub id: RequestId,
    /// What it is doing now ("compiling 3 of 12").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    /// How far along, in the units of `total`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub progress: Option<f64>,
    /// The amount of work when known; without it zot shows a spinner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total: Option<f64>,
    /// Output text new since the previous frame; zot appends it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub partial: Option<String>,
}

/// `subscribe`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Subscribe {
    /// Events to observe (one-way `event` frames).
    #[serde(default)]
    pub events: Vec<EventName>,
    /// Events to intercept (`event_intercept` requests).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<EventName>>", optional)]
    pub intercept: Vec<EventName>,
}

/// `event_intercept_response`; every field defaults to "allow, unchanged".
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EventInterceptResponse {
    /// The `event_intercept` id this answers.
    pub id: RequestId,
    /// Refuses the action.
    #[serde(default, skip_serializing_if = "is_false")]
    #[ts(as = "Option<bool>", optional)]
    pub block: bool,
    /// Why (on block), or a pass-through note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// For `tool_call`: the args the tool will see. Must be an object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub modified_args: Option<Value>,
    /// For `assistant_message`: the user-visible text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub replace_text: Option<String>,
}

/// What the host should do with a command's response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CommandAction {
    /// Run a turn with `prompt`.
    Prompt,
    /// Put `insert` into the editor at the cursor.
    Insert,
    /// Show `display` as a one-shot note.
    Display,
    /// Open the panel in `open_panel`.
    OpenPanel,
    /// The extension handled it itself.
    Noop,
    /// An action this host does not know; treated as `noop` and logged.
    #[serde(other)]
    Unknown,
}

/// `command_response`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CommandResponse {
    /// The `command_invoked` id this answers.
    pub id: RequestId,
    /// What to do; may be absent when only `error` is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action: Option<CommandAction>,
    /// For `prompt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub prompt: Option<String>,
    /// For `insert`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub insert: Option<String>,
    /// For `display`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub display: Option<String>,
    /// For `open_panel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub open_panel: Option<PanelSpec>,
    /// Shown as a red status line whatever the action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// `submit`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Submit {
    /// The prompt text; blank text is ignored.
    pub text: String,
}

/// `panel_render` (extension → host).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelRender {
    /// Which open panel.
    pub panel_id: String,
    /// New title, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    /// The full new content.
    #[serde(default)]
    pub lines: Vec<String>,
    /// New footer, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub footer: Option<String>,
    /// A placement hint, as in `open_panel` ([`crate::PanelSpec::placement`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub placement: Option<String>,
}

/// `panel_close`, in either direction.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelClose {
    /// Which panel.
    pub panel_id: String,
}

/// How a note is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum NoteLevel {
    /// Neutral.
    #[default]
    Info,
    /// Green.
    Success,
    /// Yellow.
    Warn,
    /// Red.
    Error,
}

impl NoteLevel {
    /// The spec's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            NoteLevel::Info => "info",
            NoteLevel::Success => "success",
            NoteLevel::Warn => "warn",
            NoteLevel::Error => "error",
        }
    }
}

/// A `notify` level exactly as the extension wrote it. The spec names four
/// levels, but the reference zot shows any other string as a neutral note,
/// and real extensions send `warning`, `err` and the like; refusing the
/// frame lost their notes (docs/compat.md). So any string is accepted, and
/// [`LevelName::style`] says how to colour it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct LevelName(pub String);

impl Default for LevelName {
    fn default() -> Self {
        LevelName("info".into())
    }
}

impl From<NoteLevel> for LevelName {
    fn from(level: NoteLevel) -> Self {
        LevelName(level.as_str().into())
    }
}

impl LevelName {
    /// The colour: one of the spec's levels, an obvious synonym of one, or
    /// neutral for anything else.
    pub fn style(&self) -> NoteLevel {
        self.known().unwrap_or(NoteLevel::Info)
    }

    /// The spec level this names, synonyms included.
    fn known(&self) -> Option<NoteLevel> {
        let l = self.0.trim().to_ascii_lowercase();
        Some(match l.as_str() {
            "info" | "information" | "notice" | "note" | "debug" | "log" => NoteLevel::Info,
            "success" | "ok" | "done" => NoteLevel::Success,
            "warn" | "warning" | "caution" => NoteLevel::Warn,
            "error" | "err" | "fatal" | "critical" | "danger" | "failure" => NoteLevel::Error,
            _ => return None,
        })
    }

    /// Whether the extension used one of the spec's four spellings; any
    /// other is only tolerated, and the doctor points it out to authors.
    pub fn is_spec(&self) -> bool {
        matches!(self.0.as_str(), "info" | "success" | "warn" | "error")
    }
}

/// `notify`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Notify {
    /// Colour of the note: any string; see [`LevelName`].
    #[serde(default)]
    pub level: LevelName,
    /// The note's text.
    pub message: String,
}

/// `clear_notes`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ClearNotes {}

/// `shutdown_ack`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ShutdownAck {}

pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}
