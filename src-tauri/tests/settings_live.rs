//! Settings apply to the running backend: a key saved after a start without
//! one is used by the next prompt, and a provider change switches provider
//! and model at once (no restart).

use crate::in_process;

use in_process::{options, until};
use serde_json::Value;
use tokio::sync::mpsc::Receiver;
use zot_ext_protocol::rpc::{RpcCommand, UiEvent};
use zot_lib::backend::{Backend, BackendOptions};
use zot_lib::providers::ProviderKind;
use zot_lib::settings::{self, SettingsUpdate, Startup};
use zot_test_support::fake_llm::*;

/// Events up to the turn's `done`.
async fn turn(b: &Backend, rx: &mut Receiver<UiEvent>, message: &str) -> Vec<UiEvent> {
    b.handle(RpcCommand::Prompt {
        message: message.into(),
        images: Vec::new(),
    })
    .await
    .unwrap();
    until(rx, |e| matches!(e, UiEvent::Done {})).await
}

fn text(evs: &[UiEvent]) -> String {
    evs.iter()
        .filter_map(|e| match e {
            UiEvent::TextDelta { delta } => Some(delta.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_key_saved_in_settings_is_used_by_the_next_prompt() {
    // Kimi, whose key variables no machine here sets; the test cannot
    // unset the environment of a multi-threaded process.
    let kind = ProviderKind::Kimi;
    if kind
        .env_vars()
        .iter()
        .any(|v| std::env::var_os(v).is_some())
    {
        eprintln!("skipped: a Kimi key is set in the environment");
        return;
    }
    let llm = FakeLlm::start().await;
    llm.push(openai_text(&["answered with the new key"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (b, mut rx) = Backend::start(BackendOptions {
        provider: kind,
        api_key: None,
        ..options(home.path(), cwd.path(), &llm.url)
    })
    .await
    .unwrap();

    let evs = turn(&b, &mut rx, "hello").await;
    assert!(
        evs.iter().any(
            |e| matches!(e, UiEvent::Error { message } if message.contains("no API key for kimi"))
        ),
        "{evs:#?}"
    );
    assert!(llm.requests().is_empty(), "no request without a key");

    let start = Startup {
        zot_home: home.path(),
        provider: "kimi",
        model: "m",
        api_key: None,
    };
    let update = SettingsUpdate {
        api_key: Some(" sk-saved-5678 ".into()),
        ..Default::default()
    };
    settings::save(&start, &b, &update).await.unwrap();

    let evs = turn(&b, &mut rx, "hello again").await;
    assert_eq!(text(&evs), "answered with the new key", "{evs:#?}");
    let req = &llm.requests()[0];
    assert_eq!(req.header("authorization"), Some("Bearer sk-saved-5678"));
    let shown = settings::current(&start, Some(&b)).await;
    assert_eq!(shown.key_hint.as_deref(), Some("…5678"));
    b.shutdown().await;
}

#[tokio::test]
async fn a_provider_change_applies_at_once_with_its_default_model() {
    let llm = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (b, _rx) = Backend::start(options(home.path(), cwd.path(), &llm.url))
        .await
        .unwrap();
    let start = Startup {
        zot_home: home.path(),
        provider: "anthropic",
        model: "m",
        api_key: Some("k"),
    };
    let update = SettingsUpdate {
        provider: Some("ollama".into()),
        ..Default::default()
    };
    settings::save(&start, &b, &update).await.unwrap();
    let state: Value =
        serde_json::to_value(b.handle(RpcCommand::GetState {}).await.unwrap()).unwrap();
    assert_eq!(state["provider"], "ollama");
    assert_eq!(state["model"], ProviderKind::Ollama.default_model());
    let shown = settings::current(&start, Some(&b)).await;
    assert_eq!(shown.provider, "ollama");
    // An explicit model in the same change wins over the default.
    let update = SettingsUpdate {
        provider: Some("anthropic".into()),
        model: Some("claude-test".into()),
        ..Default::default()
    };
    settings::save(&start, &b, &update).await.unwrap();
    let state: Value =
        serde_json::to_value(b.handle(RpcCommand::GetState {}).await.unwrap()).unwrap();
    assert_eq!(state["provider"], "anthropic");
    assert_eq!(state["model"], "claude-test");
    b.shutdown().await;
}
