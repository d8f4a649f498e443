//! Every command response action, the one-way frames, and tool results.
#[path = "support/child.rs"]
mod child;

use child::{started, Ext};
#[allow(unused_imports)]
use serde_json::{json, Value};

fn run(ext: &mut Ext, name: &str, args: &str) -> Value {
    ext.send(json!({"type":"command_invoked","id":"c","name":name,"args":args}));
    ext.recv()
}

#[test]
fn each_response_action_has_its_own_field() {
    let mut ext = started();
    assert_eq!(
        run(&mut ext, "echo", "hi"),
        json!({"type":"command_response","id":"c","action":"display","display":"hi"})
    );
    assert_eq!(
        run(&mut ext, "prompt", "go"),
        json!({"type":"command_response","id":"c","action":"prompt","prompt":"go"})
    );
    assert_eq!(
        run(&mut ext, "insert", "x"),
        json!({"type":"command_response","id":"c","action":"insert","insert":"x"})
    );
    assert_eq!(
        run(&mut ext, "fail", ""),
        json!({"type":"command_response","id":"c","action":"noop","error":"it failed"})
    );
    let panel = run(&mut ext, "panel", "");
    assert_eq!(panel["action"], "open_panel");
    assert_eq!(
        panel["open_panel"],
        json!({"id":"p1","title":"Sink","lines":["one"]})
    );
}

#[test]
fn commands_match_case_insensitively() {
    let mut ext = started();
    assert_eq!(run(&mut ext, "ECHO", "up")["display"], "up");
}

#[test]
fn notify_clear_notes_and_submit_arrive_before_the_response() {
    let mut ext = started();
    ext.send(json!({"type":"command_invoked","id":"n","name":"noop","args":""}));
    assert_eq!(
        ext.recv(),
        json!({"type":"notify","level":"success","message":"did it"})
    );
    assert_eq!(ext.recv(), json!({"type":"clear_notes"}));
    assert_eq!(ext.recv(), json!({"type":"submit","text":"queued prompt"}));
    assert_eq!(
        ext.recv(),
        json!({"type":"command_response","id":"n","action":"noop"})
    );
}

#[test]
fn tools_answer_with_content_and_activate_deferred_tools() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"t1","name":"add","args":{"a":2,"b":3}}));
    assert_eq!(
        ext.recv(),
        json!({"type":"tool_result","id":"t1","content":[{"type":"text","text":"5"}]})
    );
    ext.send(json!({"type":"tool_call","id":"t2","name":"loader","args":{}}));
    let r = ext.recv();
    assert_eq!(r["activate_tools"], json!(["secret"]));
    ext.send(json!({"type":"tool_call","id":"t3","name":"secret","args":{}}));
    assert_eq!(ext.recv()["content"][0]["text"], "42");
}

#[test]
fn subscribed_events_reach_their_handler() {
    let mut ext = started();
    ext.send(json!({"type":"event","event":"turn_end","stop":"end_turn"}));
    assert_eq!(
        ext.recv(),
        json!({"type":"notify","level":"info","message":"turn ended: end_turn"})
    );
}

#[test]
fn typed_tools_get_their_args_deserialised_or_an_error_result() {
    let mut ext = started();
    ext.send(json!({"type":"tool_call","id":"m","name":"mul","args":{"a":6,"b":7}}));
    assert_eq!(ext.recv()["content"][0]["text"], "42");
    ext.send(json!({"type":"tool_call","id":"m2","name":"mul","args":{"a":"six"}}));
    let r = ext.recv();
    assert_eq!(r["is_error"], true);
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("invalid arguments for mul:"),
        "{r}"
    );
}

#[test]
fn dialogs_wait_for_their_one_answer() {
    let mut ext = started();
    ext.send(json!({"type":"command_invoked","id":"c","name":"ask","args":""}));
    let answers = [
        json!({"action":"accept","value":true}),
        json!({"action":"accept","value":"a"}),
        json!({"action":"decline"}),
        json!({"action":"cancel","reason":"timeout"}),
    ];
    let mut kinds = Vec::new();
    for a in answers {
        let req = ext.recv();
        assert_eq!(req["type"], "ui_request", "{req}");
        kinds.push(req["kind"].as_str().unwrap().to_owned());
        // A stray answer is ignored; the request still waits for its own.
        ext.send(json!({"type":"ui_response","id":"nobody","action":"accept"}));
        let mut r = a.clone();
        r["type"] = json!("ui_response");
        r["id"] = req["id"].clone();
        ext.send(r);
    }
    assert_eq!(kinds, ["confirm", "select", "input", "form"]);
    assert_eq!(
        ext.recv()["display"],
        "Accepted(Bool(true)); Accepted(String(\"a\")); Declined; Cancelled(\"timeout\")"
    );
}
