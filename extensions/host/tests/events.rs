//! Lifecycle events reach subscribers only, one-way.

use crate::support;

use serde_json::{json, Value};
use support::*;
use zot_ext_host::{EventFields, HostEvent, LifecycleEvent};
use zot_ext_protocol::rpc::UiEvent;

#[tokio::test]
async fn events_go_to_subscribers_only_with_their_fields() {
    let env = Env::new();
    env.global(
        "sub",
        json!({"events": true, "register":[{"type":"subscribe","events":["turn_start","tool_call"]}]}),
    );
    env.global("unsub", json!({"events": true}));
    let (host, mut rx) = start(env.config()).await;
    host.emit(LifecycleEvent::SessionStart, EventFields::default());
    host.emit(
        LifecycleEvent::TurnStart,
        EventFields {
            step: Some(2),
            ..Default::default()
        },
    );
    host.emit(
        LifecycleEvent::ToolCall,
        EventFields {
            tool_id: Some("t9".into()),
            tool_name: Some("read".into()),
            tool_args: Some(json!({"path":"foo"})),
            ..Default::default()
        },
    );
    let mut got = Vec::new();
    while got.len() < 2 {
        let ev = wait_event(&mut rx, |e| {
            matches!(e, HostEvent::Ui(UiEvent::ExtNotify { .. }))
        })
        .await;
        let HostEvent::Ui(UiEvent::ExtNotify {
            extension, message, ..
        }) = ev
        else {
            unreachable!()
        };
        assert_eq!(extension, "sub", "a non-subscriber got an event: {message}");
        got.push(serde_json::from_str::<Value>(&message).unwrap());
    }
    assert_eq!(
        got[0],
        json!({"type":"event","event":"turn_start","step":2})
    );
    assert_eq!(
        got[1],
        json!({"type":"event","event":"tool_call","tool_id":"t9","tool_name":"read","tool_args":{"path":"foo"}})
    );
    host.shutdown().await;
    // Nothing else arrived: session_start was not subscribed, `unsub` got nothing.
    while let Ok(ev) = rx.try_recv() {
        assert!(
            !matches!(ev, HostEvent::Ui(UiEvent::ExtNotify { .. })),
            "{ev:?}"
        );
    }
}

#[tokio::test]
async fn notify_clear_notes_and_submit_reach_the_app() {
    let env = Env::new();
    env.global(
        "talk",
        json!({"register":[
            {"type":"notify","level":"warn","message":"careful"},
            {"type":"clear_notes"},
            {"type":"submit","text":"   "},
            {"type":"submit","text":"do the thing"},
        ]}),
    );
    let (host, mut rx) = Host::start(env.config());
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let ev = wait_event(&mut rx, |e| {
            !matches!(e, HostEvent::Ui(UiEvent::ExtChanged {}))
        })
        .await;
        seen.push(ev);
    }
    assert_eq!(
        seen,
        vec![
            HostEvent::Ui(UiEvent::ExtNotify {
                extension: "talk".into(),
                level: zot_ext_protocol::NoteLevel::Warn.into(),
                style: zot_ext_protocol::NoteLevel::Warn,
                message: "careful".into()
            }),
            HostEvent::Ui(UiEvent::ExtClearNotes {
                extension: "talk".into()
            }),
            HostEvent::Submit {
                extension: "talk".into(),
                text: "do the thing".into()
            },
        ]
    );
    host.shutdown().await;
}

use zot_ext_host::Host;
