//! Provider failures: a bad key, retried 429/5xx (honouring retry-after),
//! and broken streams, each ending in a clear error.

use serde_json::json;
use zot_lib::providers::transcript::Message;
use zot_lib::providers::{build, ChatRequest, ProviderConfig, ProviderKind};
use zot_test_support::fake_llm::*;

fn provider(kind: ProviderKind, url: &str) -> std::sync::Arc<dyn zot_lib::providers::Provider> {
    build(ProviderConfig {
        kind,
        base_url: url.to_owned(),
        api_key: Some("bad".into()),
    })
}

fn request() -> ChatRequest {
    ChatRequest {
        model: "m".into(),
        system: String::new(),
        messages: vec![Message::user_text("hi")],
        tools: vec![],
        deferred: Vec::new(),
        max_tokens: 10,
    }
}

#[tokio::test]
async fn a_401_says_invalid_api_key_for_the_provider_and_is_not_retried() {
    let s = FakeLlm::start().await;
    s.push(error_status(401, "invalid x-api-key", None));
    let e = provider(ProviderKind::Anthropic, &s.url)
        .stream(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(
        e.message.contains("invalid API key for anthropic"),
        "{}",
        e.message
    );
    assert!(e.message.contains("invalid x-api-key"), "{}", e.message);
    assert_eq!(s.requests().len(), 1);
}

#[tokio::test]
async fn a_429_with_retry_after_is_retried_and_then_succeeds() {
    let s = FakeLlm::start().await;
    s.push(error_status(429, "slow down", Some("0")));
    s.push(error_status(503, "overloaded", Some("0")));
    s.push(openai_text(&["ok"]));
    let c = provider(ProviderKind::Openai, &s.url)
        .stream(&request(), &mut |_: &str| {})
        .await
        .unwrap();
    assert_eq!(
        c.content[0],
        zot_lib::providers::transcript::Block::text("ok")
    );
    assert_eq!(s.requests().len(), 3);
}

#[tokio::test]
async fn persistent_5xx_gives_up_with_the_providers_message() {
    let s = FakeLlm::start().await;
    for _ in 0..4 {
        s.push(error_status(500, "the upstream melted", Some("0")));
    }
    let e = provider(ProviderKind::Kimi, &s.url)
        .stream(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(e.message.contains("the upstream melted"), "{}", e.message);
    assert!(
        e.message.contains("gave up after 4 attempts"),
        "{}",
        e.message
    );
    assert_eq!(s.requests().len(), 4);
}

#[tokio::test]
async fn a_truncated_stream_is_an_error_in_both_formats() {
    let s = FakeLlm::start().await;
    s.push(Reply::Sse(vec![ev("message_start", json!({"type":"message_start","message":{"usage":{}}})),
        ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})),
        ev("content_block_delta", json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"par"}}))]));
    let e = provider(ProviderKind::Anthropic, &s.url)
        .stream(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(e.message.contains("truncated"), "{}", e.message);
    s.push(Reply::Sse(vec![data(
        json!({"choices":[{"index":0,"delta":{"content":"par"}}]}),
    )]));
    let e = provider(ProviderKind::Openai, &s.url)
        .stream(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(e.message.contains("truncated"), "{}", e.message);
}

#[tokio::test]
async fn malformed_event_json_is_an_error_naming_the_provider() {
    let s = FakeLlm::start().await;
    s.push(Reply::Sse(vec!["data: {\"choices\": [oops\n\n".into()]));
    let e = provider(ProviderKind::Ollama, &s.url)
        .stream(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(
        e.message.contains("ollama sent a malformed stream event"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn an_error_event_mid_stream_carries_the_providers_message() {
    let s = FakeLlm::start().await;
    s.push(Reply::Sse(vec![ev(
        "error",
        json!({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}),
    )]));
    let e = provider(ProviderKind::Anthropic, &s.url)
        .stream(&request(), &mut |_: &str| {})
        .await
        .unwrap_err();
    assert!(e.message.contains("Overloaded"), "{}", e.message);
}
