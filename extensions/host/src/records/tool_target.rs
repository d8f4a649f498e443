//! One extension tool resolved by name, once: who answers it, how it is
//! reached, and what its owner claims about it, without its schema. The
//! agent resolves a model's tool call into one of these, its approval
//! policy reads the claims from it, and [`crate::Host::call_target`] sends
//! the call to the extension it names, so nobody looks the name up again.

use crate::records::ext_id::ExtId;

/// How the owning extension is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolVia {
    /// A zot extension: a child process or a WebSocket.
    Extension,
    /// An MCP server (stdio or streamable HTTP) behind the host's translator.
    Mcp,
}

/// An extension tool as the host resolved it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolTarget {
    /// The tool's name.
    pub name: String,
    /// The owning extension's name.
    pub extension: String,
    /// How the owner is reached.
    pub via: ToolVia,
    /// Registered as deferred.
    pub deferred: bool,
    /// The owner's claim that it only reads (`read_only`, MCP `readOnlyHint`).
    pub read_only: bool,
    /// The owner's claim that it may destroy data (MCP `destructiveHint`).
    pub destructive: bool,
    /// The owner's id in this load: a reload that gives the name to another
    /// extension makes the target stale rather than silently rerouted.
    pub(crate) owner: ExtId,
}
