//! Registrations are bounded: 256 commands and 256 tools per extension,
//! 64 KiB per schema, and names every provider accepts
//! (`^[A-Za-z0-9_-]{1,64}$`). Refusals are warnings and log lines and never
//! reach the registry; a flood of 100 000 late registrations leaves the
//! host responsive.

use crate::support;

use std::time::Duration;

use serde_json::json;
use support::*;
use zot_ext_host::HostEvent;
use zot_ext_protocol::rpc::UiEvent;

#[tokio::test]
async fn names_outside_the_provider_rule_are_refused_with_a_warning() {
    let env = Env::new();
    let big = json!({"type":"object","description":"x".repeat(70 * 1024)});
    env.global(
        "names",
        json!({"register":[
            {"type":"register_tool","name":"my tool","schema":{"type":"object"}},
            {"type":"register_tool","name":"dotted.name","schema":{"type":"object"}},
            {"type":"register_tool","name":"x".repeat(65),"schema":{"type":"object"}},
            {"type":"register_tool","name":"huge","schema":big},
            {"type":"register_tool","name":"good_tool-1","schema":{"type":"object"}},
            {"type":"register_command","name":"my cmd"},
            {"type":"register_command","name":"/slashed"},
            {"type":"register_command","name":"ünïcode"},
            {"type":"register_command","name":"Good-Cmd_2"},
        ]}),
    );
    let (host, _rx) = start(env.config()).await;
    let tools: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(tools, vec!["good_tool-1"]);
    let cmds: Vec<String> = host.commands().into_iter().map(|c| c.name).collect();
    assert_eq!(cmds, vec!["Good-Cmd_2"]);
    // Command names still match case-insensitively.
    let out = host.invoke_command("/good-cmd_2", "hi").await.unwrap();
    assert_eq!(out.extension, "names");
    let warnings = host.report().extensions[0].warnings.clone();
    assert_eq!(warnings.len(), 7, "{warnings:?}");
    for bad in [
        "'my tool'",
        "'dotted.name'",
        "'huge'",
        "'my cmd'",
        "'/slashed'",
        "'ünïcode'",
    ] {
        assert!(
            warnings.iter().any(|w| w.contains(bad)),
            "{bad}: {warnings:?}"
        );
    }
    assert!(
        warnings.iter().any(|w| w.contains("64 KiB")),
        "{warnings:?}"
    );
    let log = env.log("names");
    assert!(log.contains("register_tool 'my tool' refused"), "{log}");
    assert!(log.contains("register_command 'my cmd' refused"), "{log}");
    host.shutdown().await;
}

async fn flood(kind: &str) {
    let env = Env::new();
    env.global(
        "flood",
        json!({
            "register":[{"type":"register_tool","name":"early","schema":{"type":"object"}}],
            "register_many":{"kind":kind,"n":100_000},
        }),
    );
    let (host, mut rx) = start(env.config()).await;
    // A generous deadline, not a timing claim: the burst is routed and the
    // notify after it arrives.
    tokio::time::timeout(
        Duration::from_secs(120),
        wait_event(&mut rx, |e| {
            matches!(e, HostEvent::Ui(UiEvent::ExtNotify { message, .. }) if message == "registered many")
        }),
    )
    .await
    .expect("the flood was never routed");
    eventually(|| {
        if kind == "tool" {
            host.tools().len() == 256
        } else {
            host.commands().len() == 256
        }
    })
    .await;
    let names: Vec<String> = if kind == "tool" {
        host.tools().into_iter().map(|t| t.name).collect()
    } else {
        host.commands().into_iter().map(|c| c.name).collect()
    };
    assert!(names.iter().all(|n| n != "t256" && n != "c256"));
    // Still responsive.
    let out = host.call_tool("early", json!({"a": 1})).await.unwrap();
    assert!(!out.is_error);
    let warnings = host.report().extensions[0].warnings.clone();
    assert!(warnings.len() <= 51, "{}", warnings.len());
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("the most one may register")),
        "{warnings:?}"
    );
    assert!(
        warnings.last().unwrap().contains("more warnings"),
        "{warnings:?}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_flood_of_late_tool_registrations_is_capped_and_the_host_stays_responsive() {
    flood("tool").await;
}

#[tokio::test]
async fn a_flood_of_late_command_registrations_is_capped_and_the_host_stays_responsive() {
    flood("command").await;
}
