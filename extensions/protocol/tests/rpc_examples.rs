//! The headless vocabulary of `docs/rpc.md`: commands parse with and without
//! ids, bad commands fail with a message naming what is wrong, and events
//! serialise with the field names the spec gives.

use serde_json::{json, Value};
use zot_ext_protocol::rpc::*;
use zot_ext_protocol::NoteLevel;

fn parse(line: &str) -> Result<RpcRequest, String> {
    serde_json::from_str(line).map_err(|e| e.to_string())
}

#[test]
fn commands_parse_with_their_ids() {
    let r = parse(r#"{"id":"1","type":"prompt","message":"hi"}"#).unwrap();
    assert_eq!(r.id.as_deref(), Some("1"));
    assert!(matches!(r.command, RpcCommand::Prompt { ref message, .. } if message == "hi"));
    let r = parse(r#"{"type":"ping"}"#).unwrap();
    assert!(r.id.is_none() && matches!(r.command, RpcCommand::Ping {}));
    let r = parse(r#"{"type":"command","name":"todo","args":"add milk"}"#).unwrap();
    assert!(matches!(r.command, RpcCommand::Command { ref args, .. } if args == "add milk"));
    let r = parse(r#"{"type":"panel_key","panel_id":"p","key":"rune","text":"x"}"#).unwrap();
    assert!(matches!(r.command, RpcCommand::PanelKey { .. }));
    for t in [
        "abort",
        "ext_list",
        "get_state",
        "get_messages",
        "clear",
        "get_models",
        "hello",
    ] {
        parse(&format!(r#"{{"type":"{t}"}}"#)).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

#[test]
fn bad_commands_say_what_is_wrong() {
    let e = parse(r#"{"type":"prompt"}"#).unwrap_err();
    assert!(e.contains("message"), "{e}");
    let e = parse(r#"{"type":"fly"}"#).unwrap_err();
    assert!(e.contains("fly"), "{e}");
    let e = parse(r#"{"type":"set_model"}"#).unwrap_err();
    assert!(e.contains("model"), "{e}");
}

#[test]
fn responses_echo_id_and_command() {
    let ok = serde_json::to_value(RpcResponse::ok(
        Some("7".into()),
        "ping",
        Some(json!({"pong":true})),
    ))
    .unwrap();
    assert_eq!(
        ok,
        json!({"type":"response","id":"7","command":"ping","success":true,"data":{"pong":true}})
    );
    let err =
        serde_json::to_value(RpcResponse::err(None, "prompt", "missing field `message`")).unwrap();
    assert_eq!(err["success"], false);
    assert_eq!(err["error"], "missing field `message`");
}

#[test]
fn events_use_the_spec_field_names() {
    let cases: Vec<(UiEvent, Value)> = vec![
        (
            UiEvent::TurnStart { step: 2 },
            json!({"type":"turn_start","step":2}),
        ),
        (
            UiEvent::TextDelta { delta: "he".into() },
            json!({"type":"text_delta","delta":"he"}),
        ),
        (
            UiEvent::TurnEnd {
                stop: StopReason::Aborted,
                error: None,
            },
            json!({"type":"turn_end","stop":"aborted"}),
        ),
        (UiEvent::Done {}, json!({"type":"done"})),
        (
            UiEvent::ExtNotify {
                extension: "e".into(),
                level: NoteLevel::Warn.into(),
                style: NoteLevel::Warn,
                message: "m".into(),
            },
            json!({"type":"ext_notify","extension":"e","level":"warn","style":"warn","message":"m"}),
        ),
        (
            UiEvent::Usage(UsageReport {
                tokens: Usage {
                    input_tokens: 3,
                    output_tokens: 4,
                    ..Usage::default()
                },
                cost_usd: Some(0.5),
                cumulative: UsageTotals {
                    input: 30,
                    output: 40,
                    cache_read: 0,
                    cache_write: 0,
                    cost_usd: Some(1.5),
                },
            }),
            // The reference zot's RPC clients read cumulative.input,
            // cumulative.output and cumulative.cost_usd.
            json!({"type":"usage","input_tokens":3,"output_tokens":4,"cache_read_tokens":0,"cache_write_tokens":0,
                   "cost_usd":0.5,
                   "cumulative":{"input":30,"output":40,"cache_read":0,"cache_write":0,"cost_usd":1.5}}),
        ),
        (
            UiEvent::ExtReload {
                stopped: 1,
                loaded: 2,
                ready: 1,
                errors: vec![],
            },
            json!({"type":"ext_reload","stopped":1,"loaded":2,"ready":1,"errors":[]}),
        ),
    ];
    for (event, want) in cases {
        assert_eq!(serde_json::to_value(&event).unwrap(), want);
        let back: UiEvent = serde_json::from_value(want).unwrap();
        assert_eq!(back, event);
    }
}
