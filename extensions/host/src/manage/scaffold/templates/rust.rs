//! {{name}}: a zot extension, made by `zot ext new`. Build it with
//! `cargo build --release`; `launch.sh` starts the binary. Try it:
//! `zot --ext .`, then type /{{name}}.

use serde_json::json;
use zot_ext::{Extension, Response, ToolResult};

fn main() {
    let mut ext = Extension::new("{{name}}", "0.1.0");
    ext.command("{{name}}", "say hello from {{name}}", |_ctx, args| {
        if args.is_empty() {
            Response::display("hello from {{name}}")
        } else {
            Response::display(format!("hello from {{name}}: {args}"))
        }
    })
    .tool(
        "{{tool}}",
        "Echo the given text back (a template tool: replace it with yours).",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        |_ctx, args| match args["text"].as_str() {
            Some(text) => ToolResult::text(text),
            None => ToolResult::error("`text` is required and must be a string"),
        },
    );
{{panel}}
    if let Err(e) = ext.run() {
        eprintln!("{{name}}: {e}");
        std::process::exit(1);
    }
}
