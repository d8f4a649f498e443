//! The hello / hello_ack handshake and what happens when an extension gets
//! it wrong.

use crate::support;

use serde_json::{json, Value};
use support::*;
use zot_ext_host::HostEvent;
use zot_ext_protocol::rpc::{ExtState, UiEvent};

#[tokio::test]
async fn hello_ack_carries_every_field_and_the_extension_runs_in_its_own_dir() {
    let env = Env::new();
    let dir = env.global("greeter", json!({}));
    let (host, _rx) = start(env.config()).await;
    assert_eq!(host.list()[0].state, ExtState::Ready);
    // The fixture writes hello_ack.json into its cwd, so finding it there
    // also proves the process ran in its own directory.
    let ack: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("hello_ack.json")).unwrap())
            .unwrap();
    assert_eq!(ack["type"], "hello_ack");
    assert_eq!(ack["protocol_version"], 1);
    assert_eq!(ack["zot_version"], "9.9.9");
    assert_eq!(ack["provider"], "anthropic");
    assert_eq!(ack["model"], "test-model");
    assert_eq!(ack["cwd"], env.project.path().display().to_string());
    assert_eq!(ack["extension_dir"], dir.display().to_string());
    assert_eq!(ack["data_dir"], dir.display().to_string());
    host.shutdown().await;
}

#[tokio::test]
async fn an_extension_that_exits_before_hello_reports_its_status_and_log_path() {
    let env = Env::new();
    env.global("early", json!({"exit_before_hello": 3}));
    // The log is appended to, never truncated.
    std::fs::create_dir_all(env.home.path().join("logs")).unwrap();
    std::fs::write(env.log_path("early"), "a line from an earlier run\n").unwrap();
    let (host, mut rx) = start(env.config()).await;
    let log = env.log_path("early").display().to_string();
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtError { .. }))
    })
    .await;
    let HostEvent::Ui(UiEvent::ExtError {
        extension,
        message,
        log_path,
        exit_status,
    }) = ev
    else {
        unreachable!()
    };
    assert_eq!(extension, "early");
    assert_eq!(exit_status.as_deref(), Some("status 3"));
    assert_eq!(log_path, log);
    assert!(
        message.contains("exited (status 3) before sending hello"),
        "{message}"
    );
    assert!(message.contains(&log), "{message}");
    let s = &host.list()[0];
    assert_eq!(s.state, ExtState::Failed);
    assert!(s.error.as_deref().unwrap().contains(&log));
    // Its stderr went to that log.
    let text = env.log("early");
    assert!(text.contains("fixture: exiting before hello"), "{text}");
    assert!(text.starts_with("a line from an earlier run\n"), "{text}");
}

#[tokio::test]
async fn a_signal_before_hello_is_reported_by_name() {
    let env = Env::new();
    let dir = env.loose.path().join("killed");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("run.sh"), "#!/bin/sh\nkill -9 $$\n").unwrap();
    make_executable(&dir.join("run.sh"));
    std::fs::write(
        dir.join("extension.json"),
        r#"{"name":"killed","exec":"./run.sh"}"#,
    )
    .unwrap();
    let mut cfg = env.config();
    cfg.explicit = vec![dir];
    let (host, _rx) = start(cfg).await;
    let s = &host.list()[0];
    assert_eq!(s.state, ExtState::Failed);
    let err = s.error.clone().unwrap();
    assert!(err.contains("signal 9 (SIGKILL)"), "{err}");
}

#[tokio::test]
async fn a_first_frame_that_is_not_hello_fails_and_stops_the_extension() {
    let env = Env::new();
    env.global(
        "rude",
        json!({"first_frame": {"type":"notify","message":"hi"}, "grandchild": true}),
    );
    let (host, _rx) = start(env.config()).await;
    let s = &host.list()[0];
    assert_eq!(s.state, ExtState::Failed);
    let err = s.error.clone().unwrap();
    assert!(
        err.contains("'notify' as its first frame instead of 'hello'"),
        "{err}"
    );
    // Stopped means gone, the process it started included.
    let pid: i32 = std::fs::read_to_string(env.global_dir().join("rude/grandchild.pid"))
        .unwrap()
        .parse()
        .unwrap();
    eventually(|| !alive(pid)).await;
}

#[tokio::test]
async fn garbage_before_hello_is_refused() {
    let env = Env::new();
    env.global("chatty", json!({"before_hello": ["starting up..."]}));
    let (host, _rx) = start(env.config()).await;
    let err = host.list()[0].error.clone().unwrap();
    assert!(err.contains("not a hello frame"), "{err}");
    assert!(err.contains("not JSON"), "{err}");
}

// A hello with another name than the manifest's is accepted with a
// warning, as the reference zot does: see compat.rs.

#[tokio::test]
async fn an_extension_that_never_says_hello_times_out() {
    let env = Env::new();
    env.global("mute", json!({"no_hello": true}));
    let mut cfg = env.config();
    // A short timeout instead of paused time: paused time would also jump
    // past the real wait for the killed process to be reaped.
    cfg.hello_timeout = std::time::Duration::from_millis(300);
    let (host, mut rx) = zot_ext_host::Host::start(cfg);
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtError { .. }))
    })
    .await;
    let HostEvent::Ui(UiEvent::ExtError { message, .. }) = ev else {
        unreachable!()
    };
    assert!(
        message.contains("did not send hello within 0.3 s"),
        "{message}"
    );
    assert_eq!(host.list()[0].state, ExtState::Failed);
}

fn make_executable(p: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
}
