//! The vocabulary of dialogs (docs/protocol.md "Dialogs", docs/rpc.md
//! "Dialogs"): an extension's `ui_request`, zot's `ui_response`, and the
//! kinds and answers both the RPC events and the window share. Plain data;
//! the rules (what a valid request and a valid form answer are) live in
//! the host's `dialog_rules`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::RequestId;

/// What a dialog asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum DialogKind {
    /// Yes or no; accepted with `true`.
    Confirm,
    /// One of `options`.
    Select,
    /// A line of text.
    Input,
    /// An object valid against `schema` (the MCP elicitation subset).
    Form,
    /// An MCP server's URL-mode elicitation: the URL is shown and opened
    /// in the browser only when the user accepts; accepted with no value.
    Url,
}

impl DialogKind {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            DialogKind::Confirm => "confirm",
            DialogKind::Select => "select",
            DialogKind::Input => "input",
            DialogKind::Form => "form",
            DialogKind::Url => "url",
        }
    }

    /// The kind an extension may ask for, spelled `s` (`url` is only for
    /// MCP servers, which zot asks on their behalf).
    pub fn parse_ext(s: &str) -> Option<DialogKind> {
        Some(match s {
            "confirm" => DialogKind::Confirm,
            "select" => DialogKind::Select,
            "input" => DialogKind::Input,
            "form" => DialogKind::Form,
            _ => return None,
        })
    }
}

/// How a dialog ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum DialogAction {
    /// The user answered; `value` carries the answer.
    Accept,
    /// The user said no (a confirm's "No", a form's "Decline").
    Decline,
    /// Nobody answered: dismissed, timed out, refused, or no user.
    Cancel,
}

impl DialogAction {
    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            DialogAction::Accept => "accept",
            DialogAction::Decline => "decline",
            DialogAction::Cancel => "cancel",
        }
    }
}

/// `ui_request` (extension → zot): ask the user. `kind` stays a string on
/// the wire so an unknown kind is answered `cancel` naming it, instead of
/// the frame being dropped as a bad line with nobody answering.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UiRequest {
    /// The extension's own id; echoed in `ui_response`.
    pub id: RequestId,
    /// `confirm`, `select`, `input` or `form`.
    pub kind: String,
    /// The question, one line.
    #[serde(default)]
    pub title: String,
    /// More words under the title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    /// For `select`: the choices (at least one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub options: Option<Vec<String>>,
    /// What is filled in or chosen at first; must fit the kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub default: Option<Value>,
    /// For `input`: the hint shown while the box is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub placeholder: Option<String>,
    /// For `form`: a flat object schema in the MCP elicitation subset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub schema: Option<Value>,
    /// How long to wait for the user (default 120 000, at most 600 000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub timeout_ms: Option<u64>,
    /// For `url` (MCP servers only): the address shown, and opened in the
    /// browser only when the user accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub url: Option<String>,
}

/// `ui_response` (zot → extension): the one answer to a `ui_request`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UiResponse {
    /// The request's `id`.
    pub id: RequestId,
    /// How it ended.
    pub action: DialogAction,
    /// On `accept`: `true` (confirm), one of `options` (select), a string
    /// (input) or an object valid against `schema` (form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub value: Option<Value>,
    /// On `cancel`: why (`"timeout"`, `"too many"`, `"no user"`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
}

/// The RPC `ui_request` event: what the user is asked, and by whom.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UiRequestEvent {
    /// zot's own id, unique in the process.
    pub request_id: String,
    /// Who asks.
    pub extension: String,
    /// What it asks for.
    pub kind: DialogKind,
    /// The question.
    pub title: String,
    /// More words, if any.
    pub message: Option<String>,
    /// For `select`.
    pub options: Option<Vec<String>>,
    /// What is filled in or chosen at first.
    pub default: Option<Value>,
    /// For `input`.
    pub placeholder: Option<String>,
    /// For `form`: the schema.
    pub schema: Option<Value>,
    /// How long it waits, after the default and the cap.
    #[ts(type = "number")]
    pub timeout_ms: u64,
    /// For `url` (MCP URL-mode elicitation): the address to open on
    /// accept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub url: Option<String>,
}
