//! Where an installed extension came from and what an update or a
//! rollback did (docs/rpc.md "Extension updates and bundles"): the
//! `source` of an `ext_list` entry and the answers of `ext_update` and
//! `ext_rollback`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The kind of place an extension was installed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SourceKind {
    /// A local folder, copied.
    Folder,
    /// A git URL, cloned.
    Git,
    /// An entry of zot's catalog.
    Catalog,
    /// A `.zotx` bundle (a file or an `https://` URL).
    Bundle,
    /// A `.mcpb` MCP bundle.
    Mcpb,
}

/// Where an installed extension came from, recorded at install.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExtSource {
    /// What kind of place.
    pub kind: SourceKind,
    /// The folder's absolute path, the git URL, the catalog name, or the
    /// bundle's file path or URL.
    pub location: String,
    /// The git commit installed, or the bundle's sha256 digest (hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub revision: Option<String>,
    /// The version its manifest declared when installed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
}

/// One update available or made: `from` → `to` are versions when they
/// differ, else short commits or digests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct UpdateInfo {
    /// The extension.
    pub name: String,
    /// What is installed.
    pub from: String,
    /// What the source holds now.
    pub to: String,
    /// What changed: `git log --oneline` lines between the two commits,
    /// or the new copy's CHANGELOG.md section(s); empty when unknown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub changes: Vec<String>,
    /// What the new copy may do beyond what the user accepted, in words;
    /// an update with any waits for consent (it is installed, and stays
    /// `failed` until accepted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub widened: Vec<String>,
    /// Whether the update was installed (false for `check`).
    #[serde(default)]
    pub installed: bool,
}

/// `ext_update`: the updates available (`check`) or made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExtUpdateResult {
    /// One entry per extension with an update.
    pub updates: Vec<UpdateInfo>,
    /// For `daily`: when the check whose result this is ran (seconds
    /// since the Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub checked_at: Option<u64>,
}

/// `ext_rollback`: the kept copy is back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ExtRollbackResult {
    /// The extension.
    pub name: String,
    /// The version that was installed before the rollback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub from: Option<String>,
    /// The version now installed (the kept copy's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub to: Option<String>,
}
