//! Both wire formats against the fake server: streamed text, tool calls
//! with streamed argument JSON, stop reasons, usage, images and the request
//! shape each API expects.

use serde_json::json;
use zot_ext_protocol::rpc::StopReason;
use zot_ext_protocol::ContentBlock;
use zot_lib::providers::transcript::{Block, Message, Role};
use zot_lib::providers::{build, ChatRequest, ProviderConfig, ProviderKind, ToolDef};
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

fn request(messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: "m".into(),
        system: "be brief".into(),
        messages,
        tools: vec![ToolDef {
            name: "read".into(),
            description: "read".into(),
            schema: json!({"type":"object"}),
        }],
        deferred: Vec::new(),
        max_tokens: 100,
    }
}

#[tokio::test]
async fn anthropic_streams_text_deltas_in_order_with_usage() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["Hel", "lo", " there"]));
    let p = provider(ProviderKind::Anthropic, &s.url);
    let mut deltas = Vec::new();
    let c = p
        .stream(&request(vec![Message::user_text("hi")]), &mut |d: &str| {
            deltas.push(d.to_owned())
        })
        .await
        .unwrap();
    assert_eq!(deltas, vec!["Hel", "lo", " there"]);
    assert_eq!(c.content, vec![Block::text("Hello there")]);
    assert_eq!(c.stop, StopReason::EndTurn);
    assert_eq!((c.usage.input_tokens, c.usage.output_tokens), (11, 7));
    let r = &s.requests()[0];
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.header("x-api-key"), Some("sk-test"));
    assert_eq!(r.body["system"][0]["text"], "be brief");
    assert_eq!(r.body["stream"], true);
    assert_eq!(r.body["tools"][0]["input_schema"], json!({"type":"object"}));
}

#[tokio::test]
async fn anthropic_assembles_tool_args_streamed_in_pieces() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "Let me look.",
        "tu_1",
        "read",
        &["{\"pa", "th\": \"a", ".txt\"}"],
    ));
    let p = provider(ProviderKind::Anthropic, &s.url);
    let c = p
        .stream(&request(vec![Message::user_text("hi")]), &mut |_: &str| {})
        .await
        .unwrap();
    assert_eq!(c.stop, StopReason::ToolUse);
    assert_eq!(
        c.content,
        vec![
            Block::text("Let me look."),
            Block::ToolUse {
                id: "tu_1".into(),
                name: "read".into(),
                input: json!({"path":"a.txt"})
            }
        ]
    );
}

#[tokio::test]
async fn anthropic_sends_tool_results_and_images_in_its_own_shape() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["ok"]));
    let p = provider(ProviderKind::Anthropic, &s.url);
    let msgs = vec![
        Message {
            checkpoint: None,
            role: Role::User,
            content: vec![
                Block::text("see"),
                Block::Image {
                    mime_type: "image/png".into(),
                    data: "AAAA".into(),
                },
            ],
        },
        Message {
            checkpoint: None,
            role: Role::Assistant,
            content: vec![Block::ToolUse {
                id: "t1".into(),
                name: "read".into(),
                input: json!({"path":"x"}),
            }],
        },
        Message {
            checkpoint: None,
            role: Role::User,
            content: vec![Block::ToolResult {
                tool_use_id: "t1".into(),
                content: vec![ContentBlock::text("data")],
                is_error: true,
            }],
        },
        Message::user_text("again"),
    ];
    p.stream(&request(msgs), &mut |_: &str| {}).await.unwrap();
    let b = &s.requests()[0].body;
    assert_eq!(
        b["messages"][0]["content"][1]["source"]["media_type"],
        "image/png"
    );
    assert_eq!(b["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(b["messages"][2]["content"][0]["is_error"], true);
    // Two user messages in a row are merged: the API wants alternation.
    assert_eq!(b["messages"].as_array().unwrap().len(), 3);
    assert_eq!(b["messages"][2]["content"][1]["text"], "again");
}

#[tokio::test]
async fn openai_streams_text_and_reads_usage_from_the_final_chunk() {
    let s = FakeLlm::start().await;
    s.push(openai_text(&["Hi", "!"]));
    let p = provider(ProviderKind::Openai, &s.url);
    let mut deltas = String::new();
    let c = p
        .stream(&request(vec![Message::user_text("hi")]), &mut |d: &str| {
            deltas.push_str(d)
        })
        .await
        .unwrap();
    assert_eq!(deltas, "Hi!");
    assert_eq!(c.content, vec![Block::text("Hi!")]);
    assert_eq!(c.stop, StopReason::EndTurn);
    assert_eq!((c.usage.input_tokens, c.usage.output_tokens), (13, 4));
    let r = &s.requests()[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(
        r.body["messages"][0],
        json!({"role":"system","content":"be brief"})
    );
    assert_eq!(r.body["tools"][0]["function"]["name"], "read");
}

#[tokio::test]
async fn openai_assembles_tool_call_args_and_maps_tool_results_to_tool_messages() {
    let s = FakeLlm::start().await;
    s.push(openai_tool(
        "call_9",
        "read",
        &["{\"path\"", ": \"b.txt\"}"],
    ));
    s.push(openai_text(&["done"]));
    let p = provider(ProviderKind::Kimi, &s.url);
    let c = p
        .stream(&request(vec![Message::user_text("hi")]), &mut |_: &str| {})
        .await
        .unwrap();
    assert_eq!(c.stop, StopReason::ToolUse);
    assert_eq!(
        c.content,
        vec![Block::ToolUse {
            id: "call_9".into(),
            name: "read".into(),
            input: json!({"path":"b.txt"})
        }]
    );
    let msgs = vec![
        Message::user_text("hi"),
        Message {
            checkpoint: None,
            role: Role::Assistant,
            content: c.content,
        },
        Message {
            checkpoint: None,
            role: Role::User,
            content: vec![Block::ToolResult {
                tool_use_id: "call_9".into(),
                content: vec![
                    ContentBlock::text("B"),
                    ContentBlock::Image {
                        mime_type: "image/png".into(),
                        data: "QQ==".into(),
                    },
                ],
                is_error: false,
            }],
        },
    ];
    p.stream(&request(msgs), &mut |_: &str| {}).await.unwrap();
    let b = &s.requests()[1].body;
    assert_eq!(
        b["messages"][2]["tool_calls"][0]["function"]["arguments"],
        "{\"path\":\"b.txt\"}"
    );
    assert_eq!(b["messages"][3]["role"], "tool");
    assert_eq!(b["messages"][3]["tool_call_id"], "call_9");
    // Tool messages cannot hold images; they follow as a user message.
    assert_eq!(
        b["messages"][4]["content"][0]["image_url"]["url"],
        "data:image/png;base64,QQ=="
    );
}

#[tokio::test]
async fn a_length_stop_is_reported_as_length() {
    let s = FakeLlm::start().await;
    s.push(Reply::Sse(vec![
        data(json!({"choices":[{"index":0,"delta":{"content":"cut"}}]})),
        data(json!({"choices":[{"index":0,"delta":{},"finish_reason":"length"}]})),
        "data: [DONE]\n\n".into(),
    ]));
    let p = provider(ProviderKind::Ollama, &s.url);
    let c = p
        .stream(&request(vec![Message::user_text("hi")]), &mut |_: &str| {})
        .await
        .unwrap();
    assert_eq!(c.stop, StopReason::Length);
}

#[tokio::test]
async fn models_are_listed_from_the_server() {
    let s = FakeLlm::start().await;
    for kind in [ProviderKind::Anthropic, ProviderKind::Openai] {
        let m = provider(kind, &s.url).list_models().await.unwrap();
        assert_eq!(
            m.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
            vec!["fake-model-1", "fake-model-2"]
        );
    }
}
