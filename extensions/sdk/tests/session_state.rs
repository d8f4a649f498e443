//! Session state (`ctx.state()`): `hello_ack.state` is there from the
//! start, `set` sends `state_set` with the typed value, an over-limit
//! value is an error before anything is sent, and `state_restored`
//! replaces the values.
#[path = "support/child.rs"]
mod child;

use child::{example, Ext};
use serde_json::json;

#[test]
fn state_is_read_set_and_restored() {
    let (mut ext, _log) = Ext::spawn(example("session_state"));
    ext.handshake_full("/proj", json!({}), json!({"plan":["read"]}));
    let call = |ext: &mut Ext, name: &str, args: &str| {
        ext.send(json!({"type":"command_invoked","id":"c","name":name,"args":args}));
        ext.recv()
    };
    assert_eq!(call(&mut ext, "show", "")["display"], "[\"read\"]");
    assert_eq!(
        call(&mut ext, "add", "write"),
        json!({"type":"state_set","key":"plan","value":["read","write"]})
    );
    assert_eq!(ext.recv()["display"], "2");
    let huge = call(&mut ext, "huge", "");
    assert!(
        huge["display"]
            .as_str()
            .unwrap()
            .contains("over the limit of 65536 per value"),
        "{huge}"
    );
    ext.send(json!({"type":"state_restored","state":{"plan":["older"]}}));
    assert_eq!(ext.recv()["message"], "restored {\"plan\":[\"older\"]}");
    assert_eq!(call(&mut ext, "show", "")["display"], "[\"older\"]");
}

#[test]
fn no_state_in_hello_ack_reads_as_empty() {
    let (mut ext, _log) = Ext::spawn(example("session_state"));
    ext.handshake("/proj");
    ext.send(json!({"type":"command_invoked","id":"c","name":"show","args":""}));
    assert_eq!(ext.recv()["display"], "null");
}
