//! An extension cannot fill the disk through its log: stderr and host
//! lines rotate at 5 MiB with one old file kept, and the host's own lines
//! about it are cut at 1 KiB and throttled with a "suppressed" count.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::HostEvent;
use zot_ext_protocol::rpc::UiEvent;

const MIB: u64 = 1024 * 1024;

fn notified(text: &'static str) -> impl FnMut(&HostEvent) -> bool {
    move |e| matches!(e, HostEvent::Ui(UiEvent::ExtNotify { message, .. }) if message == text)
}

#[tokio::test]
async fn a_stderr_flood_rotates_the_log_and_keeps_one_old_file() {
    let env = Env::new();
    env.global("loud", json!({"stderr_bytes": 12 * MIB}));
    let (host, mut rx) = start(env.config()).await;
    wait_event(&mut rx, notified("stderr done")).await;
    let log = env.log_path("loud");
    let old = log.with_file_name("ext-loud.log.1");
    // The pump may still be copying the tail: wait for the total to settle.
    eventually(|| {
        let a = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);
        let b = std::fs::metadata(&old).map(|m| m.len()).unwrap_or(0);
        a + b >= 2 * MIB && b > 4 * MIB
    })
    .await;
    host.shutdown().await;
    let size = std::fs::metadata(&log).unwrap().len();
    let old_size = std::fs::metadata(&old).unwrap().len();
    assert!(size <= 5 * MIB, "{size}");
    assert!(old_size <= 5 * MIB, "{old_size}");
    assert!(!log.with_file_name("ext-loud.log.2").exists());
    // Host lines land in the current file after rotation.
    assert!(env.log("loud").contains("[zot] acknowledged shutdown"));
}

#[tokio::test]
async fn host_lines_are_cut_and_throttled() {
    let env = Env::new();
    let long_name = "x".repeat(5000);
    env.global(
        "noisy",
        json!({
            "register":[{"type":"subscribe","events":[long_name]}],
            "flood_frame":{"frame":{"type":"panel_render","panel_id":"not-mine","lines":["x"]},"n":20000},
        }),
    );
    let (host, mut rx) = start(env.config()).await;
    wait_event(&mut rx, notified("frames done")).await;
    // One more line after the flood reports what was suppressed.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    host.shutdown().await;
    let log = env.log("noisy");
    let host_lines: Vec<&str> = log.lines().filter(|l| l.starts_with("[zot]")).collect();
    assert!(
        host_lines.iter().all(|l| l.len() <= 1024 + 64),
        "a host line was not cut"
    );
    assert!(log.contains("(cut; "), "{}", &log[..log.len().min(2000)]);
    let renders = host_lines
        .iter()
        .filter(|l| l.contains("panel_render for 'not-mine'"))
        .count();
    assert!(renders < 20000 / 2, "{renders} of 20000 lines written");
    assert!(log.contains("suppressed "), "no suppressed-lines note");
}
