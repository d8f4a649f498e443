//! SIGINT, SIGTERM and SIGHUP end `zot --mode rpc`, `--mode json` and `-p`
//! the way a clean exit does: the extension receives `shutdown`, zot exits
//! with 128 + the signal's number, and neither the extension nor the child
//! it started is alive afterwards (checked in /proc).

use zot_test_support::procs;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use procs::alive;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

const SIGNALS: [(i32, &str); 3] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
];

/// A fresh copy of the signal fixture extension.
fn fixture(parent: &Path) -> PathBuf {
    let d = parent.join("sig");
    std::fs::create_dir_all(&d).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/signal_ext.py");
    std::fs::copy(&src, d.join("signal_ext.py")).unwrap();
    std::fs::write(
        d.join("extension.json"),
        r#"{"name":"sig","version":"0.1.0","exec":"./signal_ext.py","language":"python"}"#,
    )
    .unwrap();
    d
}

/// The extension's pid and its child's, once it wrote them.
async fn pids(dir: &Path) -> Vec<i32> {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Ok(s) = std::fs::read_to_string(dir.join("pids")) {
            return s.split_whitespace().map(|p| p.parse().unwrap()).collect();
        }
        assert!(Instant::now() < deadline, "the extension never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits (to a generous deadline) until none of `pids` is alive.
async fn all_gone(pids: &[i32]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if !pids.iter().any(|p| alive(*p)) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// Starts zot in a mode, waits until the extension runs (and, for the
/// prompt modes, until the model request hangs mid-turn), sends `sig`,
/// and checks the clean shutdown happened.
async fn signal_ends_cleanly(mode: &str, sig: i32, name: &str) {
    let s = FakeLlm::start().await;
    s.push(Reply::SseThenHang(vec![ev(
        "message_start",
        serde_json::json!({"type":"message_start","message":{"id":"m1","usage":{"input_tokens":1,"output_tokens":1}}}),
    )]));
    let (home, cwd, exts) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let ext = fixture(exts.path());
    let ext_arg = ext.to_str().unwrap();
    let mut args = vec![
        "--ext",
        ext_arg,
        "--no-session",
        "--base-url",
        &s.url,
        "--api-key",
        "k",
    ];
    match mode {
        "rpc" => args.extend(["--mode", "rpc"]),
        "json" => args.extend(["--mode", "json", "hang please"]),
        _ => args.extend(["-p", "hang please"]),
    }
    let mut child = command(home.path(), cwd.path(), &args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    // Held until zot exited: `Child::wait` would close stdin first, and RPC
    // mode would then exit 0 on that EOF instead of on the signal.
    let _stdin = child.stdin.take();
    let procs = pids(&ext).await;
    if mode != "rpc" {
        let deadline = Instant::now() + WAIT;
        while s.requests().is_empty() {
            assert!(Instant::now() < deadline, "{mode}: no model request");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    } else {
        // Serving: wait for the ready grace to pass by asking the extension
        // to be there (its pids file) and giving zot a moment to print ready.
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let pid = child.id().unwrap() as i32;
    assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
    let status = tokio::time::timeout(WAIT, child.wait())
        .await
        .unwrap_or_else(|_| panic!("{mode}: zot did not exit after {name}"))
        .unwrap();
    assert_eq!(
        status.code(),
        Some(128 + sig),
        "{mode}: zot's exit after {name}: {status:?}"
    );
    assert!(
        ext.join("got_shutdown").exists(),
        "{mode}: the extension never received shutdown after {name}"
    );
    assert!(
        all_gone(&procs).await,
        "{mode}: after {name} these are still alive: {:?}",
        procs.iter().filter(|p| alive(**p)).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn rpc_mode_shuts_down_cleanly_on_sigint_sigterm_and_sighup() {
    for (sig, name) in SIGNALS {
        signal_ends_cleanly("rpc", sig, name).await;
    }
}

#[tokio::test]
async fn json_mode_shuts_down_cleanly_on_sigint_sigterm_and_sighup() {
    for (sig, name) in SIGNALS {
        signal_ends_cleanly("json", sig, name).await;
    }
}

#[tokio::test]
async fn print_mode_shuts_down_cleanly_on_sigint_sigterm_and_sighup() {
    for (sig, name) in SIGNALS {
        signal_ends_cleanly("print", sig, name).await;
    }
}
