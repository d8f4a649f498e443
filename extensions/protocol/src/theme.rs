//! Theme files (`docs/protocol.md` "Themes"): named colours the UI maps onto CSS custom
//! properties. Validation of the colour values is the host's job.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Which built-in theme fills the colours a file leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum Appearance {
    /// Based on the built-in dark theme.
    #[default]
    Dark,
    /// Based on the built-in light theme.
    Light,
}

/// A theme file as written on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ThemeFile {
    /// Unique theme name.
    pub name: String,
    /// The base for missing colours.
    #[serde(default)]
    pub appearance: Appearance,
    /// Colour name (`background`, `fg`, `accent`, …) to CSS hex.
    #[serde(default)]
    pub colors: BTreeMap<String, String>,
}

/// The colour names the spec defines; others are ignored with a warning.
pub const COLOR_NAMES: [&str; 15] = [
    "background",
    "surface",
    "fg",
    "muted",
    "accent",
    "user_bubble_bg",
    "user_bubble_fg",
    "assistant",
    "tool",
    "tool_out",
    "error",
    "warning",
    "success",
    "selection_bg",
    "selection_fg",
];
