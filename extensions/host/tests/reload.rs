//! Reload: tear down, re-read, respawn (remembered `--ext` paths too), and
//! report what happened.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::HostEvent;
use zot_ext_protocol::rpc::{ExtState, UiEvent};

#[tokio::test]
async fn reload_respawns_everything_and_reports_per_extension() {
    let env = Env::new();
    let a = env.global(
        "a",
        json!({"register":[{"type":"register_command","name":"old"}]}),
    );
    let b = env.global("b", json!({}));
    let mine = env.loose("mine", json!({}));
    let mut cfg = env.config();
    cfg.explicit = vec![mine.clone()];
    let (host, mut rx) = start(cfg).await;
    let old_pids = [
        read_pid(&a, "pid"),
        read_pid(&b, "pid"),
        read_pid(&mine, "pid"),
    ];
    assert_eq!(host.commands()[0].name, "old");

    // Edit a, break b, add c.
    scripted(
        &env.global_dir(),
        "a",
        json!({"register":[{"type":"register_command","name":"new"}]}),
    );
    scripted(&env.global_dir(), "b", json!({"exit_before_hello": 4}));
    // New arguments are a change the user accepts first (docs/security.md
    // "Permissions"); the fixture's plan is its argument.
    for name in ["a", "b"] {
        zot_ext_host::consent::accept(env.home.path(), env.project.path(), name).unwrap();
    }
    env.global("c", json!({}));
    let report = host.reload().await;
    assert_eq!(report.stopped, 3);
    assert_eq!(report.loaded, 4);
    assert_eq!(report.ready, 3);
    assert_eq!(report.errors.len(), 1);
    assert_eq!(report.errors[0].extension, "b");
    assert!(report.errors[0]
        .message
        .contains("exited (status 4) before sending hello"));
    assert_eq!(
        report.errors[0].log_path,
        env.log_path("b").display().to_string()
    );
    for pid in old_pids {
        assert!(!alive(pid), "old process {pid} survived the reload");
    }
    let names: Vec<String> = host.commands().into_iter().map(|c| c.name).collect();
    assert_eq!(names, vec!["new"]);
    let list: Vec<(String, ExtState)> =
        host.list().into_iter().map(|s| (s.name, s.state)).collect();
    assert_eq!(
        list,
        vec![
            ("mine".into(), ExtState::Ready),
            ("a".into(), ExtState::Ready),
            ("b".into(), ExtState::Failed),
            ("c".into(), ExtState::Ready),
        ]
    );
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtReload { .. }))
    })
    .await;
    assert!(matches!(
        ev,
        HostEvent::Ui(UiEvent::ExtReload {
            stopped: 3,
            loaded: 4,
            ready: 3,
            ..
        })
    ));
    host.shutdown().await;
}

/// Live (non-zombie) processes whose command line contains `marker`.
fn live_with(marker: &str) -> Vec<i32> {
    let mut pids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmd).contains(marker) && alive(pid) {
            pids.push(pid);
        }
    }
    pids
}

#[tokio::test]
async fn overlapping_reloads_are_serialised_and_orphan_nothing() {
    let env = Env::new();
    let marker = format!("reload-marker-{}", std::process::id());
    let one = env.global("one", json!({"marker": marker}));
    let two = env.global("two", json!({"marker": marker}));
    let (host, _rx) = start(env.config()).await;
    assert_eq!(live_with(&marker).len(), 2);
    let (r1, r2, r3) = tokio::join!(host.reload(), host.reload(), host.reload());
    for r in [&r1, &r2, &r3] {
        assert_eq!((r.stopped, r.loaded, r.ready), (2, 2, 2), "{r:?}");
    }
    // Exactly the listed set runs: nothing from an earlier batch is left.
    let live = live_with(&marker);
    assert_eq!(live.len(), 2, "{live:?}");
    // Each writes its pid at start: the last started are the ones listed.
    let listed = vec![read_pid(&one, "pid"), read_pid(&two, "pid")];
    let mut a = live.clone();
    a.sort();
    let mut b = listed.clone();
    b.sort();
    assert_eq!(a, b);
    host.shutdown().await;
    eventually(|| live_with(&marker).is_empty()).await;
}

#[tokio::test]
async fn a_tool_resolved_before_a_reload_is_not_rerouted_after_it() {
    let env = Env::new();
    let tool = json!({"type":"register_tool","name":"ping","schema":{"type":"object"}});
    env.global("a", json!({"register":[tool]}));
    let (host, _rx) = start(env.config()).await;
    let target = host.resolve_tool("ping").expect("a registers ping");
    assert_eq!(target.extension, "a");
    assert_eq!(target.via, zot_ext_host::ToolVia::Extension);
    assert!(!target.deferred && !target.read_only);

    // `b` takes the name over; the target still names `a`'s run, which is gone.
    scripted(&env.global_dir(), "a", json!({}));
    zot_ext_host::consent::accept(env.home.path(), env.project.path(), "a").unwrap();
    env.global("b", json!({"register":[tool]}));
    host.reload().await;
    let err = host
        .call_target(&target, json!({}), &|_| {})
        .await
        .unwrap_err();
    assert!(
        matches!(&err, zot_ext_host::HostError::UnknownTool(n) if n == "ping"),
        "{err}"
    );
    assert_eq!(host.resolve_tool("ping").unwrap().extension, "b");
    host.shutdown().await;
}
