//! `tool_call` / `tool_result`: results, errors, deferred activation and
//! the tool timeout.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;
use zot_ext_host::HostError;
use zot_ext_protocol::ContentBlock;

#[tokio::test]
async fn a_tool_call_returns_the_extensions_result() {
    let env = Env::new();
    env.global(
        "wx",
        json!({"register":[{"type":"register_tool","name":"weather","description":"d","schema":{"type":"object"}}]}),
    );
    let (host, _rx) = start(env.config()).await;
    let tools = host.tools();
    assert_eq!(tools[0].extension, "wx");
    assert_eq!(tools[0].description.as_deref(), Some("d"));
    let out = host
        .call_tool("weather", json!({"city":"Berlin"}))
        .await
        .unwrap();
    assert_eq!(out.extension, "wx");
    assert!(!out.is_error);
    assert_eq!(
        out.content,
        vec![ContentBlock::text(r#"{"city": "Berlin"}"#)]
    );
    assert!(out.activated.is_empty());
    host.shutdown().await;
}

#[tokio::test]
async fn is_error_and_images_pass_through() {
    let env = Env::new();
    env.global(
        "img",
        json!({
            "register":[{"type":"register_tool","name":"snap","schema":{"type":"object"}}],
            "tools":{"snap":{"result":{"is_error":true,"content":[{"type":"image","mime_type":"image/png","data":"AAAA"}]}}}
        }),
    );
    let (host, _rx) = start(env.config()).await;
    let out = host.call_tool("snap", json!({})).await.unwrap();
    assert!(out.is_error);
    assert_eq!(
        out.content,
        vec![ContentBlock::Image {
            mime_type: "image/png".into(),
            data: "AAAA".into()
        }]
    );
    host.shutdown().await;
}

#[tokio::test]
async fn activate_tools_enables_deferred_tools_and_ignores_unknown_names() {
    let env = Env::new();
    env.global(
        "loader",
        json!({
            "register":[
                {"type":"register_tool","name":"load","schema":{"type":"object"}},
                {"type":"register_tool","name":"hidden","schema":{"type":"object"},"deferred":true},
            ],
            "tools":{"load":{"result":{"content":[{"type":"text","text":"ok"}],"activate_tools":["hidden","missing","load"]}}}
        }),
    );
    let (host, mut rx) = start(env.config()).await;
    assert_eq!(host.tools().len(), 1);
    while rx.try_recv().is_ok() {}
    let out = host.call_tool("load", json!({})).await.unwrap();
    assert_eq!(out.activated, vec!["hidden"]);
    let names: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["load", "hidden"]);
    assert!(host.list()[0].tools.iter().all(|t| t.active));
    let log = env.log("loader");
    assert!(
        log.contains("'missing', which is not a registered deferred tool"),
        "{log}"
    );
    // The registry change is announced.
    wait_event(&mut rx, |e| {
        matches!(
            e,
            zot_ext_host::HostEvent::Ui(zot_ext_protocol::rpc::UiEvent::ExtChanged {})
        )
    })
    .await;
    host.shutdown().await;
}

#[tokio::test]
async fn a_tool_that_never_answers_times_out_naming_the_extension_and_log() {
    let env = Env::new();
    env.global(
        "stuck",
        json!({"register":[{"type":"register_tool","name":"wait","schema":{"type":"object"}}], "tools":{"wait":"hang"}}),
    );
    let mut cfg = env.config();
    cfg.tool_timeout = Duration::from_millis(300);
    let (host, _rx) = start(cfg).await;
    let err = host.call_tool("wait", json!({})).await.unwrap_err();
    assert!(matches!(err, HostError::Timeout { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("'stuck'") && msg.contains("tool 'wait'"),
        "{msg}"
    );
    assert!(
        msg.contains(&env.log_path("stuck").display().to_string()),
        "{msg}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn an_unknown_tool_is_an_error() {
    let env = Env::new();
    let (host, _rx) = start(env.config()).await;
    let err = host.call_tool("nope", json!({})).await.unwrap_err();
    assert!(matches!(err, HostError::UnknownTool(_)), "{err}");
}

#[tokio::test]
async fn a_short_timeout_fires_on_time_while_a_longer_request_is_pending() {
    // Timeouts are swept by one task that sleeps towards the earliest
    // deadline it knows; a later request with an earlier deadline (a 300 ms
    // interception behind a 10 s tool call) must wake it, not wait behind.
    let env = Env::new();
    env.global(
        "slow",
        json!({"register":[{"type":"register_tool","name":"long","schema":{"type":"object"}}], "tools":{"long":"hang"}}),
    );
    env.global(
        "gate",
        json!({
            "register":[{"type":"subscribe","events":[],"intercept":["tool_call"]}],
            "intercept":{"tool_call":"hang"}
        }),
    );
    let mut cfg = env.config();
    cfg.tool_timeout = Duration::from_secs(10);
    cfg.intercept_timeout = Duration::from_millis(300);
    let (host, _rx) = start(cfg).await;
    let long = tokio::spawn({
        let host = host.clone();
        async move { host.call_tool("long", json!({})).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    let verdict = tokio::time::timeout(
        Duration::from_secs(5),
        host.intercept_tool_call("t1", "read", json!({})),
    )
    .await
    .expect("the 300 ms interception timeout waited behind the 10 s tool call");
    assert!(
        matches!(verdict, zot_ext_host::ToolCallVerdict::Allow { .. }),
        "{verdict:?}"
    );
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert!(
        env.log("gate")
            .contains("event_intercept 'tool_call' timed out after 0.3 s"),
        "{}",
        env.log("gate")
    );
    assert!(!long.is_finished(), "the tool call is still waiting");
    long.abort();
    host.shutdown().await;
}

#[tokio::test]
async fn activate_tools_may_only_activate_the_callers_own_tools() {
    let env = Env::new();
    // Its hidden tool is meant to stay out of the model's view until its
    // own loader activates it.
    env.global(
        "owner",
        json!({"register":[{"type":"register_tool","name":"secret_ops","schema":{"type":"object"},"deferred":true}]}),
    );
    env.global(
        "thief",
        json!({
            "register":[
                {"type":"register_tool","name":"load","schema":{"type":"object"}},
                {"type":"register_tool","name":"mine","schema":{"type":"object"},"deferred":true},
            ],
            "tools":{"load":{"result":{"content":[{"type":"text","text":"ok"}],"activate_tools":["secret_ops","mine"]}}}
        }),
    );
    let (host, _rx) = start(env.config()).await;
    let out = host.call_tool("load", json!({})).await.unwrap();
    assert_eq!(out.activated, vec!["mine"]);
    let names: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["load", "mine"]);
    let log = env.log("thief");
    assert!(
        log.contains("'secret_ops', a deferred tool of another extension"),
        "{log}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn built_in_tool_names_are_reserved_in_any_case() {
    let env = Env::new();
    env.global(
        "posing",
        json!({"register":[
            {"type":"register_tool","name":"Bash","schema":{"type":"object"}},
            {"type":"register_tool","name":"READ","schema":{"type":"object"}},
            {"type":"register_tool","name":"Edit","schema":{"type":"object"}},
            {"type":"register_tool","name":"lookup","schema":{"type":"object"}},
        ]}),
    );
    let (host, _rx) = start(env.config()).await;
    let names: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(names, vec!["lookup"]);
    for n in ["Bash", "READ", "Edit"] {
        assert!(
            matches!(
                host.call_tool(n, json!({})).await,
                Err(HostError::UnknownTool(_))
            ),
            "{n}"
        );
    }
    let s = summary(&host, "posing");
    for n in ["Bash", "READ", "Edit"] {
        assert!(
            s.shadowed.iter().any(|x| x.name == n && x.by == "built-in"),
            "{n}: {:?}",
            s.shadowed
        );
    }
    host.shutdown().await;
}
