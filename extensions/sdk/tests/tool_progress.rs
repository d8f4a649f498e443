//! Long tool calls: a tool registered with `tool_with_call` reports
//! progress and stops on `tool_cancel`; nothing more is sent for that id.
#[path = "support/child.rs"]
mod child;

use child::started;
use serde_json::json;

#[test]
fn progress_frames_then_the_result() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"t1","name":"build","args":{"steps":2}}));
    let frames: Vec<_> = (0..5).map(|_| ext.recv()).collect();
    assert_eq!(
        frames[0],
        json!({"type":"tool_progress","id":"t1","message":"step 1","progress":1.0,"total":2.0})
    );
    assert_eq!(
        frames[1],
        json!({"type":"tool_progress","id":"t1","partial":"unit 1\n"})
    );
    assert_eq!(frames[4]["type"], "tool_result");
    assert_eq!(frames[4]["content"][0]["text"], "built");
}

#[test]
fn tool_cancel_sets_the_token_and_nothing_more_is_sent_for_that_id() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"t2","name":"build","args":{}}));
    assert_eq!(ext.recv()["type"], "tool_progress");
    ext.send(json!({"type":"tool_cancel","id":"t2","reason":"aborted"}));
    ext.send(json!({"type":"tool_call","id":"q","name":"add","args":{"a":1,"b":2}}));
    let mut seen = Vec::new();
    loop {
        let f = ext.recv();
        let done = f["id"] == "q" && f["type"] == "tool_result";
        seen.push(f);
        if done {
            break;
        }
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    ext.send(json!({"type":"shutdown"}));
    loop {
        let f = ext.recv();
        if f["type"] == "shutdown_ack" {
            break;
        }
        seen.push(f);
    }
    assert!(
        !seen
            .iter()
            .any(|f| f["type"] == "tool_result" && f["id"] == "t2"),
        "{seen:#?}"
    );
}
