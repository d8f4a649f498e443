//! An MCP server's tool through the whole agent (#16): advertised to the
//! model, intercepted by a native extension, run by the real Python `mcp`
//! server, and attributed in `tool_result.extension`. Needs `make deps-mcp`.

#[path = "support/ext_fixture.rs"]
mod ext_fixture;
#[path = "support/fake_llm.rs"]
mod fake_llm;
#[path = "support/zot_proc.rs"]
mod zot_proc;

use std::path::PathBuf;

use fake_llm::*;
use serde_json::{json, Value};
use zot_proc::*;

fn mcp_fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../extensions/host/tests/fixtures/mcp")
}

#[tokio::test]
async fn an_mcp_tool_is_advertised_intercepted_called_and_attributed() {
    let python = mcp_fixture().join(".venv/bin/python");
    assert!(
        python.exists(),
        "{} missing: run `make deps-mcp`",
        python.display()
    );
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // A native extension that rewrites every tool call's arguments.
    let fx = ext_fixture::make(
        home.path(),
        "fx-src",
        json!({"subscribe": {"intercept": ["tool_call"]},
               "intercept": {"tool_call": {"modified_args": {"text": "GUARDED"}}}}),
    );
    let mcp = home.path().join("pymcp");
    std::fs::create_dir_all(&mcp).unwrap();
    std::fs::write(
        mcp.join("extension.json"),
        json!({"name": "pymcp", "kind": "mcp", "command": python,
               "args": [mcp_fixture().join("server.py")]})
        .to_string(),
    )
    .unwrap();
    s.push(anthropic_tool(
        "",
        "t1",
        "echo",
        &["{\"text\":\"original\"}"],
    ));
    s.push(anthropic_text(&["done"]));
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &[
            "--no-session",
            "--base-url",
            &s.url,
            "--api-key",
            "k",
            "--no-ext",
            "-e",
            fx.to_str().unwrap(),
            "-e",
            mcp.to_str().unwrap(),
        ],
        &[],
    )
    .await;
    let evs = z.prompt("echo something").await;
    let tools: Vec<Value> = s.requests()[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert!(tools.contains(&json!("echo")), "{tools:?}");
    let call = of(&evs, "tool_call")[0];
    assert_eq!(call["extension"], "pymcp", "{call}");
    assert_eq!(call["args"], json!({"text": "GUARDED"}));
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["extension"], "pymcp", "{r}");
    assert_eq!(r["content"][0]["text"], "echo: GUARDED");
    let list = z.call(json!({"type": "ext_list"})).await;
    let entry = list["data"]["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "pymcp")
        .unwrap()
        .clone();
    assert_eq!(entry["kind"], "mcp");
    let echo = entry["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "echo")
        .unwrap();
    assert_eq!(echo["read_only"], true);
}
