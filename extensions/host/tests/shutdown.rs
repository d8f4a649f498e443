//! Shutdown: `shutdown`, 2 s, SIGTERM, 1 s, SIGKILL, over whole process
//! groups; nothing is left, checked with the OS.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_protocol::rpc::ExtState;

#[tokio::test]
async fn a_polite_extension_acks_and_exits_with_its_grandchildren() {
    let env = Env::new();
    let dir = env.global("polite", json!({"grandchild": true}));
    let (host, _rx) = start(env.config()).await;
    let pid = read_pid(&dir, "pid");
    let gc = read_pid(&dir, "grandchild.pid");
    assert!(alive(pid) && alive(gc));
    host.shutdown().await;
    assert!(!alive(pid), "the extension outlived shutdown");
    assert!(!is_our_zombie(pid), "the extension was not reaped");
    assert!(!alive(gc), "its grandchild outlived shutdown");
    assert_eq!(host.list()[0].state, ExtState::Exited);
    let log = env.log("polite");
    assert!(log.contains("acknowledged shutdown"), "{log}");
    assert!(!log.contains("SIGTERM"), "{log}");
}

#[tokio::test]
async fn holdouts_get_sigterm_then_sigkill_in_parallel() {
    let env = Env::new();
    let deaf = env.global("deaf", json!({"shutdown":"ignore", "grandchild": true}));
    let stubborn = env.global(
        "stubborn",
        json!({"shutdown":"ignore_term", "grandchild": true}),
    );
    let (host, _rx) = start(env.config()).await;
    let pids = [
        read_pid(&deaf, "pid"),
        read_pid(&deaf, "grandchild.pid"),
        read_pid(&stubborn, "pid"),
        read_pid(&stubborn, "grandchild.pid"),
    ];
    host.shutdown().await;
    for pid in pids {
        assert!(!alive(pid), "{pid} outlived shutdown");
        assert!(!is_our_zombie(pid), "{pid} was not reaped");
    }
    let deaf_log = env.log("deaf");
    assert!(deaf_log.contains("sent SIGTERM"), "{deaf_log}");
    assert!(!deaf_log.contains("sent SIGKILL"), "{deaf_log}");
    assert!(env.log("stubborn").contains("sent SIGKILL"));
}

#[test]
fn dropping_the_runtime_without_shutdown_still_kills_every_group() {
    let env = Env::new();
    let dir = env.global("orphan", json!({"grandchild": true}));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let host = rt.block_on(async {
        let (host, _rx) = start(env.config()).await;
        host
    });
    let pid = read_pid(&dir, "pid");
    let gc = read_pid(&dir, "grandchild.pid");
    drop(host);
    drop(rt);
    let mut gone = false;
    for _ in 0..500 {
        if !alive(pid) && !alive(gc) {
            gone = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(gone, "processes survived the host's runtime");
}

#[tokio::test]
async fn shutdown_fails_calls_in_flight_and_refuses_new_ones() {
    let env = Env::new();
    env.global(
        "busy",
        json!({"register":[{"type":"register_tool","name":"wait","schema":{"type":"object"}}], "tools":{"wait":"hang"}}),
    );
    let (host, _rx) = start(env.config()).await;
    let call = tokio::spawn({
        let host = host.clone();
        async move { host.call_tool("wait", json!({})).await }
    });
    tokio::task::yield_now().await;
    host.shutdown().await;
    let err = call.await.unwrap().unwrap_err();
    assert!(err.to_string().contains("'busy' is not running"), "{err}");
    assert!(host.call_tool("wait", json!({})).await.is_err());
}

/// What the scripted extension read from stdin, one frame per line.
fn received(dir: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("received"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn pending_tool_calls_hear_tool_cancel_shutdown_before_shutdown() {
    let env = Env::new();
    let dir = env.global(
        "busy",
        json!({"register":[{"type":"register_tool","name":"wait","schema":{"type":"object"}}],
               "tools":{"wait":"hang"}, "received": true}),
    );
    let (host, _rx) = start(env.config()).await;
    let host = std::sync::Arc::new(host);
    let calling = host.clone();
    let call = tokio::spawn(async move { calling.call_tool("wait", json!({})).await });
    // The call is pending once the extension has read it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let id = loop {
        if let Some(f) = received(&dir).iter().find(|f| f["type"] == "tool_call") {
            break f["id"].clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the call never arrived"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    host.shutdown().await;
    let err = call.await.unwrap().unwrap_err();
    assert!(err.to_string().contains("it was stopped"), "{err}");
    let frames = received(&dir);
    let types: Vec<&str> = frames.iter().filter_map(|f| f["type"].as_str()).collect();
    let cancel = types.iter().position(|t| *t == "tool_cancel");
    let shutdown = types.iter().position(|t| *t == "shutdown");
    assert!(
        cancel.is_some() && cancel < shutdown,
        "tool_cancel, then shutdown: {types:?}"
    );
    let c = &frames[cancel.unwrap()];
    assert_eq!(c["id"], id);
    assert_eq!(c["reason"], "shutdown");
    // The extension answered nothing; a late answer would have been quiet.
    assert!(
        !env.log("busy").contains("unknown id"),
        "{}",
        env.log("busy")
    );
}

#[tokio::test]
async fn reloading_an_extension_cancels_its_pending_tool_calls_first() {
    let env = Env::new();
    let dir = env.global(
        "busy",
        json!({"register":[{"type":"register_tool","name":"wait","schema":{"type":"object"}}],
               "tools":{"wait":"hang"}, "received": true}),
    );
    let (host, _rx) = start(env.config()).await;
    let host = std::sync::Arc::new(host);
    let calling = host.clone();
    let call = tokio::spawn(async move { calling.call_tool("wait", json!({})).await });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !received(&dir).iter().any(|f| f["type"] == "tool_call") {
        assert!(
            std::time::Instant::now() < deadline,
            "the call never arrived"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    host.reload_one("busy").await.unwrap();
    assert!(call.await.unwrap().is_err());
    let frames = received(&dir);
    let types: Vec<&str> = frames.iter().filter_map(|f| f["type"].as_str()).collect();
    let cancel = types.iter().position(|t| *t == "tool_cancel");
    let shutdown = types.iter().position(|t| *t == "shutdown");
    assert!(
        cancel.is_some() && cancel < shutdown,
        "tool_cancel, then shutdown: {types:?}"
    );
    assert_eq!(frames[cancel.unwrap()]["reason"], "shutdown");
    host.shutdown().await;
}
