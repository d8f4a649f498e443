//! `write`: creates or overwrites a regular file, making parent
//! directories. Content over [`files::MAX_EDIT_BYTES`] and targets that are
//! not regular files (a FIFO, a device) are refused.

use async_trait::async_trait;
use serde_json::{json, Value};

use super::{files, str_arg, Tool, ToolCtx, ToolOutput};
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
        let len = u64::try_from(content.len()).unwrap_or(u64::MAX);
        if len > files::MAX_EDIT_BYTES {
            return ToolOutput::err(format!(
                "content is {len} bytes; write takes at most {} MiB per call, so write a large file in parts (e.g. with bash)",
                files::MAX_EDIT_BYTES / 1024 / 1024
            ));
        }
        if let Some(parent) = full.parent() {
            if let Err(e) = tokio::fs::create_dir_all(parent).await {
                return ToolOutput::err(format!("cannot create {}: {e}", parent.display()));
            }
        }
        let bytes = content.as_bytes().to_vec();
        let target = full.clone();
        match tokio::task::spawn_blocking(move || files::write_regular(&target, &bytes)).await {
            Ok(Ok(())) => ToolOutput::ok(format!(
                "wrote {} bytes to {}",
                content.len(),
                full.display()
            )),
            Ok(Err(e)) => ToolOutput::err(e),
            Err(e) => ToolOutput::err(format!("cannot write {}: {e}", full.display())),
        }
    }
}
