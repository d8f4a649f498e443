//! [`Extensions`] for the real extension host: tools, lifecycle events and
//! the three interceptions map one to one onto `zot_ext_host::Host`.

use async_trait::async_trait;
use serde_json::Value;
use zot_ext_host::{Host, TextVerdict, ToolCallVerdict};
use zot_ext_protocol::{EventFields, LifecycleEvent};

use super::extensions::{
    ExtToolDef, ExtToolResult, ExtToolTarget, Extensions, ToolProgressUpdate, Verdict,
};
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

    fn resolve_tool(&self, name: &str) -> Option<ExtToolTarget> {
        Host::resolve_tool(self, name)
    }

    async fn call_tool(
        &self,
        target: &ExtToolTarget,
        args: Value,
        on_progress: &(dyn Fn(ToolProgressUpdate) + Send + Sync),
    ) -> Result<ExtToolResult, String> {
        Host::call_target(self, target, args, on_progress)
            .await
            .map_err(|e| match e {
                // Its extension stopped or a reload gave the name away
                // between the model's request and this call.
                zot_ext_host::HostError::UnknownTool(n) => format!(
                    "tool {n} is no longer available: its extension stopped or was reloaded"
                ),
                e => e.to_string(),
            })
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
