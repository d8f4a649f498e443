//! The Backend as the desktop uses it (in process, `interactive: true`):
//! an extension's `submit` queues a prompt, and `abort` also drops prompts
//! queued behind the running one.

use crate::in_process;
use zot_test_support::fixtures;

use in_process::{options, until};
use serde_json::json;
use zot_ext_protocol::rpc::{RpcCommand, UiEvent};
use zot_lib::backend::{Backend, BackendOptions};
use zot_test_support::fake_llm::*;

#[tokio::test]
async fn an_extension_submit_runs_a_turn_in_interactive_front_ends() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["submitted and answered"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ext = fixtures::agent_ext(
        home.path(),
        "fx",
        json!({"commands": {"go": {"action": "noop", "submit": "from the extension"}}}),
    );
    let (b, mut rx) = Backend::start(BackendOptions {
        explicit: vec![ext],
        ..options(home.path(), cwd.path(), &s.url)
    })
    .await
    .unwrap();
    b.wait_ready().await;
    b.handle(RpcCommand::Command {
        name: "go".into(),
        args: String::new(),
    })
    .await
    .unwrap();
    let evs = until(&mut rx, |e| matches!(e, UiEvent::Done {})).await;
    assert!(
        evs.iter().any(
            |e| matches!(e, UiEvent::UserMessage { content, .. } if content == "from the extension")
        ),
        "{evs:#?}"
    );
    assert!(evs.contains(&UiEvent::AssistantMessage {
        content: "submitted and answered".into()
    }));
    b.shutdown().await;
}

#[tokio::test]
async fn abort_stops_the_running_prompt_and_drops_the_queued_ones() {
    let s = FakeLlm::start().await;
    s.push(Reply::SseThenHang(vec![
        ev("message_start", json!({"type":"message_start","message":{"usage":{}}})),
        ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})),
        ev("content_block_delta", json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"slow"}})),
    ]));
    s.push(anthropic_text(&["after abort"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (b, mut rx) = Backend::start(options(home.path(), cwd.path(), &s.url))
        .await
        .unwrap();
    b.wait_ready().await;
    let prompt = |m: &str| RpcCommand::Prompt {
        message: m.into(),
        images: Vec::new(),
    };
    b.handle(prompt("one")).await.unwrap();
    b.handle(prompt("two (queued)")).await.unwrap();
    until(&mut rx, |e| matches!(e, UiEvent::TextDelta { .. })).await;
    assert!(b.busy());
    b.handle(RpcCommand::Abort {}).await.unwrap();
    let evs = until(&mut rx, |e| matches!(e, UiEvent::Done {})).await;
    assert!(evs.iter().any(|e| matches!(
        e,
        UiEvent::TurnEnd {
            stop: zot_ext_protocol::rpc::StopReason::Aborted,
            ..
        }
    )));
    b.idle().await;
    // The queued prompt never ran; a new one does.
    b.handle(prompt("three")).await.unwrap();
    let evs = until(&mut rx, |e| matches!(e, UiEvent::Done {})).await;
    assert!(
        evs.iter()
            .any(|e| matches!(e, UiEvent::UserMessage { content, .. } if content == "three")),
        "{evs:#?}"
    );
    assert!(!evs
        .iter()
        .any(|e| matches!(e, UiEvent::UserMessage { content, .. } if content == "two (queued)")));
    assert_eq!(s.requests().len(), 2);
    b.shutdown().await;
}
