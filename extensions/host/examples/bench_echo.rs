//! A Rust-SDK extension for the host benchmarks: one tool `echo_<name>`
//! that answers "ok", one `crash_<name>` that exits with status 3, and an
//! allow-everything `tool_call` interceptor when started with `intercept`.
//! argv: name [intercept].

use serde_json::json;
use zot_ext::{Extension, ToolCallDecision, ToolResult};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "bench".into());
    let intercept = args.next().as_deref() == Some("intercept");
    let mut ext = Extension::new(name.clone(), "0.1.0");
    ext.tool(
        &format!("echo_{name}"),
        "answers ok",
        json!({"type":"object"}),
        |_ctx, _args| ToolResult::text("ok"),
    );
    // The restart benchmark's crash: exit as a segfaulting child would.
    ext.tool(
        &format!("crash_{name}"),
        "exits at once with status 3",
        json!({"type":"object"}),
        |_ctx, _args| std::process::exit(3),
    );
    if intercept {
        ext.intercept_tool_call(|_ctx, _tool, _args| ToolCallDecision::allow());
    }
    if let Err(e) = ext.run() {
        eprintln!("bench_echo: {e}");
        std::process::exit(1);
    }
}
