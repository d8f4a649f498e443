//! Names and ids as newtypes, so a request id is never confused with a tool
//! name and an event name keeps its exact spelling even when it is unknown.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Correlates a request frame with its response. The host makes these from a
/// per-host counter; extensions echo them back untouched.
#[derive(
    Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS,
)]
#[serde(transparent)]
#[ts(export)]
pub struct RequestId(pub String);

impl RequestId {
    /// The id as it travels on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        RequestId(s.to_owned())
    }
}

/// A lifecycle event name as sent in `subscribe`, `event` and
/// `event_intercept`. Kept as the raw string so an unknown name survives a
/// round trip and can be reported by name; [`EventName::kind`] gives the
/// recognised event, if any.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(transparent)]
#[ts(export)]
pub struct EventName(pub String);

impl EventName {
    /// The recognised lifecycle event this name stands for, or `None`.
    pub fn kind(&self) -> Option<LifecycleEvent> {
        LifecycleEvent::parse(&self.0)
    }
}

impl From<LifecycleEvent> for EventName {
    fn from(e: LifecycleEvent) -> Self {
        EventName(e.as_str().to_owned())
    }
}

/// The lifecycle events: the spec's five, and zot's `compact_done`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum LifecycleEvent {
    /// The agent session began (once per process or after `/clear`).
    SessionStart,
    /// A model step is about to start; interceptable (block only).
    TurnStart,
    /// A turn ended, with its stop reason.
    TurnEnd,
    /// The model asked for a tool; interceptable (block or rewrite args).
    ToolCall,
    /// The model's text is complete; interceptable (block or replace text).
    AssistantMessage,
    /// The transcript was compacted (`compact`, `/compact`, or automatically
    /// near the context window), with `before_tokens` and `after_tokens`.
    /// A zot addition beside the spec's five; observe only.
    CompactDone,
}

impl LifecycleEvent {
    /// Every recognised event, in the spec's order.
    pub const ALL: [LifecycleEvent; 6] = [
        LifecycleEvent::SessionStart,
        LifecycleEvent::TurnStart,
        LifecycleEvent::TurnEnd,
        LifecycleEvent::ToolCall,
        LifecycleEvent::AssistantMessage,
        LifecycleEvent::CompactDone,
    ];

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            LifecycleEvent::SessionStart => "session_start",
            LifecycleEvent::TurnStart => "turn_start",
            LifecycleEvent::TurnEnd => "turn_end",
            LifecycleEvent::ToolCall => "tool_call",
            LifecycleEvent::AssistantMessage => "assistant_message",
            LifecycleEvent::CompactDone => "compact_done",
        }
    }

    /// Parses a wire spelling; `None` for anything unrecognised.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == s)
    }

    /// Whether the spec allows intercepting this event.
    pub fn interceptable(self) -> bool {
        matches!(
            self,
            LifecycleEvent::TurnStart | LifecycleEvent::ToolCall | LifecycleEvent::AssistantMessage
        )
    }
}
