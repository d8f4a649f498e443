//! `command_invoked` / `command_response`: lookup, canonical names, every
//! action, `error`, and timeouts.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;
use zot_ext_host::HostError;
use zot_ext_protocol::CommandAction;

#[tokio::test]
async fn commands_are_found_case_insensitively_and_sent_with_the_canonical_name() {
    let env = Env::new();
    env.global(
        "wx",
        json!({"register":[{"type":"register_command","name":"Weather"}]}),
    );
    let (host, _rx) = start(env.config()).await;
    let out = host.invoke_command("/WEATHER", "  berlin  ").await.unwrap();
    assert_eq!(out.extension, "wx");
    assert_eq!(out.response.action, Some(CommandAction::Display));
    // The fixture echoes `name:args`, so this shows what the host sent.
    assert_eq!(out.response.display.as_deref(), Some("Weather:berlin"));
    host.shutdown().await;
}

#[tokio::test]
async fn every_action_and_error_reach_the_caller() {
    let env = Env::new();
    let responses = json!({
        "p": {"response": {"action":"prompt","prompt":"say hi"}},
        "i": {"response": {"action":"insert","insert":"text"}},
        "d": {"response": {"action":"display","display":"shown"}},
        "o": {"response": {"action":"open_panel","open_panel":{"id":"main","title":"T","lines":["a"],"footer":"f"}}},
        "n": {"response": {"action":"noop"}},
        "e": {"response": {"action":"noop","error":"went wrong"}},
        "u": {"response": {"action":"teleport"}},
    });
    let register: Vec<_> = ["p", "i", "d", "o", "n", "e", "u"]
        .iter()
        .map(|n| json!({"type":"register_command","name":n}))
        .collect();
    env.global("acts", json!({"register": register, "commands": responses}));
    let (host, _rx) = start(env.config()).await;
    let r = |n: &'static str| {
        let host = host.clone();
        async move { host.invoke_command(n, "").await.unwrap().response }
    };
    let p = r("p").await;
    assert_eq!(
        (p.action, p.prompt.as_deref()),
        (Some(CommandAction::Prompt), Some("say hi"))
    );
    let i = r("i").await;
    assert_eq!(
        (i.action, i.insert.as_deref()),
        (Some(CommandAction::Insert), Some("text"))
    );
    let d = r("d").await;
    assert_eq!(
        (d.action, d.display.as_deref()),
        (Some(CommandAction::Display), Some("shown"))
    );
    let o = r("o").await;
    assert_eq!(o.action, Some(CommandAction::OpenPanel));
    assert_eq!(o.open_panel.unwrap().lines, vec!["a"]);
    assert_eq!(
        host.open_panels(),
        vec![("main".to_string(), "acts".to_string())]
    );
    assert_eq!(r("n").await.action, Some(CommandAction::Noop));
    assert_eq!(r("e").await.error.as_deref(), Some("went wrong"));
    assert_eq!(r("u").await.action, Some(CommandAction::Unknown));
    assert!(env.log("acts").contains("unknown action"));
    host.shutdown().await;
}

#[tokio::test]
async fn an_unknown_command_is_an_error_that_says_so() {
    let env = Env::new();
    let (host, _rx) = start(env.config()).await;
    let err = host.invoke_command("nope", "").await.unwrap_err();
    assert!(
        matches!(err, HostError::UnknownCommand(ref n) if n == "nope"),
        "{err}"
    );
    assert!(err.to_string().contains("/nope"));
}

#[tokio::test]
async fn a_command_that_never_answers_times_out_naming_the_extension_and_log() {
    let env = Env::new();
    env.global(
        "slow",
        json!({"register":[{"type":"register_command","name":"wait"}], "commands":{"wait":"hang"}}),
    );
    let mut cfg = env.config();
    cfg.command_timeout = Duration::from_millis(300);
    let (host, _rx) = start(cfg).await;
    let err = host.invoke_command("wait", "").await.unwrap_err();
    let HostError::Timeout {
        ref extension,
        ref log,
        ..
    } = err
    else {
        panic!("{err}")
    };
    assert_eq!(extension, "slow");
    assert_eq!(log, &env.log_path("slow"));
    assert!(err.to_string().contains("command '/wait'"), "{err}");
    // Still serving afterwards.
    assert!(host.commands().iter().any(|c| c.name == "wait"));
    host.shutdown().await;
}
