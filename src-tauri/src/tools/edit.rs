//! `edit`: replaces one exact string in a file. It must match exactly once,
//! so the model never edits the wrong place by accident.

use async_trait::async_trait;
use serde_json::{json, Value};

use super::{str_arg, Tool, ToolCtx, ToolOutput};
use crate::providers::ToolDef;

/// The `edit` tool.
pub struct Edit;

#[async_trait]
impl Tool for Edit {
    fn def(&self) -> ToolDef {
        ToolDef {
            name: "edit".into(),
            description: "Replace old_string with new_string in a file. old_string must match the file exactly once; include surrounding lines to make it unique.".into(),
            schema: json!({"type":"object","properties":{
                "path":{"type":"string"},
                "old_string":{"type":"string"},
                "new_string":{"type":"string"}},
                "required":["path","old_string","new_string"]}),
        }
    }

    async fn run(&self, args: Value, ctx: &ToolCtx) -> ToolOutput {
        let full = ctx.path(str_arg(&args, "path"));
        let old = str_arg(&args, "old_string");
        let new = str_arg(&args, "new_string");
        if old.is_empty() {
            return ToolOutput::err("old_string is empty; give the exact text to replace");
        }
        let text = match tokio::fs::read_to_string(&full).await {
            Ok(t) => t,
            Err(e) => return ToolOutput::err(format!("cannot read {}: {e}", full.display())),
        };
        match text.matches(old).count() {
            0 => ToolOutput::err(format!(
                "old_string was not found in {} (matched 0 times); read the file and copy the text exactly",
                full.display()
            )),
            1 => {
                let updated = text.replacen(old, new, 1);
                match tokio::fs::write(&full, updated).await {
                    Ok(()) => ToolOutput::ok(format!("edited {}", full.display())),
                    Err(e) => ToolOutput::err(format!("cannot write {}: {e}", full.display())),
                }
            }
            n => ToolOutput::err(format!(
                "old_string matched {n} times in {}; it must match exactly once, so include more surrounding text",
                full.display()
            )),
        }
    }
}
