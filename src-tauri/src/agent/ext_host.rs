//! [`Extensions`] for the real extension host: tools, lifecycle events and
//! the three interceptions map one to one onto `zot_ext_host::Host`.

use async_trait::async_trait;
use serde_json::Value;
use zot_ext_host::{Host, TextVerdict, ToolCallVerdict};
use zot_ext_protocol::{EventFields, LifecycleEvent};

use super::extensions::{ExtToolDef, ExtToolResult, Extensions, ToolProgressUpdate, Verdict};
use crate::providers::ToolDef;

/// The host's tool as the agent advertises it.
fn def(t: zot_ext_host::ExtTool) -> ExtToolDef {
    ExtToolDef {
        def: ToolDef {
            description: t
                .description
                .unwrap_or_else(|| format!("tool {} from extension {}", t.name, t.extension)),
            name: t.name,
            schema: t.schema,
        },
        extension: t.extension,
        deferred: t.deferred,
        read_only: t.read_only,
    }
}

#[async_trait]
impl Extensions for Host {
    fn tools(&self) -> Vec<ExtToolDef> {
        // The host drops an extension's tools in the same step as it marks
        // it exited or failed, so its list is only of extensions serving.
        Host::tools(self).into_iter().map(def).collect()
    }

    fn deferred_tools(&self) -> Vec<ExtToolDef> {
        Host::deferred_tools(self).into_iter().map(def).collect()
    }

    async fn call_tool(&self, name: &str, args: Value) -> Option<Result<ExtToolResult, String>> {
        self.call_tool_with_progress(name, args, &|_| {}).await
    }

    async fn call_tool_with_progress(
        &self,
        name: &str,
        args: Value,
        on_progress: &(dyn Fn(ToolProgressUpdate) + Send + Sync),
    ) -> Option<Result<ExtToolResult, String>> {
        let owned = |ts: Vec<zot_ext_host::ExtTool>| ts.iter().any(|t| t.name == name);
        if !owned(Host::tools(self)) && !owned(Host::deferred_tools(self)) {
            return None;
        }
        Some(
            Host::call_tool_with(self, name, args, on_progress)
                .await
                .map_err(|e| e.to_string()),
        )
    }

    fn emit(&self, event: LifecycleEvent, fields: EventFields) {
        Host::emit(self, event, fields)
    }

    fn log_line(&self, extension: &str, line: &str) {
        Host::log_line(self, extension, line)
    }

    async fn intercept_turn_start(&self, step: u32) -> Verdict<()> {
        match Host::intercept_turn_start(self, step).await {
            zot_ext_host::Verdict::Allow => Verdict::Allow(()),
            zot_ext_host::Verdict::Block { extension, reason } => {
                Verdict::Block { extension, reason }
            }
        }
    }

    async fn intercept_tool_call(&self, id: &str, name: &str, args: Value) -> Verdict<Value> {
        match Host::intercept_tool_call(self, id, name, args).await {
            ToolCallVerdict::Allow { args } => Verdict::Allow(args),
            ToolCallVerdict::Block { extension, reason } => Verdict::Block { extension, reason },
        }
    }

    async fn intercept_assistant_message(&self, text: String) -> Verdict<String> {
        match Host::intercept_assistant_message(self, &text).await {
            TextVerdict::Show { text } => Verdict::Allow(text),
            TextVerdict::Block { extension, reason } => Verdict::Block { extension, reason },
        }
    }
}
