//! The TypeScript-SDK scratchpad example through the real host: commands
//! and the tool share one scratchpad file in the extension's data dir.

use serde_json::json;
use zot_examples_tests::{copy_example, Harness};
use zot_ext_protocol::{CommandAction, ContentBlock};

fn text(c: &[ContentBlock]) -> String {
    match &c[0] {
        ContentBlock::Text { text } => text.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

#[tokio::test]
async fn commands_and_the_tool_share_the_scratchpad() {
    let copy = copy_example("scratchpad");
    assert!(
        copy.dir.join("scratchpad.js").exists(),
        "examples/extensions/scratchpad/scratchpad.js is not built: run `make deps` (npm ci + tsc)"
    );
    let h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    let r = h
        .host
        .invoke_command("scratch", "buy milk")
        .await
        .unwrap()
        .response;
    assert_eq!(r.display.as_deref(), Some("noted (1 in the scratchpad)"));

    let r = h
        .host
        .call_tool("scratchpad", json!({"action":"append","text":"call Bob"}))
        .await
        .unwrap();
    assert!(!r.is_error);
    let r = h
        .host
        .call_tool("scratchpad", json!({"action":"read"}))
        .await
        .unwrap();
    assert_eq!(text(&r.content), "1. buy milk\n2. call Bob");
    assert_eq!(
        std::fs::read_to_string(copy.dir.join("scratchpad.md")).unwrap(),
        "- buy milk\n- call Bob\n"
    );

    let r = h
        .host
        .invoke_command("scratch-ask", "")
        .await
        .unwrap()
        .response;
    assert_eq!(r.action, Some(CommandAction::Prompt));
    assert!(r.prompt.unwrap().contains("2. call Bob"));

    let r = h
        .host
        .call_tool("scratchpad", json!({"action":"shred"}))
        .await
        .unwrap();
    assert!(r.is_error);
    let r = h
        .host
        .call_tool("scratchpad", json!({"action":"append"}))
        .await
        .unwrap();
    assert!(r.is_error);

    let r = h
        .host
        .invoke_command("scratch-clear", "")
        .await
        .unwrap()
        .response;
    assert_eq!(r.action, Some(CommandAction::Noop));
    let r = h.host.invoke_command("scratch", "").await.unwrap().response;
    assert_eq!(r.display.as_deref(), Some("(scratchpad is empty)"));
    h.host.shutdown().await;
}
