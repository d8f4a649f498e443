//! Bad frames from the host never kill the extension: each gets an error
//! reply or a log line on stderr, and the next good frame is still answered.
#[path = "support/child.rs"]
mod child;

use child::{example, started, Ext};
#[allow(unused_imports)]
use serde_json::{json, Value};

fn still_alive(ext: &mut Ext) {
    ext.send(json!({"type":"command_invoked","id":"ok","name":"echo","args":"alive"}));
    assert_eq!(ext.recv()["display"], "alive");
}

fn log_text(log: &std::path::Path) -> String {
    std::fs::read_to_string(log).unwrap_or_default()
}

#[test]
fn a_line_that_is_not_json_is_logged_and_skipped() {
    let (mut ext, log) = Ext::spawn(example("kitchen_sink"));
    ext.handshake("/");
    ext.send_raw("this is not json {");
    ext.send_raw("");
    ext.send_raw("\u{fffd}\u{0}garbage");
    still_alive(&mut ext);
    assert!(
        log_text(&log).contains("not JSON"),
        "log: {}",
        log_text(&log)
    );
}

#[test]
fn an_unknown_frame_type_is_logged_and_skipped() {
    let (mut ext, log) = Ext::spawn(example("kitchen_sink"));
    ext.handshake("/");
    ext.send(json!({"type":"from_the_future","id":"f"}));
    still_alive(&mut ext);
    assert!(
        log_text(&log).contains("unknown frame type \"from_the_future\""),
        "log: {}",
        log_text(&log)
    );
}

#[test]
fn a_tool_call_for_an_unknown_tool_gets_an_error_result() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"u","name":"nope","args":{}}));
    let r = ext.recv();
    assert_eq!(r["id"], "u");
    assert_eq!(r["is_error"], true);
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("no tool named \"nope\""),
        "{r}"
    );
    still_alive(&mut ext);
}

#[test]
fn an_unknown_command_gets_an_error_response() {
    let mut ext = started();
    ext.send(json!({"type":"command_invoked","id":"u","name":"nope","args":""}));
    let r = ext.recv();
    assert!(r["error"].as_str().unwrap().contains("/nope"), "{r}");
    still_alive(&mut ext);
}

#[test]
fn a_malformed_request_with_an_id_is_still_answered() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"m","name":42}));
    let r = ext.recv();
    assert_eq!(
        (r["type"].clone(), r["id"].clone(), r["is_error"].clone()),
        (json!("tool_result"), json!("m"), json!(true))
    );
    still_alive(&mut ext);
}

#[test]
fn stray_prints_in_a_handler_go_to_stderr_not_the_wire() {
    let (mut ext, log) = Ext::spawn(example("kitchen_sink"));
    ext.handshake("/");
    ext.send(json!({"type":"command_invoked","id":"p","name":"print","args":"zzz"}));
    assert_eq!(ext.recv()["display"], "printed"); // recv panics on a non-frame line
    still_alive(&mut ext);
    assert!(
        log_text(&log).contains("stray stdout text zzz"),
        "log: {}",
        log_text(&log)
    );
}
