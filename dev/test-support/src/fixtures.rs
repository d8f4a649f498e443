//! Extensions on disk for tests: the three scripted fixture extensions in
//! `dev/test-support/fixtures/` (each driven by a plan, so a test states the
//! behaviour it needs), plain extension directories and git repositories.
//! The host's tests, the `zot ext` CLI tests and the agent's RPC tests build
//! them the same way.
//!
//! - `scripted.py`: the host's protocol behaviours (handshakes, crashes,
//!   floods, process groups), plan in its argv ([`scripted`]);
//! - `doctor_ext.py`: a small registering extension for the doctor and
//!   management tests ([`scripted_ext`]);
//! - `agent_ext.py`: commands, tools, dialogs and panels for the agent's
//!   tests, plan in `plan.json` beside it, every frame it received in
//!   `seen.jsonl` ([`agent_ext`], [`seen`], [`wait_seen`]).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{json, Value};

/// A fixture file of this crate (`dev/test-support/fixtures/NAME`).
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// The real Python interpreter (not a pyenv shim, which is slow to start).
pub fn python() -> PathBuf {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys;print(sys.executable)"])
            .output()
            .expect("python3 on PATH");
        PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
    })
    .clone()
}

/// Writes `root/name/extension.json` that runs `scripted.py` with `plan`.
pub fn scripted(root: &Path, name: &str, plan: Value) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = json!({
        "name": name,
        "version": "1.0.0",
        "exec": python(),
        "args": [fixture("scripted.py"), plan.to_string()],
        "language": "python",
        "description": format!("test extension {name}"),
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

/// Makes `parent/dir` an extension running a copy of `agent_ext.py` with
/// `plan`, named `plan.name` (default "fx"), with the manifest's `restart`
/// from `plan.restart` when given.
pub fn agent_ext(parent: &Path, dir: &str, plan: Value) -> PathBuf {
    let d = parent.join(dir);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::copy(fixture("agent_ext.py"), d.join("agent_ext.py")).unwrap();
    let name = plan
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("fx")
        .to_owned();
    std::fs::write(d.join("plan.json"), plan.to_string()).unwrap();
    let mut manifest =
        json!({"name": name, "version": "0.1.0", "exec": "./agent_ext.py", "language": "python"});
    // `restart` in the plan goes to the manifest ("never": a crash stays a
    // crash, with no automatic restart racing the test).
    if let Some(r) = plan.get("restart") {
        manifest["restart"] = r.clone();
    }
    std::fs::write(d.join("extension.json"), manifest.to_string()).unwrap();
    d
}

/// Every frame an `agent_ext.py` extension has received so far.
pub fn seen(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("seen.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Waits until an `agent_ext.py` extension has received a frame matching
/// `pred`.
pub async fn wait_seen(dir: &Path, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..1000 {
        if let Some(v) = seen(dir).into_iter().find(&pred) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "the extension never received the expected frame; it saw {:#?}",
        seen(dir)
    );
}

/// Writes an extension directory with `manifest` and a trivial script.
pub fn write_ext(dir: &Path, manifest: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("extension.json"), manifest).unwrap();
    std::fs::write(dir.join("run.sh"), "#!/bin/sh\n").unwrap();
}

/// Sorted names in a directory, hidden ones included; empty if it is missing.
pub fn entries(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<String> = rd
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Every file under `dir`, recursively (none when it does not exist).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Runs git with a fixed identity and branch name in `dir`; its output,
/// trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(["-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Makes `dir` a git repository with one commit of its contents and
/// returns its `file://` URL.
pub fn git_repo(dir: &Path) -> String {
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "init"]);
    format!("file://{}", dir.display())
}

/// An extension directory `base/name` that runs `doctor_ext.py` with
/// `spec` (see the script's header); `extra` fields are merged into the
/// manifest.
pub fn scripted_ext(base: &Path, name: &str, spec: Value, extra: Value) -> PathBuf {
    let dir = base.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut spec = spec;
    spec["name"] = json!(name);
    let mut manifest = json!({
        "name": name,
        "exec": fixture("doctor_ext.py").to_str().unwrap(),
        "args": [spec.to_string()],
    });
    for (k, v) in extra.as_object().unwrap() {
        manifest[k] = v.clone();
    }
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}
