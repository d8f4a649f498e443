//! Nothing outlives an extension, even what leaves its process group: a
//! real fixture (`scripted.py`, plan `escaped_child`) starts `sleep` in a
//! process group of its own, as a monitor would, and the sleep must be
//! gone once the extension is shut down, has crashed or was reloaded (a
//! SIGKILLed host: `reaper.rs`). The keeper that sweeps it is in
//! `src/io/subreaper.rs`.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_protocol::rpc::ExtState;

#[tokio::test]
async fn shutdown_ends_a_child_that_left_the_group() {
    let env = Env::new();
    let dir = env.global("monitor", json!({"escaped_child": true}));
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "monitor").state, ExtState::Ready);
    let child = escaped_child(&dir);
    host.shutdown().await;
    assert!(!alive(child), "the escaped child {child} outlived shutdown");
}

#[tokio::test]
async fn a_crash_ends_a_child_that_left_the_group() {
    let env = Env::new();
    let dir = env.global(
        "crasher",
        json!({"escaped_child": true, "crash_after_ready": 0.3, "crash_starts": 1}),
    );
    let (host, _rx) = start(env.config()).await;
    let child = escaped_child(&dir);
    // It crashes once, then runs again (with a child of its own).
    eventually(|| starts(&dir) >= 2).await;
    eventually(|| !alive(child)).await;
    host.shutdown().await;
}

#[tokio::test]
async fn a_reload_ends_a_child_that_left_the_group() {
    let env = Env::new();
    let dir = env.global("reloaded", json!({"escaped_child": true}));
    let (host, _rx) = start(env.config()).await;
    let child = escaped_child(&dir);
    host.reload().await;
    assert!(
        !alive(child),
        "the escaped child {child} outlived the reload"
    );
    assert_eq!(summary(&host, "reloaded").state, ExtState::Ready);
    host.shutdown().await;
}
