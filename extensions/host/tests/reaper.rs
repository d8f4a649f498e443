//! Nothing outlives zot: a process running a host is SIGKILLed (so none of
//! its cleanup runs), and the reaper still kills its extension and the
//! extension's grandchild, and the extension's keeper a child that left
//! its group. The "zot" here is this test binary re-run as a
//! victim (`ZOT_REAPER_VICTIM` names the extension directory).

use crate::support;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::json;
use support::*;

/// In the victim process: start a host with the extension, say so, wait.
#[test]
fn victim_entry() {
    let Ok(spec) = std::env::var("ZOT_REAPER_VICTIM") else {
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
        let pid = zot_ext_host::reaper::reaper_pid().unwrap();
        std::fs::write(spec["ready"].as_str().unwrap(), pid.to_string()).unwrap();
        tokio::time::sleep(Duration::from_secs(600)).await;
        drop(host);
    });
}

#[tokio::test]
async fn a_sigkilled_host_takes_its_extensions_and_their_children_with_it() {
    let env = Env::new();
    let dir = env.loose("victim_ext", json!({"grandchild": true}));
    let ready = env.loose.path().join("ready");
    let spec = json!({
        "home": env.home.path(), "project": env.project.path(),
        "ext": dir, "ready": ready,
    });
    let mut victim = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &exact_name(module_path!(), "victim_entry"),
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ZOT_REAPER_VICTIM", spec.to_string())
        .spawn()
        .unwrap();
    // Each file is created before its pid lands in it, so wait for the pids.
    let pids = || {
        let ext = pid_in(&dir.join("pid"))?;
        let grandchild = pid_in(&dir.join("grandchild.pid"))?;
        Some((ext, grandchild, pid_in(&ready)?))
    };
    eventually(|| pids().is_some()).await;
    let (ext, grandchild, reaper) = pids().unwrap();
    assert!(alive(ext) && alive(grandchild) && alive(reaper));

    victim.kill().unwrap(); // SIGKILL
    victim.wait().unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert!(!alive(ext), "the extension {ext} outlived its host");
    assert!(
        !alive(grandchild),
        "its grandchild {grandchild} outlived the host"
    );
    assert!(!alive(reaper), "the reaper {reaper} outlived the host");
}

#[tokio::test]
async fn a_sigkilled_host_ends_a_child_that_left_the_group() {
    let env = Env::new();
    // `setpgid`: the reaper's group kill misses it; the keeper
    // (src/io/subreaper.rs) sweeps it once the extension is dead.
    let dir = env.loose("escaper", json!({"escaped_child": true}));
    let ready = env.loose.path().join("ready");
    let spec = json!({
        "home": env.home.path(), "project": env.project.path(),
        "ext": dir, "ready": ready,
    });
    let mut victim = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &exact_name(module_path!(), "victim_entry"),
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ZOT_REAPER_VICTIM", spec.to_string())
        .spawn()
        .unwrap();
    eventually(|| pid_in(&ready).is_some() && pid_in(&dir.join("escaped.pid")).is_some()).await;
    let child = escaped_child(&dir);
    victim.kill().unwrap(); // SIGKILL: none of the host's cleanup runs
    victim.wait().unwrap();
    eventually(|| !alive(child)).await;
}
