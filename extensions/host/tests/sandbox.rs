//! The OS sandbox (docs/security.md) with real bubblewrap and a real
//! Python extension written with zot's SDK (`fixtures/sandbox_probe.py`):
//! what it can read, write and connect to, what it cannot, what happens
//! without bwrap, and that shutdown still ends everything.

#[path = "support/support.rs"]
mod support;

use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::*;
use tempfile::TempDir;
use zot_ext_host::Host;
use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::ContentBlock;

/// A probe extension in `$ZOT_HOME/extensions/<name>` with `sandbox`.
fn probe(env: &Env, name: &str, sandbox: Value) -> PathBuf {
    let dir = env.global_dir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("sandbox_probe.py"), dir.join("probe.py")).unwrap();
    // A bare `python3`: found on PATH inside the sandbox, where a PATH
    // entry it cannot see (a pyenv shim in the home) is skipped.
    let manifest = json!({
        "name": name,
        "exec": "python3",
        "args": ["./probe.py", name],
        "sandbox": sandbox,
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

async fn ask(host: &Host, tool: &str, args: Value) -> String {
    let out = host.call_tool(tool, args).await.unwrap();
    match out.content.first() {
        Some(ContentBlock::Text { text }) => text.clone(),
        other => panic!("{tool}: no text: {other:?}"),
    }
}

/// Pids whose command line mentions `needle` (bwrap and the extension).
fn pids_mentioning(needle: &Path) -> Vec<i32> {
    let needle = needle.to_string_lossy().into_owned();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmd).contains(&needle) {
            out.push(pid);
        }
    }
    out
}

/// The process group of `pid` (field 5 of `/proc/<pid>/stat`).
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
async fn killing_the_group_as_the_reaper_does_ends_bwrap_and_the_extension() {
    let env = Env::new();
    let dir = probe(&env, "victim", json!({}));
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "victim").state, ExtState::Ready);
    let running = pids_mentioning(&dir);
    let leader = pgrp(running[0]);
    // What the reaper does when zot dies: SIGKILL the registered group.
    zot_ext_host::process::signal_group(leader, SIGKILL);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !pids_mentioning(&dir).is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        pids_mentioning(&dir).is_empty(),
        "{:?}",
        pids_mentioning(&dir)
    );
    // zot notices the crash like any other.
    host.shutdown().await;
}

const SIGKILL: i32 = 9;

#[tokio::test]
async fn a_sandboxed_extension_killed_by_a_signal_reports_the_signal_not_bwraps_status() {
    let env = Env::new();
    let dir = probe(&env, "selfkill", json!({}));
    let manifest = json!({
        "name": "selfkill", "exec": "python3", "args": ["./probe.py", "selfkill"],
        "sandbox": {}, "restart": "never",
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "selfkill").state, ExtState::Ready);
    let _ = host.call_tool("probe_selfkill", json!({})).await;
    eventually(|| summary(&host, "selfkill").last_exit.is_some()).await;
    let s = summary(&host, "selfkill");
    assert_eq!(s.last_exit.as_deref(), Some("signal 9 (SIGKILL)"), "{s:?}");
    host.shutdown().await;
}

#[tokio::test]
async fn shutdown_ends_a_sandboxed_extension_that_ignores_stdin_close_and_sigterm() {
    let env = Env::new();
    let dir = probe(&env, "stubborn", json!({}));
    // The fixture's second argument makes it stubborn.
    let manifest = json!({
        "name": "stubborn",
        "exec": "python3",
        "args": ["./probe.py", "stubborn", "stubborn"],
        "sandbox": {},
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "stubborn").state, ExtState::Ready);
    assert!(!pids_mentioning(&dir).is_empty());
    host.shutdown().await;
    assert!(
        pids_mentioning(&dir).is_empty(),
        "{:?}",
        pids_mentioning(&dir)
    );
}

fn nobody_connected(listener: &TcpListener) -> bool {
    listener.set_nonblocking(true).unwrap();
    matches!(listener.accept(), Err(e) if e.kind() == ErrorKind::WouldBlock)
}

#[tokio::test]
async fn a_sandboxed_extension_reaches_only_its_grants() {
    let env = Env::new();
    // The test's "home": a canary beside a granted directory.
    // Not under /tmp: the sandbox has a private /tmp, where a write
    // "succeeds" into a throwaway tmpfs; a home is under the read-only root.
    // The target dir, unless the checkout itself lives under /tmp (a CI
    // clone may): then the real $HOME, which the sandbox does not show.
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let base = if target.starts_with("/tmp") {
        std::path::PathBuf::from(std::env::var_os("HOME").expect("HOME"))
    } else {
        target.to_path_buf()
    };
    let fake_home = TempDir::new_in(base).unwrap();
    let canary = fake_home.path().join("canary.txt");
    std::fs::write(&canary, "CANARY-7f3e9 must never be read").unwrap();
    let granted = fake_home.path().join("notes");
    std::fs::create_dir_all(&granted).unwrap();
    std::fs::write(granted.join("todo.md"), "granted text").unwrap();
    // Something secret in $ZOT_HOME, outside the extension's own dir.
    std::fs::write(env.home.path().join("auth.json"), "ZOT-HOME-SECRET").unwrap();
    let dir = probe(
        &env,
        "probe",
        json!({"read": [granted], "write": [], "net": false}),
    );
    let (host, _rx) = start(env.config()).await;
    let s = summary(&host, "probe");
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?}\n{}",
        s.error,
        env.log("probe")
    );
    assert!(s.sandboxed);

    // Reading outside the grant fails, and what came back is not the canary.
    let got = ask(&host, "probe_read", json!({"path": canary})).await;
    assert!(got.starts_with("error: FileNotFoundError"), "{got}");
    assert!(!got.contains("CANARY-7f3e9"), "{got}");
    let got = ask(
        &host,
        "probe_read",
        json!({"path": env.home.path().join("auth.json")}),
    )
    .await;
    assert!(
        got.starts_with("error:") && !got.contains("ZOT-HOME-SECRET"),
        "{got}"
    );
    // The grant is readable, not writable.
    let got = ask(
        &host,
        "probe_read",
        json!({"path": granted.join("todo.md")}),
    )
    .await;
    assert_eq!(got, "read: granted text");
    let got = ask(
        &host,
        "probe_write",
        json!({"path": granted.join("todo.md")}),
    )
    .await;
    assert!(
        got.starts_with("error: OSError") || got.contains("Read-only"),
        "{got}"
    );
    assert_eq!(
        std::fs::read_to_string(granted.join("todo.md")).unwrap(),
        "granted text"
    );
    // Writing outside its data dir fails; inside it works.
    let outside = fake_home.path().join("dropped.txt");
    let got = ask(&host, "probe_write", json!({"path": outside})).await;
    assert!(got.starts_with("error:"), "{got}");
    assert!(!outside.exists());
    let got = ask(
        &host,
        "probe_write",
        json!({"path": dir.join("state.json")}),
    )
    .await;
    assert_eq!(got, "wrote");
    assert_eq!(
        std::fs::read_to_string(dir.join("state.json")).unwrap(),
        "written from the sandbox"
    );
    // Its private /tmp is writable and is not the host's.
    let got = ask(&host, "probe_write", json!({"path": "/tmp/probe-tmp.txt"})).await;
    assert_eq!(got, "wrote");
    assert!(!Path::new("/tmp/probe-tmp.txt").exists());
    // $ZOT_HOME shows only its own directory and zot's SDKs.
    let got = ask(&host, "probe_list", json!({"path": env.home.path()})).await;
    assert_eq!(got, "list: extensions,sdk", "{got}");
    let got = ask(&host, "probe_list", json!({"path": env.global_dir()})).await;
    assert_eq!(got, "list: probe", "{got}");

    // No capabilities (this test may run as root), and a pid namespace of
    // its own: zot's process is not in its /proc.
    let got = ask(&host, "probe_read", json!({"path": "/proc/self/status"})).await;
    assert!(got.contains("CapEff:\t0000000000000000"), "{got}");
    let got = ask(&host, "probe_list", json!({"path": "/proc"})).await;
    let me = std::process::id().to_string();
    assert!(
        !got.split(',')
            .any(|p| p == me || p.trim_start_matches("list: ") == me),
        "{got}"
    );
    let pids = got
        .trim_start_matches("list: ")
        .split(',')
        .filter(|p| p.parse::<u32>().is_ok())
        .count();
    assert!(pids <= 3, "more than bwrap's init and the extension: {got}");

    // No network: not even a listener on loopback.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = ask(&host, "probe_connect", json!({"port": port})).await;
    assert!(got.starts_with("error:"), "{got}");
    assert!(nobody_connected(&listener));

    // zot is still fine: the extension answers, nothing failed.
    let got = ask(
        &host,
        "probe_read",
        json!({"path": granted.join("todo.md")}),
    )
    .await;
    assert_eq!(got, "read: granted text");
    let s = summary(&host, "probe");
    assert_eq!(s.state, ExtState::Ready);
    assert_eq!(s.health.errors, 0);

    // bwrap and everything inside are one process group led by bwrap (a
    // new session), which is what the reaper and shutdown signal.
    let running = pids_mentioning(&dir);
    assert!(running.len() >= 2, "bwrap and the extension: {running:?}");
    let groups: std::collections::BTreeSet<i32> = running.iter().map(|p| pgrp(*p)).collect();
    assert_eq!(groups.len(), 1, "{running:?} in groups {groups:?}");
    let leader = *groups.first().unwrap();
    assert!(running.contains(&leader), "the group is led by bwrap");
    // Shutdown ends bwrap and everything inside it.
    host.shutdown().await;
    let left: Vec<i32> = pids_mentioning(&dir);
    assert!(left.is_empty(), "left running after shutdown: {left:?}");
}

#[tokio::test]
async fn net_true_reaches_a_loopback_listener() {
    let env = Env::new();
    probe(&env, "netprobe", json!({"net": true}));
    let (host, _rx) = start(env.config()).await;
    let s = summary(&host, "netprobe");
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?}\n{}",
        s.error,
        env.log("netprobe")
    );
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let got = ask(&host, "probe_connect", json!({"port": port})).await;
    assert_eq!(got, "connected");
    let (mut conn, _) = listener.accept().unwrap();
    let mut line = String::new();
    std::io::Read::read_to_string(&mut conn, &mut line).unwrap();
    assert_eq!(line, "hello from the sandbox\n");
    host.shutdown().await;
}

#[tokio::test]
async fn a_grant_of_root_still_hides_zot_home_and_the_hosts_proc() {
    let env = Env::new();
    std::fs::write(env.home.path().join("auth.json"), "ZOT-HOME-SECRET").unwrap();
    // The widest grant there is: `/` (bwrap binds recursively).
    probe(&env, "wide", json!({"read": ["/"]}));
    let (host, _rx) = start(env.config()).await;
    let s = summary(&host, "wide");
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?}\n{}",
        s.error,
        env.log("wide")
    );
    let got = ask(
        &host,
        "probe_read",
        json!({"path": env.home.path().join("auth.json")}),
    )
    .await;
    assert!(
        got.starts_with("error:") && !got.contains("ZOT-HOME-SECRET"),
        "{got}"
    );
    let got = ask(&host, "probe_list", json!({"path": env.home.path()})).await;
    assert_eq!(got, "list: extensions,sdk", "{got}");
    // Its /proc is still its own, whatever the grant covered.
    let got = ask(&host, "probe_list", json!({"path": "/proc"})).await;
    let me = std::process::id().to_string();
    assert!(
        !got.trim_start_matches("list: ").split(',').any(|p| p == me),
        "{got}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn without_bubblewrap_a_sandboxed_extension_does_not_start_and_says_how_to_fix_it() {
    let env = Env::new();
    let dir = probe(&env, "nobwrap", json!({}));
    // An unsandboxed neighbour still runs.
    env.global("plain", json!({}));
    let mut cfg = env.config();
    cfg.bwrap = PathBuf::from("/nonexistent/zot-test/bwrap");
    let (host, _rx) = start(cfg).await;
    let s = summary(&host, "nobwrap");
    assert_eq!(s.state, ExtState::Failed);
    let error = s.error.unwrap_or_default();
    assert!(error.contains("sandbox"), "{error}");
    assert!(error.contains("sudo apt install bubblewrap"), "{error}");
    assert!(error.contains("/nonexistent/zot-test/bwrap"), "{error}");
    assert!(pids_mentioning(&dir).is_empty());
    assert_eq!(summary(&host, "plain").state, ExtState::Ready);
    host.shutdown().await;

    // A bare name that is not on PATH.
    let env = Env::new();
    probe(&env, "nobwrap", json!({}));
    let mut cfg = env.config();
    cfg.bwrap = PathBuf::from("zot-test-no-such-bwrap");
    let (host, _rx) = start(cfg).await;
    let error = summary(&host, "nobwrap").error.unwrap_or_default();
    assert!(
        error.contains("not on PATH") && error.contains("apt install"),
        "{error}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_bwrap_that_cannot_make_namespaces_fails_the_extension_with_the_reason() {
    let env = Env::new();
    // A stand-in for bwrap on a system with user namespaces off: it fails
    // the probe the way the real one does there.
    let fake = env.loose.path().join("bwrap");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    probe(&env, "nons", json!({}));
    let mut cfg = env.config();
    cfg.bwrap = fake;
    let (host, _rx) = start(cfg).await;
    let s = summary(&host, "nons");
    assert_eq!(s.state, ExtState::Failed);
    let error = s.error.unwrap_or_default();
    assert!(
        error.contains("No permissions to creating new namespace"),
        "{error}"
    );
    assert!(
        error.contains("enable unprivileged user namespaces"),
        "{error}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_malformed_sandbox_fails_the_load_naming_the_field() {
    let env = Env::new();
    for (name, sandbox) in [
        ("s1", json!({"net": "yes"})),
        ("s2", json!({"read": ["relative/dir"]})),
        ("s3", json!({"write": "/tmp"})),
        ("s4", json!({"exec": true})),
        ("s5", json!(["/x"])),
    ] {
        probe(&env, name, sandbox);
    }
    let (host, _rx) = start(env.config()).await;
    let report = host.report();
    for (name, field) in [
        ("s1", "sandbox.net"),
        ("s2", "sandbox.read[0]"),
        ("s3", "sandbox.write"),
        ("s4", "sandbox.exec"),
        ("s5", "sandbox"),
    ] {
        let e = report
            .manifest_errors
            .iter()
            .find(|e| e.path.starts_with(env.global_dir().join(name)))
            .unwrap_or_else(|| panic!("{name}: no manifest error in {:?}", report.manifest_errors));
        assert_eq!(e.field.as_deref(), Some(field), "{e}");
        assert!(e.to_string().contains(&format!("field '{field}'")), "{e}");
    }
    host.shutdown().await;
}

/// In the victim process of the next test: a host with the sandboxed
/// extension; writes `ready` once it runs, then waits to be SIGKILLed.
#[test]
fn sandboxed_victim_entry() {
    let Ok(spec) = std::env::var("ZOT_SANDBOX_VICTIM") else {
        return; // a normal test run: nothing to do
    };
    let spec: Value = serde_json::from_str(&spec).unwrap();
    let field = |k: &str| spec.get(k).and_then(Value::as_str).unwrap().to_owned();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut cfg = zot_ext_host::HostConfig::new(field("home"), field("project"));
        cfg.discover = false;
        cfg.explicit = vec![PathBuf::from(field("ext"))];
        let (host, _rx) = start(cfg).await;
        std::fs::write(field("ready"), "ready").unwrap();
        tokio::time::sleep(std::time::Duration::from_secs(600)).await;
        drop(host);
    });
}

#[tokio::test]
async fn a_sigkilled_host_takes_bwrap_and_its_extension_with_it() {
    let env = Env::new();
    let dir = probe(&env, "sbvictim", json!({}));
    let ready = env.loose.path().join("ready");
    let spec = json!({
        "home": env.home.path(), "project": env.project.path(),
        "ext": dir, "ready": ready,
    });
    let mut victim = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "sandboxed_victim_entry",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("ZOT_SANDBOX_VICTIM", spec.to_string())
        .spawn()
        .unwrap();
    eventually(|| ready.exists() && pids_mentioning(&dir).len() >= 2).await;
    let running = pids_mentioning(&dir);
    victim.kill().unwrap(); // SIGKILL: none of the host's cleanup runs
    victim.wait().unwrap();
    // The reaper SIGKILLs bwrap's group; --die-with-parent is the backstop.
    eventually(|| running.iter().all(|p| !process_alive(*p))).await;
}
