//! The registration window and the registries: ready vs auto-ready,
//! case-insensitive commands, built-ins first, load order decides, every
//! shadowing recorded with its reason, tool schemas checked.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::ReadyKind;
use zot_ext_protocol::rpc::{ExtState, ShadowKind};

fn cmd(name: &str) -> serde_json::Value {
    json!({"type":"register_command","name":name,"description":format!("{name} command")})
}

#[tokio::test]
async fn ready_is_explicit_or_automatic_after_registrations_go_quiet() {
    let env = Env::new();
    env.global("explicit", json!({"register":[cmd("one")]}));
    env.global("quiet", json!({"register":[cmd("two")], "ready": false}));
    let (host, _rx) = start(env.config()).await;
    let report = host.report();
    let kinds: Vec<(String, ReadyKind, ExtState)> = report
        .extensions
        .iter()
        .map(|e| (e.summary.name.clone(), e.ready, e.summary.state))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("explicit".into(), ReadyKind::Explicit, ExtState::Ready),
            ("quiet".into(), ReadyKind::Auto, ExtState::Ready),
        ]
    );
    let names: Vec<String> = host.commands().into_iter().map(|c| c.name).collect();
    assert_eq!(names, vec!["one", "two"]);
    assert!(env.log("quiet").contains("no 'ready' frame"));
    host.shutdown().await;
}

#[tokio::test]
async fn load_order_not_speed_decides_who_wins_a_command() {
    let env = Env::new();
    // `a` loads first but answers last; it must still win.
    env.global("a", json!({"delay_hello": 0.4, "register":[cmd("Dup")]}));
    env.global("b", json!({"register":[cmd("dup"), cmd("only-b")]}));
    let (host, _rx) = start(env.config()).await;
    let cmds = host.commands();
    let dup = cmds
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case("dup"))
        .unwrap();
    assert_eq!(dup.name, "Dup");
    assert_eq!(dup.extension.as_deref(), Some("a"));
    let b = host.list().into_iter().find(|s| s.name == "b").unwrap();
    assert_eq!(b.commands.len(), 1);
    let lost = &b.shadowed[0];
    assert_eq!(lost.kind, ShadowKind::Command);
    assert_eq!(lost.name, "dup");
    assert_eq!(lost.by, "a (global)");
    assert!(
        lost.reason.contains("differs only by case"),
        "{}",
        lost.reason
    );
    let conflicts = host.report().conflicts;
    assert_eq!(conflicts.len(), 1);
    assert_eq!(conflicts[0].extension, "b");
    host.shutdown().await;
}

#[tokio::test]
async fn builtin_commands_and_tools_win() {
    let env = Env::new();
    env.global(
        "greedy",
        json!({"register":[
            cmd("Clear"), cmd("mine"),
            {"type":"register_tool","name":"bash","schema":{"type":"object"}},
            {"type":"register_tool","name":"mytool","schema":{"type":"object"}},
        ]}),
    );
    let (host, _rx) = start(env.config()).await;
    assert_eq!(host.commands().len(), 1);
    let tools: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(tools, vec!["mytool"]);
    let s = &host.list()[0];
    let by_builtin: Vec<&str> = s
        .shadowed
        .iter()
        .filter(|x| x.by == "built-in")
        .map(|x| x.name.as_str())
        .collect();
    assert_eq!(by_builtin, vec!["Clear", "bash"]);
    host.shutdown().await;
}

#[tokio::test]
async fn a_tool_schema_that_is_not_an_object_is_refused_with_a_warning() {
    let env = Env::new();
    env.global(
        "schemas",
        json!({"register":[
            {"type":"register_tool","name":"bad","schema":"{\"type\":\"object\"}"},
            {"type":"register_tool","name":"none"},
            {"type":"register_tool","name":"good","schema":{"type":"object","properties":{}}},
        ]}),
    );
    let (host, _rx) = start(env.config()).await;
    let tools: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(tools, vec!["good"]);
    let warnings = &host.report().extensions[0].warnings;
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].contains("'bad'") && warnings[0].contains("not a string"),
        "{warnings:?}"
    );
    assert!(env.log("schemas").contains("register_tool 'bad' refused"));
    host.shutdown().await;
}

#[tokio::test]
async fn deferred_tools_are_registered_but_not_advertised() {
    let env = Env::new();
    env.global(
        "lazy",
        json!({"register":[
            {"type":"register_tool","name":"visible","schema":{"type":"object"}},
            {"type":"register_tool","name":"hidden","schema":{"type":"object"},"deferred":true},
        ]}),
    );
    let (host, _rx) = start(env.config()).await;
    let tools: Vec<String> = host.tools().into_iter().map(|t| t.name).collect();
    assert_eq!(tools, vec!["visible"]);
    let listed = &host.list()[0].tools;
    assert_eq!(listed.len(), 2);
    assert!(listed
        .iter()
        .any(|t| t.name == "hidden" && t.deferred && !t.active));
    host.shutdown().await;
}

#[tokio::test]
async fn subscriptions_are_recorded_and_unknown_events_logged() {
    let env = Env::new();
    env.global(
        "watcher",
        json!({"register":[{"type":"subscribe","events":["turn_start","bogus"],"intercept":["tool_call","turn_end"]}]}),
    );
    let (host, _rx) = start(env.config()).await;
    let report = host.report();
    let tool_call = report
        .interception
        .iter()
        .find(|(e, _)| *e == zot_ext_host::LifecycleEvent::ToolCall)
        .unwrap();
    assert_eq!(tool_call.1, vec!["watcher"]);
    let log = env.log("watcher");
    assert!(log.contains("unknown event 'bogus'"), "{log}");
    assert!(log.contains("'turn_end' cannot be intercepted"), "{log}");
    host.shutdown().await;
}
