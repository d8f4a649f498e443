//! The vocabulary of tool approvals (docs/rpc.md "Tool approvals"): the
//! mode a run asks in, a user's answer, and the rule words of
//! `$ZOT_HOME/config.json`. Plain data; the policy lives in the app.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Whether tool calls that need approval wait for the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ApprovalMode {
    /// Every tool runs unless a rule says `deny` (RPC and print default).
    #[default]
    Auto,
    /// Calls that need approval emit `tool_approval` and wait (the desktop
    /// app's default).
    Ask,
}

impl ApprovalMode {
    /// The flag's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalMode::Auto => "auto",
            ApprovalMode::Ask => "ask",
        }
    }
}

/// The user's answer to one `tool_approval`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ApprovalDecision {
    /// Run the call.
    Allow,
    /// Do not run it; the model gets an error result.
    Deny,
}

/// A per-tool rule in `config.json` (`approvals.tools`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ToolRule {
    /// Runs without asking.
    Allow,
    /// Always asks (in `auto` mode: runs).
    Ask,
    /// Never runs, in either mode.
    Deny,
}
