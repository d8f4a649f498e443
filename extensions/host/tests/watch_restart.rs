//! Live reload restarts only what changed: a code change in a watched
//! folder restarts the extension loaded from it while the others keep
//! running (same process); a manifest change reloads everything, since only
//! a fresh discovery applies a new manifest.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_protocol::rpc::ExtState;

fn ready(host: &zot_ext_host::Host, name: &str) -> bool {
    host.list()
        .iter()
        .any(|e| e.name == name && e.state == ExtState::Ready)
}

#[tokio::test]
async fn a_code_change_restarts_only_that_extension_and_a_manifest_change_reloads_all() {
    let env = Env::new();
    let other = env.global("other", json!({}));
    let dir = env.loose("mine", json!({}));
    let (host, _rx) = start(env.config()).await;
    host.develop(&dir).await.unwrap();
    eventually(|| ready(&host, "mine") && ready(&host, "other")).await;
    let (mine_pid, other_pid) = (read_pid(&dir, "pid"), read_pid(&other, "pid"));

    std::fs::write(dir.join("code.py"), "# a save\n").unwrap();
    eventually(|| {
        std::fs::read_to_string(dir.join("pid"))
            .ok()
            .and_then(|p| p.trim().parse::<i32>().ok())
            .is_some_and(|p| p != mine_pid)
    })
    .await;
    eventually(|| ready(&host, "mine")).await;
    assert!(!alive(mine_pid), "the old run of mine survived");
    assert_eq!(
        read_pid(&other, "pid"),
        other_pid,
        "other was restarted too"
    );
    assert!(alive(other_pid), "other stopped");

    // A manifest change needs discovery: everything is reloaded.
    scripted(dir.parent().unwrap(), "mine", json!({"name": "mine"}));
    // Read tolerantly: the new run may be between truncating and writing it.
    eventually(|| {
        std::fs::read_to_string(other.join("pid"))
            .ok()
            .and_then(|p| p.trim().parse::<i32>().ok())
            .is_some_and(|p| p != other_pid)
    })
    .await;
    eventually(|| ready(&host, "mine") && ready(&host, "other")).await;
    host.shutdown().await;
}
