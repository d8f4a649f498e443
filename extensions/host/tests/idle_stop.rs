//! `idle_stop_after`: an `on_use` extension with no call in flight and no
//! open panel for that long is shut down the normal way and rests `idle`;
//! its next use starts it again (real subprocesses of the scripted
//! fixture, `idle_stop_after: 1`).

use crate::support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use support::*;
use zot_ext_host::{Host, HostEvent};
use zot_ext_protocol::rpc::{ExtState, UiEvent};

/// The scripted fixture at `root/wx`, `on_use` with `idle_stop_after: 1`.
fn idle_ext(root: &Path, plan: Value) -> PathBuf {
    let dir = scripted(root, "wx", plan);
    let path = dir.join("extension.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    m["activation"] = json!("on_use");
    m["idle_stop_after"] = json!(1);
    m["contributes"] = json!({
        "commands":[{"name":"board"}],
        "tools":[{"name":"weather","description":"declared","schema":{"type":"object"}},
                 {"name":"slow","schema":{"type":"object"}}]
    });
    std::fs::write(&path, m.to_string()).unwrap();
    dir
}

fn plan() -> Value {
    json!({
        "panels": true,
        "register":[
            {"type":"register_tool","name":"weather","description":"real","schema":{"type":"object"}},
            {"type":"register_tool","name":"slow","schema":{"type":"object"}},
            {"type":"register_command","name":"board"}
        ],
        // Longer than idle_stop_after: the call keeps it running.
        "tools":{"slow":{"sleep":2.5}},
        "commands":{"board":{"response":{"action":"open_panel","open_panel":{"id":"wx-board","title":"Board","lines":["a"]}}}}
    })
}

fn pid(dir: &Path) -> u32 {
    std::fs::read_to_string(dir.join("pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn state_of(host: &Host) -> ExtState {
    host.list()[0].state
}

/// Whether the host logged an idle stop of `wx`.
fn stopped_idle(env: &Env) -> bool {
    env.log("wx").contains("idle_stop_after")
}

#[tokio::test]
async fn an_unused_extension_is_stopped_and_rests_idle_until_its_next_use() {
    let env = Env::new();
    let dir = idle_ext(&env.global_dir(), plan());
    let (host, mut rx) = start(env.config()).await;
    host.call_tool("weather", json!({})).await.unwrap();
    assert_eq!(state_of(&host), ExtState::Ready);
    let first = pid(&dir);
    within(20, || state_of(&host) == ExtState::Idle).await;
    assert!(stopped_idle(&env), "{}", env.log("wx"));
    // The normal shutdown: it acknowledged, and its process is gone.
    assert!(env.log("wx").contains("acknowledged shutdown"));
    assert!(!Path::new(&format!("/proc/{first}")).exists());
    let s = &host.list()[0];
    assert_eq!((s.error.as_deref(), s.restarts), (None, 0), "not a crash");
    // Its declared names are listed again.
    assert_eq!(host.tools()[0].description.as_deref(), Some("declared"));
    // No error event: stopping it was the plan.
    while let Ok(ev) = rx.try_recv() {
        assert!(
            !matches!(ev, HostEvent::Ui(UiEvent::ExtError { .. })),
            "{ev:?}"
        );
    }
    host.call_tool("weather", json!({})).await.unwrap();
    assert_eq!(starts(&dir), 2);
    assert_eq!(state_of(&host), ExtState::Ready);
    host.shutdown().await;
}

#[tokio::test]
async fn a_call_in_flight_keeps_it_running() {
    let env = Env::new();
    let dir = idle_ext(&env.global_dir(), plan());
    let (host, _rx) = start(env.config()).await;
    // 2.5 s inside the tool, with idle_stop_after 1: answered, same process.
    host.call_tool("slow", json!({"n":1})).await.unwrap();
    assert!(!stopped_idle(&env), "{}", env.log("wx"));
    assert_eq!(starts(&dir), 1);
    // Quiet from its answer on, it is stopped.
    within(20, || state_of(&host) == ExtState::Idle).await;
    host.shutdown().await;
}

#[tokio::test]
async fn an_open_panel_keeps_it_running_until_it_closes() {
    let env = Env::new();
    let dir = idle_ext(&env.global_dir(), plan());
    let (host, _rx) = start(env.config()).await;
    host.invoke_command("board", "").await.unwrap();
    assert_eq!(host.open_panels().len(), 1);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(!stopped_idle(&env), "{}", env.log("wx"));
    assert_eq!(state_of(&host), ExtState::Ready);
    host.close_panel("wx-board").unwrap();
    within(20, || state_of(&host) == ExtState::Idle).await;
    assert_eq!(starts(&dir), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn a_use_while_it_is_being_stopped_waits_and_starts_it_again() {
    let env = Env::new();
    let mut p = plan();
    // It ignores `shutdown`: the stop takes the 2 s grace and a SIGTERM,
    // so a use arrives while it is still stopping.
    p["shutdown"] = json!("ignore");
    let dir = idle_ext(&env.global_dir(), p);
    let (host, _rx) = start(env.config()).await;
    host.call_tool("weather", json!({})).await.unwrap();
    within(20, || stopped_idle(&env)).await;
    assert_eq!(state_of(&host), ExtState::Ready, "still stopping");
    let out = host
        .call_tool("weather", json!({"again":true}))
        .await
        .unwrap();
    assert!(!out.is_error);
    assert_eq!(starts(&dir), 2);
    assert_eq!(state_of(&host), ExtState::Ready);
    host.shutdown().await;
}

#[tokio::test]
async fn shutdown_ends_the_idle_timer_with_its_extension() {
    let env = Env::new();
    let dir = idle_ext(&env.global_dir(), plan());
    let (host, _rx) = start(env.config()).await;
    host.call_tool("weather", json!({})).await.unwrap();
    host.shutdown().await;
    assert_eq!(state_of(&host), ExtState::Exited);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(!stopped_idle(&env), "{}", env.log("wx"));
    // And a use after shutdown starts nothing.
    host.call_tool("weather", json!({})).await.unwrap_err();
    assert_eq!(starts(&dir), 1);
}
