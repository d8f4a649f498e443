//! Activation on first use: an `on_use` extension is listed idle with its
//! declared names, and the first call of its command or tool spawns it
//! (real subprocesses of the scripted fixture).

#[path = "support/support.rs"]
mod support;

use std::path::Path;

use serde_json::{json, Value};
use support::*;
use zot_ext_host::HostError;
use zot_ext_protocol::rpc::ExtState;

/// The scripted fixture at `root/name`, made `on_use` with `contributes`.
fn on_use(root: &Path, name: &str, plan: Value, contributes: Value) -> std::path::PathBuf {
    let dir = scripted(root, name, plan);
    let path = dir.join("extension.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    m["activation"] = json!("on_use");
    m["contributes"] = contributes;
    std::fs::write(&path, m.to_string()).unwrap();
    dir
}

fn starts(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("starts"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

fn state_of(host: &zot_ext_host::Host, name: &str) -> ExtState {
    host.list()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap()
        .state
}

fn wx_plan() -> Value {
    json!({"register":[
        {"type":"register_tool","name":"weather","description":"real","schema":{"type":"object"}},
        {"type":"register_command","name":"wx","description":"real"}
    ]})
}

fn wx_contributes() -> Value {
    json!({
        "commands":[{"name":"wx","description":"declared"}],
        "tools":[{"name":"weather","description":"declared","schema":{"type":"object"}}]
    })
}

#[tokio::test]
async fn an_on_use_extension_is_idle_and_listed_until_its_tool_is_called() {
    let env = Env::new();
    let dir = on_use(&env.global_dir(), "wx", wx_plan(), wx_contributes());
    let (host, _rx) = start(env.config()).await;
    assert_eq!(starts(&dir), 0, "not spawned at start");
    assert_eq!(state_of(&host, "wx"), ExtState::Idle);
    let tools = host.tools();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "weather");
    assert_eq!(tools[0].description.as_deref(), Some("declared"));
    assert_eq!(host.commands()[0].name, "wx");

    let out = host
        .call_tool("weather", json!({"city":"Oslo"}))
        .await
        .unwrap();
    assert_eq!(out.extension, "wx");
    assert!(!out.is_error);
    assert_eq!(starts(&dir), 1);
    assert_eq!(state_of(&host, "wx"), ExtState::Ready);
    // What it really registered replaced what it declared.
    assert_eq!(host.tools()[0].description.as_deref(), Some("real"));
    // A second call uses the running process.
    host.call_tool("weather", json!({})).await.unwrap();
    assert_eq!(starts(&dir), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn its_command_starts_it_too() {
    let env = Env::new();
    let dir = on_use(&env.global_dir(), "wx", wx_plan(), wx_contributes());
    let (host, _rx) = start(env.config()).await;
    let out = host.invoke_command("/wx", "now").await.unwrap();
    assert_eq!(out.extension, "wx");
    assert_eq!(starts(&dir), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn concurrent_first_uses_share_one_spawn() {
    let env = Env::new();
    let mut plan = wx_plan();
    plan["delay_hello"] = json!(0.3);
    let dir = on_use(&env.global_dir(), "wx", plan, wx_contributes());
    let (host, _rx) = start(env.config()).await;
    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..5 {
        let host = host.clone();
        calls.spawn(async move { host.call_tool("weather", json!({})).await });
    }
    while let Some(r) = calls.join_next().await {
        r.unwrap().unwrap();
    }
    assert_eq!(starts(&dir), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn a_failed_first_spawn_fails_the_call_with_its_error_and_log() {
    let env = Env::new();
    let dir = on_use(
        &env.global_dir(),
        "wx",
        json!({"exit_before_hello": 3}),
        wx_contributes(),
    );
    let (host, _rx) = start(env.config()).await;
    let e = host.call_tool("weather", json!({})).await.unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, HostError::NotStartable { .. }), "{msg}");
    assert!(msg.contains("wx") && msg.contains("first use"), "{msg}");
    assert!(
        msg.contains(&env.log_path("wx").display().to_string()),
        "{msg}"
    );
    assert_eq!(starts(&dir), 1);
    // It is idle again with its names listed; the next use tries again.
    assert_eq!(state_of(&host, "wx"), ExtState::Idle);
    assert_eq!(host.tools().len(), 1);
    host.call_tool("weather", json!({})).await.unwrap_err();
    assert_eq!(starts(&dir), 2);
    host.shutdown().await;
}

#[tokio::test]
async fn a_first_use_during_shutdown_is_refused_without_a_spawn() {
    let env = Env::new();
    let dir = on_use(&env.global_dir(), "wx", wx_plan(), wx_contributes());
    let (host, _rx) = start(env.config()).await;
    host.shutdown().await;
    let e = host.call_tool("weather", json!({})).await.unwrap_err();
    assert!(e.to_string().contains("shutting down"), "{e}");
    assert_eq!(starts(&dir), 0);
}

#[tokio::test]
async fn a_difference_from_contributes_is_a_warning_in_its_log_and_report() {
    let env = Env::new();
    let contributes = json!({
        "commands":[{"name":"wx"}],
        "tools":[
            {"name":"weather","schema":{"type":"object"}},
            {"name":"forecast","schema":{"type":"object"}}
        ]
    });
    on_use(&env.global_dir(), "wx", wx_plan(), contributes);
    let (host, _rx) = start(env.config()).await;
    assert_eq!(host.tools().len(), 2);
    host.call_tool("weather", json!({})).await.unwrap();
    let names: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["weather".to_owned()]);
    assert!(env.log("wx").contains("forecast"), "{}", env.log("wx"));
    let report = host.report();
    let ext = report
        .extensions
        .iter()
        .find(|e| e.summary.name == "wx")
        .unwrap();
    assert!(
        ext.warnings.iter().any(|w| w.contains("contributes.tools")),
        "{:?}",
        ext.warnings
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_bad_contributes_refuses_the_manifest_naming_the_field() {
    let env = Env::new();
    let dir = on_use(
        &env.global_dir(),
        "wx",
        wx_plan(),
        json!({"tools":[{"name":"weather","schema":"object"}]}),
    );
    let (host, _rx) = start(env.config()).await;
    assert_eq!(state_of(&host, "wx"), ExtState::Failed);
    let err = host.report().manifest_errors;
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].field.as_deref(), Some("contributes.tools[0].schema"));
    assert!(host.tools().is_empty());
    assert_eq!(starts(&dir), 0);
    host.shutdown().await;
}

/// Copies example `name` (its top-level files, no data) into `root`.
fn example_copy(root: &Path, name: &str) -> std::path::PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/extensions")
        .join(name);
    let to = root.join(name);
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        let n = e.file_name().to_string_lossy().into_owned();
        if e.file_type().unwrap().is_file() && !n.starts_with("todos.json") {
            std::fs::copy(e.path(), to.join(&n)).unwrap();
        }
    }
    to
}

#[tokio::test]
async fn the_python_examples_declare_what_they_register() {
    let env = Env::new();
    for name in ["hello-py", "todo"] {
        example_copy(&env.global_dir(), name);
    }
    let (host, _rx) = start(env.config()).await;
    for (name, command) in [("hello-py", "hellopy"), ("todo", "todo")] {
        assert_eq!(state_of(&host, name), ExtState::Idle, "{name}");
        host.invoke_command(command, "").await.unwrap();
        assert_eq!(state_of(&host, name), ExtState::Ready, "{name}");
        let report = host.report();
        let ext = report
            .extensions
            .iter()
            .find(|e| e.summary.name == name)
            .unwrap();
        assert!(
            !ext.warnings.iter().any(|w| w.contains("contributes")),
            "{name}: {:?}",
            ext.warnings
        );
    }
    host.shutdown().await;
}

#[tokio::test]
async fn a_subscribe_from_an_on_use_extension_is_honoured_but_warned() {
    let env = Env::new();
    let mut plan = wx_plan();
    if let Some(r) = plan["register"].as_array_mut() {
        r.push(json!({"type":"subscribe","events":["turn_start"]}));
    }
    on_use(&env.global_dir(), "wx", plan, wx_contributes());
    let (host, _rx) = start(env.config()).await;
    host.call_tool("weather", json!({})).await.unwrap();
    assert!(env.log("wx").contains("on_use"), "{}", env.log("wx"));
    let report = host.report();
    let ext = report
        .extensions
        .iter()
        .find(|e| e.summary.name == "wx")
        .unwrap();
    assert!(
        ext.warnings.iter().any(|w| w.contains("subscribe")),
        "{:?}",
        ext.warnings
    );
    host.shutdown().await;
}
