//! `write`: creates or overwrites a file, making parent directories.

use async_trait::async_trait;
use serde_json::{json, Value};

use super::{str_arg, Tool, ToolCtx, ToolOutput};
use crate::providers::ToolDef;

/// The `write` tool.
pub struct Write;

#[async_trait]
impl Tool for Write {
    fn def(&self) -> ToolDef {
        ToolDef {
            name: "write".into(),
            description: "Write a file, replacing it if it exists and creating parent directories."
                .into(),
            schema: json!({"type":"object","properties":{
                "path":{"type":"string"},
                "content":{"type":"string"}},
                "required":["path","content"]}),
        }
    }

    async fn run(&self, args: Value, ctx: &ToolCtx) -> ToolOutput {
        let full = ctx.path(str_arg(&args, "path"));
        let content = str_arg(&args, "content");
        if let Some(parent) = full.parent() {
            if let Err(e) = tokio::fs::create_dir_all(parent).await {
                return ToolOutput::err(format!("cannot create {}: {e}", parent.display()));
            }
        }
        match tokio::fs::write(&full, content).await {
            Ok(()) => ToolOutput::ok(format!(
                "wrote {} bytes to {}",
                content.len(),
                full.display()
            )),
            Err(e) => ToolOutput::err(format!("cannot write {}: {e}", full.display())),
        }
    }
}
