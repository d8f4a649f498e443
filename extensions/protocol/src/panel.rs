//! Extension-owned panels: what an extension shows, the keys the host
//! forwards to it, and the panel input an extension opts in to.

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

/// Panel input beyond the seed's that an extension opts in to by listing
/// it in `hello.capabilities` (docs/extensions.md, "Panels"). Names the
/// host does not know are ignored there; an extension that lists none gets
/// exactly the seed's `panel_key` and `panel_close`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PanelCapability {
    /// Esc in its focused panel is sent to it as `panel_key{key:"esc"}`
    /// instead of closing the panel; it closes the panel itself with
    /// `panel_close`. Ctrl+C still closes.
    PanelEsc,
}

impl PanelCapability {
    /// The panel capabilities among a `hello`'s `capabilities`, in order,
    /// each once; every other name is someone else's (or informational).
    pub fn declared_in(capabilities: &[String]) -> Vec<Self> {
        let mut out = Vec::new();
        for c in capabilities {
            let parsed: Option<Self> =
                serde_json::from_value(serde_json::Value::String(c.clone())).ok();
            if let Some(p) = parsed.filter(|p| !out.contains(p)) {
                out.push(p);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panel_capabilities_are_picked_out_of_hello_capabilities() {
        let caps = [
            "commands",
            "panels",
            "panel_esc",
            "PANEL_ESC",
            "panel_esc",
            "panel_x",
        ]
        .map(String::from);
        assert_eq!(
            PanelCapability::declared_in(&caps),
            vec![PanelCapability::PanelEsc]
        );
        assert!(PanelCapability::declared_in(&["panels".to_owned()]).is_empty());
        assert_eq!(
            serde_json::to_string(&PanelCapability::PanelEsc).unwrap(),
            "\"panel_esc\""
        );
    }
}
