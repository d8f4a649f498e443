//! Kimi's native dynamic tools on the chat-completions wire, as Moonshot's
//! own kimi-code client sends them: the top-level `tools` stay fixed (the
//! core tools plus `select_tools`), loadable tools are announced in system
//! messages (`<tools_added>` / `<tools_removed>`), and the schemas of tools
//! the model loaded follow as a `role:"system"` message that has a `tools`
//! field and no content. Only this wire format sends those messages.

use serde_json::{json, Value};

use super::ToolDef;
use crate::providers::transcript::Block;

/// The system message for one of zot's tool-loading blocks; `None` for any
/// other block.
pub fn system_message(b: &Block) -> Option<Value> {
    match b {
        Block::ToolsAnnounced { added, removed } => {
            Some(json!({"role": "system", "content": announcement(added, removed)}))
        }
        Block::ToolSchemas { tools } => Some(json!({
            "role": "system",
            "tools": tools.iter().map(function).collect::<Vec<_>>(),
        })),
        _ => None,
    }
}

/// A tool in the chat-completions `function` shape.
pub fn function(t: &ToolDef) -> Value {
    json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.schema}})
}

/// The announcement text: what became loadable (name — description) and
/// what no longer is, then how to load them.
pub fn announcement(added: &[(String, String)], removed: &[String]) -> String {
    let mut parts = Vec::new();
    if !added.is_empty() {
        let lines: Vec<String> = added
            .iter()
            .map(|(n, d)| {
                if d.is_empty() {
                    n.clone()
                } else {
                    format!("{n} — {d}")
                }
            })
            .collect();
        parts.push(format!(
            "<tools_added>\n{}\n</tools_added>",
            lines.join("\n")
        ));
    }
    if !removed.is_empty() {
        parts.push(format!(
            "<tools_removed>\n{}\n</tools_removed>",
            removed.join("\n")
        ));
    }
    parts.push(
        "These tools can be loaded on demand: call select_tools with their exact names, then call them. \
         A removed name can no longer be loaded. Read every such list in this conversation in order to know the current set."
            .to_owned(),
    );
    parts.join("\n\n")
}
