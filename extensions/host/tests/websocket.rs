//! The WebSocket transport for native extensions (#16): a real server (the
//! Python `websockets` package, fixtures/mcp/ws_ext.py) speaking zot
//! frames, one per message; reconnects are the restart budget's.

#[path = "support/support.rs"]
mod support;

use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;
use support::*;
use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::ContentBlock;

fn venv_python() -> PathBuf {
    let p = fixture("mcp").join(".venv/bin/python");
    assert!(
        p.exists(),
        "{} is missing: run `make deps-mcp`",
        p.display()
    );
    p
}

struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn ws_server() -> (Server, u16) {
    let port = free_port();
    let server = Server(
        std::process::Command::new(venv_python())
            .arg(fixture("mcp").join("ws_ext.py"))
            .arg(port.to_string())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    );
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return (server, port);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the WebSocket fixture did not listen on {port}");
}

fn ws_manifest(env: &Env, url: &str) {
    raw_manifest(
        &env.global_dir(),
        "wsext",
        &json!({"name": "wsext", "transport": {"type": "websocket", "url": url}}).to_string(),
    );
}

fn text(c: &[ContentBlock]) -> String {
    match c.first() {
        Some(ContentBlock::Text { text }) => text.clone(),
        other => panic!("not text: {other:?}"),
    }
}

#[tokio::test]
async fn an_extension_over_a_websocket_registers_and_answers() {
    let env = Env::new();
    let (_server, port) = ws_server().await;
    ws_manifest(&env, &format!("ws://127.0.0.1:{port}"));
    let (host, _rx) = start(env.config()).await;
    let s = host.list().into_iter().find(|e| e.name == "wsext").unwrap();
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    let out = host
        .call_tool("ws_echo", json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(out.extension, "wsext");
    assert_eq!(text(&out.content), "ws: hi");
    host.shutdown().await;
    assert!(
        env.log("wsext").contains("acknowledged shutdown"),
        "{}",
        env.log("wsext")
    );
}

#[tokio::test]
async fn a_dropped_connection_is_reconnected_within_the_restart_budget() {
    let env = Env::new();
    let (_server, port) = ws_server().await;
    ws_manifest(&env, &format!("ws://127.0.0.1:{port}"));
    let (host, _rx) = start(env.config()).await;
    assert_eq!(
        text(&host.call_tool("ws_count", json!({})).await.unwrap().content),
        "1"
    );
    // The server drops the connection instead of answering: the call fails
    // with the log path, then the host reconnects after the backoff.
    let err = host
        .call_tool("ws_drop", json!({}))
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("ext-wsext.log"), "{err}");
    eventually(|| {
        host.list()
            .iter()
            .any(|e| e.name == "wsext" && e.state == ExtState::Ready && e.restarts == 1)
    })
    .await;
    assert_eq!(
        text(&host.call_tool("ws_count", json!({})).await.unwrap().content),
        "2"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn nothing_listening_is_a_clear_failure() {
    let env = Env::new();
    let port = free_port();
    ws_manifest(&env, &format!("ws://127.0.0.1:{port}"));
    raw_manifest(
        &env.global_dir(),
        "wss",
        &json!({"name": "wss", "transport": {"type": "websocket", "url": "http://x"}}).to_string(),
    );
    let (host, _rx) = start(env.config()).await;
    let s = host.list().into_iter().find(|e| e.name == "wsext").unwrap();
    assert_eq!(s.state, ExtState::Failed);
    let err = s.error.unwrap();
    assert!(
        err.contains("could not connect") && err.contains("ext-wsext.log"),
        "{err}"
    );
    let s = host.list().into_iter().find(|e| e.name == "wss").unwrap();
    assert!(s.error.unwrap().contains("transport"));
    host.shutdown().await;
}
