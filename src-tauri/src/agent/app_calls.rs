//! An MCP App's `tools/call` (docs/mcp.md "MCP Apps"): the app in a tool's
//! card asks to run a tool of its own server. The call passes what the
//! model's calls pass: `tool_call` interceptors, then the approval gate
//! (`approval.rs`), so `ask` shows the user an approval and `deny` rules
//! hold; a tool of another extension, or one no extension has, is refused
//! before anything runs. Each call and its outcome is a line in the
//! server's log, for review.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::{AppToolResult, RpcError};

use super::approval::Request;
use super::extensions::{ExtToolTarget, Verdict};
use super::Agent;

/// Sequence for the approvals' call ids (`app-1`, `app-2`, …), apart from
/// the model's tool call ids.
static NEXT: AtomicU64 = AtomicU64::new(1);

impl Agent {
    /// Runs `tool` for the MCP App of `extension`, after interception and
    /// the approval gate; `Err` says why it did not run (the app gets it as
    /// a JSON-RPC error): `invalid` arguments, `not_found` for no such
    /// tool, `denied` for another server's tool, a block or a denial.
    pub async fn app_tool_call(
        &self,
        extension: &str,
        tool: &str,
        args: Value,
    ) -> Result<AppToolResult, RpcError> {
        if !args.is_object() && !args.is_null() {
            return Err(RpcError::invalid(format!(
                "app_tool_call: the arguments of {tool} must be a JSON object"
            )));
        }
        let args = if args.is_null() {
            Value::Object(Default::default())
        } else {
            args
        };
        // Resolved once: the owner checked here is the one called.
        let Some(target) = self.exts.resolve_tool(tool) else {
            return Err(RpcError::not_found(format!(
                "app_tool_call: {extension} has no tool {tool:?}; an MCP App may call only its own server's tools"
            )));
        };
        if target.extension != extension {
            return Err(RpcError::denied(format!(
                "app_tool_call: the MCP App of {extension} asked for {tool}, a tool of {}; an app may call only its own server's tools; refused",
                target.extension
            )));
        }
        let call_id = format!("app-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        self.exts.log_line(
            extension,
            &format!("MCP App: asks to call {tool} ({call_id}) with {args}"),
        );
        let r = self.app_call_checked(&target, args, &call_id).await;
        let outcome = match &r {
            Ok(r) if r.is_error => "ran; the tool failed".to_owned(),
            Ok(_) => "ran".to_owned(),
            Err(e) => format!("did not run: {e}"),
        };
        self.exts
            .log_line(extension, &format!("MCP App: {call_id} {outcome}"));
        r
    }

    /// Interception, the approval gate, then the call.
    async fn app_call_checked(
        &self,
        target: &ExtToolTarget,
        args: Value,
        call_id: &str,
    ) -> Result<AppToolResult, RpcError> {
        let tool = target.name.as_str();
        let args = match self.exts.intercept_tool_call(call_id, tool, args).await {
            Verdict::Allow(a) => a,
            Verdict::Block {
                extension: by,
                reason,
            } => {
                return Err(RpcError::denied(format!(
                    "blocked by extension {by}: {reason}"
                )))
            }
        };
        let gate = Request {
            call_id,
            tool,
            args: &args,
            extension: Some(&target.extension),
            read_only: target.read_only,
        };
        // Not tied to a prompt: `abort` still settles it (deny_all).
        let cancel = CancellationToken::new();
        self.approvals
            .check(gate, &self.events, &cancel)
            .await
            .map_err(RpcError::denied)?;
        let out = self.exts.call_tool(target, args, &|_| {}).await?;
        let mut content = out.content;
        self.redactor.blocks(&mut content);
        Ok(AppToolResult {
            content,
            is_error: out.is_error,
            structured_content: out.structured_content,
        })
    }
}
