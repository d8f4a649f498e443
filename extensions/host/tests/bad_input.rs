//! Bad bytes from an extension: logged and survived, or (over-long lines)
//! a clean disconnect; a stuck reader never blocks the host; floods stay
//! bounded.

#[path = "support/support.rs"]
mod support;

use std::time::Duration;

use serde_json::json;
use support::*;
use zot_ext_host::{
    EventFields, HostError, HostEvent, LifecycleEvent, ToolCallVerdict, EVENT_QUEUE,
};
use zot_ext_protocol::rpc::{ExtState, UiEvent};

fn echo_tool() -> serde_json::Value {
    json!({"type":"register_tool","name":"echo","schema":{"type":"object"}})
}

#[tokio::test]
async fn junk_lines_are_logged_and_the_extension_keeps_working() {
    let env = Env::new();
    env.global(
        "messy",
        json!({
            "register":[echo_tool()],
            "raw":[
                "this is not json",
                "{\"type\":\"teleport\"}",
                "\u{ff}\u{fe}{\"type\":\"ready\"}",
                "{\"type\":\"tool_result\",\"id\":\"999999\",\"content\":[]}",
                "{\"type\":\"tool_result\",\"id\":\"not-a-number\",\"content\":[]}",
                "{\"type\":\"notify\"}",
                "[1,2,3]",
                "",
            ]
        }),
    );
    let (host, _rx) = start(env.config()).await;
    // The junk arrives after `ready`; a round trip after it proves it was
    // all read and survived.
    let out = host.call_tool("echo", json!({"n":1})).await.unwrap();
    assert_eq!(out.extension, "messy");
    let log = env.log("messy");
    for needle in [
        "a line is not JSON",
        "unknown frame type 'teleport'",
        "a line is not valid UTF-8",
        "unknown id '999999'",
        "unknown id 'not-a-number'",
        "invalid 'notify' frame",
        "unknown frame type (no \"type\" field)",
    ] {
        assert!(log.contains(needle), "log lacks {needle:?}:\n{log}");
    }
    assert_eq!(host.list()[0].state, ExtState::Ready);
    host.shutdown().await;
}

#[tokio::test]
async fn a_line_over_16_mib_disconnects_that_extension_only() {
    let env = Env::new();
    let dir = env.global(
        "huge",
        json!({"register":[echo_tool()], "big_line": 17 * 1024 * 1024}),
    );
    env.global(
        "fine",
        json!({"register":[{"type":"register_tool","name":"ok","schema":{"type":"object"}}]}),
    );
    let (host, mut rx) = start(env.config()).await;
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtError { .. }))
    })
    .await;
    let HostEvent::Ui(UiEvent::ExtError {
        extension, message, ..
    }) = ev
    else {
        unreachable!()
    };
    assert_eq!(extension, "huge");
    assert!(
        message.contains("longer than")
            && message.contains("16 MiB")
            && message.contains("disconnected"),
        "{message}"
    );
    let pid = read_pid(&dir, "pid");
    eventually(|| !alive(pid)).await;
    assert!(matches!(
        host.call_tool("echo", json!({})).await,
        Err(HostError::UnknownTool(_))
    ));
    assert!(host.call_tool("ok", json!({})).await.is_ok());
    host.shutdown().await;
}

#[tokio::test]
async fn an_extension_that_stops_reading_never_blocks_the_host() {
    let env = Env::new();
    env.global(
        "deaf",
        json!({
            "read_stdin": false,
            "register":[echo_tool(), {"type":"subscribe","events":["assistant_message"],"intercept":["tool_call"]}],
        }),
    );
    let mut cfg = env.config();
    cfg.intercept_timeout = Duration::from_millis(200);
    cfg.tool_timeout = Duration::from_millis(300);
    let (host, _rx) = start(cfg).await;
    // 12 MiB of one-way events: more than the pipe and the 8 MiB queue hold.
    let big = "x".repeat(1024 * 1024);
    for _ in 0..12 {
        host.emit(
            LifecycleEvent::AssistantMessage,
            EventFields {
                text: Some(big.clone()),
                ..Default::default()
            },
        );
    }
    assert!(env
        .log("deaf")
        .contains("one-way frame(s) so far: the extension is not reading its stdin"));
    // A request either does not fit (and fails at once) or waits its timeout.
    let err = host.call_tool("echo", json!({})).await.unwrap_err();
    assert!(
        matches!(err, HostError::QueueFull { .. } | HostError::Timeout { .. }),
        "{err}"
    );
    // Once the queue is certainly full, a large request fails at once.
    let err = host
        .call_tool("echo", json!({"big": big.repeat(9)}))
        .await
        .unwrap_err();
    assert!(matches!(err, HostError::QueueFull { .. }), "{err}");
    assert!(
        err.to_string().contains("'deaf' is not reading its input"),
        "{err}"
    );
    // An interceptor that cannot be asked allows.
    assert_eq!(
        host.intercept_tool_call("t", "bash", json!({"a":1})).await,
        ToolCallVerdict::Allow {
            args: json!({"a":1})
        }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_notify_flood_stays_bounded_and_others_stay_responsive() {
    let env = Env::new();
    env.global("flood", json!({"flood": 1_000_000}));
    env.global(
        "calm",
        json!({"register":[{"type":"register_tool","name":"ping","schema":{"type":"object"}}]}),
    );
    let before = rss_kib();
    // Nobody reads the event stream during the flood.
    let (host, mut rx) = start(env.config()).await;
    let mut answered = 0;
    while !env.log("flood").contains("dropped 100000 event(s)") {
        host.call_tool("ping", json!({})).await.unwrap();
        answered += 1;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(answered > 0);
    let mut queued = 0;
    while rx.try_recv().is_ok() {
        queued += 1;
    }
    assert!(queued <= EVENT_QUEUE, "{queued} events were buffered");
    let grown = rss_kib().saturating_sub(before);
    assert!(
        grown < 64 * 1024,
        "RSS grew by {grown} KiB during the flood"
    );
    host.shutdown().await;
}
