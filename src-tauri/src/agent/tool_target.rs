//! A model's tool call resolved once into who runs it: one of zot's own
//! tools, the Kimi `select_tools` loader, or an extension's (or MCP
//! server's) tool as the host resolved it. The turn runs what this names,
//! the approval gate reads the owner and its claims from it, and the host
//! sends the call to the extension it names: the name is looked up once.

use std::sync::Arc;

use super::extensions::Extensions;
use super::tool_loading::SELECT_TOOLS;
use crate::providers::ToolLoading;
use crate::tools::Tool;

/// Who answers one tool call.
pub enum ToolTarget {
    /// One of zot's own tools.
    Builtin(Arc<dyn Tool>),
    /// Kimi's `select_tools` loader (docs/agent.md).
    SelectTools,
    /// An extension's tool, deferred ones included: a native loader (tool
    /// search, `select_tools`) made them callable without an activation.
    Extension(zot_ext_host::ToolTarget),
    /// Nobody has a tool by that name.
    Unknown,
}

impl ToolTarget {
    /// Resolves `name`: built-in tools first (an extension cannot shadow
    /// them), then the loader, then the extensions when they may serve tools.
    pub fn resolve(
        name: &str,
        builtins: &[Arc<dyn Tool>],
        exts: Option<&dyn Extensions>,
        loading: ToolLoading,
    ) -> ToolTarget {
        if let Some(t) = builtins.iter().find(|t| t.def().name == name) {
            return ToolTarget::Builtin(t.clone());
        }
        if loading == ToolLoading::KimiSelect && name == SELECT_TOOLS {
            return ToolTarget::SelectTools;
        }
        match exts.and_then(|e| e.resolve_tool(name)) {
            Some(t) => ToolTarget::Extension(t),
            None => ToolTarget::Unknown,
        }
    }

    /// The owning extension, for an extension's tool.
    pub fn extension(&self) -> Option<&str> {
        match self {
            ToolTarget::Extension(t) => Some(&t.extension),
            _ => None,
        }
    }

    /// The owner's read-only claim (an extension's `read_only`, an MCP
    /// `readOnlyHint`); zot's own tools make none.
    pub fn read_only_claim(&self) -> bool {
        matches!(self, ToolTarget::Extension(t) if t.read_only)
    }
}
