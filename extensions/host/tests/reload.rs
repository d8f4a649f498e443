//! Reload: tear down, re-read, respawn (remembered `--ext` paths too), and
//! report what happened.

#[path = "support/support.rs"]
mod support;

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
        assert!(!process_alive(pid), "old process {pid} survived the reload");
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
