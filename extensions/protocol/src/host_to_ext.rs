//! Frames the host writes to an extension's stdin.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{EventName, PanelKey, RequestId};

/// Every frame the host may send, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export)]
pub enum HostToExt {
    /// Reply to `hello`, with host metadata.
    HelloAck(HelloAck),
    /// The user ran one of the extension's commands.
    CommandInvoked(CommandInvoked),
    /// The model called one of the extension's tools.
    ToolCall(ToolCall),
    /// zot stopped waiting for a pending `tool_call` (one-way).
    ToolCancel(ToolCancel),
    /// A lifecycle notification (one-way).
    Event(Event),
    /// A chance to block or rewrite a lifecycle event.
    EventIntercept(EventIntercept),
    /// A key pressed while the extension's panel is focused.
    PanelKey(PanelKeyFrame),
    /// The user closed the extension's panel.
    PanelClose(crate::PanelClose),
    /// The pointer in one of its panels (capability `panel_mouse`).
    PanelMouse(PanelMouseFrame),
    /// One of its panels' text area changed size (capability `panel_resize`).
    PanelResize(PanelResizeFrame),
    /// What the page of one of its HTML panels posted to `window.parent`.
    PanelMessage(crate::PanelMessage),
    /// zot is exiting or reloading.
    Shutdown(Shutdown),
    /// The user changed the extension's settings while it runs (one-way).
    ConfigChanged(ConfigChanged),
    /// The one answer to a `ui_request`.
    UiResponse(crate::UiResponse),
    /// The session changed under the extension; its state there (one-way).
    StateRestored(crate::StateRestored),
}

/// `hello_ack`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct HelloAck {
    /// [`crate::PROTOCOL_VERSION`].
    pub protocol_version: u32,
    /// The host's version.
    pub zot_version: String,
    /// The active provider.
    pub provider: String,
    /// The active model.
    pub model: String,
    /// The user's project directory (not the extension's cwd).
    pub cwd: String,
    /// The extension's own directory.
    pub extension_dir: String,
    /// Where the extension keeps its state; its own directory.
    pub data_dir: String,
    /// The extension's settings (its manifest's `config`), defaults filled
    /// in, secrets included; absent when it declares none.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[ts(as = "Option<std::collections::BTreeMap<String, Value>>", optional)]
    pub config: crate::settings::SettingValues,
    /// The extension's values in the session being loaded (`{}` for
    /// none), as its `state_set` frames left them.
    #[serde(default)]
    #[ts(as = "std::collections::BTreeMap<String, Value>")]
    pub state: crate::ExtSessionState,
}

/// `config_changed`: every setting's value after the change, as in
/// `hello_ack.config`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ConfigChanged {
    /// The values, defaults filled in, secrets included.
    pub config: crate::settings::SettingValues,
}

/// `command_invoked`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CommandInvoked {
    /// Echo it in `command_response`.
    pub id: RequestId,
    /// The canonical spelling the extension registered.
    pub name: String,
    /// Everything after the command name, trimmed.
    #[serde(default)]
    pub args: String,
}

/// `tool_call` (host → extension).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolCall {
    /// Echo it in `tool_result`.
    pub id: RequestId,
    /// The tool's registered name.
    pub name: String,
    /// The parsed JSON object the model produced.
    #[serde(default)]
    pub args: Value,
}

/// `tool_cancel`: zot no longer waits for the `tool_call` `id` (the user
/// stopped the turn, a timeout ended it, or the turn ended otherwise).
/// The extension should stop its work; a `tool_result` it still sends for
/// that id is dropped quietly.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolCancel {
    /// The `tool_call` id.
    pub id: RequestId,
    /// Why, for its log: `aborted`, `idle_timeout`, `timeout`, `shutdown`.
    pub reason: String,
}

/// The payload fields shared by `event` and `event_intercept`; which are
/// present depends on the event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EventFields {
    /// `turn_start`: the step number, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub step: Option<u32>,
    /// `tool_call`: the call's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tool_id: Option<String>,
    /// `tool_call`: the tool's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tool_name: Option<String>,
    /// `tool_call`: the parsed args.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tool_args: Option<Value>,
    /// `turn_end`: why the turn stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stop: Option<String>,
    /// `assistant_message`: the assembled text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// `compact_done`: estimated tokens of a request before compaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub before_tokens: Option<u64>,
    /// `compact_done`: estimated tokens of a request after compaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub after_tokens: Option<u64>,
}

/// `event`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Event {
    /// Which lifecycle event.
    pub event: EventName,
    /// Its payload.
    #[serde(flatten)]
    pub fields: EventFields,
}

/// `event_intercept`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct EventIntercept {
    /// Echo it in `event_intercept_response`.
    pub id: RequestId,
    /// Which lifecycle event.
    pub event: EventName,
    /// Its payload.
    #[serde(flatten)]
    pub fields: EventFields,
}

/// `panel_key`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelKeyFrame {
    /// Which panel.
    pub panel_id: String,
    /// The normalised key.
    pub key: PanelKey,
    /// For `rune`: the typed text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
}

/// `shutdown`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Shutdown {}

/// `panel_mouse`: sent only to an extension that declared `panel_mouse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelMouseFrame {
    /// Which panel.
    pub panel_id: String,
    /// What the pointer did.
    pub action: crate::MouseAction,
    /// The 0-based index into the panel's last `lines`; absent for `wheel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub row: Option<u32>,
    /// The 0-based character (Unicode scalar value, SGR removed) under the
    /// pointer, or the line's length past its end; absent for `wheel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub col: Option<u32>,
    /// `wheel` only: lines, positive = down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub delta: Option<i32>,
}

impl PanelMouseFrame {
    /// A frame as the contract shapes it, or what is wrong with the
    /// fields given: a click needs `row` and `col` and no `delta`; a wheel
    /// needs a non-zero `delta` and no `row`/`col`.
    pub fn checked(
        panel_id: String,
        action: crate::MouseAction,
        row: Option<u32>,
        col: Option<u32>,
        delta: Option<i32>,
    ) -> Result<Self, String> {
        let name = serde_json::to_value(action)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        if action == crate::MouseAction::Wheel {
            if row.is_some() || col.is_some() {
                return Err(
                    "panel_mouse: a wheel carries \"delta\" and no \"row\"/\"col\"; drop them"
                        .into(),
                );
            }
            if delta.unwrap_or(0) == 0 {
                return Err(
                    "panel_mouse: a wheel needs a non-zero \"delta\" in lines (positive = down)"
                        .into(),
                );
            }
        } else {
            if row.is_none() || col.is_none() {
                return Err(format!(
                    "panel_mouse: a {name} needs \"row\" and \"col\" (0-based line and character)"
                ));
            }
            if delta.is_some() {
                return Err(format!(
                    "panel_mouse: only a wheel carries \"delta\"; drop it from the {name}"
                ));
            }
        }
        Ok(Self {
            panel_id,
            action,
            row,
            col,
            delta,
        })
    }
}

/// `panel_resize`: the panel's text area in monospace cells; sent only to
/// an extension that declared `panel_resize`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelResizeFrame {
    /// Which panel.
    pub panel_id: String,
    /// Cells across.
    pub cols: u32,
    /// Lines down.
    pub rows: u32,
}
