//! Permissions in RPC mode (docs/protocol.md "Permissions"), with the real
//! binary and a real fixture extension: `ext_list` shows the grant and
//! the refusals; an installed extension whose manifest now asks for more
//! than was accepted is `failed` with an error saying what it asks for and
//! how to accept, never runs, and runs after `zot ext accept` + a reload.

use zot_test_support::fixtures;

use std::path::Path;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn entry(list: &Value, name: &str) -> Value {
    list["data"]["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} not listed: {list}"))
}

fn set_permissions(dir: &Path, permissions: Value) {
    let file = dir.join("extension.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    m["permissions"] = permissions;
    std::fs::write(&file, m.to_string()).unwrap();
}

#[tokio::test]
async fn an_update_asking_for_more_is_failed_until_accepted() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let dir = fixtures::agent_ext(
        &home.path().join("extensions"),
        "grow",
        json!({"name": "grow", "commands": {"hi": {"action": "display", "display": "hi"}}}),
    );
    set_permissions(&dir, json!(["commands"]));
    let args = ["--no-session"];

    // First run: it asks for `commands` (and shows a note, refused).
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    let e = entry(&z.call(json!({"type":"ext_list"})).await, "grow");
    assert_eq!(e["state"], "ready", "{e}");
    assert_eq!(e["permissions"], json!(["commands"]));
    let r = z.call(json!({"type":"command","name":"hi"})).await;
    // Its `display` is refused: the command says why, nothing is shown.
    assert!(r.to_string().contains("notes"), "{r}");
    assert!(r["data"]["display"].is_null(), "{r}");
    let e = entry(&z.call(json!({"type":"ext_list"})).await, "grow");
    assert_eq!(e["refused"]["notes"], 1, "{e}");
    assert!(z.close().await.success());

    // The update asks to submit prompts too: not started.
    set_permissions(&dir, json!(["commands", "notes", "submit"]));
    std::fs::remove_file(dir.join("seen.jsonl")).ok();
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    let e = entry(&z.call(json!({"type":"ext_list"})).await, "grow");
    assert_eq!(e["state"], "failed", "{e}");
    assert_eq!(e["unaccepted"], json!(["notes", "submit"]));
    let err = e["error"].as_str().unwrap();
    assert!(
        err.contains("submit (can submit prompts to the agent at any time)")
            && err.contains("zot ext accept grow"),
        "{err}"
    );
    assert!(!dir.join("seen.jsonl").exists(), "it ran");

    // Accepted (as the CLI does), then a reload starts it.
    zot_ext_host::consent::accept(home.path(), cwd.path(), "grow").unwrap();
    let r = z
        .call(json!({"type":"command","name":"reload-ext","args":""}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let e = entry(&z.call(json!({"type":"ext_list"})).await, "grow");
    assert_eq!(e["state"], "ready", "{e}");
    let r = z.call(json!({"type":"command","name":"hi"})).await;
    assert_eq!(r["data"]["display"], "hi", "{r}");
    assert!(z.close().await.success());
}
