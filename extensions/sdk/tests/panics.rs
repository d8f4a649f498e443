//! A panicking handler becomes an error reply carrying its message, and the
//! extension keeps running.
#[path = "support/child.rs"]
mod child;

use child::started;
#[allow(unused_imports)]
use serde_json::{json, Value};

#[test]
fn a_panicking_command_becomes_an_error_response() {
    let mut ext = started();
    ext.send(json!({"type":"command_invoked","id":"b","name":"boom","args":""}));
    let r = ext.recv();
    assert_eq!(r["id"], "b");
    assert!(
        r["error"].as_str().unwrap().contains("kaboom in a command"),
        "{r}"
    );
    ext.send(json!({"type":"command_invoked","id":"b2","name":"boom","args":""}));
    assert_eq!(ext.recv()["id"], "b2");
}

#[test]
fn a_panicking_tool_becomes_an_error_result() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"x","name":"explode","args":{}}));
    let r = ext.recv();
    assert_eq!(r["is_error"], true);
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("tool blew up"),
        "{r}"
    );
    ext.send(json!({"type":"tool_call","id":"a","name":"add","args":{"a":1,"b":1}}));
    assert_eq!(ext.recv()["content"][0]["text"], "2");
}

#[test]
fn a_panicking_interceptor_allows_and_says_why() {
    let mut ext = started();
    ext.send(json!({"type":"event_intercept","id":"i","event":"tool_call","tool_name":"bash","tool_args":{"command":"panic"}}));
    let r = ext.recv();
    assert!(r.get("block").is_none());
    assert!(
        r["reason"]
            .as_str()
            .unwrap()
            .contains("interceptor blew up"),
        "{r}"
    );
}
