//! Restart with a budget (docs/rpc.md "Supervision", #13), with real
//! crashing extensions: a crash after ready is restarted and its names come
//! back; a crash loop spends the budget and ends `crashed` with its last
//! words, without spinning; `restart: "never"` stays down; shutdown during
//! the backoff wins; a panel closed by a crash answers keys with one status
//! and opens again after the restart.

use crate::support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::*;
use zot_ext_host::HostEvent;
use zot_ext_protocol::rpc::{ExtState, UiEvent};
use zot_ext_protocol::PanelKey;

fn tool_ext(extra: serde_json::Value) -> serde_json::Value {
    let mut plan = json!({
        "register":[{"type":"register_tool","name":"ping_tool","schema":{"type":"object"}},
                    {"type":"register_command","name":"pingcmd"}],
        "tools":{"ping_tool":"echo"}
    });
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        plan[k] = v;
    }
    plan
}

#[tokio::test]
async fn a_crash_after_ready_is_restarted_and_its_names_come_back() {
    let env = Env::new();
    let dir = env.global(
        "flaky",
        tool_ext(json!({"crash_after_ready": 0.3, "crash_starts": 1})),
    );
    let (host, mut rx) = start(env.config()).await;
    assert_eq!(host.tools().len(), 1);
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtRestarting { .. }))
    })
    .await;
    assert_eq!(
        ev,
        HostEvent::Ui(UiEvent::ExtRestarting {
            extension: "flaky".into(),
            attempt: 1,
            delay_ms: 500,
            exit_status: Some("status 5".into()),
        })
    );
    // While it waits, its names are gone and it is not `ready`.
    assert!(host.tools().is_empty());
    assert_eq!(summary(&host, "flaky").state, ExtState::Exited);
    within(30, || summary(&host, "flaky").state == ExtState::Ready).await;
    let s = summary(&host, "flaky");
    assert_eq!(s.restarts, 1);
    assert_eq!(s.last_exit.as_deref(), Some("status 5"));
    assert_eq!(starts(&dir), 2);
    assert_eq!(host.tools().len(), 1, "its tool is registered again");
    assert!(host.call_tool("ping_tool", json!({"x": 1})).await.is_ok());
    let h = summary(&host, "flaky").health;
    assert_eq!((h.calls, h.errors), (1, 0));
    assert!(h.p50_ms.is_some() && h.p99_ms >= h.p50_ms, "{h:?}");
    assert!(h.log_bytes > 0, "its log holds its last words: {h:?}");
    assert!(host.commands().iter().any(|c| c.name == "pingcmd"));
    // ext_restart (here Host::restart) resets the budget.
    host.restart("flaky").await.unwrap();
    let s = summary(&host, "flaky");
    assert_eq!((s.state, s.restarts), (ExtState::Ready, 0));
    host.shutdown().await;
}

#[tokio::test]
async fn a_handshake_crash_loop_spends_the_budget_and_ends_crashed_without_spinning() {
    let env = Env::new();
    // Ready once, then every start dies before hello.
    let dir = env.global(
        "loop",
        tool_ext(json!({"crash_after_ready": 0.1, "exit_before_hello_after": 1})),
    );
    let (host, mut rx) = start(env.config()).await;
    let t0 = Instant::now();
    let mut attempts = Vec::new();
    while attempts.len() < 3 {
        if let HostEvent::Ui(UiEvent::ExtRestarting {
            attempt, delay_ms, ..
        }) = wait_event(&mut rx, |e| {
            matches!(e, HostEvent::Ui(UiEvent::ExtRestarting { .. }))
        })
        .await
        {
            attempts.push((attempt, delay_ms));
        }
    }
    assert_eq!(attempts, vec![(1, 500), (2, 2000), (3, 8000)]);
    within(60, || summary(&host, "loop").state == ExtState::Crashed).await;
    let spent = t0.elapsed();
    eprintln!("crash loop → crashed in {:.1} s", spent.as_secs_f32());
    let s = summary(&host, "loop");
    let error = s.error.unwrap_or_default();
    assert!(error.contains("stays down until you restart it"), "{error}");
    assert!(
        error.contains("last log lines:") && error.contains("start 4 dies in its handshake"),
        "{error}"
    );
    assert_eq!(s.last_exit.as_deref(), Some("status 7"));
    assert_eq!(s.restarts, 3);
    assert!(host.tools().is_empty());
    // One first start and three restarts; nothing after, however long.
    assert_eq!(starts(&dir), 4);
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(
        starts(&dir),
        4,
        "a crashed extension is never started again on its own"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn restart_never_stays_exited() {
    let env = Env::new();
    let dir = env.global("once", tool_ext(json!({"crash_after_ready": 0.2})));
    let manifest = dir.join("extension.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    m["restart"] = json!("never");
    std::fs::write(&manifest, m.to_string()).unwrap();
    let (host, mut rx) = start(env.config()).await;
    wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtError { .. }))
    })
    .await;
    // Longer than the first backoff.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let s = summary(&host, "once");
    assert_eq!(s.state, ExtState::Exited);
    assert_eq!((s.restarts, s.last_exit.as_deref()), (0, Some("status 5")));
    assert_eq!(starts(&dir), 1);
    while let Ok(ev) = rx.try_recv() {
        assert!(
            !matches!(ev, HostEvent::Ui(UiEvent::ExtRestarting { .. })),
            "{ev:?}"
        );
    }
    host.shutdown().await;
}

#[tokio::test]
async fn shutdown_during_the_backoff_does_not_restart_it() {
    let env = Env::new();
    let dir = env.global("late", tool_ext(json!({"crash_after_ready": 0.2})));
    let (host, mut rx) = start(env.config()).await;
    wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtRestarting { .. }))
    })
    .await;
    host.shutdown().await;
    // Past the 0.5 s backoff.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(starts(&dir), 1);
    assert_eq!(summary(&host, "late").state, ExtState::Exited);
}

#[tokio::test]
async fn a_panel_closed_by_a_crash_says_so_answers_keys_with_one_status_and_reopens() {
    let env = Env::new();
    let dir = env.global(
        "todo",
        json!({
            "panels": true,
            "register":[{"type":"register_command","name":"todo"}],
            "commands":{"todo":{"response":{"action":"open_panel","open_panel":{"id":"todos-main","title":"Todos","lines":["a"]}}}}
        }),
    );
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("todo", "").await.unwrap();
    // `delete` makes the fixture crash.
    host.panel_key("todos-main", PanelKey::Delete, None)
        .unwrap();
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtPanelClose { .. }))
    })
    .await;
    let HostEvent::Ui(UiEvent::ExtPanelClose { reason, .. }) = ev else {
        unreachable!()
    };
    let reason = reason.unwrap_or_default();
    assert!(
        reason.contains("'todo' crashed; restarting in 0.5 s"),
        "{reason}"
    );
    // The user keeps typing: every key is accepted, one status explains.
    for _ in 0..20 {
        host.panel_key("todos-main", PanelKey::Down, None).unwrap();
    }
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtStatus { .. }))
    })
    .await;
    let HostEvent::Ui(UiEvent::ExtStatus { text, .. }) = ev else {
        unreachable!()
    };
    assert!(text.contains("'todo' crashed"), "{text}");
    within(30, || summary(&host, "todo").state == ExtState::Ready).await;
    assert_eq!(starts(&dir), 2);
    let mut statuses = 0;
    while let Ok(ev) = rx.try_recv() {
        statuses += usize::from(matches!(ev, HostEvent::Ui(UiEvent::ExtStatus { .. })));
    }
    assert_eq!(statuses, 0, "one status for twenty keys");
    // After the restart the panel opens again and takes keys.
    host.invoke_command("todo", "").await.unwrap();
    assert_eq!(
        host.open_panels(),
        vec![("todos-main".to_owned(), "todo".to_owned())]
    );
    host.panel_key("todos-main", PanelKey::Enter, None).unwrap();
    wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtPanelRender { .. }))
    })
    .await;
    host.shutdown().await;
}

#[tokio::test]
async fn a_call_that_crashes_the_extension_counts_as_an_error_in_its_health() {
    let env = Env::new();
    env.global(
        "boom",
        tool_ext(json!({"tools": {"ping_tool": {"exit": 3}}})),
    );
    let (host, _rx) = start(env.config()).await;
    assert!(host.call_tool("ping_tool", json!({})).await.is_err());
    let s = summary(&host, "boom");
    assert_eq!((s.health.calls, s.health.errors), (1, 1));
    assert_eq!(s.last_exit.as_deref(), Some("status 3"));
    host.shutdown().await;
}
