//! The built-in tools (`read`, `write`, `edit`, `bash`) and the small
//! argument check every tool call goes through before it runs, so bad args
//! become a tool error for the model instead of a crash.
// Model streams, tool args, files and the agent loop handle data from
// outside (a model server, a file, an extension): none of it may reach a
// panic. Provably safe exceptions carry an `allow` with the reason.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented,
        clippy::indexing_slicing,
        clippy::string_slice,
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss
    )
)]

pub mod bash;
pub mod edit;
pub mod files;
pub mod read;
pub mod schema;
pub mod write;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::ContentBlock;

use crate::providers::ToolDef;

/// What a tool run has to work with.
#[derive(Clone)]
pub struct ToolCtx {
    /// The project directory; relative paths resolve against it.
    pub cwd: PathBuf,
    /// Fires on abort.
    pub cancel: CancellationToken,
    /// Where a tool streams output while it runs (bash), shown in its card
    /// as `tool_progress`; `None` where nobody watches.
    pub progress: Option<std::sync::Arc<zot_ext_host::tool_progress::ProgressFeed>>,
}

impl ToolCtx {
    /// Resolves a path argument against the project directory.
    pub fn path(&self, p: &str) -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        }
    }
}

/// What a tool returned.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// Blocks for the model.
    pub content: Vec<ContentBlock>,
    /// Whether it failed.
    pub is_error: bool,
}

impl ToolOutput {
    /// A text success.
    pub fn ok(text: impl Into<String>) -> Self {
        ToolOutput {
            content: vec![ContentBlock::text(text)],
            is_error: false,
        }
    }

    /// A text failure.
    pub fn err(text: impl Into<String>) -> Self {
        ToolOutput {
            content: vec![ContentBlock::text(text)],
            is_error: true,
        }
    }
}

/// One built-in tool.
#[async_trait]
pub trait Tool: Send + Sync {
    /// Name, description and schema for the model.
    fn def(&self) -> ToolDef;
    /// Runs with args already checked against the schema.
    async fn run(&self, args: Value, ctx: &ToolCtx) -> ToolOutput;
}

/// Every built-in tool name, in the order they are advertised.
pub const BUILTIN: [&str; 4] = ["read", "write", "edit", "bash"];

/// The built-in tool called `name`.
pub fn builtin(name: &str) -> Option<Arc<dyn Tool>> {
    Some(match name {
        "read" => Arc::new(read::Read),
        "write" => Arc::new(write::Write),
        "edit" => Arc::new(edit::Edit),
        "bash" => Arc::new(bash::Bash::default()),
        _ => return None,
    })
}

/// Chooses the built-in set from `--tools CSV` / `--no-tools`.
pub fn select(csv: Option<&str>, none: bool) -> anyhow::Result<Vec<Arc<dyn Tool>>> {
    if none {
        return Ok(Vec::new());
    }
    let Some(csv) = csv else {
        return Ok(BUILTIN.iter().filter_map(|n| builtin(n)).collect());
    };
    let mut out = Vec::new();
    for name in csv.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match builtin(name) {
            Some(t) => out.push(t),
            None => anyhow::bail!(
                "unknown tool {name:?} in --tools; the built-in tools are {}",
                BUILTIN.join(", ")
            ),
        }
    }
    Ok(out)
}

/// Checks args against a schema and runs the tool; args that are not an
/// object or do not match become a tool error naming the problem.
pub async fn run_checked(tool: &dyn Tool, args: Value, ctx: &ToolCtx) -> ToolOutput {
    let def = tool.def();
    if let Err(e) = schema::check(&def.schema, &args) {
        return ToolOutput::err(format!("invalid arguments for tool {}: {e}", def.name));
    }
    tool.run(args, ctx).await
}

/// A required string argument (already schema-checked).
pub fn str_arg<'a>(args: &'a Value, key: &str) -> &'a str {
    args.get(key).and_then(Value::as_str).unwrap_or_default()
}
