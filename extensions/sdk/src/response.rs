//! What command and tool handlers return.

use serde_json::Value;
use zot_ext_protocol::{CommandAction, CommandResponse, ContentBlock, PanelSpec, RequestId};

/// A command's answer: what zot should do after `/name args`.
#[derive(Debug, Clone, PartialEq)]
pub struct Response(CommandResponse);

impl Response {
    fn action(action: CommandAction) -> Self {
        Response(CommandResponse {
            action: Some(action),
            ..CommandResponse::default()
        })
    }

    /// Submit `text` as a user message; the agent runs a turn.
    pub fn prompt(text: impl Into<String>) -> Self {
        let mut r = Self::action(CommandAction::Prompt);
        r.0.prompt = Some(text.into());
        r
    }

    /// Put `text` into the editor at the cursor without submitting.
    pub fn insert(text: impl Into<String>) -> Self {
        let mut r = Self::action(CommandAction::Insert);
        r.0.insert = Some(text.into());
        r
    }

    /// Show `text` as a one-shot note; no model call.
    pub fn display(text: impl Into<String>) -> Self {
        let mut r = Self::action(CommandAction::Display);
        r.0.display = Some(text.into());
        r
    }

    /// Open an extension-owned panel.
    pub fn open_panel(panel: PanelSpec) -> Self {
        let mut r = Self::action(CommandAction::OpenPanel);
        r.0.open_panel = Some(panel);
        r
    }

    /// Open an HTML panel: `html` is a complete document, shown in a
    /// sandboxed frame (no network unless the manifest grants
    /// `sandbox.net`; at most 2 MiB). Its page talks to this extension with
    /// `window.parent.postMessage(data, "*")` ([`Extension::on_panel_message`])
    /// and hears [`Context::post_message`] as `message` events.
    ///
    /// [`Extension::on_panel_message`]: crate::Extension::on_panel_message
    /// [`Context::post_message`]: crate::Context::post_message
    pub fn open_html_panel(
        id: impl Into<String>,
        title: impl Into<String>,
        html: impl Into<String>,
    ) -> Self {
        Self::open_panel(PanelSpec {
            id: id.into(),
            title: Some(title.into()),
            html: Some(html.into()),
            ..PanelSpec::default()
        })
    }

    /// The extension handled it itself; zot changes nothing.
    pub fn noop() -> Self {
        Self::action(CommandAction::Noop)
    }

    /// Show `message` as a red status line.
    pub fn error(message: impl Into<String>) -> Self {
        Response(CommandResponse {
            action: Some(CommandAction::Noop),
            error: Some(message.into()),
            ..CommandResponse::default()
        })
    }

    /// The wire frame answering request `id`.
    pub fn into_frame(self, id: RequestId) -> CommandResponse {
        CommandResponse { id, ..self.0 }
    }
}

/// A tool's answer: content blocks for the model, maybe an error flag, maybe
/// deferred tools to switch on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolResult {
    /// Text and image blocks the model reads.
    pub content: Vec<ContentBlock>,
    /// Marks the call as failed.
    pub is_error: bool,
    /// Registered deferred tools that become available after this result.
    pub activate_tools: Vec<String>,
}

impl ToolResult {
    /// One text block.
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult {
            content: vec![ContentBlock::text(text)],
            ..Self::default()
        }
    }

    /// One text block, marked as a failed call.
    pub fn error(text: impl Into<String>) -> Self {
        ToolResult {
            is_error: true,
            ..Self::text(text)
        }
    }

    /// Pretty-printed JSON as one text block.
    pub fn json(value: &Value) -> Self {
        Self::text(serde_json::to_string_pretty(value).unwrap_or_default())
    }

    /// Adds a base64 image block.
    pub fn with_image(mut self, mime_type: impl Into<String>, base64: impl Into<String>) -> Self {
        self.content.push(ContentBlock::Image {
            mime_type: mime_type.into(),
            data: base64.into(),
        });
        self
    }

    /// Activates deferred tools by name once this result is delivered.
    pub fn activate<I, S>(mut self, tools: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.activate_tools
            .extend(tools.into_iter().map(Into::into));
        self
    }

    /// The wire frame answering request `id`.
    pub fn into_frame(self, id: RequestId) -> zot_ext_protocol::ToolResult {
        zot_ext_protocol::ToolResult {
            id,
            content: self.content,
            is_error: self.is_error,
            activate_tools: self.activate_tools,
            ..Default::default()
        }
    }
}

impl From<String> for ToolResult {
    fn from(s: String) -> Self {
        ToolResult::text(s)
    }
}

impl From<&str> for ToolResult {
    fn from(s: &str) -> Self {
        ToolResult::text(s)
    }
}
