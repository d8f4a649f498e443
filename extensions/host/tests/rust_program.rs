//! A Rust extension shipped as source (#40 item 6): in a cargo workspace
//! with `cargo build` done, its launcher runs the build from the
//! workspace's `target/` inside its sandbox (that one binary is shown);
//! without a build it is never started, says "needs setup" with the one
//! step that fixes it, and the doctor says the same.

use crate::support::*;

use std::path::{Path, PathBuf};

use serde_json::json;
use zot_ext_host::doctor::diagnose;
use zot_ext_protocol::rpc::ExtState;

/// A workspace holding `examples/extensions/wsx`, laid out as the zot
/// checkout's Rust examples are, with the examples' own launcher.
fn workspace(root: &Path) -> PathBuf {
    std::fs::write(root.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
    let dir = root.join("examples/extensions/wsx");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"zot-example-wsx\"\nversion.workspace = true\n",
    )
    .unwrap();
    let guard =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/extensions/guard/launch.sh");
    let launcher = std::fs::read_to_string(guard)
        .unwrap()
        .replace("zot-example-guard", "zot-example-wsx");
    write_program(&dir.join("launch.sh"), &launcher);
    let manifest = json!({
        "name": "wsx", "version": "1.0.0", "exec": "./launch.sh", "language": "rust",
        "sandbox": {"read": [], "write": [], "net": false},
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

fn write_program(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// What `cargo build` leaves in the workspace's `target/debug`: here a
/// script that says hello and ready.
fn build(root: &Path) {
    write_program(
        &root.join("target/debug/zot-example-wsx"),
        "#!/bin/sh\nprintf '%s\\n' '{\"type\":\"hello\",\"name\":\"wsx\"}' '{\"type\":\"ready\"}'\nexec cat >/dev/null\n",
    );
}

#[tokio::test]
async fn a_workspace_rust_extension_runs_its_build_in_its_sandbox() {
    let env = Env::new();
    let ws = tempfile::tempdir().unwrap();
    let dir = workspace(ws.path());
    build(ws.path());
    let mut cfg = env.config();
    cfg.explicit = vec![dir];
    let (host, _rx) = start_settled(cfg).await;
    let s = summary(&host, "wsx");
    assert_eq!(
        s.state,
        ExtState::Ready,
        "{:?}\n{}",
        s.error,
        env.log("wsx")
    );
    assert_eq!(s.setup, None);
    host.shutdown().await;
}

#[tokio::test]
async fn an_unbuilt_rust_extension_needs_setup_is_not_started_and_the_doctor_agrees() {
    let env = Env::new();
    let ws = tempfile::tempdir().unwrap();
    let dir = workspace(ws.path());
    let mut cfg = env.config();
    cfg.explicit = vec![dir.clone()];
    let (host, _rx) = start_settled(cfg.clone()).await;
    let s = summary(&host, "wsx");
    let step = s.setup.clone().expect("a setup step");
    let root = ws.path().canonicalize().unwrap();
    assert_eq!(
        step,
        format!(
            "its binary `zot-example-wsx` is not built: run `cargo build -p zot-example-wsx` in {}",
            root.display()
        )
    );
    assert_eq!(s.state, ExtState::Failed);
    assert_eq!(
        s.error.as_deref(),
        Some(format!("needs setup: {step}").as_str())
    );
    // Never started: its launcher would have said why it exits 127.
    assert!(
        !env.log("wsx").contains("no zot-example-wsx binary"),
        "{}",
        env.log("wsx")
    );
    host.shutdown().await;

    let report = diagnose(cfg.clone()).await;
    assert!(!report.ok);
    assert_eq!(report.problems, [format!("wsx needs setup: {step}")]);

    // Built: the next load runs it, and the doctor is satisfied.
    build(ws.path());
    let report = diagnose(cfg).await;
    assert!(report.ok, "{:?}", report.problems);
}
