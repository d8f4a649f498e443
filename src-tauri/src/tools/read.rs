//! `read`: a text file's lines (with offset and limit), or an image as an
//! image block the model can look at.

use async_trait::async_trait;
use base64::Engine;
use serde_json::{json, Value};
use zot_ext_protocol::ContentBlock;

use super::{str_arg, Tool, ToolCtx, ToolOutput};
use crate::providers::ToolDef;

/// Lines returned when no `limit` is given.
const DEFAULT_LIMIT: usize = 2000;
/// Longer lines are cut, so one minified file cannot flood the context.
const MAX_LINE: usize = 2000;

/// The `read` tool.
pub struct Read;

/// The image MIME type for a file name, if it is an image.
fn image_mime(path: &str) -> Option<&'static str> {
    let ext = path.rsplit('.').next()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        _ => return None,
    })
}

#[async_trait]
impl Tool for Read {
    fn def(&self) -> ToolDef {
        ToolDef {
            name: "read".into(),
            description: "Read a file. Text comes back as numbered lines; use offset (1-based first line) and limit for large files. Images (png, jpeg, gif, webp) come back as images.".into(),
            schema: json!({"type":"object","properties":{
                "path":{"type":"string","description":"file path, relative to the project directory or absolute"},
                "offset":{"type":"integer","description":"first line to return, from 1"},
                "limit":{"type":"integer","description":"how many lines to return"}},
                "required":["path"]}),
        }
    }

    async fn run(&self, args: Value, ctx: &ToolCtx) -> ToolOutput {
        let path = str_arg(&args, "path");
        let full = ctx.path(path);
        let bytes = match tokio::fs::read(&full).await {
            Ok(b) => b,
            Err(e) => return ToolOutput::err(format!("cannot read {}: {e}", full.display())),
        };
        if let Some(mime) = image_mime(path) {
            return ToolOutput {
                content: vec![ContentBlock::Image {
                    mime_type: mime.into(),
                    data: base64::engine::general_purpose::STANDARD.encode(&bytes),
                }],
                is_error: false,
            };
        }
        let text = String::from_utf8_lossy(&bytes);
        let offset = args
            .get("offset")
            .and_then(Value::as_u64)
            .unwrap_or(1)
            .max(1) as usize;
        let limit = args
            .get("limit")
            .and_then(Value::as_u64)
            .map(|l| l as usize)
            .unwrap_or(DEFAULT_LIMIT);
        let total = text.lines().count();
        if offset > total.max(1) {
            return ToolOutput::err(format!(
                "offset {offset} is past the end of {} ({total} lines)",
                full.display()
            ));
        }
        let mut out = String::new();
        for (i, line) in text.lines().enumerate().skip(offset - 1).take(limit) {
            let line: String = if line.len() > MAX_LINE {
                format!(
                    "{}… [line cut]",
                    line.chars().take(MAX_LINE).collect::<String>()
                )
            } else {
                line.to_owned()
            };
            out.push_str(&format!("{:>6}\t{line}\n", i + 1));
        }
        let shown_end = (offset - 1 + limit).min(total);
        if shown_end < total {
            out.push_str(&format!(
                "[{} more lines; continue with offset {}]\n",
                total - shown_end,
                shown_end + 1
            ));
        }
        ToolOutput::ok(out)
    }
}
