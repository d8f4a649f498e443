//! The WebSocket transport for native extensions (#16): a real server (the
//! Python `websockets` package, fixtures/mcp/ws_ext.py) speaking zot
//! frames, one per message; reconnects are the restart budget's. The
//! endpoint proves it holds the extension's token before zot sends
//! `hello_ack` (which carries its settings), and plain `ws://` reaches
//! only this machine (docs/mcp.md "Native extensions over a WebSocket").

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

/// The token zot holds for the test's `wsext` (made now, in the fallback
/// file: no test writes into the machine's keychain).
fn token_of(env: &Env) -> String {
    std::env::set_var("ZOT_KEYCHAIN", "off");
    let store = zot_ext_host::secret_store::SecretStore::open(env.home.path());
    let owner = zot_ext_host::settings_store::Owner::of("wsext", &env.global_dir().join("wsext"));
    zot_ext_host::ws_auth::token(&store, &owner).unwrap()
}

/// The fixture on a free port, proving `token` (`"-"`: no proof) and
/// noting the frames it receives in `seen`.
async fn ws_server_with(token: &str, seen: &std::path::Path) -> (Server, u16) {
    ws_server_on(free_port(), token, seen).await
}

/// The same on `port` (one URL for several runs: a changed URL is a change
/// the user must accept).
async fn ws_server_on(port: u16, token: &str, seen: &std::path::Path) -> (Server, u16) {
    let server = Server(
        std::process::Command::new(venv_python())
            .arg(fixture("mcp").join("ws_ext.py"))
            .arg(port.to_string())
            .arg(token)
            .arg(seen)
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

/// The fixture, holding the token zot made for `wsext` in `env`.
async fn ws_server(env: &Env) -> (Server, u16) {
    let token = token_of(env);
    ws_server_with(&token, &env.loose.path().join("seen")).await
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
    let (_server, port) = ws_server(&env).await;
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
    let (_server, port) = ws_server(&env).await;
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

#[tokio::test]
async fn an_endpoint_that_cannot_prove_the_token_never_gets_hello_ack_or_settings() {
    let env = Env::new();
    let right = token_of(&env);
    let manifest = |port: u16| {
        raw_manifest(
            &env.global_dir(),
            "wsext",
            &json!({"name": "wsext", "transport": {"type": "websocket", "url": format!("ws://localhost:{port}")},
                "config": {"key": {"type": "string", "title": "K", "sensitive": true}}})
            .to_string(),
        )
    };
    let port = free_port();
    let dir = manifest(port);
    let owner = zot_ext_host::settings_store::Owner::of("wsext", &dir);
    let schema = zot_ext_host::manifest::load(&dir.join("extension.json"))
        .unwrap()
        .config;
    zot_ext_host::settings_store::apply(
        env.home.path(),
        &owner,
        &schema,
        &serde_json::from_value(json!({"key": "canary-ws-secret-5521"})).unwrap(),
    )
    .unwrap();
    for (proof, why) in [("-", "no \"auth\""), ("not-the-token", "proof is wrong")] {
        let seen = env.loose.path().join(format!("seen-{}", proof.len()));
        let _server = ws_server_on(port, proof, &seen).await;
        let (host, _rx) = start_settled(env.config()).await;
        let s = host.list().into_iter().find(|e| e.name == "wsext").unwrap();
        assert_eq!(s.state, ExtState::Failed, "{proof}");
        let err = s.error.unwrap_or_default();
        assert!(
            err.contains(why) && err.contains("zot ext token wsext"),
            "{err}"
        );
        host.shutdown().await;
        let got = std::fs::read_to_string(&seen).unwrap_or_default();
        assert!(!got.contains("hello_ack"), "{proof}: {got}");
    }
    // The same endpoint with the token is served, settings and all.
    let seen = env.loose.path().join("seen-right");
    let _server = ws_server_on(port, &right, &seen).await;
    let (host, _rx) = start_settled(env.config()).await;
    let s = host.list().into_iter().find(|e| e.name == "wsext").unwrap();
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    // It sends `ready` without waiting for the ack, so the ack may land
    // just after.
    eventually(|| std::fs::read_to_string(&seen).is_ok_and(|s| s.contains("hello_ack"))).await;
    host.shutdown().await;
}

#[tokio::test]
async fn plain_ws_to_another_machine_is_refused() {
    let env = Env::new();
    for url in ["ws://10.255.255.1:9000", "ws://example.invalid/x"] {
        ws_manifest(&env, url);
        let (host, _rx) = start(env.config()).await;
        let s = host.list().into_iter().find(|e| e.name == "wsext").unwrap();
        assert_eq!(s.state, ExtState::Failed);
        let err = s.error.unwrap_or_default();
        assert!(
            err.contains("transport") && err.contains("wss://"),
            "{url}: {err}"
        );
        host.shutdown().await;
    }
}
