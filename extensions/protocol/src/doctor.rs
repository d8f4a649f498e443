//! `zot ext doctor`'s report, as `--json` prints it and the desktop
//! manager shows it: shared with the UI through ts-rs, so the window reads
//! the same fields the CLI writes (the host's `api/doctor.rs` fills it).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::ids::LifecycleEvent;
use crate::rpc::{ExtensionSummary, Shadowing};

/// The doctor's findings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DoctorReport {
    /// `false` when anything is broken (the CLI then exits non-zero).
    pub ok: bool,
    /// Every broken thing, one sentence each, naming the extension or file
    /// and what to do. Empty when `ok`.
    pub problems: Vec<String>,
    /// Manifests that could not be used.
    pub manifest_errors: Vec<ManifestProblem>,
    /// Every extension found, in load order.
    pub extensions: Vec<DoctorExtension>,
    /// Per interceptable event, the extensions a call passes through, in order.
    pub interception: Vec<InterceptionChain>,
    /// Every command, tool, theme or extension name that lost to another.
    pub conflicts: Vec<DoctorConflict>,
}

/// One manifest error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ManifestProblem {
    /// The `extension.json` (or the directory lacking one).
    pub file: String,
    /// The offending field, when one is to blame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong and what to do.
    pub message: String,
}

/// How an extension became ready.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum Readiness {
    /// It sent `ready`.
    Ready,
    /// It went quiet after registering (or the grace ran out) without `ready`.
    AutoReady,
    /// It never got there (failed, disabled, theme-only, still loading).
    NotReady,
}

/// One extension in the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DoctorExtension {
    /// What `zot ext list` shows (scope, state, commands, tools, log path…).
    #[serde(flatten)]
    pub summary: ExtensionSummary,
    /// Ready versus auto-ready.
    pub readiness: Readiness,
    /// Refused registrations, bad theme colours and the like.
    pub warnings: Vec<String>,
    /// What it relies on that zot only tolerates for compatibility with the
    /// reference zot (docs/compat.md): worth fixing, not a failure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerated: Vec<String>,
    /// Its `extension.json`.
    pub manifest_path: String,
    /// The last lines of its stderr log, when it failed or exited.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub log_tail: Vec<String>,
}

/// The interception chain of one event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct InterceptionChain {
    /// The event.
    pub event: LifecycleEvent,
    /// Extension names, first asked first.
    pub chain: Vec<String>,
}

/// One lost name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct DoctorConflict {
    /// The extension whose registration lost.
    pub extension: String,
    /// What lost, to whom, and why.
    #[serde(flatten)]
    pub shadowing: Shadowing,
}
