//! The same echo tool through the SDK, for `make bench` (see bench_roundtrip).

use serde_json::json;
use zot_ext::{Extension, ToolResult};

fn main() {
    let mut ext = Extension::new("bench", "1.0.0");
    ext.tool("echo", "echo", json!({"type":"object"}), |_ctx, args| {
        ToolResult::text(args["text"].as_str().unwrap_or(""))
    });
    ext.run().expect("bench extension");
}
