//! What interceptors return. Every decision defaults to "allow, unchanged",
//! the same default zot applies when an extension does not answer in 5 s.

use serde_json::Value;
use zot_ext_protocol::{EventInterceptResponse, RequestId};

/// The verdict on a tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolCallDecision {
    /// Refuse the call; the model sees `reason` as the tool's error.
    pub block: bool,
    /// Why, on block; otherwise a pass-through note.
    pub reason: Option<String>,
    /// Args the tool will see instead; must be a JSON object.
    pub modified_args: Option<Value>,
}

impl ToolCallDecision {
    /// Let it run unchanged.
    pub fn allow() -> Self {
        Self::default()
    }

    /// Refuse it, telling the model why.
    pub fn block(reason: impl Into<String>) -> Self {
        ToolCallDecision {
            block: true,
            reason: Some(reason.into()),
            modified_args: None,
        }
    }

    /// Let it run with different args (a JSON object).
    pub fn rewrite(args: Value) -> Self {
        ToolCallDecision {
            modified_args: Some(args),
            ..Self::default()
        }
    }

    pub(crate) fn into_frame(self, id: RequestId) -> EventInterceptResponse {
        EventInterceptResponse {
            id,
            block: self.block,
            reason: self.reason,
            modified_args: self.modified_args,
            replace_text: None,
        }
    }
}

/// The verdict on a turn about to start.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TurnStartDecision {
    /// Stop the turn before the model is called.
    pub block: bool,
    /// Shown to the user as a status line.
    pub reason: Option<String>,
}

impl TurnStartDecision {
    /// Let the turn run.
    pub fn allow() -> Self {
        Self::default()
    }

    /// Stop the turn, telling the user why.
    pub fn block(reason: impl Into<String>) -> Self {
        TurnStartDecision {
            block: true,
            reason: Some(reason.into()),
        }
    }

    pub(crate) fn into_frame(self, id: RequestId) -> EventInterceptResponse {
        EventInterceptResponse {
            id,
            block: self.block,
            reason: self.reason,
            ..EventInterceptResponse::default()
        }
    }
}

/// The verdict on the assistant's finished text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssistantMessageDecision {
    /// Hide the message from the user.
    pub block: bool,
    /// Shown to the user on block.
    pub reason: Option<String>,
    /// The text the user sees instead; the transcript keeps the original.
    pub replace_text: Option<String>,
}

impl AssistantMessageDecision {
    /// Show it unchanged.
    pub fn allow() -> Self {
        Self::default()
    }

    /// Hide it, telling the user why.
    pub fn block(reason: impl Into<String>) -> Self {
        AssistantMessageDecision {
            block: true,
            reason: Some(reason.into()),
            replace_text: None,
        }
    }

    /// Show `text` instead.
    pub fn replace(text: impl Into<String>) -> Self {
        AssistantMessageDecision {
            replace_text: Some(text.into()),
            ..Self::default()
        }
    }

    pub(crate) fn into_frame(self, id: RequestId) -> EventInterceptResponse {
        EventInterceptResponse {
            id,
            block: self.block,
            reason: self.reason,
            replace_text: self.replace_text,
            ..EventInterceptResponse::default()
        }
    }
}
