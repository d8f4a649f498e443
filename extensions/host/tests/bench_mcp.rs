//! `make bench` for MCP (#16; ignored in normal test runs): one tool round
//! trip, the same `echo`, four ways in one run:
//! - through zot's host to the Python `mcp` SDK's stdio server (rmcp inside);
//! - through zot's host to a native Python zot extension (the Python SDK);
//! - rmcp alone, as a client of the same server;
//! - a minimal raw JSON-RPC loop over the same server's pipes (the floor).
//!
//! Writes its section of docs/performance.md. Goal: rmcp ≤ 1.2× the raw loop.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use rmcp::ServiceExt;
use serde_json::{json, Value};
use zot_ext_host::{Host, HostConfig};

const WARMUP: usize = 50;
const RUNS: usize = 500;

fn mcp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp")
}

fn venv_python() -> PathBuf {
    let p = mcp_dir().join(".venv/bin/python");
    assert!(p.exists(), "run `make deps-mcp` first");
    p
}

fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[i]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Row {
    what: &'static str,
    p50: Duration,
    p90: Duration,
}

fn row(what: &'static str, mut v: Vec<Duration>) -> Row {
    Row {
        what,
        p50: pct(&mut v, 0.5),
        p90: pct(&mut v, 0.9),
    }
}

/// The raw loop: initialize, then `tools/call` request/response lines.
fn raw_loop() -> Vec<Duration> {
    let mut child = Command::new(venv_python())
        .arg(mcp_dir().join("server.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut send = |v: Value, read: bool, stdout: &mut BufReader<_>| {
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
        if read {
            line.clear();
            stdout.read_line(&mut line).unwrap();
        }
    };
    send(
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}),
        true,
        &mut stdout,
    );
    send(
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
        false,
        &mut stdout,
    );
    let mut out = Vec::new();
    for i in 0..(WARMUP + RUNS) {
        let t = Instant::now();
        send(
            json!({"jsonrpc":"2.0","id":i + 1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}),
            true,
            &mut stdout,
        );
        if i >= WARMUP {
            out.push(t.elapsed());
        }
    }
    drop(stdout);
    let _ = child.kill();
    let _ = child.wait();
    out
}

async fn rmcp_alone() -> Vec<Duration> {
    let mut child = tokio::process::Command::new(venv_python())
        .arg(mcp_dir().join("server.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let client = ().serve(transport).await.unwrap();
    let args = json!({"text": "hi"}).as_object().unwrap().clone();
    let mut out = Vec::new();
    for i in 0..(WARMUP + RUNS) {
        let t = Instant::now();
        client
            .call_tool(CallToolRequestParams::new("echo").with_arguments(args.clone()))
            .await
            .unwrap();
        if i >= WARMUP {
            out.push(t.elapsed());
        }
    }
    let _ = client.cancel().await;
    out
}

async fn through_host(host: &Host, tool: &str) -> Vec<Duration> {
    let mut out = Vec::new();
    for i in 0..(WARMUP + RUNS) {
        let t = Instant::now();
        let r = host.call_tool(tool, json!({"text": "hi"})).await.unwrap();
        assert!(!r.is_error);
        if i >= WARMUP {
            out.push(t.elapsed());
        }
    }
    out
}

fn write_report(section: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/performance.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let (b, e) = ("<!-- mcp-bench:start -->", "<!-- mcp-bench:end -->");
    let body = format!("{b}\n{section}{e}");
    let doc = match (doc.find(b), doc.find(e)) {
        (Some(i), Some(j)) if i < j => format!("{}{body}{}", &doc[..i], &doc[j + e.len()..]),
        _ => format!("{}\n## MCP servers\n\n{body}\n", doc.trim_end()),
    };
    std::fs::write(&path, doc).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: make bench-mcp"]
async fn bench_mcp() {
    let home = tempfile::TempDir::new().unwrap();
    let cwd = tempfile::TempDir::new().unwrap();
    let exts = home.path().join("extensions");
    std::fs::create_dir_all(exts.join("pymcp")).unwrap();
    std::fs::write(
        exts.join("pymcp/extension.json"),
        json!({"name":"pymcp","kind":"mcp","command": venv_python(),"args":[mcp_dir().join("server.py")]}).to_string(),
    )
    .unwrap();
    std::fs::create_dir_all(exts.join("native")).unwrap();
    let py = Command::new("python3")
        .args(["-c", "import sys;print(sys.executable)"])
        .output()
        .unwrap();
    let py = String::from_utf8(py.stdout).unwrap().trim().to_owned();
    std::fs::write(
        exts.join("native/extension.json"),
        json!({"name":"native","exec": py,"args":[mcp_dir().join("native_echo.py")],"language":"python"}).to_string(),
    )
    .unwrap();
    let cfg = HostConfig::new(home.path(), cwd.path());
    let (host, _rx) = Host::start(cfg);
    host.wait_settled().await;

    let via_host_mcp = row(
        "zot host → Python `mcp` stdio server (rmcp)",
        through_host(&host, "echo").await,
    );
    let via_host_native = row(
        "zot host → native Python zot extension (Python SDK)",
        through_host(&host, "echo_native").await,
    );
    host.shutdown().await;
    let alone = row("rmcp client alone → the same server", rmcp_alone().await);
    let raw = row(
        "floor: raw JSON-RPC loop over the same server's pipes",
        raw_loop(),
    );

    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into());
    let mut s = format!(
        "Measured by `make bench` (its `bench-mcp` target: `extensions/host/tests/bench_mcp.rs`, release build): {RUNS} round trips of the same `echo` tool after {WARMUP} warm-up calls each, all in one run; load average {load} when it ran (2 shared vCPUs).\n\n| what | p50 | p90 |\n|---|---|---|\n"
    );
    for r in [&via_host_mcp, &via_host_native, &alone, &raw] {
        s.push_str(&format!(
            "| {} | {:.3} ms | {:.3} ms |\n",
            r.what,
            ms(r.p50),
            ms(r.p90)
        ));
    }
    let ratio = ms(alone.p50) / ms(raw.p50);
    let host_ratio = ms(via_host_mcp.p50) / ms(via_host_native.p50);
    s.push_str(&format!(
        "\n| ratio (p50) | value | goal |\n|---|---|---|\n| rmcp / raw JSON-RPC loop | {ratio:.2}× | ≤ 1.2× |\n| MCP entry / native extension, through the host | {host_ratio:.2}× | |\n| host → MCP entry / rmcp alone (zot's translation) | {:.2}× | |\n\n",
        ms(via_host_mcp.p50) / ms(alone.p50)
    ));
    println!("{s}");
    write_report(&s);
}
