//! Nothing outlives an extension, even what leaves its process group: a
//! real fixture (`scripted.py`, plan `escaped_child`) starts `sleep` in a
//! process group of its own, as a monitor would, and the sleep must be
//! gone once the extension is shut down, has crashed, was reloaded, or its
//! host was SIGKILLed (the host is this test binary re-run as a victim).
//! The keeper that sweeps it is in `src/subreaper.rs`.

#[path = "support/support.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::json;
use support::*;
use zot_ext_protocol::rpc::ExtState;

/// The escaped child's pid, once it runs, checked to be really escaped:
/// in a group other than its parent's.
fn escaped(dir: &Path) -> i32 {
    let pid = read_pid(dir, "escaped.pid");
    let ext = read_pid(dir, "pid");
    assert!(process_alive(pid), "the escaped child {pid} is not running");
    assert_ne!(
        pgrp(pid),
        pgrp(ext),
        "the child did not leave the extension's group"
    );
    pid
}

fn pgrp(pid: i32) -> i32 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    after
        .split_whitespace()
        .nth(2)
        .and_then(|f| f.parse().ok())
        .unwrap_or(-1)
}

#[tokio::test]
async fn shutdown_ends_a_child_that_left_the_group() {
    let env = Env::new();
    let dir = env.global("monitor", json!({"escaped_child": true}));
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "monitor").state, ExtState::Ready);
    let child = escaped(&dir);
    host.shutdown().await;
    assert!(
        !process_alive(child),
        "the escaped child {child} outlived shutdown"
    );
}

#[tokio::test]
async fn a_crash_ends_a_child_that_left_the_group() {
    let env = Env::new();
    let dir = env.global(
        "crasher",
        json!({"escaped_child": true, "crash_after_ready": 0.3, "crash_starts": 1}),
    );
    let (host, _rx) = start(env.config()).await;
    let child = escaped(&dir);
    // It crashes once, then runs again (with a child of its own).
    eventually(|| starts(&dir) >= 2).await;
    eventually(|| !process_alive(child)).await;
    host.shutdown().await;
}

#[tokio::test]
async fn a_reload_ends_a_child_that_left_the_group() {
    let env = Env::new();
    let dir = env.global("reloaded", json!({"escaped_child": true}));
    let (host, _rx) = start(env.config()).await;
    let child = escaped(&dir);
    host.reload().await;
    assert!(
        !process_alive(child),
        "the escaped child {child} outlived the reload"
    );
    assert_eq!(summary(&host, "reloaded").state, ExtState::Ready);
    host.shutdown().await;
}

/// In the victim process of the next test: a host with the extension;
/// writes `ready` once it runs, then waits to be SIGKILLed.
#[test]
fn escaped_victim_entry() {
    let Ok(spec) = std::env::var("ZOT_ESCAPED_VICTIM") else {
        return; // a normal test run: nothing to do
    };
    let spec: serde_json::Value = serde_json::from_str(&spec).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut cfg = zot_ext_host::HostConfig::new(
            spec["home"].as_str().unwrap(),
            spec["project"].as_str().unwrap(),
        );
        cfg.discover = false;
        cfg.explicit = vec![PathBuf::from(spec["ext"].as_str().unwrap())];
        let (host, _rx) = start(cfg).await;
        std::fs::write(spec["ready"].as_str().unwrap(), "ready").unwrap();
        tokio::time::sleep(Duration::from_secs(600)).await;
        drop(host);
    });
}

#[tokio::test]
async fn a_sigkilled_host_ends_a_child_that_left_the_group() {
    let env = Env::new();
    let dir = env.loose("escaper", json!({"escaped_child": true}));
    let ready = env.loose.path().join("ready");
    let spec = json!({
        "home": env.home.path(), "project": env.project.path(),
        "ext": dir, "ready": ready,
    });
    let mut victim = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "escaped_victim_entry",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ZOT_ESCAPED_VICTIM", spec.to_string())
        .spawn()
        .unwrap();
    eventually(|| ready.exists() && pid_in(&dir.join("escaped.pid")).is_some()).await;
    let child = escaped(&dir);
    victim.kill().unwrap(); // SIGKILL: none of the host's cleanup runs
    victim.wait().unwrap();
    eventually(|| !process_alive(child)).await;
}
