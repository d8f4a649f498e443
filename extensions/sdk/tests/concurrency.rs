//! A slow handler does not hold up other frames: while the `block` tool
//! waits (for up to 10 s) a panel key and a command are still answered. The
//! test needs no clock: `/release` is what lets the tool finish, so a
//! serial SDK would answer the tool first (after its 10 s timeout) and fail.
#[path = "support/child.rs"]
mod child;

use child::started;
#[allow(unused_imports)]
use serde_json::{json, Value};

#[test]
fn a_blocked_tool_does_not_delay_panel_keys_or_commands() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"slow","name":"block","args":{}}));
    ext.send(json!({"type":"panel_key","panel_id":"p1","key":"down"}));
    let first = ext.recv();
    assert_eq!(
        first["type"], "panel_render",
        "the key was held up behind the tool: {first}"
    );
    ext.send(json!({"type":"command_invoked","id":"r","name":"release","args":""}));
    let mut got = [ext.recv(), ext.recv()];
    got.sort_by_key(|f| f["type"].as_str().unwrap().to_owned());
    assert_eq!(
        got[0],
        json!({"type":"command_response","id":"r","action":"noop"})
    );
    assert_eq!(
        got[1],
        json!({"type":"tool_result","id":"slow","content":[{"type":"text","text":"released"}]})
    );
}

#[test]
fn many_requests_in_flight_each_get_their_own_answer() {
    let mut ext = started();
    for i in 0..200 {
        ext.send(
            json!({"type":"tool_call","id":format!("t{i}"),"name":"add","args":{"a":i,"b":1}}),
        );
    }
    let mut seen = std::collections::HashMap::new();
    for _ in 0..200 {
        let r = ext.recv();
        seen.insert(
            r["id"].as_str().unwrap().to_owned(),
            r["content"][0]["text"].as_str().unwrap().to_owned(),
        );
    }
    for i in 0..200 {
        assert_eq!(seen[&format!("t{i}")], (i + 1).to_string());
    }
}
