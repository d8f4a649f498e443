//! Long tool calls through the real binary in RPC mode (docs/protocol.md
//! "Long tool calls", docs/rpc.md `tool_progress`), with a real Python
//! probe extension (tests/fixtures/progress_ext.py): progress events, the
//! idle timeout restarted by progress, the absolute cap, `tool_cancel` on
//! abort and on a timeout, and a late `tool_result` dropped quietly.

use zot_test_support::fixtures;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

struct Env {
    s: FakeLlm,
    home: tempfile::TempDir,
    cwd: tempfile::TempDir,
    ext: PathBuf,
}

/// The probe as extension `px` with `plan`, and `manifest_extra` merged
/// into its manifest (`tool_timeout_s`).
async fn env(plan: Value, manifest_extra: Value) -> Env {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ext = home.path().join("px-src");
    std::fs::create_dir_all(&ext).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/progress_ext.py");
    std::fs::copy(&src, ext.join("progress_ext.py")).unwrap();
    std::fs::write(ext.join("plan.json"), plan.to_string()).unwrap();
    let mut manifest = json!({"name": "px", "version": "0.1.0", "exec": "./progress_ext.py",
        "language": "python", "permissions": ["tools"]});
    for (k, v) in manifest_extra.as_object().unwrap() {
        manifest[k] = v.clone();
    }
    std::fs::write(ext.join("extension.json"), manifest.to_string()).unwrap();
    Env { s, home, cwd, ext }
}

async fn start(e: &Env, idle_ms: &str) -> Rpc {
    let ext = e.ext.to_str().unwrap().to_owned();
    Rpc::against(
        &e.s,
        e.home.path(),
        e.cwd.path(),
        &["--no-session", "--no-ext", "-e", &ext],
        &[("ZOT_TOOL_IDLE_TIMEOUT_MS", idle_ms)],
    )
    .await
}

/// The model calls `tool` once, then says "done".
fn script(e: &Env, tool: &str) {
    e.s.push(anthropic_tool("", "tu_1", tool, &["{}"]));
    e.s.push(anthropic_text(&["done"]));
}

fn log_text(z_log: &Value) -> String {
    std::fs::read_to_string(z_log["log_path"].as_str().unwrap()).unwrap_or_default()
}

async fn ext_entry(z: &mut Rpc) -> Value {
    let r = z.call(json!({"type":"ext_list"})).await;
    r["data"]["extensions"][0].clone()
}

fn frames<'a>(seen: &'a [Value], ty: &str) -> Vec<&'a Value> {
    seen.iter().filter(|v| v["type"] == ty).collect()
}

#[tokio::test]
async fn progress_reaches_the_client_clamped_and_in_order_and_a_stray_frame_is_only_logged() {
    let plan = json!({"tools": {"build": [
        {"stray": {"message": "not mine"}},
        {"progress": {"message": "compiling", "progress": 1, "total": 4, "partial": "line 1\n"}},
        {"sleep": 0.05},
        {"progress": {"progress": 9, "total": 4, "partial": "line 2\n"}},
        {"sleep": 0.05},
        {"progress": {"progress": -2, "total": 0, "message": "linking"}},
        {"sleep": 0.05},
        {"result": {"content": [{"type": "text", "text": "built"}]}}
    ]}});
    let e = env(plan, json!({})).await;
    script(&e, "build");
    let mut z = start(&e, "60000").await;
    let evs = z.prompt("build it").await;
    let progress = of(&evs, "tool_progress");
    assert!(!progress.is_empty(), "{evs:#?}");
    for p in &progress {
        assert_eq!(p["id"], "tu_1", "the model's call id: {p}");
        assert_eq!(p["extension"], "px");
        if let (Some(v), Some(t)) = (p["progress"].as_f64(), p["total"].as_f64()) {
            assert!((0.0..=t).contains(&v), "clamped: {p}");
        }
        if let Some(v) = p["progress"].as_f64() {
            assert!(v >= 0.0, "never negative: {p}");
        }
    }
    let partial: String = progress
        .iter()
        .filter_map(|p| p["partial"].as_str())
        .collect();
    assert_eq!(
        partial, "line 1\nline 2\n",
        "appended in order, nothing lost"
    );
    assert_eq!(
        progress.last().unwrap()["message"],
        "linking",
        "the latest message"
    );
    // Every progress event comes between the call and its result.
    let t = types(&evs);
    let call = t.iter().position(|x| x == "tool_call").unwrap();
    let result = t.iter().position(|x| x == "tool_result").unwrap();
    let first = t.iter().position(|x| x == "tool_progress").unwrap();
    let last = t.iter().rposition(|x| x == "tool_progress").unwrap();
    assert!(call < first && last < result, "{t:?}");
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], false, "{r}");
    let x = ext_entry(&mut z).await;
    assert_eq!(x["state"], "ready", "a stray frame harms nothing: {x}");
    let log = log_text(&x);
    assert!(
        log.contains("ignored tool_progress for id 'no-such-call'") && log.contains("1 such"),
        "one counted line: {log}"
    );
}

#[tokio::test]
async fn progress_restarts_the_idle_timeout_so_a_busy_call_outlives_it() {
    // 12 frames 0.25 s apart: three times the 1 s idle timeout in all, but
    // never 1 s without a frame.
    let plan = json!({"tools": {"busy": [
        {"repeat": 12, "steps": [{"sleep": 0.25}, {"progress": {"message": "working"}}]},
        {"result": {"content": [{"type": "text", "text": "finished"}]}}
    ]}});
    let e = env(plan, json!({})).await;
    script(&e, "busy");
    let mut z = start(&e, "1000").await;
    let evs = z.prompt("go").await;
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], false, "{r}");
    assert_eq!(r["content"][0]["text"], "finished");
    assert!(frames(&fixtures::seen(&e.ext), "tool_cancel").is_empty());
}

#[tokio::test]
async fn a_silent_call_ends_at_the_idle_timeout_and_hears_tool_cancel() {
    let plan = json!({"late_result": true, "tools": {"silent": [{"sleep": 30}]}});
    let e = env(plan, json!({})).await;
    script(&e, "silent");
    let mut z = start(&e, "500").await;
    let evs = z.prompt("go").await;
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], true);
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("idle timeout"), "says which limit: {text}");
    let c = fixtures::wait_seen(&e.ext, |v| v["type"] == "tool_cancel").await;
    assert_eq!(c["reason"], "idle_timeout", "{c}");
}

#[tokio::test]
async fn the_absolute_cap_ends_a_call_that_keeps_reporting_progress() {
    let plan = json!({"tools": {"endless": [
        {"repeat": 1000, "steps": [{"sleep": 0.1}, {"progress": {"partial": "."}}]}
    ]}});
    let e = env(plan, json!({"tool_timeout_s": 1})).await;
    script(&e, "endless");
    let mut z = start(&e, "30000").await;
    let evs = z.prompt("go").await;
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], true);
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("tool_timeout_s"), "says which limit: {text}");
    let c = fixtures::wait_seen(&e.ext, |v| v["type"] == "tool_cancel").await;
    assert_eq!(c["reason"], "timeout", "{c}");
}

#[tokio::test]
async fn abort_sends_tool_cancel_and_the_late_result_is_dropped_quietly() {
    let plan = json!({"late_result": true, "tools": {"slow": [
        {"progress": {"message": "started", "partial": "first\n"}},
        {"sleep": 60}
    ]}});
    let e = env(plan, json!({})).await;
    script(&e, "slow");
    let mut z = start(&e, "60000").await;
    z.send(json!({"type":"prompt","message":"go"})).await;
    z.until(|v| v["type"] == "tool_progress").await;
    let r = z.call(json!({"type":"abort"})).await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.until(|v| v["type"] == "done").await;
    let res = of(&evs, "tool_result");
    assert_eq!(res[0]["is_error"], true, "{evs:#?}");
    let c = fixtures::wait_seen(&e.ext, |v| v["type"] == "tool_cancel").await;
    assert_eq!(c["reason"], "aborted");
    let call = frames(&fixtures::seen(&e.ext), "tool_call")[0].clone();
    assert_eq!(c["id"], call["id"], "the cancel names the call it ends");
    // The probe answered the cancelled id anyway; the log holds no
    // protocol error for it and the extension serves on.
    fixtures::wait_seen(&e.ext, |v| v["type"] == "late_result_sent").await;
    e.s.push(anthropic_text(&["again"]));
    let evs = z.prompt("again").await;
    assert!(of(&evs, "error").is_empty(), "{evs:#?}");
    let x = ext_entry(&mut z).await;
    assert_eq!(x["state"], "ready");
    let log = log_text(&x);
    assert!(!log.contains("unknown id"), "quiet: {log}");
    assert!(!log.contains("instead of"), "no protocol error: {log}");
}

#[tokio::test]
async fn bash_streams_its_output_as_tool_progress_while_it_runs() {
    let e = env(json!({"tools": {}}), json!({})).await;
    let command = "for i in 1 2 3; do echo line $i; sleep 0.1; done";
    e.s.push(anthropic_tool(
        "",
        "tu_b",
        "bash",
        &[&json!({ "command": command }).to_string()],
    ));
    e.s.push(anthropic_text(&["done"]));
    let mut z = start(&e, "60000").await;
    let evs = z.prompt("run it").await;
    let progress = of(&evs, "tool_progress");
    assert!(!progress.is_empty(), "{evs:#?}");
    assert!(progress
        .iter()
        .all(|p| p["id"] == "tu_b" && p["extension"] == ""));
    let streamed: String = progress
        .iter()
        .filter_map(|p| p["partial"].as_str())
        .collect();
    assert_eq!(streamed, "line 1\nline 2\nline 3\n");
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], false, "{r}");
}
