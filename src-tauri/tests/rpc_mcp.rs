//! An MCP server's tool through the whole agent (#16): advertised to the
//! model, intercepted by a native extension, run by the real Python `mcp`
//! server, and attributed in `tool_result.extension`. Needs `make deps-mcp`.

use zot_test_support::fixtures;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

pub(crate) fn mcp_fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../extensions/host/tests/fixtures/mcp")
}

/// Writes the entry `pymcp` for the Python `mcp` fixture server under `home`.
fn pymcp_entry(home: &Path) -> PathBuf {
    let python = mcp_fixture().join(".venv/bin/python");
    assert!(
        python.exists(),
        "{} missing: run `make deps-mcp`",
        python.display()
    );
    let mcp = home.join("pymcp");
    std::fs::create_dir_all(&mcp).unwrap();
    std::fs::write(
        mcp.join("extension.json"),
        json!({"name": "pymcp", "kind": "mcp", "command": python,
               "args": [mcp_fixture().join("server.py")]})
        .to_string(),
    )
    .unwrap();
    mcp
}

/// zot waits a bounded time (5 s) for its extensions at start and lets a
/// slow one finish in the background; on a loaded machine the Python server
/// (about a second of imports here) can still be loading then, and the
/// model would be sent no MCP tools. So the tests wait for it.
pub(crate) async fn until_ready(z: &mut Rpc, name: &str) {
    for _ in 0..300 {
        let list = z.call(json!({"type": "ext_list"})).await;
        let state = list["data"]["extensions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .map(|e| e["state"].clone());
        match state.as_ref().and_then(Value::as_str) {
            Some("ready") => return,
            Some("loading") | None => {}
            Some(other) => panic!("{name} is {other}, not ready: {list}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{name} was not ready within 30 s");
}

#[tokio::test]
async fn an_mcp_tool_is_advertised_intercepted_called_and_attributed() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // A native extension that rewrites every tool call's arguments.
    let fx = fixtures::agent_ext(
        home.path(),
        "fx-src",
        json!({"subscribe": {"intercept": ["tool_call"]},
               "intercept": {"tool_call": {"modified_args": {"text": "GUARDED"}}}}),
    );
    let mcp = pymcp_entry(home.path());
    s.push(anthropic_tool(
        "",
        "t1",
        "echo",
        &["{\"text\":\"original\"}"],
    ));
    s.push(anthropic_text(&["done"]));
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &[
            "--no-session",
            "--no-ext",
            "-e",
            fx.to_str().unwrap(),
            "-e",
            mcp.to_str().unwrap(),
        ],
        &[],
    )
    .await;
    until_ready(&mut z, "pymcp").await;
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

/// Under `--approvals ask`, an MCP tool the server marks read-only is asked
/// about like any other (the event says it is the server's claim), until
/// the user trusts that server's claims; one it does not mark is asked
/// about either way.
#[tokio::test]
async fn a_read_only_mcp_tool_is_asked_about_until_its_server_is_trusted() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mcp = pymcp_entry(home.path());
    s.push(anthropic_tool("", "t0", "echo", &["{\"text\":\"first\"}"]));
    s.push(anthropic_text(&["asked"]));
    s.push(anthropic_tool("", "t1", "echo", &["{\"text\":\"hi\"}"]));
    s.push(anthropic_tool("", "t2", "wipe", &["{\"path\":\"/tmp/x\"}"]));
    s.push(anthropic_text(&["done"]));
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &[
            "--no-session",
            "--no-ext",
            "--approvals",
            "ask",
            "-e",
            mcp.to_str().unwrap(),
        ],
        &[],
    )
    .await;
    until_ready(&mut z, "pymcp").await;
    z.send(json!({"type": "prompt", "message": "echo"})).await;
    let asked = z
        .until(|v| v["type"] == "tool_approval")
        .await
        .pop()
        .unwrap();
    assert_eq!(asked["tool"], "echo", "{asked}");
    assert_eq!(asked["read_only_claim"], true, "{asked}");
    z.send_raw(&json!({"type": "approve_tool", "id": asked["id"], "decision": "deny"}).to_string())
        .await;
    z.until(|v| v["type"] == "done").await;

    std::fs::write(
        home.path().join("config.json"),
        json!({"approvals": {"extensions": {"pymcp": {"trust_read_only": true}}}}).to_string(),
    )
    .unwrap();
    z.send(json!({"type": "prompt", "message": "use both"}))
        .await;
    let evs = z.until(|v| v["type"] == "tool_approval").await;
    // The trusted server's read-only echo ran first without a question.
    let echo = of(&evs, "tool_result")[0];
    assert_eq!(echo["content"][0]["text"], "echo: hi", "{echo}");
    let asked = evs.last().unwrap();
    assert_eq!(asked["tool"], "wipe", "{asked}");
    assert!(asked.get("read_only_claim").is_none(), "{asked}");
    let id = asked["id"].as_str().unwrap().to_owned();
    // The approval's id is the line's own id (docs/rpc.md "Tool approvals").
    z.send_raw(&json!({"type": "approve_tool", "id": id, "decision": "deny"}).to_string())
        .await;
    let rest = z.until(|v| v["type"] == "done").await;
    assert!(of(&rest, "tool_result")[0]["is_error"].as_bool().unwrap());
    z.close().await;
}
