//! Activation on first use: an `on_use` extension is listed idle with its
//! declared names, and the first call of its command or tool spawns it;
//! a failure (on its first use or after ready) puts it back to idle within
//! the restart budget, and a panel key never starts it (real subprocesses
//! of the scripted fixture).

use crate::support;

use std::path::Path;

use serde_json::{json, Value};
use support::*;
use zot_ext_host::{HostError, HostEvent, PanelKey};
use zot_ext_protocol::rpc::{ExtState, UiEvent};

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
async fn a_failed_first_spawn_fails_the_call_and_the_next_uses_retry_within_the_budget() {
    let env = Env::new();
    let dir = on_use(
        &env.global_dir(),
        "wx",
        json!({"exit_before_hello": 3}),
        wx_contributes(),
    );
    let (host, _rx) = start(env.config()).await;
    let log = env.log_path("wx").display().to_string();
    // Within the budget (3 restarts in 5 minutes), each use fails with its
    // error and log, and it is idle again with its names listed.
    for n in 1..=3 {
        let e = host.call_tool("weather", json!({})).await.unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, HostError::NotStartable { .. }), "{msg}");
        assert!(msg.contains("wx") && msg.contains("first use"), "{msg}");
        assert!(msg.contains("status 3") && msg.contains(&log), "{msg}");
        assert_eq!(starts(&dir), n);
        assert_eq!(state_of(&host, "wx"), ExtState::Idle);
        assert_eq!(host.tools().len(), 1);
    }
    // The fourth failure spends it: down, with what to do, no more spawns.
    let e = host.call_tool("weather", json!({})).await.unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("failed to start 4 times") && msg.contains("restart"),
        "{msg}"
    );
    assert_eq!(starts(&dir), 4);
    let s = summary(&host, "wx");
    assert_eq!(s.state, ExtState::Failed);
    let err = s.error.unwrap();
    assert!(
        err.contains("'wx'") && err.contains(&log) && err.contains("ext_restart"),
        "{err}"
    );
    assert!(host.tools().is_empty());
    let e = host.call_tool("weather", json!({})).await.unwrap_err();
    assert!(matches!(e, HostError::UnknownTool(_)), "{e}");
    assert_eq!(starts(&dir), 4);
    host.shutdown().await;
}

#[tokio::test]
async fn a_crash_after_ready_rests_idle_and_the_next_use_starts_it_again() {
    let env = Env::new();
    let mut plan = wx_plan();
    plan["crash_after_ready"] = json!(0.3);
    plan["crash_starts"] = json!(1);
    let dir = on_use(&env.global_dir(), "wx", plan, wx_contributes());
    let (host, mut rx) = start(env.config()).await;
    host.call_tool("weather", json!({})).await.unwrap();
    // The crash is reported, and no restart is scheduled: it rests.
    let ev = wait_event(&mut rx, |e| {
        matches!(
            e,
            HostEvent::Ui(UiEvent::ExtError { .. } | UiEvent::ExtRestarting { .. })
        )
    })
    .await;
    assert!(
        matches!(&ev, HostEvent::Ui(UiEvent::ExtError { message, .. }) if message.contains("status 5")),
        "{ev:?}"
    );
    within(20, || state_of(&host, "wx") == ExtState::Idle).await;
    let s = summary(&host, "wx");
    assert_eq!(s.last_exit.as_deref(), Some("status 5"));
    assert_eq!(s.restarts, 1, "it spent one restart of its budget");
    // The doctor tells the author, though it starts again on its next use.
    let d = zot_ext_host::doctor::judge(&host.report());
    assert!(
        d.problems
            .iter()
            .any(|p| p.contains("failed on its last use")),
        "{:?}",
        d.problems
    );
    // Its declared names are listed again while it rests.
    assert_eq!(host.tools()[0].description.as_deref(), Some("declared"));
    assert_eq!(starts(&dir), 1);
    host.call_tool("weather", json!({})).await.unwrap();
    assert_eq!(starts(&dir), 2);
    assert_eq!(state_of(&host, "wx"), ExtState::Ready);
    host.shutdown().await;
}

#[tokio::test]
async fn crashes_in_calls_fail_them_and_share_the_budget_then_it_stays_crashed() {
    let env = Env::new();
    let mut plan = wx_plan();
    plan["tools"] = json!({"weather": {"exit": 5}});
    let dir = on_use(&env.global_dir(), "wx", plan, wx_contributes());
    let (host, _rx) = start(env.config()).await;
    let log = env.log_path("wx").display().to_string();
    for n in 1..=4 {
        let e = host.call_tool("weather", json!({})).await.unwrap_err();
        assert!(matches!(e, HostError::Exited { .. }), "{e}");
        assert!(e.to_string().contains(&log), "{e}");
        assert_eq!(starts(&dir), n);
        let rests = if n < 4 {
            ExtState::Idle
        } else {
            ExtState::Crashed
        };
        within(20, || state_of(&host, "wx") == rests).await;
    }
    let err = summary(&host, "wx").error.unwrap();
    assert!(
        err.contains("'wx'")
            && err.contains(&log)
            && err.contains("crashed 4 times")
            && err.contains("ext_restart"),
        "{err}"
    );
    assert!(host.tools().is_empty());
    // A restart by the user gives it a fresh budget.
    host.restart("wx").await.unwrap();
    assert_eq!(state_of(&host, "wx"), ExtState::Ready);
    assert_eq!(summary(&host, "wx").restarts, 0);
    assert_eq!(starts(&dir), 5);
    host.shutdown().await;
}

#[tokio::test]
async fn restart_never_leaves_a_crashed_on_use_extension_down() {
    let env = Env::new();
    let mut plan = wx_plan();
    plan["tools"] = json!({"weather": {"exit": 5}});
    let dir = on_use(&env.global_dir(), "wx", plan, wx_contributes());
    let path = dir.join("extension.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    m["restart"] = json!("never");
    std::fs::write(&path, m.to_string()).unwrap();
    let (host, _rx) = start(env.config()).await;
    host.call_tool("weather", json!({})).await.unwrap_err();
    within(20, || state_of(&host, "wx") == ExtState::Exited).await;
    let e = host.call_tool("weather", json!({})).await.unwrap_err();
    assert!(matches!(e, HostError::UnknownTool(_)), "{e}");
    assert_eq!(starts(&dir), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn a_panel_key_never_starts_an_on_use_extension() {
    let env = Env::new();
    let plan = json!({
        "panels": true,
        "register":[{"type":"register_command","name":"board"}],
        "commands":{"board":{"response":{"action":"open_panel","open_panel":{"id":"wx-board","title":"Board","lines":["a"]}}}}
    });
    let dir = on_use(
        &env.global_dir(),
        "wx",
        plan,
        json!({"commands":[{"name":"board"}]}),
    );
    let (host, mut rx) = start(env.config()).await;
    // Idle: it owns no panel, so a key for any panel is unknown.
    let e = host
        .panel_key("wx-board", PanelKey::Rune, Some("x".into()))
        .unwrap_err();
    assert!(matches!(e, HostError::UnknownPanel(_)), "{e}");
    assert_eq!(starts(&dir), 0);
    host.invoke_command("board", "").await.unwrap();
    assert_eq!(host.open_panels(), vec![("wx-board".into(), "wx".into())]);
    // `delete` crashes the fixture: its panel closes and it rests idle.
    host.panel_key("wx-board", PanelKey::Delete, None).unwrap();
    within(20, || state_of(&host, "wx") == ExtState::Idle).await;
    assert!(host.open_panels().is_empty());
    // A key for the closed panel gets one status, and starts nothing.
    host.panel_key("wx-board", PanelKey::Rune, Some("y".into()))
        .unwrap();
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtStatus { .. }))
    })
    .await;
    assert!(
        matches!(&ev, HostEvent::Ui(UiEvent::ExtStatus { text, .. }) if text.contains("open it again with its command")),
        "{ev:?}"
    );
    assert_eq!(starts(&dir), 1);
    assert_eq!(state_of(&host, "wx"), ExtState::Idle);
    // Its command starts it again, and the panel opens again.
    host.invoke_command("board", "").await.unwrap();
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
async fn a_first_use_cut_short_by_shutdown_fails_clearly_and_leaves_no_process() {
    let env = Env::new();
    let mut plan = wx_plan();
    plan["delay_hello"] = json!(1.0);
    let dir = on_use(&env.global_dir(), "wx", plan, wx_contributes());
    let (host, _rx) = start(env.config()).await;
    let call = {
        let host = host.clone();
        tokio::spawn(async move { host.call_tool("weather", json!({})).await })
    };
    within(20, || starts(&dir) == 1).await;
    host.shutdown().await;
    let e = call.await.unwrap().unwrap_err();
    assert!(e.to_string().contains("shutting down"), "{e}");
    let pid = std::fs::read_to_string(dir.join("pid")).unwrap();
    assert!(!Path::new(&format!("/proc/{}", pid.trim())).exists());
    assert_eq!(starts(&dir), 1);
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
