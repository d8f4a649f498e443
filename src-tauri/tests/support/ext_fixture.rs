//! Builds a fixture extension directory (tests/fixtures/agent_ext.py plus a
//! plan) and reads back the frames it received.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

/// Makes `parent/dir` an extension named `plan.name` (default "fx"), with
/// the manifest's `restart` from `plan.restart` when given.
pub fn make(parent: &Path, dir: &str, plan: Value) -> PathBuf {
    let d = parent.join(dir);
    std::fs::create_dir_all(&d).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent_ext.py");
    std::fs::copy(&src, d.join("agent_ext.py")).unwrap();
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

/// Every frame the extension has received so far.
pub fn seen(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("seen.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Waits until the extension has received a frame matching `pred`.
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
