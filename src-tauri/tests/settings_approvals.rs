//! The window's approval mode is a setting: `ask` by default, changed in
//! Settings for the running backend at once (the next tool call), and
//! kept in `config.json` as `approvals.desktop` for the next start.

use crate::in_process;

use in_process::{options, until};
use serde_json::json;
use zot_ext_protocol::approvals::{ApprovalDecision, ApprovalMode};
use zot_ext_protocol::rpc::{RpcCommand, UiEvent};
use zot_lib::backend::options::approval_mode;
use zot_lib::backend::{Backend, BackendOptions};
use zot_lib::settings::{self, SettingsUpdate, Startup};
use zot_test_support::fake_llm::*;

#[tokio::test]
async fn switching_to_auto_in_settings_applies_to_the_next_call_and_is_kept() {
    let llm = FakeLlm::start().await;
    for _ in 0..2 {
        llm.push(anthropic_tool(
            "",
            "t1",
            "bash",
            &[&json!({"command": "echo settings"}).to_string()],
        ));
        llm.push(anthropic_text(&["ok"]));
    }
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(approval_mode(None, true, home.path()), ApprovalMode::Ask);
    assert_eq!(approval_mode(None, false, home.path()), ApprovalMode::Auto);
    let (b, mut rx) = Backend::start(BackendOptions {
        approvals: approval_mode(None, true, home.path()),
        ..options(home.path(), cwd.path(), &llm.url)
    })
    .await
    .unwrap();
    let start = Startup {
        zot_home: home.path(),
        provider: "anthropic",
        model: "m",
        api_key: Some("k"),
    };
    assert_eq!(
        settings::current(&start, Some(&b)).await.approvals,
        ApprovalMode::Ask
    );

    let prompt = || RpcCommand::Prompt {
        message: "go".into(),
        images: Vec::new(),
    };
    b.handle(prompt()).await.unwrap();
    let evs = until(&mut rx, |e| matches!(e, UiEvent::ToolApproval { .. })).await;
    let Some(UiEvent::ToolApproval { id, .. }) = evs.last() else {
        unreachable!()
    };
    b.handle(RpcCommand::ApproveTool {
        id: id.clone(),
        decision: ApprovalDecision::Allow,
        remember: None,
        rule: None,
        scope: None,
    })
    .await
    .unwrap();
    until(&mut rx, |e| matches!(e, UiEvent::Done {})).await;

    settings::save(
        &start,
        &b,
        &SettingsUpdate {
            approvals: Some(ApprovalMode::Auto),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    b.handle(prompt()).await.unwrap();
    let evs = until(&mut rx, |e| matches!(e, UiEvent::Done {})).await;
    assert!(
        !evs.iter()
            .any(|e| matches!(e, UiEvent::ToolApproval { .. })),
        "{evs:#?}"
    );
    assert_eq!(
        settings::current(&start, Some(&b)).await.approvals,
        ApprovalMode::Auto
    );
    assert_eq!(approval_mode(None, true, home.path()), ApprovalMode::Auto);
    // The flag still wins over the setting.
    assert_eq!(
        approval_mode(Some(ApprovalMode::Ask), true, home.path()),
        ApprovalMode::Ask
    );
    b.shutdown().await;
}
