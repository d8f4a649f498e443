//! The toolchart example (an HTML panel, Python SDK) through the real host:
//! it counts the tool calls it observes, opens its chart as an HTML page
//! that needs no network, answers the page's messages and pushes new
//! counts to the open page live.

use serde_json::{json, Value};
use zot_examples_tests::{example_dir, Harness};
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{EventFields, LifecycleEvent, PanelMessage};

fn call(h: &Harness, tool: &str, args: Value) {
    h.host.emit(
        LifecycleEvent::ToolCall,
        EventFields {
            tool_id: Some(format!("t-{tool}")),
            tool_name: Some(tool.into()),
            tool_args: Some(args),
            ..EventFields::default()
        },
    );
}

async fn message(h: &mut Harness) -> Value {
    let ev = h.ui(|e| matches!(e, UiEvent::ExtPanelMessage { .. })).await;
    let UiEvent::ExtPanelMessage {
        panel_id,
        extension,
        data,
    } = ev
    else {
        unreachable!()
    };
    assert_eq!(
        (panel_id.as_str(), extension.as_str()),
        ("toolchart", "toolchart")
    );
    data
}

fn from_page(h: &Harness, data: Value) {
    let sent = h
        .host
        .panel_message(PanelMessage {
            panel_id: "toolchart".into(),
            data,
        })
        .unwrap();
    assert!(sent);
}

#[tokio::test]
async fn toolchart_charts_observed_calls_in_an_offline_page_and_talks_to_it() {
    let mut h = Harness::start(&[example_dir("toolchart")]).await;
    call(&h, "bash", json!({"command": "ls"}));
    call(&h, "read", json!({"path": "a.rs"}));
    call(&h, "bash", json!({"command": "cargo test"}));

    let r = h
        .host
        .invoke_command("toolchart", "")
        .await
        .unwrap()
        .response;
    assert_eq!(r.error, None);
    let open = h.ui(|e| matches!(e, UiEvent::ExtPanelOpen { .. })).await;
    let UiEvent::ExtPanelOpen { panel, net, .. } = open else {
        unreachable!()
    };
    let html = panel.html.expect("an HTML panel");
    assert!(panel.lines.is_empty());
    assert!(!net, "its manifest grants no network");
    assert!(html.contains("<svg"), "the chart is drawn by the page");
    // Nothing the page loads comes from the network: the only URL is the
    // SVG namespace, which is a name, not a request.
    let urls: Vec<&str> = html
        .match_indices("http")
        .map(|(i, _)| &html[i..(i + 30).min(html.len())])
        .collect();
    assert!(
        urls.iter()
            .all(|u| u.starts_with("http://www.w3.org/2000/svg")),
        "{urls:?}"
    );

    from_page(&h, json!({"ready": true}));
    assert_eq!(
        message(&mut h).await,
        json!({"counts": {"bash": 2, "read": 1}})
    );

    from_page(&h, json!({"select": "bash"}));
    assert_eq!(
        message(&mut h).await,
        json!({"selected": "bash", "count": 2,
            "recent": ["{\"command\": \"cargo test\"}", "{\"command\": \"ls\"}"]})
    );

    // A call while the page is open reaches it at once.
    call(&h, "write", json!({"path": "b.rs"}));
    assert_eq!(
        message(&mut h).await,
        json!({"counts": {"bash": 2, "read": 1, "write": 1}})
    );
    h.host.shutdown().await;
}
