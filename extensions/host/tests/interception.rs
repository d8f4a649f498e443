//! Serial interception in load order: first block wins, rewrites chain,
//! silence means allow, bad `modified_args` are ignored and logged.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;
use zot_ext_host::{TextVerdict, ToolCallVerdict, Verdict};

fn interceptor(events: &[&str], behaviour: serde_json::Value) -> serde_json::Value {
    json!({
        "register":[{"type":"subscribe","events":[],"intercept":events}],
        "intercept": behaviour,
    })
}

#[tokio::test]
async fn rewrites_chain_in_load_order() {
    let env = Env::new();
    // Global extensions load by name; each appends its name to seen_by.
    for n in ["c", "a", "b"] {
        env.global(
            n,
            interceptor(&["tool_call"], json!({"tool_call":"echo_args"})),
        );
    }
    let (host, _rx) = start(env.config()).await;
    let v = host
        .intercept_tool_call("t1", "bash", json!({"command":"ls"}))
        .await;
    assert_eq!(
        v,
        ToolCallVerdict::Allow {
            args: json!({"command":"ls","seen_by":["a","b","c"]})
        }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn the_first_block_wins_and_later_interceptors_are_not_asked() {
    let env = Env::new();
    env.global(
        "a",
        interceptor(&["tool_call"], json!({"tool_call":"echo_args"})),
    );
    env.global(
        "b",
        interceptor(
            &["tool_call"],
            json!({"tool_call":{"block":true,"reason":"no rm","modified_args":{"x":1}}}),
        ),
    );
    env.global(
        "c",
        interceptor(
            &["tool_call"],
            json!({"tool_call":{"block":true,"reason":"c says no"}}),
        ),
    );
    let (host, _rx) = start(env.config()).await;
    let v = host
        .intercept_tool_call("t1", "bash", json!({"command":"rm -rf /"}))
        .await;
    assert_eq!(
        v,
        ToolCallVerdict::Block {
            extension: "b".into(),
            reason: "no rm".into()
        }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn silence_counts_as_allow_and_the_chain_goes_on() {
    let env = Env::new();
    env.global(
        "a",
        interceptor(
            &["tool_call", "turn_start"],
            json!({"tool_call":"hang","turn_start":"hang"}),
        ),
    );
    env.global(
        "b",
        interceptor(&["tool_call"], json!({"tool_call":"echo_args"})),
    );
    let mut cfg = env.config();
    cfg.intercept_timeout = Duration::from_millis(300);
    let (host, _rx) = start(cfg).await;
    let v = host
        .intercept_tool_call("t1", "read", json!({"path":"x"}))
        .await;
    assert_eq!(
        v,
        ToolCallVerdict::Allow {
            args: json!({"path":"x","seen_by":["b"]})
        }
    );
    assert_eq!(host.intercept_turn_start(1).await, Verdict::Allow);
    let log = env.log("a");
    assert!(log.contains("treated as allow"), "{log}");
    host.shutdown().await;
}

#[tokio::test]
async fn modified_args_that_are_not_an_object_are_ignored_and_logged() {
    let env = Env::new();
    env.global(
        "a",
        interceptor(
            &["tool_call"],
            json!({"tool_call":{"modified_args":"rm -rf /"}}),
        ),
    );
    env.global(
        "b",
        interceptor(&["tool_call"], json!({"tool_call":{"modified_args":[1,2]}})),
    );
    let (host, _rx) = start(env.config()).await;
    let v = host
        .intercept_tool_call("t1", "bash", json!({"command":"ls"}))
        .await;
    assert_eq!(
        v,
        ToolCallVerdict::Allow {
            args: json!({"command":"ls"})
        }
    );
    assert!(env
        .log("a")
        .contains("modified_args for tool 'bash' is not a JSON object"));
    assert!(env
        .log("b")
        .contains("modified_args for tool 'bash' is not a JSON object"));
    host.shutdown().await;
}

#[tokio::test]
async fn turn_start_blocks_with_a_reason_or_a_default_one() {
    let env = Env::new();
    env.global(
        "gate",
        interceptor(&["turn_start"], json!({"turn_start":{"block":true}})),
    );
    let (host, _rx) = start(env.config()).await;
    assert_eq!(
        host.intercept_turn_start(3).await,
        Verdict::Block {
            extension: "gate".into(),
            reason: "blocked by extension 'gate'".into()
        }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn assistant_text_replacements_chain_and_a_block_suppresses() {
    let env = Env::new();
    env.global(
        "a",
        interceptor(
            &["assistant_message"],
            json!({"assistant_message":"append_text"}),
        ),
    );
    env.global(
        "b",
        interceptor(
            &["assistant_message"],
            json!({"assistant_message":"append_text"}),
        ),
    );
    let (host, _rx) = start(env.config()).await;
    assert_eq!(
        host.intercept_assistant_message("hi").await,
        TextVerdict::Show {
            text: "hi+a+b".into()
        }
    );
    host.shutdown().await;

    let env = Env::new();
    env.global(
        "redact",
        interceptor(
            &["assistant_message"],
            json!({"assistant_message":{"block":true,"reason":"secret"}}),
        ),
    );
    let (host, _rx) = start(env.config()).await;
    assert_eq!(
        host.intercept_assistant_message("sk-ant-123").await,
        TextVerdict::Block {
            extension: "redact".into(),
            reason: "secret".into()
        }
    );
    host.shutdown().await;
}

#[tokio::test]
async fn only_interceptors_of_that_event_are_asked() {
    let env = Env::new();
    // Blocks tool calls, but only observes turn_start.
    env.global(
        "watch",
        json!({
            "register":[{"type":"subscribe","events":["turn_start"],"intercept":["tool_call"]}],
            "intercept":{"turn_start":{"block":true},"tool_call":{"block":true,"reason":"r"}}
        }),
    );
    let (host, _rx) = start(env.config()).await;
    assert_eq!(host.intercept_turn_start(1).await, Verdict::Allow);
    assert!(matches!(
        host.intercept_tool_call("t", "x", json!({})).await,
        ToolCallVerdict::Block { .. }
    ));
    host.shutdown().await;
}
