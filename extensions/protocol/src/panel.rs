//! Extension-owned panels: what an extension shows, and the keys the host
//! forwards to it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A panel's content as sent in `command_response.open_panel`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelSpec {
    /// The extension's own panel id; later frames refer to it.
    pub id: String,
    /// Shown in the panel's header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    /// Plain text lines; ANSI SGR colours are the only markup honoured.
    #[serde(default)]
    pub lines: Vec<String>,
    /// A hint line under the content, e.g. the key bindings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub footer: Option<String>,
}

/// A normalised key name, as the spec lists them for `panel_key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum PanelKey {
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Enter / Return.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Page Up.
    Pageup,
    /// Page Down.
    Pagedown,
    /// Home.
    Home,
    /// End.
    End,
    /// Backspace.
    Backspace,
    /// Forward delete.
    Delete,
    /// A printable character; the frame's `text` carries it.
    Rune,
}

impl PanelKey {
    /// Parses a normalised key name; `None` for anything else.
    pub fn parse(s: &str) -> Option<Self> {
        serde_json::from_value(serde_json::Value::String(s.to_owned())).ok()
    }
}
