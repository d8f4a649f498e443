//! Stream values a model server controls are bounded, against the fake SSE
//! server in both wire formats: a block or tool-call `index` past 128 (or
//! absurd, or negative) is a stream error rather than an allocation, an
//! answer streaming without end is cut at 32 MiB, and token counts near
//! u64::MAX saturate in the agent instead of overflowing.

use zot_test_support::rpc;

use serde_json::{json, Value};
use zot_lib::providers::transcript::Message;
use zot_lib::providers::{build, ChatRequest, ProviderConfig, ProviderError, ProviderKind};
use zot_test_support::fake_llm::*;

fn provider(kind: ProviderKind, url: &str) -> std::sync::Arc<dyn zot_lib::providers::Provider> {
    let base_url = match kind {
        ProviderKind::Anthropic => url.to_owned(),
        _ => format!("{url}/v1"),
    };
    build(ProviderConfig {
        kind,
        base_url,
        api_key: Some("sk-test".into()),
    })
}

async fn stream(kind: ProviderKind, reply: Reply) -> Result<(), ProviderError> {
    let s = FakeLlm::start().await;
    s.push(reply);
    let p = provider(kind, &s.url);
    let req = ChatRequest {
        model: "m".into(),
        system: String::new(),
        messages: vec![Message::user_text("hi")],
        tools: Vec::new(),
        deferred: Vec::new(),
        max_tokens: 100,
    };
    tokio::time::timeout(rpc::WAIT, p.stream(&req, &mut |_: &str| {}))
        .await
        .expect("the stream hung")
        .map(|_| ())
}

fn anthropic_with_index(event: &str, index: Value) -> Reply {
    let mut c = vec![ev(
        "message_start",
        json!({"type":"message_start","message":{"usage":{"input_tokens":1}}}),
    )];
    if event == "content_block_start" {
        c.push(ev("content_block_start", json!({"type":"content_block_start","index":index,"content_block":{"type":"tool_use","id":"t","name":"read","input":{}}})));
    } else {
        c.push(ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})));
        c.push(ev("content_block_delta", json!({"type":"content_block_delta","index":index,"delta":{"type":"text_delta","text":"x"}})));
    }
    c.push(ev("message_stop", json!({"type":"message_stop"})));
    Reply::Sse(c)
}

#[tokio::test]
async fn anthropic_block_index_past_the_bound_is_a_stream_error() {
    for event in ["content_block_start", "content_block_delta"] {
        for index in [
            json!(128),
            json!(4_000_000_000_000u64),
            json!(u64::MAX),
            json!(-1),
            json!(1.5),
        ] {
            let e = stream(
                ProviderKind::Anthropic,
                anthropic_with_index(event, index.clone()),
            )
            .await
            .err()
            .unwrap_or_else(|| panic!("{event} index {index} was accepted"));
            assert!(
                e.message.contains("malformed stream") && e.message.contains("128"),
                "{event} {index}: {}",
                e.message
            );
        }
    }
    // 127 is still fine.
    assert!(stream(
        ProviderKind::Anthropic,
        anthropic_with_index("content_block_start", json!(127))
    )
    .await
    .is_ok());
}

fn openai_with_index(index: Value) -> Reply {
    Reply::Sse(vec![
        data(
            json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":index,"id":"c","type":"function","function":{"name":"read","arguments":"{}"}}]}}]}),
        ),
        data(json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]})),
        "data: [DONE]\n\n".into(),
    ])
}

#[tokio::test]
async fn openai_tool_call_index_past_the_bound_is_a_stream_error() {
    for index in [json!(128), json!(1_000_000_000_000_000u64), json!(-3)] {
        let e = stream(ProviderKind::Openai, openai_with_index(index.clone()))
            .await
            .err()
            .unwrap_or_else(|| panic!("index {index} was accepted"));
        assert!(
            e.message.contains("malformed stream") && e.message.contains("128"),
            "{index}: {}",
            e.message
        );
    }
    // Calls without an index each take the next slot, up to the same bound.
    let call = json!({"id":"c","type":"function","function":{"name":"read","arguments":"{}"}});
    let calls: Vec<Value> = (0..129).map(|_| call.clone()).collect();
    let e = stream(
        ProviderKind::Openai,
        Reply::Sse(vec![
            data(json!({"choices":[{"index":0,"delta":{"tool_calls":calls}}]})),
            "data: [DONE]\n\n".into(),
        ]),
    )
    .await
    .expect_err("129 tool calls were accepted");
    assert!(e.message.contains("128"), "{}", e.message);
    assert!(stream(ProviderKind::Openai, openai_with_index(json!(127)))
        .await
        .is_ok());
}

#[tokio::test]
async fn an_answer_streaming_without_end_is_cut_at_32_mib() {
    // 16 KiB deltas, 64 to a write: 33 MiB in all.
    let piece = "y".repeat(16 << 10);
    let event = data(json!({"choices":[{"index":0,"delta":{"content":piece}}]}));
    let mut c = vec![data(
        json!({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}),
    )];
    for _ in 0..33 {
        c.push(event.repeat(64));
    }
    c.push("data: [DONE]\n\n".into());
    let e = stream(ProviderKind::Openai, Reply::Sse(c))
        .await
        .expect_err("accepted");
    assert!(e.message.contains("32 MiB"), "{}", e.message);
}

#[tokio::test]
async fn an_sse_line_without_end_is_a_stream_error() {
    let line = format!("data: {}", "z".repeat(3 << 20));
    let e = stream(ProviderKind::Anthropic, Reply::SseThenHang(vec![line]))
        .await
        .expect_err("accepted");
    assert!(
        e.message.contains("malformed stream") && e.message.contains("1 MiB"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn huge_token_counts_saturate_instead_of_crashing_the_agent() {
    let s = FakeLlm::start().await;
    let huge = || {
        Reply::Sse(vec![
            ev(
                "message_start",
                json!({"type":"message_start","message":{"usage":{"input_tokens":u64::MAX,"output_tokens":u64::MAX}}}),
            ),
            ev(
                "content_block_start",
                json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":"ok"}}),
            ),
            ev(
                "message_delta",
                json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":u64::MAX}}),
            ),
            ev("message_stop", json!({"type":"message_stop"})),
        ])
    };
    s.push(huge());
    s.push(huge());
    s.push(anthropic_text(&["fine"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = ["--provider", "anthropic", "--no-ext", "--no-session"];
    let mut z = rpc::Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    z.prompt("one").await;
    z.prompt("two").await;
    let evs = z.prompt("three").await;
    assert_eq!(rpc::of(&evs, "assistant_message")[0]["content"], "fine");
    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["usage"]["input_tokens"], u64::MAX, "{st}");
    assert!(z.close().await.success());
}
