//! What changed in an extension's manifest since the user accepted it, in a
//! shape every front end can show: the CLI's `zot ext accept`, the
//! manager's review card, `ext_list` and the doctor (docs/security.md
//! "Permissions").

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One way a manifest now reaches further than what the user accepted:
/// a new permission, a removed or wider sandbox, a changed program, its
/// arguments or environment, its kind or its URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Widening {
    /// The manifest field it concerns: `permissions`, `sandbox`,
    /// `sandbox.read`, `sandbox.write`, `sandbox.net`, `exec`, `command`,
    /// `args`, `env`, `kind` or `url`.
    pub field: String,
    /// What it means, in plain words (one line).
    pub words: String,
}
