//! A clean end: `shutdown` is acknowledged and the process exits 0; so does
//! a closed stdin (zot is gone).
#[path = "support/child.rs"]
mod child;

use child::{example, started, Ext};
#[allow(unused_imports)]
use serde_json::{json, Value};

#[test]
fn shutdown_is_acknowledged_and_the_process_exits_cleanly() {
    let mut ext = started();
    ext.send(json!({"type":"shutdown"}));
    assert_eq!(ext.recv(), json!({"type":"shutdown_ack"}));
    assert!(ext.closed());
    let status = ext.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

#[test]
fn a_closed_stdin_ends_the_extension_cleanly() {
    let (mut ext, _) = Ext::spawn(example("kitchen_sink"));
    ext.handshake("/");
    // Drop our end of stdin by replacing the child handle's pipe.
    let mut child = std::mem::replace(
        &mut ext.child,
        std::process::Command::new("true").spawn().unwrap(),
    );
    drop(ext);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}
