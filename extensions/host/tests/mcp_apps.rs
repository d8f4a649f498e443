//! MCP Apps (#38, docs/mcp.md "MCP Apps") against a real Python MCP server
//! (`fixtures/mcp/app_server.py`): a tool naming a `ui://` resource gets
//! the app's HTML and declared origins on its result; a missing resource or
//! one of another MIME type leaves the plain result with a note (and a log
//! line); a tool meant for its app only never reaches the model.

use crate::mcp::{mcp_dir, venv_python};
use crate::support;

use serde_json::{json, Value};
use support::*;
use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::ContentBlock;

fn app_entry(env: &Env, extra_env: Value) {
    let dir = env.global_dir().join("apps");
    std::fs::create_dir_all(&dir).unwrap();
    let m = json!({
        "name": "apps", "kind": "mcp",
        "command": venv_python(),
        "args": [mcp_dir().join("app_server.py")],
        "env": extra_env,
    });
    std::fs::write(dir.join("extension.json"), m.to_string()).unwrap();
}

fn text_of(c: &[ContentBlock]) -> String {
    c.iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn a_tool_with_a_ui_resource_carries_its_app_on_the_result() {
    let env = Env::new();
    let page = env.loose.path().join("app.html");
    std::fs::write(&page, "<!doctype html><p id=x>the app</p>").unwrap();
    app_entry(&env, json!({"APP_HTML": page}));
    let (host, _rx) = start_settled(env.config()).await;
    let s = summary(&host, "apps");
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?}\n{}",
        s.error,
        env.log("apps")
    );

    let out = host
        .call_tool("show_chart", json!({"title": "q3"}))
        .await
        .unwrap();
    assert!(!out.is_error);
    // The model still gets the text the server wrote for it.
    assert_eq!(text_of(&out.content), "chart 'q3': 3 bars");
    let app = out.app.expect("the result carries its app");
    assert_eq!(app.resource_uri, "ui://zot-test/chart");
    assert_eq!(app.html, "<!doctype html><p id=x>the app</p>");
    assert_eq!(
        app.csp.expect("declared origins").connect_domains,
        vec!["https://api.example.com"]
    );
    assert_eq!(
        app.structured_content,
        Some(json!({"title": "q3", "bars": [3, 1, 2]}))
    );
    assert_eq!(out.app_note, None);
    // The declared origins are in the log, for review.
    assert!(env.log("apps").contains("https://api.example.com"));

    // A plain tool has no app.
    let out = host
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(text_of(&out.content), "sum: 5");
    assert!(out.app.is_none() && out.app_note.is_none());
    host.shutdown().await;
}

#[tokio::test]
async fn a_missing_or_wrong_typed_app_leaves_the_plain_result_with_a_note() {
    let env = Env::new();
    app_entry(&env, json!({}));
    let (host, _rx) = start_settled(env.config()).await;

    let out = host.call_tool("no_app", json!({})).await.unwrap();
    assert!(!out.is_error);
    assert_eq!(text_of(&out.content), "no_app ran");
    assert!(out.app.is_none());
    let note = out.app_note.expect("a note says why");
    assert!(
        note.contains("ui://zot-test/nowhere") && note.contains("could not be read"),
        "{note}"
    );

    let out = host.call_tool("wrong_mime", json!({})).await.unwrap();
    assert_eq!(text_of(&out.content), "wrong_mime ran");
    assert!(out.app.is_none());
    let note = out.app_note.expect("a note says why");
    assert!(
        note.contains("is text/html, not text/html;profile=mcp-app"),
        "{note}"
    );
    let log = env.log("apps");
    assert!(
        log.contains("ui://zot-test/nowhere") && log.contains("showing its plain result"),
        "{log}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_tool_for_its_app_only_is_never_offered_to_the_model() {
    let env = Env::new();
    app_entry(&env, json!({}));
    let (host, _rx) = start_settled(env.config()).await;
    let names: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert!(names.contains(&"show_chart".to_owned()), "{names:?}");
    assert!(!names.contains(&"app_helper".to_owned()), "{names:?}");
    assert!(host.deferred_tools().iter().all(|t| t.name != "app_helper"));
    assert!(env.log("apps").contains("for its app only"));
    host.shutdown().await;
}
