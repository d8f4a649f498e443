//! A reply of the wrong kind (a `command_response` to a `tool_call`, a
//! `tool_result` to a `command_invoked`, …) is the extension's protocol
//! error: the caller gets an error naming the extension, the log says so,
//! and the host keeps serving (it used to hit an `unreachable!`).

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::HostError;

#[tokio::test]
async fn wrong_reply_kinds_fail_the_call_and_the_host_keeps_serving() {
    let env = Env::new();
    env.global(
        "mixup",
        json!({
            "register":[
                {"type":"register_tool","name":"bad_tool","schema":{"type":"object"}},
                {"type":"register_tool","name":"good_tool","schema":{"type":"object"}},
                {"type":"register_command","name":"badcmd"},
                {"type":"register_command","name":"interceptish"},
            ],
            "tools":{"bad_tool":{"reply":{"type":"command_response","action":"noop"}}},
            "commands":{
                "badcmd":{"reply":{"type":"tool_result","content":[{"type":"text","text":"x"}]}},
                "interceptish":{"reply":{"type":"event_intercept_response","block":true}}
            }
        }),
    );
    let (host, _rx) = start(env.config()).await;

    let err = host.call_tool("bad_tool", json!({})).await.unwrap_err();
    assert!(matches!(err, HostError::WrongReply { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("'mixup'") && msg.contains("command_response"),
        "{msg}"
    );
    assert!(msg.contains("tool_result"), "{msg}");

    for cmd in ["badcmd", "interceptish"] {
        let err = host.invoke_command(cmd, "").await.unwrap_err();
        assert!(
            matches!(err, HostError::WrongReply { .. }),
            "{cmd}: {err:?}"
        );
        assert!(err.to_string().contains("'mixup'"), "{err}");
    }

    // Still serving: a good call after the bad ones works.
    let out = host.call_tool("good_tool", json!({"a":1})).await.unwrap();
    assert!(!out.is_error);
    assert_eq!(out.extension, "mixup");
    let log = env.log("mixup");
    assert!(
        log.contains("answered tool 'bad_tool' with a command_response"),
        "{log}"
    );
    assert!(
        log.contains("answered command '/badcmd' with a tool_result"),
        "{log}"
    );
    host.shutdown().await;
}
