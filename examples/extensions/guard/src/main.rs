//! The guard example: interception with the Rust SDK. It refuses dangerous
//! bash commands with a reason the model can read, rewrites the ones that
//! have a safe equivalent, and redacts secrets in the assistant's text.

mod policy;
mod redact;

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;
use zot_ext::{AssistantMessageDecision, Extension, NoteLevel, Response, ToolCallDecision};

static BLOCKED: AtomicUsize = AtomicUsize::new(0);
static REWRITTEN: AtomicUsize = AtomicUsize::new(0);
static REDACTED: AtomicUsize = AtomicUsize::new(0);

fn main() {
    let mut ext = Extension::new("guard", "1.0.0");
    ext.intercept_tool_call(|ctx, tool, args| {
        if tool != "bash" {
            return ToolCallDecision::allow();
        }
        let Some(command) = args.get("command").and_then(Value::as_str) else {
            return ToolCallDecision::allow();
        };
        match policy::check(command) {
            policy::Verdict::Allow => ToolCallDecision::allow(),
            policy::Verdict::Block(reason) => {
                BLOCKED.fetch_add(1, Ordering::Relaxed);
                ctx.notify(NoteLevel::Warn, format!("blocked: {command}"));
                ToolCallDecision::block(reason)
            }
            policy::Verdict::Rewrite(safer) => {
                REWRITTEN.fetch_add(1, Ordering::Relaxed);
                let mut args = args.clone();
                args["command"] = Value::String(safer);
                ToolCallDecision::rewrite(args)
            }
        }
    })
    .intercept_assistant_message(|_ctx, text| match redact::secrets(text) {
        Some(clean) => {
            REDACTED.fetch_add(1, Ordering::Relaxed);
            AssistantMessageDecision::replace(clean)
        }
        None => AssistantMessageDecision::allow(),
    })
    .command(
        "guard",
        "show what the guard has done this session",
        |_ctx, _| {
            Response::display(format!(
                "guard: {} blocked, {} rewritten, {} messages redacted",
                BLOCKED.load(Ordering::Relaxed),
                REWRITTEN.load(Ordering::Relaxed),
                REDACTED.load(Ordering::Relaxed)
            ))
        },
    );
    if let Err(e) = ext.run() {
        eprintln!("guard: {e}");
        std::process::exit(1);
    }
}
