//! MCP servers as extensions (#16, docs/mcp.md), against real servers: the
//! Python `mcp` SDK over stdio and streamable HTTP, and the npm
//! `@modelcontextprotocol/server-everything`. `make deps` (deps-mcp)
//! installs them under tests/fixtures/mcp.

use crate::support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use support::*;
use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::{ContentBlock, ExtKind};

pub(crate) fn mcp_dir() -> PathBuf {
    fixture("mcp")
}

/// The venv's interpreter; the tests need the real `mcp` package.
pub(crate) fn venv_python() -> PathBuf {
    let p = mcp_dir().join(".venv/bin/python");
    assert!(
        p.exists(),
        "{} is missing: run `make deps-mcp` (it installs the MCP test servers)",
        p.display()
    );
    p
}

/// An MCP entry in `root/name` with this manifest body.
fn entry(root: &Path, name: &str, body: Value) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut m = json!({"name": name, "kind": "mcp"});
    for (k, v) in body.as_object().unwrap() {
        m[k] = v.clone();
    }
    std::fs::write(dir.join("extension.json"), m.to_string()).unwrap();
    dir
}

fn stdio_entry(env: &Env, name: &str, extra_env: Value) -> PathBuf {
    entry(
        &env.global_dir(),
        name,
        json!({
            "command": venv_python(),
            "args": [mcp_dir().join("server.py")],
            "env": extra_env,
        }),
    )
}

fn text_of(c: &[ContentBlock]) -> String {
    c.iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits until something accepts connections on `port`.
async fn wait_port(port: u16) {
    for _ in 0..200 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("nothing listens on {port}");
}

/// A background server process, killed on drop.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(args: &[&str]) -> Server {
    Server(
        std::process::Command::new(venv_python())
            .args(args)
            .current_dir(mcp_dir())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap(),
    )
}

#[tokio::test]
async fn a_sandboxed_stdio_server_starts_and_answers() {
    let env = Env::new();
    // The venv's interpreter links to the one it was made from: both are
    // granted, and nothing else of the host.
    let out = std::process::Command::new(venv_python())
        .args(["-c", "import sys;print(sys.base_prefix)"])
        .output()
        .unwrap();
    let base = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    entry(
        &env.global_dir(),
        "boxed",
        json!({
            "command": venv_python(),
            "args": [mcp_dir().join("server.py")],
            "sandbox": {"read": [mcp_dir(), base]},
        }),
    );
    let (host, _rx) = start_settled(env.config()).await;
    let s = summary(&host, "boxed");
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?}\n{}",
        s.error,
        env.log("boxed")
    );
    assert!(s.sandboxed);
    let out = host
        .call_tool("echo", json!({"text": "boxed"}))
        .await
        .unwrap();
    assert!(!out.is_error);
    assert_eq!(text_of(&out.content), "echo: boxed");
    host.shutdown().await;
}

#[tokio::test]
async fn a_stdio_server_is_an_extension_with_its_tools_and_annotations() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    let list = host.list();
    let s = list.iter().find(|e| e.name == "pyserver").unwrap();
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    assert_eq!(s.kind, ExtKind::Mcp);
    let echo = s.tools.iter().find(|t| t.name == "echo").unwrap();
    assert!(echo.read_only && !echo.destructive);
    let wipe = s.tools.iter().find(|t| t.name == "wipe").unwrap();
    assert!(wipe.destructive && !wipe.read_only);
    let tools = host.tools();
    let t = tools.iter().find(|t| t.name == "echo").unwrap();
    assert_eq!(t.extension, "pyserver");
    assert!(t.read_only);

    let out = host.call_tool("echo", json!({"text": "hi"})).await.unwrap();
    assert_eq!(out.extension, "pyserver");
    assert!(!out.is_error);
    assert_eq!(text_of(&out.content), "echo: hi");

    // Images and resource links reach the model.
    let out = host.call_tool("picture", json!({})).await.unwrap();
    assert!(
        matches!(&out.content[0], ContentBlock::Image { mime_type, .. } if mime_type == "image/png")
    );
    let t = text_of(&out.content);
    assert!(
        t.contains("file:///tmp/readme.md") && t.contains("done"),
        "{t}"
    );

    // The server's stderr is in the entry's log.
    assert!(env.log("pyserver").contains("zot-test MCP server starting"));
    host.shutdown().await;
    assert_eq!(
        host.list()
            .iter()
            .find(|e| e.name == "pyserver")
            .unwrap()
            .state,
        ExtState::Exited
    );
}

#[tokio::test]
async fn prompts_are_slash_commands_with_arguments_from_the_line() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    assert!(
        host.commands().iter().any(|c| c.name == "pyserver:review"),
        "{:?}",
        host.commands()
    );
    let out = host
        .invoke_command("/pyserver:review", "main.rs speed")
        .await
        .unwrap();
    assert_eq!(
        out.response.prompt.as_deref(),
        Some("Please review main.rs for speed.")
    );
    let out = host.invoke_command("pyserver:review", "").await.unwrap();
    assert!(
        out.response.error.as_deref().unwrap_or("").contains("file"),
        "{:?}",
        out.response
    );
    host.shutdown().await;
}

#[tokio::test]
async fn list_changed_updates_the_registry() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    assert!(!host.tools().iter().any(|t| t.name == "late"));
    host.call_tool("grow", json!({})).await.unwrap();
    eventually(|| host.tools().iter().any(|t| t.name == "late")).await;
    let out = host.call_tool("late", json!({})).await.unwrap();
    assert_eq!(text_of(&out.content), "late answer");
    // The old tools are still there, once each.
    let echoes = host.tools().iter().filter(|t| t.name == "echo").count();
    assert_eq!(echoes, 1);
    host.shutdown().await;
}

#[tokio::test]
async fn a_call_made_while_the_tool_list_is_refreshed_never_misses_its_tool() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    let host = std::sync::Arc::new(host);
    // Thirty refreshes of the same list while `echo` is called over and
    // over: the old list serves until the new one is in.
    let churning = host.clone();
    let churn =
        tokio::spawn(async move { churning.call_tool("churn", json!({"times": 30})).await });
    let mut calls = 0;
    while !churn.is_finished() || calls < 30 {
        let out = host
            .call_tool("echo", json!({"text": format!("call {calls}")}))
            .await
            .unwrap_or_else(|e| panic!("call {calls} failed during a refresh: {e}"));
        assert_eq!(text_of(&out.content), format!("echo: call {calls}"));
        calls += 1;
    }
    churn.await.unwrap().unwrap();
    let log = env.log("pyserver");
    assert!(log.contains("MCP: the tool list changed"), "{log}");
    assert_eq!(host.tools().iter().filter(|t| t.name == "echo").count(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_that_announces_a_change_after_its_handshake_serves_calls_throughout() {
    // The list_changed arrives while zot registers the first listing; a
    // call made from the moment the tool is listed must never miss it.
    for run in 0..8 {
        let env = Env::new();
        stdio_entry(&env, "pyserver", json!({"ANNOUNCE_AT_START": "1"}));
        let (host, _rx) = start(env.config()).await;
        eventually(|| host.tools().iter().any(|t| t.name == "echo")).await;
        let mut calls = 0;
        while calls < 5 || !env.log("pyserver").contains("MCP: the tool list changed") {
            let out = host
                .call_tool("echo", json!({"text": "x"}))
                .await
                .unwrap_or_else(|e| panic!("run {run}, call {calls}: {e}"));
            assert_eq!(text_of(&out.content), "echo: x");
            calls += 1;
            assert!(calls < 2000, "run {run}: the change was never applied");
        }
        assert_eq!(host.tools().iter().filter(|t| t.name == "echo").count(), 1);
        host.shutdown().await;
    }
}

#[tokio::test]
async fn a_prompt_list_change_updates_the_commands() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    host.call_tool("grow_prompt", json!({})).await.unwrap();
    eventually(|| host.commands().iter().any(|c| c.name == "pyserver:later")).await;
    assert!(host.commands().iter().any(|c| c.name == "pyserver:review"));
    let out = host
        .invoke_command("pyserver:later", "rust lifetimes")
        .await
        .unwrap();
    assert_eq!(
        out.response.prompt.as_deref(),
        Some("Tell me about rust lifetimes.")
    );
    host.shutdown().await;
}

#[tokio::test]
async fn abort_sends_cancelled_and_progress_is_logged() {
    let env = Env::new();
    let mark = env.loose.path().join("cancelled");
    stdio_entry(&env, "pyserver", json!({"CANCEL_MARK": mark}));
    let (host, _rx) = start_settled(env.config()).await;
    // The agent aborts by dropping the call.
    let call = host.call_tool("slow", json!({"seconds": 30}));
    let _ = tokio::time::timeout(Duration::from_millis(1500), call).await;
    eventually(|| mark.exists()).await;
    assert!(
        env.log("pyserver")
            .contains("MCP progress of slow: 1/4: step 1"),
        "{}",
        env.log("pyserver")
    );
    // The server keeps working.
    let out = host
        .call_tool("echo", json!({"text": "after"}))
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "echo: after");
    host.shutdown().await;
}

#[tokio::test]
async fn mcp_progress_notifications_become_tool_progress() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    let seen = std::sync::Mutex::new(Vec::new());
    let out = host
        .call_tool_with("slow", json!({"seconds": 0.4}), &|u| {
            seen.lock().unwrap().push(u)
        })
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "slow done");
    let seen = seen.into_inner().unwrap();
    assert!(!seen.is_empty(), "no progress reached the caller");
    assert!(seen.iter().all(|u| u.total == Some(4.0)), "{seen:?}");
    assert!(
        seen.iter()
            .any(|u| u.message.as_deref().is_some_and(|m| m.starts_with("step "))),
        "{seen:?}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn many_tools_are_deferred_behind_a_search_tool() {
    let env = Env::new();
    stdio_entry(&env, "big", json!({"MANY_TOOLS": "40"}));
    let (host, _rx) = start_settled(env.config()).await;
    let visible: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(visible, vec!["big_tools".to_owned()], "{visible:?}");
    let out = host
        .call_tool("big_tools", json!({"query": "number 7"}))
        .await
        .unwrap();
    assert!(
        out.activated.iter().any(|n| n == "extra_7"),
        "{:?}",
        out.activated
    );
    assert!(host.tools().iter().any(|t| t.name == "extra_7"));
    let out = host.call_tool("extra_7", json!({})).await.unwrap();
    assert_eq!(text_of(&out.content), "tool 7");
    host.shutdown().await;
}

#[tokio::test]
async fn a_streamable_http_server_works_the_same() {
    let env = Env::new();
    let port = free_port();
    let _server = serve(&["server.py", "http", &port.to_string()]);
    wait_port(port).await;
    entry(
        &env.global_dir(),
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/mcp"), "headers": {"X-Test": "1"}}),
    );
    let (host, _rx) = start_settled(env.config()).await;
    let s = host.list().into_iter().find(|e| e.name == "web").unwrap();
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    let out = host
        .call_tool("echo", json!({"text": "web"}))
        .await
        .unwrap();
    assert_eq!(out.extension, "web");
    assert_eq!(text_of(&out.content), "echo: web");
    host.shutdown().await;
}

#[tokio::test]
async fn server_everything_from_npm_is_listed_and_called() {
    let env = Env::new();
    let bin = mcp_dir().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        bin.exists(),
        "{} missing: run `make deps-mcp`",
        bin.display()
    );
    entry(
        &env.global_dir(),
        "everything",
        json!({"command": "node", "args": [bin, "stdio"]}),
    );
    let (host, _rx) = start_settled(env.config()).await;
    let s = host
        .list()
        .into_iter()
        .find(|e| e.name == "everything")
        .unwrap();
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?} {}",
        s.error,
        env.log("everything")
    );
    assert!(s.tools.iter().any(|t| t.name == "echo"), "{:?}", s.tools);
    let out = host
        .call_tool("echo", json!({"message": "hey"}))
        .await
        .unwrap();
    assert!(text_of(&out.content).contains("hey"), "{:?}", out.content);
    host.shutdown().await;
}

#[tokio::test]
async fn a_tool_clashing_with_another_extension_is_shadowed_as_for_native_ones() {
    let env = Env::new();
    // "a-native" loads first (directory order) and owns `echo`.
    env.global(
        "a-native",
        json!({"register":[{"type":"register_tool","name":"echo","schema":{"type":"object"}}]}),
    );
    stdio_entry(&env, "pyserver", json!({}));
    let mut cfg = env.config();
    cfg.builtin_tools = vec!["wipe".into()];
    let (host, _rx) = start_settled(cfg).await;
    let tools = host.tools();
    assert_eq!(
        tools.iter().find(|t| t.name == "echo").unwrap().extension,
        "a-native"
    );
    assert!(!tools.iter().any(|t| t.name == "wipe"));
    let s = host
        .list()
        .into_iter()
        .find(|e| e.name == "pyserver")
        .unwrap();
    assert!(
        s.shadowed.iter().any(|x| x.name == "echo"),
        "{:?}",
        s.shadowed
    );
    assert!(
        s.shadowed
            .iter()
            .any(|x| x.name == "wipe" && x.by == "built-in"),
        "{:?}",
        s.shadowed
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_that_never_answers_initialize_fails_with_its_log_path() {
    let env = Env::new();
    entry(
        &env.global_dir(),
        "silent",
        json!({"command": venv_python(), "args": [mcp_dir().join("bad_server.py"), "silent"]}),
    );
    env.global(
        "native",
        json!({"register":[{"type":"register_tool","name":"still","schema":{"type":"object"}}]}),
    );
    let mut cfg = env.config();
    cfg.hello_timeout = Duration::from_secs(2);
    let (host, _rx) = start_settled(cfg).await;
    let s = host
        .list()
        .into_iter()
        .find(|e| e.name == "silent")
        .unwrap();
    assert_eq!(s.state, ExtState::Failed);
    let err = s.error.unwrap();
    assert!(
        err.contains("MCP handshake") && err.contains("ext-silent.log"),
        "{err}"
    );
    assert!(env.log("silent").contains("never answering"));
    // The others keep working.
    let out = host.call_tool("still", json!({})).await.unwrap();
    assert!(!out.is_error);
    host.shutdown().await;
}

#[tokio::test]
async fn malformed_json_rpc_and_http_500_are_clear_errors() {
    let env = Env::new();
    entry(
        &env.global_dir(),
        "garbage",
        json!({"command": venv_python(), "args": [mcp_dir().join("bad_server.py"), "garbage"]}),
    );
    let port = free_port();
    let _server = serve(&["bad_server.py", "http500", &port.to_string()]);
    wait_port(port).await;
    entry(
        &env.global_dir(),
        "broken-web",
        json!({"url": format!("http://127.0.0.1:{port}/mcp")}),
    );
    let mut cfg = env.config();
    cfg.hello_timeout = Duration::from_secs(3);
    let (host, _rx) = start_settled(cfg).await;
    for name in ["garbage", "broken-web"] {
        let s = host.list().into_iter().find(|e| e.name == name).unwrap();
        assert_eq!(s.state, ExtState::Failed, "{name}");
        let err = s.error.unwrap();
        assert!(err.contains(&format!("ext-{name}.log")), "{err}");
    }
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_that_dies_mid_call_fails_the_call_and_is_restarted() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    let err = host.call_tool("die", json!({})).await;
    let msg = match err {
        Err(e) => e.to_string(),
        Ok(o) => {
            assert!(o.is_error);
            text_of(&o.content)
        }
    };
    assert!(msg.contains("ext-pyserver.log"), "{msg}");
    assert!(env.log("pyserver").contains("about to die mid-call"));
    // Supervised like an extension: back after the first backoff.
    eventually(|| {
        host.list()
            .iter()
            .any(|e| e.name == "pyserver" && e.state == ExtState::Ready && e.restarts == 1)
    })
    .await;
    let out = host
        .call_tool("echo", json!({"text": "back"}))
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "echo: back");
    host.shutdown().await;
}

#[tokio::test]
async fn bad_mcp_manifests_name_the_field() {
    let env = Env::new();
    entry(&env.global_dir(), "neither", json!({}));
    entry(
        &env.global_dir(),
        "both",
        json!({"command": "python3", "url": "http://x"}),
    );
    entry(&env.global_dir(), "ftp", json!({"url": "ftp://x"}));
    let (host, _rx) = start_settled(env.config()).await;
    for (name, field) in [("neither", "command"), ("both", "url"), ("ftp", "url")] {
        let s = host.list().into_iter().find(|e| e.name == name).unwrap();
        assert_eq!(s.state, ExtState::Failed, "{name}");
        let err = s.error.unwrap();
        assert!(err.contains(field), "{name}: {err}");
    }
    host.shutdown().await;
}

#[tokio::test]
async fn a_call_that_hangs_fails_at_the_tool_timeout_and_others_keep_working() {
    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let mut cfg = env.config();
    cfg.tool_timeout = Duration::from_secs(1);
    let (host, _rx) = start_settled(cfg).await;
    let err = host
        .call_tool("slow", json!({"seconds": 30}))
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains("timed out") || err.contains("1 s"), "{err}");
    assert!(err.contains("ext-pyserver.log"), "{err}");
    let out = host
        .call_tool("echo", json!({"text": "still"}))
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "echo: still");
    host.shutdown().await;
}

#[tokio::test]
async fn an_http_server_that_goes_away_mid_call_fails_the_call() {
    let env = Env::new();
    let port = free_port();
    let server = serve(&["server.py", "http", &port.to_string()]);
    wait_port(port).await;
    entry(
        &env.global_dir(),
        "web",
        json!({"url": format!("http://127.0.0.1:{port}/mcp"), "restart": "never"}),
    );
    let (host, _rx) = start_settled(env.config()).await;
    let call = tokio::spawn({
        let host = host.clone();
        async move { host.call_tool("slow", json!({"seconds": 20})).await }
    });
    tokio::time::sleep(Duration::from_millis(800)).await;
    drop(server);
    let r = tokio::time::timeout(Duration::from_secs(30), call)
        .await
        .expect("the call ended when the server went away")
        .unwrap();
    let msg = match r {
        Err(e) => e.to_string(),
        Ok(o) => {
            assert!(o.is_error, "{:?}", o.content);
            text_of(&o.content)
        }
    };
    assert!(msg.contains("ext-web.log"), "{msg}");
    host.shutdown().await;
}

#[tokio::test]
async fn a_project_entry_waits_for_trust_like_an_extension() {
    let env = Env::new();
    entry(
        &env.project_dir(),
        "projmcp",
        json!({"command": venv_python(), "args": [mcp_dir().join("server.py")]}),
    );
    entry(
        &env.project_dir(),
        "projweb",
        json!({"url": "http://127.0.0.1:9/mcp"}),
    );
    let (host, _rx) = start(env.untrusted_config()).await;
    for name in ["projmcp", "projweb"] {
        let s = host.list().into_iter().find(|e| e.name == name).unwrap();
        assert_eq!(s.state, ExtState::Untrusted, "{name}");
    }
    let waiting = host.untrusted_extensions();
    let m = waiting.iter().find(|u| u.name == "projmcp").unwrap();
    assert!(m.exec.contains("server.py"), "{}", m.exec);
    let w = waiting.iter().find(|u| u.name == "projweb").unwrap();
    assert_eq!(w.exec, "http://127.0.0.1:9/mcp");
    assert!(host.tools().is_empty());
    host.shutdown().await;
}

#[tokio::test]
async fn elicitation_is_a_form_or_url_dialog_answered_as_the_mcp_result() {
    use zot_ext_host::HostEvent;
    use zot_ext_protocol::rpc::UiEvent;
    use zot_ext_protocol::{DialogAction, DialogKind};

    let env = Env::new();
    stdio_entry(&env, "pyserver", json!({}));
    let (host, mut rx) = start_settled(env.config()).await;
    async fn next_request(
        rx: &mut tokio::sync::mpsc::Receiver<HostEvent>,
        env: &Env,
    ) -> Box<zot_ext_protocol::UiRequestEvent> {
        loop {
            let Ok(ev) = tokio::time::timeout(Duration::from_secs(30), rx.recv()).await else {
                panic!("no ui_request within 30 s; log:\n{}", env.log("pyserver"));
            };
            if let Some(HostEvent::Ui(UiEvent::UiRequest(r))) = ev {
                return r;
            }
        }
    }

    // Accepted: a value that does not fit is refused naming the field, and
    // the dialog stays open for a good one, which the tool gets.
    let h = host.clone();
    let call = tokio::spawn(async move { h.call_tool("ask_item", json!({})).await });
    let req = next_request(&mut rx, &env).await;
    assert_eq!(req.extension, "pyserver");
    assert_eq!(req.kind, DialogKind::Form);
    assert_eq!(req.title, "New item");
    assert_eq!(req.message.as_deref(), Some("What should it be?"));
    let schema = req.schema.clone().unwrap();
    assert_eq!(schema["properties"]["due"]["format"], "date", "{schema}");
    let err = host
        .ui_respond(
            &req.request_id,
            DialogAction::Accept,
            Some(json!({"title": "milk", "due": "soon"})),
        )
        .unwrap_err();
    assert!(err.message.contains("due: must be a date"), "{err}");
    assert_eq!(err.code, zot_ext_protocol::ErrorCode::Invalid);
    host.ui_respond(
        &req.request_id,
        DialogAction::Accept,
        Some(json!({"title": "milk", "due": "2026-12-24"})),
    )
    .unwrap();
    let out = call.await.unwrap().unwrap();
    assert_eq!(text_of(&out.content), "accept milk due 2026-12-24");

    // Declined: the server gets decline.
    let h = host.clone();
    let call = tokio::spawn(async move { h.call_tool("ask_item", json!({})).await });
    let req = next_request(&mut rx, &env).await;
    host.ui_respond(&req.request_id, DialogAction::Decline, None)
        .unwrap();
    assert_eq!(text_of(&call.await.unwrap().unwrap().content), "decline");

    // URL mode: a url dialog showing the address; the window opens it
    // only on accept (`Host::dialog_url`), and the server gets accept.
    let h = host.clone();
    let call = tokio::spawn(async move { h.call_tool("ask_url", json!({})).await });
    let req = next_request(&mut rx, &env).await;
    assert_eq!(req.kind, DialogKind::Url);
    assert_eq!(req.url.as_deref(), Some("https://example.com/login"));
    assert_eq!(
        host.dialog_url(&req.request_id).as_deref(),
        Some("https://example.com/login")
    );
    host.ui_respond(&req.request_id, DialogAction::Accept, None)
        .unwrap();
    assert_eq!(
        host.dialog_url(&req.request_id),
        None,
        "answered: nothing to open"
    );
    assert_eq!(text_of(&call.await.unwrap().unwrap().content), "accept");
    host.shutdown().await;
}
