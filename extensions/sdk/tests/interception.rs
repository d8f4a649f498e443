//! The three interceptors: allow, block with a reason, rewrite args, block a
//! turn, replace or block assistant text.
#[path = "support/child.rs"]
mod child;

use child::{started, Ext};
#[allow(unused_imports)]
use serde_json::{json, Value};

fn intercept(ext: &mut Ext, frame: Value) -> Value {
    ext.send(frame);
    let r = ext.recv();
    assert_eq!(r["type"], "event_intercept_response");
    assert_eq!(r["id"], "i");
    r
}

#[test]
fn tool_calls_are_allowed_blocked_or_rewritten() {
    let mut ext = started();
    let call = |cmd: &str| json!({"type":"event_intercept","id":"i","event":"tool_call","tool_id":"x","tool_name":"bash","tool_args":{"command":cmd}});
    assert_eq!(
        intercept(&mut ext, call("echo ok")),
        json!({"type":"event_intercept_response","id":"i"})
    );
    let blocked = intercept(&mut ext, call("rm -rf / --no-preserve-root"));
    assert_eq!(blocked["block"], true);
    assert_eq!(blocked["reason"], "refused: rm -rf /");
    assert_eq!(
        intercept(&mut ext, call("ls"))["modified_args"],
        json!({"command":"ls -la"})
    );
}

#[test]
fn turns_can_be_blocked() {
    let mut ext = started();
    let turn =
        |step: u32| json!({"type":"event_intercept","id":"i","event":"turn_start","step":step});
    assert!(intercept(&mut ext, turn(1)).get("block").is_none());
    let r = intercept(&mut ext, turn(10));
    assert_eq!(
        (r["block"].clone(), r["reason"].clone()),
        (json!(true), json!("too many steps"))
    );
}

#[test]
fn assistant_text_can_be_replaced_or_blocked() {
    let mut ext = started();
    let msg =
        |t: &str| json!({"type":"event_intercept","id":"i","event":"assistant_message","text":t});
    assert_eq!(
        intercept(&mut ext, msg("key SECRET here"))["replace_text"],
        "key [redacted] here"
    );
    assert_eq!(intercept(&mut ext, msg("BLOCK me"))["block"], true);
}

#[test]
fn an_event_without_an_interceptor_is_allowed() {
    let mut ext = started();
    let r = intercept(
        &mut ext,
        json!({"type":"event_intercept","id":"i","event":"session_start"}),
    );
    assert_eq!(r, json!({"type":"event_intercept_response","id":"i"}));
}
