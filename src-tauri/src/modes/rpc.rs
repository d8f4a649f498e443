//! `zot --mode rpc`: `docs/rpc.md` on stdin/stdout. A thin loop: each
//! stdin line is parsed into a command for the backend and answered with
//! one `response` line; backend events are printed as they come. Bad lines
//! get `success:false` and the process keeps serving: a line that is not
//! UTF-8 or longer than [`input::MAX_LINE`] included (see `input`).

pub mod input;

use serde::Serialize;
use serde_json::Value;
use std::io::Write;

use tokio::io::BufReader;
use zot_ext_protocol::rpc::{RpcCommand, RpcRequest, RpcResponse, UiEvent};
use zot_ext_protocol::rpc_commands::known_names;
use zot_ext_protocol::RpcError;

use crate::backend::{Backend, BackendOptions};
use crate::signals::{Signals, Stop};
use anyhow::Context;

/// Serves until stdin closes; returns the exit code.
/// SIGINT, SIGTERM and SIGHUP end it the same way, with exit code
/// 128 + the signal's number.
pub async fn run(opts: BackendOptions) -> anyhow::Result<i32> {
    let mut signals = Signals::install().context("cannot install signal handlers")?;
    let (backend, mut events) = Backend::start(opts).await?;
    tokio::select! {
        () = backend.wait_ready() => {}
        sig = signals.recv() => return Ok(stop(&backend, sig).await),
    }
    let out = Out;
    let _ = out.send(serde_json::to_string(&UiEvent::Ready {})?);
    // Print everything up to `session_start` before serving, so it always
    // precedes the first response.
    while let Some(ev) = events.recv().await {
        let _ = out.send(serde_json::to_string(&ev)?);
        if matches!(ev, UiEvent::SessionStart {}) {
            break;
        }
    }
    // `done` lines the client has been sent, so the end of input can wait
    // for every accepted prompt's (a watch: the wait sleeps until it moves).
    let (seen, mut dones) = tokio::sync::watch::channel(0u64);
    let pump = tokio::spawn(async move {
        while let Some(ev) = events.recv().await {
            let done = matches!(ev, UiEvent::Done {});
            if let Ok(s) = serde_json::to_string(&ev) {
                if Out.send(s).is_err() {
                    break;
                }
            }
            if done {
                seen.send_modify(|n| *n += 1);
            }
        }
    });

    let mut lines = input::LineReader::new(BufReader::new(tokio::io::stdin()), input::MAX_LINE);
    let code;
    // With ZOT_RPC_TOKEN (or ZOTCORE_RPC_TOKEN) set, nothing but `hello` is
    // served until a hello carried the token.
    let mut gate = crate::backend::token::Gate::new();
    loop {
        let line = tokio::select! {
            line = lines.next_line() => match line {
                Ok(Some(line)) => line,
                // End of input: what was accepted still runs to its `done`.
                _ => {
                    code = finish_accepted(&backend, &mut dones, &mut signals).await;
                    break;
                }
            },
            sig = signals.recv() => {
                code = sig.exit_code();
                eprintln!("zot: {}: shutting down", sig.name());
                break;
            }
        };
        let req = match request(&line) {
            None => continue,
            Some(Ok(r)) => r,
            Some(Err(resp)) => {
                let _ = out.send(serde_json::to_string(&resp)?);
                continue;
            }
        };
        let name = req.command.name();
        if let Err(e) = gate.admit(&req.command) {
            let _ = out.send(serde_json::to_string(&RpcResponse::err(req.id, name, e))?);
            continue;
        }
        match req.command {
            // Checked by the backend as for the window; the response goes
            // out before the prompt's first event.
            RpcCommand::Prompt { message, images } => {
                match backend.accept_prompt(message, images) {
                    Ok(prompt) => {
                        let ok = respond(req.id, name, Ok(prompt.answer()));
                        let _ = out.send(serde_json::to_string(&ok)?);
                        prompt.run();
                    }
                    Err(e) => {
                        let _ =
                            out.send(serde_json::to_string(&RpcResponse::err(req.id, name, e))?);
                    }
                }
            }
            RpcCommand::Hello { .. } => {
                let r = backend.handle(req.command).await;
                let failed = r.is_err();
                gate.hello_answered(!failed);
                let _ = out.send(serde_json::to_string(&respond(req.id, name, r))?);
                if failed {
                    code = 1;
                    break;
                }
            }
            // Slow commands run beside the loop so `abort` still acts at once.
            cmd if cmd.spec().slow => {
                let b = backend.clone();
                let tx = out;
                tokio::spawn(async move {
                    let r = b.handle(cmd).await;
                    if let Ok(s) = serde_json::to_string(&respond(req.id, name, r)) {
                        let _ = tx.send(s);
                    }
                });
            }
            cmd => {
                let r = backend.handle(cmd).await;
                let _ = out.send(serde_json::to_string(&respond(req.id, name, r))?);
            }
        }
    }
    backend.shutdown().await;
    // Let the events of the shutdown itself (extension exits) go out.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    pump.abort();
    Ok(code)
}

/// After the client closed stdin: waits until every prompt it had sent has
/// run and its `done` line is out, as the reference zot does (clients pipe
/// one prompt in and read to `done`); a signal cuts the wait short. Returns
/// the exit code.
async fn finish_accepted(
    backend: &Backend,
    dones: &mut tokio::sync::watch::Receiver<u64>,
    signals: &mut Signals,
) -> i32 {
    let wait = async {
        backend.idle().await;
        let want = backend.finished();
        // Ends with the pump too (its sender dropped): nothing more comes.
        let _ = dones.wait_for(|n| *n >= want).await;
    };
    tokio::select! {
        () = wait => 0,
        sig = signals.recv() => {
            eprintln!("zot: {}: shutting down", sig.name());
            sig.exit_code()
        }
    }
}

/// A signal before serving began: the same shutdown, then its exit code.
async fn stop(backend: &Backend, sig: Stop) -> i32 {
    eprintln!("zot: {}: shutting down", sig.name());
    backend.shutdown().await;
    sig.exit_code()
}

/// stdout, written a whole line at a time under its lock and flushed at
/// once: no writer task and no blocking-pool hop between an event and the
/// client, and lines from the event pump and the command loop never
/// interleave.
#[derive(Clone, Copy)]
struct Out;

impl Out {
    fn send(&self, mut line: String) -> std::io::Result<()> {
        line.push('\n');
        let mut lock = std::io::stdout().lock();
        lock.write_all(line.as_bytes())?;
        lock.flush()
    }
}

fn respond(id: Option<String>, name: &str, r: Result<impl Serialize, RpcError>) -> RpcResponse {
    match r.and_then(|v| {
        serde_json::to_value(v).map_err(|e| format!("cannot write the answer: {e}").into())
    }) {
        Ok(v) => RpcResponse::ok(id, name, Some(v)),
        Err(e) => RpcResponse::err(id, name, e),
    }
}

/// Judges one line of stdin: `None` for a blank line (ignored), else the
/// request or the error response to print. This is the whole path from
/// bytes to a command, the one the fuzz test drives.
pub fn request(line: &input::Line) -> Option<Result<RpcRequest, Box<RpcResponse>>> {
    match line {
        input::Line::Text(t) if t.trim().is_empty() => None,
        input::Line::Text(t) => Some(parse(t)),
        input::Line::NotUtf8 { at } => Some(Err(Box::new(RpcResponse::invalid(
            None,
            "unknown",
            format!("the line is not UTF-8 (bad byte at offset {at}); it was ignored: send UTF-8 JSON, one object per line"),
        )))),
        input::Line::TooLong { len } => Some(Err(Box::new(RpcResponse::invalid(
            None,
            "unknown",
            format!(
                "the line is {len} bytes, over the limit of {} MiB; it was discarded: send smaller commands (e.g. smaller images)",
                input::MAX_LINE / (1024 * 1024)
            ),
        )))),
    }
}

/// Parses one line; a bad one becomes the error response to print.
pub fn parse(line: &str) -> Result<RpcRequest, Box<RpcResponse>> {
    let v: Value = serde_json::from_str(line).map_err(|e| {
        Box::new(RpcResponse::invalid(
            None,
            "unknown",
            format!("the line is not JSON ({e}); send one JSON object per line"),
        ))
    })?;
    let id = match v.get("id") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let Some(obj) = v.as_object() else {
        return Err(Box::new(RpcResponse::invalid(
            id,
            "unknown",
            "the line is not a JSON object; send {\"type\":\"…\", …}",
        )));
    };
    let Some(ty) = obj.get("type").and_then(Value::as_str) else {
        return Err(Box::new(RpcResponse::invalid(
            id,
            "unknown",
            "the command has no \"type\"; e.g. {\"type\":\"ping\"}",
        )));
    };
    let ty = ty.to_owned();
    let mut v = v;
    // Ids may be numbers on the wire; the typed request wants a string.
    if let Some(i) = id.clone() {
        v["id"] = Value::String(i);
    }
    let mut req = serde_json::from_value::<RpcRequest>(v).map_err(|e| {
        let msg = e.to_string();
        // Only an unknown `type` is an unknown command; an unknown value
        // of a field (`decision: "maybe"`) is a bad command.
        Box::new(if msg.contains(&format!("unknown variant `{ty}`")) {
            RpcResponse::invalid(
                id.clone(),
                &ty,
                format!("unknown command type {ty:?}; known: {}", known_names()),
            )
        } else {
            RpcResponse::invalid(id.clone(), &ty, format!("bad {ty} command: {msg}"))
        })
    })?;
    // `approve_tool{id, …}`: the approval's id is the line's `id`, which
    // the request took (docs/rpc.md "Tool approvals").
    if let RpcCommand::ApproveTool { id: ap, .. } = &mut req.command {
        match &req.id {
            Some(i) if ap.is_empty() => ap.clone_from(i),
            None if ap.is_empty() => {
                return Err(Box::new(RpcResponse::invalid(
                    None,
                    "approve_tool",
                    "approve_tool needs \"id\": the id of the tool_approval event it answers",
                )))
            }
            _ => {}
        }
    }
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approve_tool_takes_the_line_id_as_the_approval_id() {
        let r = parse(r#"{"type":"approve_tool","id":"approval-3","decision":"deny"}"#).unwrap();
        assert_eq!(r.id.as_deref(), Some("approval-3"));
        assert!(matches!(
            r.command,
            RpcCommand::ApproveTool { ref id, .. } if id == "approval-3"
        ));
        let e = parse(r#"{"type":"approve_tool","decision":"allow"}"#).unwrap_err();
        assert!(
            e.error.as_deref().unwrap().contains("needs \"id\""),
            "{e:?}"
        );
        let e = parse(r#"{"type":"approve_tool","id":"a","decision":"maybe"}"#).unwrap_err();
        assert!(
            e.error.as_deref().unwrap().contains("bad approve_tool"),
            "{e:?}"
        );
    }

    #[test]
    fn bad_lines_say_what_was_wrong() {
        let e = parse("not json").unwrap_err();
        assert!(!e.success && e.error.as_deref().unwrap().contains("not JSON"));
        let e = parse(r#"{"type":"fly","id":"7"}"#).unwrap_err();
        assert_eq!(e.id.as_deref(), Some("7"));
        assert!(e
            .error
            .as_deref()
            .unwrap()
            .contains("unknown command type \"fly\""));
        let e = parse(r#"{"type":"set_model"}"#).unwrap_err();
        assert!(
            e.error
                .as_deref()
                .unwrap()
                .contains("missing field `model`"),
            "{e:?}"
        );
        assert_eq!(
            parse(r#"{"type":"ping","id":3}"#).unwrap().id.as_deref(),
            Some("3")
        );
    }
}
