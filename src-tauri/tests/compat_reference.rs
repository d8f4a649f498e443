//! What extensions and tools written for the reference zot expect of the
//! real binary (docs/compat.md): `turn_end` says `end` to extensions while
//! RPC clients keep `end_turn`; a `notify` level outside the spec reaches
//! RPC clients as sent; `zot --list-models` prints the reference's table.

use zot_test_support::fixtures;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

async fn rpc_with(
    plan: Value,
) -> (
    FakeLlm,
    tempfile::TempDir,
    tempfile::TempDir,
    std::path::PathBuf,
    Rpc,
) {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ext = fixtures::agent_ext(home.path(), "fx-src", plan);
    let z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-session", "--no-ext", "-e", ext.to_str().unwrap()],
        &[],
    )
    .await;
    (s, home, cwd, ext, z)
}

/// zot-notifier plays its sound only when `turn_end` says `end`.
#[tokio::test]
async fn extensions_hear_end_where_rpc_clients_hear_end_turn() {
    let (s, _home, _cwd, ext, mut z) =
        rpc_with(json!({"subscribe": {"events": ["turn_end"]}})).await;
    s.push(anthropic_text(&["Done."]));
    let evs = z.prompt("go").await;
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "end_turn");
    fixtures::wait_seen(&ext, |v| v["event"] == "turn_end").await;
    let stops: Vec<Value> = fixtures::seen(&ext)
        .into_iter()
        .filter(|v| v["event"] == "turn_end")
        .map(|v| v["stop"].clone())
        .collect();
    assert_eq!(stops, vec![json!("end")]);
    assert!(z.close().await.success());
}

/// zot-jev's security notices use `"level":"warning"`; they were dropped.
#[tokio::test]
async fn a_warning_note_reaches_the_client_with_its_own_level_and_a_style() {
    let (_s, _home, _cwd, _ext, mut z) = rpc_with(json!({"commands": {
        "jev": {"action": "noop", "notify": true, "notify_level": "warning"}
    }}))
    .await;
    let r = z
        .call(json!({"type":"command","name":"jev","args":"blocked bash"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let notes = z.until(|v| v["type"] == "ext_notify").await;
    let note = of(&notes, "ext_notify")[0];
    assert_eq!(note["level"], "warning");
    assert_eq!(note["style"], "warn");
    assert_eq!(note["message"], "heads up: blocked bash");
    assert!(z.close().await.success());
}

/// zot-chrome-operator's bridge runs `zot --list-models` and parses the
/// table; it used to exit 2 ("unexpected argument").
#[test]
fn list_models_prints_the_reference_table_and_json() {
    let out = std::process::Command::new(bin())
        .arg("--list-models")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        [
            "provider",
            "model",
            "id",
            "context",
            "max-out",
            "reasoning",
            "source",
            "name"
        ]
    );
    assert!(
        lines.any(|l| l.starts_with("anthropic  claude-sonnet-4-5 ")),
        "{text}"
    );

    let out = std::process::Command::new(bin())
        .args(["--list-models", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let models: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let gpt = models.iter().find(|m| m["id"] == "gpt-4.1").unwrap();
    assert_eq!(gpt["provider"], "openai");
    assert_eq!(gpt["context_window"], 1_047_576);
    assert_eq!(gpt["reasoning"], false);
    assert_eq!(gpt["source"], "catalog");
}
