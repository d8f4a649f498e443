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

/// How much "always allow" covers (docs/rpc.md "Tool approvals"): each
/// `tool_approval` offers the scopes that make sense for its call,
/// narrowest first, and `approve_tool{remember:true, scope}` picks one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ApprovalScope {
    /// This exact bash command, or this one file.
    Exact,
    /// The command's program and subcommand with plain arguments
    /// (`cargo test *`).
    Prefix,
    /// The file's folder and everything below it.
    Folder,
    /// Every call of this tool (of this extension, for an extension tool).
    Tool,
}

/// One scope a `tool_approval` offers for "always allow", in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ScopeChoice {
    /// The scope.
    pub scope: ApprovalScope,
    /// What it would remember, e.g. `the bash command "git status"`.
    pub label: String,
}

/// Which kind of remembered rule a [`RememberedRule`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum RuleKind {
    /// `approvals.tools.<tool>`.
    Tool,
    /// `approvals.extensions.<extension>.tools.<tool>`.
    ExtensionTool,
    /// `approvals.extensions.<extension>.trust_read_only`.
    TrustReadOnly,
    /// A line of `approvals.bash`.
    Bash,
    /// A path in `approvals.folders.<tool>`.
    Folder,
}

/// One rule the user remembered in `config.json`'s `approvals`, as the
/// Permissions page lists it and `approval_rule_forget` names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RememberedRule {
    /// Its kind.
    pub kind: RuleKind,
    /// The tool (absent for bash lines and read-only trust).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tool: Option<String>,
    /// The extension, for its own entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub extension: Option<String>,
    /// The bash rule's text, the folder's path, or the tool rule
    /// (`allow`, `ask`, `deny`).
    pub value: String,
    /// What it does, in words (ignored by `approval_rule_forget`).
    #[serde(default)]
    pub words: String,
}
