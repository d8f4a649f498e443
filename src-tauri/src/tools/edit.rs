//! `edit`: replaces one exact string in a file. It must match exactly once,
//! so the model never edits the wrong place by accident. Only regular files
//! up to [`files::MAX_EDIT_BYTES`] (before and after) are edited.

use async_trait::async_trait;
use serde_json::{json, Value};

use super::{files, str_arg, Tool, ToolCtx, ToolOutput};
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
        let source = full.clone();
        let text = match tokio::task::spawn_blocking(move || read_small(&source)).await {
            Ok(Ok(t)) => t,
            Ok(Err(e)) => return ToolOutput::err(e),
            Err(e) => return ToolOutput::err(format!("cannot read {}: {e}", full.display())),
        };
        match text.matches(old).count() {
            0 => ToolOutput::err(format!(
                "old_string was not found in {} (matched 0 times); read the file and copy the text exactly",
                full.display()
            )),
            1 => {
                let updated = text.replacen(old, new, 1);
                let len = u64::try_from(updated.len()).unwrap_or(u64::MAX);
                if len > files::MAX_EDIT_BYTES {
                    return ToolOutput::err(format!(
                        "the edited {} would be {len} bytes, over the {} MiB edit limit; make the change with bash instead",
                        full.display(),
                        files::MAX_EDIT_BYTES / 1024 / 1024
                    ));
                }
                let target = full.clone();
                match tokio::task::spawn_blocking(move || {
                    files::write_regular(&target, updated.as_bytes())
                })
                .await
                {
                    Ok(Ok(())) => ToolOutput::ok(format!("edited {}", full.display())),
                    Ok(Err(e)) => ToolOutput::err(e),
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

/// A regular file of at most [`files::MAX_EDIT_BYTES`], as UTF-8 text.
fn read_small(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read as _;
    let (file, len) = files::open_read(path)?;
    let too_big = || {
        format!(
            "{} is larger than {} MiB, the most edit changes; make the change with bash (e.g. sed) instead",
            path.display(),
            files::MAX_EDIT_BYTES / 1024 / 1024
        )
    };
    if len > files::MAX_EDIT_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(files::MAX_EDIT_BYTES.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > files::MAX_EDIT_BYTES) {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|_| {
        format!(
            "cannot edit {}: it is not UTF-8 text; change it with bash instead",
            path.display()
        )
    })
}
