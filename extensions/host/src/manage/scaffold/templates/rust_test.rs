//! Drives the built binary over the protocol, as zot would: hello,
//! registration, the command and the tool. Run: cargo test.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

#[test]
fn the_command_and_the_tool_answer() {
    let mut p = Command::new(env!("CARGO_BIN_EXE_{{crate}}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = p.stdin.take().expect("stdin");
    let mut lines = BufReader::new(p.stdout.take().expect("stdout")).lines();
    let mut send = |f: Value| writeln!(stdin, "{f}").expect("write");
    let mut until = |kind: &str| loop {
        let line = lines.next().expect("a frame").expect("utf-8");
        let f: Value = serde_json::from_str(&line).expect("json");
        if f["type"] == kind {
            return f;
        }
    };
    assert_eq!(until("hello")["name"], "{{name}}");
    send(json!({"type": "hello_ack", "protocol_version": 1, "zot_version": "test", "provider": "p",
        "model": "m", "cwd": ".", "extension_dir": ".", "data_dir": "."}));
    until("ready");
    send(json!({"type": "command_invoked", "id": "c1", "name": "{{name}}", "args": "hi"}));
    assert_eq!(until("command_response")["display"], "hello from {{name}}: hi");
    send(json!({"type": "tool_call", "id": "t1", "name": "{{tool}}", "args": {"text": "echo me"}}));
    assert_eq!(until("tool_result")["content"][0]["text"], "echo me");
    send(json!({"type": "shutdown"}));
    p.wait().expect("exit");
}
