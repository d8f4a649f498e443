//! An MCP App's `tools/call` (docs/mcp.md "MCP Apps"): the app in a tool's
//! card asks to run a tool of its own server. The call passes the same
//! approval gate as the model's (`approval.rs`), so `ask` shows the user
//! an approval and `deny` rules hold; a tool of another extension, or one
//! no extension has, is refused before anything runs.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::AppToolResult;

use super::approval::Request;
use super::Agent;

/// Sequence for the approvals' call ids (`app-1`, `app-2`, …), apart from
/// the model's tool call ids.
static NEXT: AtomicU64 = AtomicU64::new(1);

impl Agent {
    /// Runs `tool` for the MCP App of `extension`, after the approval
    /// gate; `Err` says why it did not run (the app gets it as a JSON-RPC
    /// error).
    pub async fn app_tool_call(
        &self,
        extension: &str,
        tool: &str,
        args: Value,
    ) -> Result<AppToolResult, String> {
        if !args.is_object() && !args.is_null() {
            return Err(format!(
                "app_tool_call: the arguments of {tool} must be a JSON object"
            ));
        }
        let args = if args.is_null() {
            Value::Object(Default::default())
        } else {
            args
        };
        let found = self
            .exts
            .tools()
            .into_iter()
            .chain(self.exts.deferred_tools())
            .find(|t| t.def.name == tool);
        let Some(def) = found else {
            return Err(format!(
                "app_tool_call: {extension} has no tool {tool:?}; an MCP App may call only its own server's tools"
            ));
        };
        if def.extension != extension {
            return Err(format!(
                "app_tool_call: the MCP App of {extension} asked for {tool}, a tool of {}; an app may call only its own server's tools; refused",
                def.extension
            ));
        }
        let call_id = format!("app-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let gate = Request {
            call_id: &call_id,
            tool,
            args: &args,
            extension: Some(extension),
            read_only: def.read_only,
        };
        // Not tied to a prompt: `abort` still settles it (deny_all).
        let cancel = CancellationToken::new();
        self.approvals.check(gate, &self.events, &cancel).await?;
        let out = match self.exts.call_tool(tool, args).await {
            Some(Ok(r)) => r,
            Some(Err(e)) => return Err(e),
            None => return Err(format!("app_tool_call: tool {tool} is no longer available")),
        };
        let mut content = out.content;
        self.redactor.blocks(&mut content);
        Ok(AppToolResult {
            content,
            is_error: out.is_error,
            structured_content: out.structured_content,
        })
    }
}
