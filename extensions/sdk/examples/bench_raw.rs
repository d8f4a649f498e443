//! A hand-written Rust extension loop answering one tool: the floor the SDK
//! is measured against in `make bench` (see bench_roundtrip).

use std::io::{BufRead, Write};

use serde_json::{json, Value};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut emit = |v: Value| {
        let mut line = serde_json::to_vec(&v).unwrap();
        line.push(b'\n');
        out.write_all(&line).unwrap();
        out.flush().unwrap();
    };
    emit(json!({"type":"hello","name":"bench","version":"1.0.0","capabilities":["tools"]}));
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let msg: Value = serde_json::from_str(&line).unwrap();
        match msg["type"].as_str() {
            Some("hello_ack") => {
                emit(
                    json!({"type":"register_tool","name":"echo","description":"echo","schema":{"type":"object"}}),
                );
                emit(json!({"type":"ready"}));
            }
            Some("tool_call") => emit(json!({"type":"tool_result","id":msg["id"],
                "content":[{"type":"text","text":msg["args"]["text"].as_str().unwrap_or("")}]})),
            Some("shutdown") => {
                emit(json!({"type":"shutdown_ack"}));
                break;
            }
            _ => {}
        }
    }
}
