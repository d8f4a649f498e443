//! The SDK's startup order: hello first, then (after hello_ack and on_hello)
//! every registration, the subscription, and ready last.
#[path = "support/child.rs"]
mod child;

use child::{example, started, Ext};
#[allow(unused_imports)]
use serde_json::{json, Value};

#[test]
fn hello_comes_first_and_ready_after_every_registration() {
    let (mut ext, _log) = Ext::spawn(example("kitchen_sink"));
    let (hello, regs) = ext.handshake("/proj");
    assert_eq!(hello["name"], "kitchen-sink");
    assert_eq!(hello["version"], "0.1.0");
    let caps: Vec<&str> = hello["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(
        caps,
        [
            "commands",
            "tools",
            "events",
            "panels",
            "panel_mouse",
            "panel_resize"
        ]
    );

    let commands: Vec<&str> = regs
        .iter()
        .filter(|f| f["type"] == "register_command")
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert!(
        commands.contains(&"echo") && commands.contains(&"cwd"),
        "{commands:?}"
    );
    let secret = regs
        .iter()
        .find(|f| f["type"] == "register_tool" && f["name"] == "secret")
        .expect("secret registered");
    assert_eq!(secret["deferred"], true);
    let add = regs.iter().find(|f| f["name"] == "add").unwrap();
    assert_eq!(add["schema"]["properties"]["a"]["type"], "number");
    assert!(add.get("deferred").is_none());
    let sub = regs
        .iter()
        .find(|f| f["type"] == "subscribe")
        .expect("subscribe sent");
    assert_eq!(sub["events"], json!(["turn_end"]));
    assert_eq!(
        sub["intercept"],
        json!(["tool_call", "turn_start", "assistant_message"])
    );
}

#[test]
fn a_command_registered_in_on_hello_sees_the_host_cwd() {
    let mut ext = started();
    ext.send(json!({"type":"command_invoked","id":"1","name":"cwd","args":""}));
    let r = ext.recv();
    assert_eq!(
        r,
        json!({"type":"command_response","id":"1","action":"display","display":"/proj"})
    );
}

#[test]
fn shutdown_before_hello_ack_is_acknowledged() {
    let (mut ext, _log) = Ext::spawn(example("kitchen_sink"));
    assert_eq!(ext.recv()["type"], "hello");
    ext.send(json!({"type":"shutdown"}));
    assert_eq!(ext.recv()["type"], "shutdown_ack");
    assert!(ext.closed());
}

#[test]
fn config_arrives_in_hello_ack_and_config_changed_replaces_it() {
    let (mut ext, _log) = Ext::spawn(example("kitchen_sink"));
    ext.handshake_with("/proj", json!({"units":"metric","token":"tok-123"}));
    ext.send(json!({"type":"command_invoked","id":"1","name":"units","args":""}));
    let first = ext.recv();
    assert_eq!(first["display"], "\"metric\"", "{first}");
    ext.send(json!({"type":"config_changed","config":{"units":"imperial","token":"tok-123"}}));
    let note = ext.recv();
    assert_eq!(note["type"], "notify");
    assert_eq!(note["message"], "units now \"imperial\"; token set: true");
    ext.send(json!({"type":"command_invoked","id":"2","name":"units","args":""}));
    assert_eq!(ext.recv()["display"], "\"imperial\"");
}
