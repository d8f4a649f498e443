//! MCP Apps over RPC (#38, docs/mcp.md "MCP Apps", docs/rpc.md): a tool
//! naming a `ui://` resource ends in a `tool_result` carrying
//! `app{resource_uri, html}` (or `app_note` saying why not); an app's
//! `app_tool_call` passes the approval gate and reaches only its own
//! server; its `app_message` becomes a prompt that says it came from the
//! app. Real Python MCP servers (`make deps-mcp`).

use crate::rpc_approvals::answer;
use crate::rpc_mcp::{mcp_fixture, until_ready};

use std::path::{Path, PathBuf};

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

/// An MCP entry `name` under `home` running the fixture `script`.
fn entry(home: &Path, name: &str, script: &str) -> PathBuf {
    let python = mcp_fixture().join(".venv/bin/python");
    assert!(
        python.exists(),
        "{} missing: run `make deps-mcp`",
        python.display()
    );
    let dir = home.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("extension.json"),
        json!({"name": name, "kind": "mcp", "command": python,
               "args": [mcp_fixture().join(script)]})
        .to_string(),
    )
    .unwrap();
    dir
}

async fn start(s: &FakeLlm, home: &Path, cwd: &Path, approvals: &str, exts: &[&Path]) -> Rpc {
    let mut args = vec![
        "--no-session".to_owned(),
        "--base-url".into(),
        s.url.clone(),
        "--api-key".into(),
        "k".into(),
        "--no-ext".into(),
        "--approvals".into(),
        approvals.into(),
    ];
    for e in exts {
        args.push("-e".into());
        args.push(e.to_str().unwrap().into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    Rpc::start(home, cwd, &args, &[]).await
}

#[tokio::test]
async fn a_tool_result_carries_its_app_or_a_note_saying_why_not() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let apps = entry(home.path(), "apps", "app_server.py");
    s.push(anthropic_tool(
        "",
        "t1",
        "show_chart",
        &["{\"title\":\"q3\"}"],
    ));
    s.push(anthropic_tool("", "t2", "wrong_mime", &["{}"]));
    s.push(anthropic_text(&["done"]));
    let mut z = start(&s, home.path(), cwd.path(), "auto", &[&apps]).await;
    until_ready(&mut z, "apps").await;
    let evs = z.prompt("chart it").await;
    let results = of(&evs, "tool_result");
    assert_eq!(results.len(), 2, "{evs:#?}");
    let chart = results[0];
    assert_eq!(chart["content"][0]["text"], "chart 'q3': 3 bars");
    assert_eq!(chart["app"]["resource_uri"], "ui://zot-test/chart");
    assert!(chart["app"]["html"].as_str().unwrap().contains("chart app"));
    assert_eq!(chart["app"]["structured_content"]["bars"], json!([3, 1, 2]));
    assert!(chart.get("app_note").is_none(), "{chart}");
    let plain = results[1];
    assert_eq!(plain["content"][0]["text"], "wrong_mime ran");
    assert!(plain.get("app").is_none(), "{plain}");
    assert!(plain["app_note"]
        .as_str()
        .unwrap()
        .contains("not text/html;profile=mcp-app"));
    // The model saw the text, never the HTML.
    let second = s.requests()[1].body.to_string();
    assert!(second.contains("chart 'q3': 3 bars") && !second.contains("chart app"));
}

#[tokio::test]
async fn an_apps_tool_call_passes_the_approval_gate_and_stays_on_its_server() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let apps = entry(home.path(), "apps", "app_server.py");
    let other = entry(home.path(), "other", "server.py");
    let mut z = start(&s, home.path(), cwd.path(), "ask", &[&apps, &other]).await;
    until_ready(&mut z, "apps").await;
    until_ready(&mut z, "other").await;

    // A tool of another server: refused before anything runs or is asked.
    let r = z
        .call(json!({"type": "app_tool_call", "extension": "apps", "tool": "echo", "args": {"text": "x"}}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    let e = r["error"].as_str().unwrap();
    assert!(
        e.contains("a tool of other") && e.contains("refused"),
        "{e}"
    );
    assert_eq!(r["code"], "denied", "{r}");
    let r = z
        .call(json!({"type": "app_tool_call", "extension": "apps", "tool": "nope", "args": {}}))
        .await;
    assert!(r["error"].as_str().unwrap().contains("has no tool"), "{r}");
    assert_eq!(r["code"], "not_found", "{r}");

    // Its own tool: asked about, then run when allowed.
    let id = z
        .send(json!({"type": "app_tool_call", "extension": "apps", "tool": "add", "args": {"a": 2, "b": 3}}))
        .await;
    let ap = z
        .until(|v| v["type"] == "tool_approval")
        .await
        .pop()
        .unwrap();
    assert_eq!(ap["tool"], "add");
    assert_eq!(ap["extension"], "apps");
    assert!(ap["call_id"].as_str().unwrap().starts_with("app-"), "{ap}");
    answer(&mut z, &ap["id"], "allow", json!({})).await;
    let r = z.response(&id).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["content"][0]["text"], "sum: 5");
    assert_eq!(r["data"]["is_error"], false);

    // Denied: an error for the app, and the tool did not run.
    let id = z
        .send(json!({"type": "app_tool_call", "extension": "apps", "tool": "add", "args": {"a": 1, "b": 1}}))
        .await;
    let ap = z
        .until(|v| v["type"] == "tool_approval")
        .await
        .pop()
        .unwrap();
    answer(&mut z, &ap["id"], "deny", json!({})).await;
    let r = z.response(&id).await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("denied by the user"),
        "{r}"
    );

    // ui/message: a prompt that says it came from the app.
    s.push(anthropic_text(&["about bar 2"]));
    let r = z
        .call(json!({"type": "app_message", "extension": "apps", "resource_uri": "ui://zot-test/chart", "text": "tell me about bar 2"}))
        .await;
    assert_eq!(r["data"]["started"], true, "{r}");
    let um = z
        .until(|v| v["type"] == "user_message")
        .await
        .pop()
        .unwrap();
    assert_eq!(um["content"], "tell me about bar 2");
    assert_eq!(um["extension"], "apps");
    assert_eq!(um["app"], "ui://zot-test/chart");
    let r = z
        .call(json!({"type": "app_message", "extension": "apps", "resource_uri": "ui://zot-test/chart", "text": "  "}))
        .await;
    assert_eq!(r["success"], false, "{r}");

    // Every call an app asked for, and what became of it, is in its
    // server's log.
    let log = std::fs::read_to_string(home.path().join("logs/ext-apps.log")).unwrap();
    assert!(log.contains("MCP App: asks to call add"), "{log}");
    assert!(log.contains("did not run: denied by the user"), "{log}");
}
