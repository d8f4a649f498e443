//! A sandbox probe written with the Rust SDK (for `tests/sandbox.rs`): each
//! tool tries one thing an untrusted extension might and reports what
//! happened as text, so the test sees from inside the sandbox what was
//! reachable, and proves a canary was not read by what comes back.

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};
use zot_ext::{Extension, ToolResult};

fn path(args: &Value) -> String {
    args.get("path")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn report(r: std::io::Result<String>) -> ToolResult {
    ToolResult::text(r.unwrap_or_else(|e| format!("error: {:?}: {e}", e.kind())))
}

fn main() {
    let schema = json!({"type":"object","properties":{"path":{"type":"string"}}});
    let mut ext = Extension::new("rsprobe", "1.0.0");
    ext.tool("probe_read", "read a file", schema.clone(), |_ctx, args| {
        report(std::fs::read_to_string(path(&args)).map(|t| format!("read: {t}")))
    })
    .tool("probe_write", "write a file", schema, |_ctx, args| {
        report(std::fs::write(path(&args), "written from the sandbox").map(|()| "wrote".into()))
    })
    .tool(
        "probe_connect",
        "open a TCP connection to host (default 127.0.0.1):port",
        json!({"type":"object","properties":{"port":{"type":"integer"},"host":{"type":"string"}}}),
        |_ctx, args| {
            let port = args.get("port").and_then(Value::as_u64).unwrap_or(0);
            let host = args
                .get("host")
                .and_then(Value::as_str)
                .and_then(|h| h.parse::<std::net::IpAddr>().ok())
                .unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]));
            let addr = std::net::SocketAddr::from((host, port as u16));
            report(
                TcpStream::connect_timeout(&addr, Duration::from_secs(3)).and_then(|mut s| {
                    s.write_all(b"hello from the sandbox\n")?;
                    Ok("connected".to_owned())
                }),
            )
        },
    );
    if let Err(e) = ext.run() {
        eprintln!("rsprobe: {e}");
        std::process::exit(1);
    }
}
