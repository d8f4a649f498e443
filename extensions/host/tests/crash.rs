//! A crash mid-call: pending calls fail at once naming the extension, its
//! exit status and its log; its names leave the registries; others go on.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::{HostError, HostEvent};
use zot_ext_protocol::rpc::{ExtState, UiEvent};

fn crashy() -> serde_json::Value {
    json!({
        "register":[
            {"type":"register_command","name":"crashcmd"},
            {"type":"register_tool","name":"todo_manage","schema":{"type":"object"}},
            {"type":"register_tool","name":"wait","schema":{"type":"object"}},
        ],
        "tools":{"todo_manage":{"exit":3},"wait":"hang"}
    })
}

#[tokio::test]
async fn pending_calls_fail_at_once_with_status_and_log() {
    let env = Env::new();
    env.global("todo", crashy());
    env.global(
        "other",
        json!({"register":[{"type":"register_tool","name":"still","schema":{"type":"object"}}]}),
    );
    let (host, mut rx) = start(env.config()).await;
    let log = env.log_path("todo").display().to_string();
    // One call hangs; the next crashes the extension. Both must fail now,
    // not after the 60 s tool timeout (that would be a Timeout error).
    let waiting = tokio::spawn({
        let host = host.clone();
        async move { host.call_tool("wait", json!({})).await }
    });
    tokio::task::yield_now().await;
    let err = host.call_tool("todo_manage", json!({})).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("extension 'todo' exited (status 3) while handling tool 'todo_manage'; see {log}")
    );
    let err2 = waiting.await.unwrap().unwrap_err();
    assert!(
        matches!(&err2, HostError::Exited { status, during, .. } if status == "status 3" && during == "tool 'wait'"),
        "{err2}"
    );
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtError { .. }))
    })
    .await;
    let HostEvent::Ui(UiEvent::ExtError {
        extension,
        exit_status,
        log_path,
        ..
    }) = ev
    else {
        unreachable!()
    };
    assert_eq!(
        (extension.as_str(), exit_status.as_deref()),
        ("todo", Some("status 3"))
    );
    assert_eq!(log_path, log);

    // Its names are gone; the other extension's remain and work.
    assert!(host.commands().is_empty());
    let tools: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(tools, vec!["still"]);
    assert!(matches!(
        host.call_tool("todo_manage", json!({})).await,
        Err(HostError::UnknownTool(_))
    ));
    assert!(host.call_tool("still", json!({"a":1})).await.is_ok());
    let s = host.list().into_iter().find(|s| s.name == "todo").unwrap();
    assert_eq!(s.state, ExtState::Exited);
    assert!(s.error.unwrap().contains("exited (status 3)"));
    assert!(env
        .log("todo")
        .contains("fixture: crashing in tool todo_manage"));
    host.shutdown().await;
}

#[tokio::test]
async fn a_crashed_extension_is_reaped() {
    let env = Env::new();
    let dir = env.global("todo", crashy());
    let (host, _rx) = start(env.config()).await;
    let pid = read_pid(&dir, "pid");
    let _ = host.call_tool("todo_manage", json!({})).await;
    eventually(|| !alive(pid) && !is_our_zombie(pid)).await;
    host.shutdown().await;
}
