//! MCP Apps (docs/mcp.md "MCP Apps"): an MCP tool whose descriptor names a
//! `ui://` resource has that HTML shown in its tool card. These are the
//! shapes that carry the app from the MCP translator to the agent, to the
//! `tool_result` event, and back from the card (`app_tool_call`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::ContentBlock;

/// The MIME type of an MCP App's HTML (`resources/read`); any other is
/// not shown, with a note.
pub const MCP_APP_MIME: &str = "text/html;profile=mcp-app";

/// The MCP extension id a client names to say it renders MCP Apps.
pub const MCP_APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// An MCP App to render in a tool's card.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ToolApp {
    /// The `ui://` resource it was read from.
    pub resource_uri: String,
    /// The complete HTML document (at most `MAX_PANEL_HTML` bytes).
    pub html: String,
    /// The origins the resource declared (`_meta.ui.csp`); absent: no
    /// network at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub csp: Option<AppCsp>,
    /// The resource asks for a visible border (`_meta.ui.prefersBorder`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub prefers_border: Option<bool>,
    /// The tool result's `structuredContent`, for the app's
    /// `ui/notifications/tool-result` (the model never sees it twice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub structured_content: Option<Value>,
}

/// The origins an MCP App's resource declares it needs
/// (`_meta.ui.csp`); each list becomes its CSP directive, and nothing
/// undeclared is reachable.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AppCsp {
    /// `connect-src` (fetch, XHR, WebSocket).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub connect_domains: Vec<String>,
    /// Scripts, styles, images, fonts, media.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub resource_domains: Vec<String>,
    /// `frame-src`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub frame_domains: Vec<String>,
    /// `base-uri`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub base_uri_domains: Vec<String>,
}

impl AppCsp {
    /// Whether it grants nothing.
    pub fn is_empty(&self) -> bool {
        self.connect_domains.is_empty()
            && self.resource_domains.is_empty()
            && self.frame_domains.is_empty()
            && self.base_uri_domains.is_empty()
    }
}

/// What an app's `tools/call` got (`app_tool_call`): the MCP result in
/// zot's blocks plus its `structuredContent`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct AppToolResult {
    /// Text and image blocks.
    pub content: Vec<ContentBlock>,
    /// The tool failed.
    pub is_error: bool,
    /// The result's `structuredContent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub structured_content: Option<Value>,
}
