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
    /// A complete HTML document shown instead of `lines`, in a sandboxed
    /// frame (docs/extensions.md, "HTML panels"); at most
    /// [`MAX_PANEL_HTML`] bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub html: Option<String>,
    /// A hint line under the content, e.g. the key bindings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub footer: Option<String>,
    /// Where the extension would like it: `"bottom"`, `"side"` or
    /// `"window"` (a hint; the user's choice wins). Kept as the string it
    /// sent so a name the host does not know is logged, not a protocol
    /// error; the host's events always carry a known one
    /// ([`PanelPlacement::resolve`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub placement: Option<String>,
}

/// The largest HTML document a panel may carry (2 MiB): far above a page
/// with its own chart code and data, far below what makes opening it stall
/// the window. A bigger one is refused with this number in the message.
pub const MAX_PANEL_HTML: usize = 2 * 1024 * 1024;

/// The largest `panel_message` payload, as serialised JSON (256 KiB), in
/// either direction: messages are for events and small state, the page's
/// bulk data belongs in its HTML.
pub const MAX_PANEL_MESSAGE: usize = 256 * 1024;

/// `panel_message`, in either direction: one JSON value between an HTML
/// panel's page and its extension (ext → zot: delivered to the page as a
/// `message` event; zot → ext: what the page posted to `window.parent`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct PanelMessage {
    /// Which HTML panel.
    pub panel_id: String,
    /// Any JSON value, at most [`MAX_PANEL_MESSAGE`] bytes serialised.
    #[serde(default)]
    #[ts(type = "unknown")]
    pub data: serde_json::Value,
}

impl PanelMessage {
    /// The serialised size of `data` when it is over [`MAX_PANEL_MESSAGE`].
    pub fn oversize(&self) -> Option<usize> {
        let n = serde_json::to_string(&self.data).map_or(0, |s| s.len());
        (n > MAX_PANEL_MESSAGE).then_some(n)
    }
}

/// Where a panel is shown. The extension's `placement` is a hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum PanelPlacement {
    /// Docked under the transcript, above the editor (the seed's place).
    #[default]
    Bottom,
    /// Docked beside the transcript.
    Side,
    /// In its own OS window.
    Window,
}

impl PanelPlacement {
    /// The placement an extension asked for: absent → the default; `Err`
    /// carries a name the host does not know (the caller logs it once and
    /// uses the default).
    pub fn resolve(asked: Option<&str>) -> Result<Self, String> {
        match asked {
            None => Ok(Self::Bottom),
            Some(s) => serde_json::from_value(serde_json::Value::String(s.to_owned()))
                .map_err(|_| s.to_owned()),
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Bottom => "bottom",
            Self::Side => "side",
            Self::Window => "window",
        }
    }
}

/// What the pointer did in a panel (`panel_mouse.action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum MouseAction {
    /// A primary-button click.
    Click,
    /// A primary-button double click (after the click it follows).
    DoubleClick,
    /// A context (right) click.
    Context,
    /// The wheel: `delta` lines, positive = down; no row/col.
    Wheel,
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
    /// Clicks, double clicks, context clicks and the wheel over its panels
    /// are sent to it as `panel_mouse`.
    PanelMouse,
    /// It is told its panels' text area size in cells as `panel_resize`.
    PanelResize,
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
    fn a_placement_is_resolved_to_a_known_one_or_named_back() {
        assert_eq!(PanelPlacement::resolve(None), Ok(PanelPlacement::Bottom));
        assert_eq!(
            PanelPlacement::resolve(Some("side")),
            Ok(PanelPlacement::Side)
        );
        assert_eq!(
            PanelPlacement::resolve(Some("window")),
            Ok(PanelPlacement::Window)
        );
        assert_eq!(
            PanelPlacement::resolve(Some("floating")),
            Err("floating".to_owned())
        );
        assert_eq!(PanelPlacement::Side.as_str(), "side");
    }

    #[test]
    fn panel_capabilities_are_picked_out_of_hello_capabilities() {
        let caps = [
            "commands",
            "panels",
            "panel_esc",
            "PANEL_ESC",
            "panel_esc",
            "panel_x",
            "panel_resize",
            "panel_mouse",
        ]
        .map(String::from);
        assert_eq!(
            PanelCapability::declared_in(&caps),
            vec![
                PanelCapability::PanelEsc,
                PanelCapability::PanelResize,
                PanelCapability::PanelMouse
            ]
        );
        assert!(PanelCapability::declared_in(&["panels".to_owned()]).is_empty());
        assert_eq!(
            serde_json::to_string(&PanelCapability::PanelEsc).unwrap(),
            "\"panel_esc\""
        );
    }
}
