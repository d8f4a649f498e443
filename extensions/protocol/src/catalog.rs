//! The catalog of extensions zot ships (`zot ext catalog`, the desktop
//! manager's "Available" section). The index is JSON with one entry per
//! extension; a source is a path relative to the index today, so a remote
//! or git-hosted index can be added later without changing the UI.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a catalog entry says it registers, shown before installing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CatalogRegisters {
    /// Slash commands (without the `/`).
    #[serde(default)]
    pub commands: Vec<String>,
    /// LLM tools.
    #[serde(default)]
    pub tools: Vec<String>,
    /// Panel ids it opens.
    #[serde(default)]
    pub panels: Vec<String>,
    /// Theme names.
    #[serde(default)]
    pub themes: Vec<String>,
}

/// One extension in the catalog, as the index declares it plus what zot
/// found when it checked the source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CatalogEntry {
    /// Its manifest name; `zot ext install <name>` installs it.
    pub name: String,
    /// Its version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
    /// One line on what it does.
    #[serde(default)]
    pub description: String,
    /// Where it comes from, as written in the index (a path relative to it).
    pub source: String,
    /// Informational, as in the manifest (`python`, `typescript`, `theme`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub language: Option<String>,
    /// What it registers.
    #[serde(default)]
    pub registers: CatalogRegisters,
    /// What it may do, in the words the install summary and the manager's
    /// card use: computed from its manifest when the entry is available
    /// (the index's own text is kept only for an entry that is not).
    #[serde(default)]
    pub permissions: Vec<String>,
    /// Files the source must contain to run (built outputs such as
    /// `scratchpad.js`), relative to the source directory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires_files: Vec<String>,
    /// Whether it can be installed (filled in by zot, not the index).
    #[serde(default)]
    pub available: bool,
    /// Why not, when it cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub unavailable_reason: Option<String>,
    /// Whether `$ZOT_HOME/extensions/<name>` exists already.
    #[serde(default)]
    pub installed: bool,
    /// Who vouches for it, in the install summary's words: "signed by
    /// zot" (zot's own catalog), "signed by NAME" (a key in
    /// `trusted_keys`), "signed by an unknown key" or "unsigned". Filled
    /// in by zot once the entry's signature matched its folder; absent
    /// for an entry that is not available. (The index's own
    /// `signature` field is what is checked.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub signer: Option<String>,
}
