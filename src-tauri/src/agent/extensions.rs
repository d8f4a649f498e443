//! The seam between the agent loop and the extension host, as a trait, so
//! the loop is tested with no extensions and the host stays a separate
//! crate. Every method has an "allow, no extensions" default.

use async_trait::async_trait;
use serde_json::Value;
use zot_ext_protocol::{EventFields, LifecycleEvent};

use crate::providers::ToolDef;

/// An extension tool as advertised to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtToolDef {
    /// Name, description, schema.
    pub def: ToolDef,
    /// The owning extension.
    pub extension: String,
    /// Registered as deferred (and activated, when [`Extensions::tools`]
    /// lists it).
    pub deferred: bool,
    /// Declared read-only (`read_only`, an MCP tool's `readOnlyHint`): the
    /// extension's claim, which skips approval only when the user trusts
    /// that extension's claims (docs/security.md "Tool approvals").
    pub read_only: bool,
}

/// What an extension tool returned: the host's own type, passed through
/// unchanged (one tool-result type from the host to the agent).
pub use zot_ext_host::ToolOutcome as ExtToolResult;

/// An extension tool resolved by name: the host's own type.
pub use zot_ext_host::ToolTarget as ExtToolTarget;

/// One merged `tool_progress` update, numbers clamped for display.
pub use zot_ext_host::tool_progress::ProgressUpdate as ToolProgressUpdate;

/// The answer to a `turn_start` or `assistant_message` interception.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict<T> {
    /// Go ahead, with the (possibly rewritten) value.
    Allow(T),
    /// Refused.
    Block {
        /// Who refused.
        extension: String,
        /// Why.
        reason: String,
    },
}

/// What the agent asks of the extensions.
#[async_trait]
pub trait Extensions: Send + Sync {
    /// Tools to advertise on the next request (deferred ones once activated).
    fn tools(&self) -> Vec<ExtToolDef> {
        Vec::new()
    }
    /// Deferred tools not activated yet, for providers that load tools
    /// natively.
    fn deferred_tools(&self) -> Vec<ExtToolDef> {
        Vec::new()
    }
    /// The extension tool called `name` (deferred ones too: a native
    /// loader made it callable), resolved once for the turn to check and
    /// call; `None` when no extension owns it.
    fn resolve_tool(&self, _name: &str) -> Option<ExtToolTarget> {
        None
    }
    /// Runs the tool `target` names, handing its progress (already merged
    /// to one update per UI frame) to `on_progress` while it runs.
    /// Dropping the future tells the extension the call was cancelled.
    async fn call_tool(
        &self,
        target: &ExtToolTarget,
        _args: Value,
        _on_progress: &(dyn Fn(ToolProgressUpdate) + Send + Sync),
    ) -> Result<ExtToolResult, String> {
        Err(format!("tool {} is no longer available", target.name))
    }
    /// Tells subscribers a lifecycle event happened.
    fn emit(&self, _event: LifecycleEvent, _fields: EventFields) {}
    /// Writes a line to `extension`'s log.
    fn log_line(&self, _extension: &str, _line: &str) {}
    /// May block a step before the model is called.
    async fn intercept_turn_start(&self, _step: u32) -> Verdict<()> {
        Verdict::Allow(())
    }
    /// May block a tool call or rewrite its args.
    async fn intercept_tool_call(&self, _id: &str, _name: &str, args: Value) -> Verdict<Value> {
        Verdict::Allow(args)
    }
    /// May suppress or rewrite the user-visible text.
    async fn intercept_assistant_message(&self, text: String) -> Verdict<String> {
        Verdict::Allow(text)
    }
}

/// No extensions at all (`--no-ext`, and tests of the bare loop).
pub struct NoExtensions;

impl Extensions for NoExtensions {}
