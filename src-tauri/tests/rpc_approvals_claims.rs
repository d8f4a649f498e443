//! What an extension says about its tools is a claim, not a grant, and what
//! the user allowed for one extension is not allowed for another
//! (docs/security.md "Tool approvals"), through the real binary in RPC
//! mode with real fixture extensions: a tool its extension marks read-only
//! is still asked about under `--approvals ask` (the event says it is the
//! extension's claim) until the user trusts that extension's claims in
//! `config.json`; "always allow" for an extension's tool is remembered
//! under that extension, so another extension offering a tool of the same
//! name is asked about, and so is one that an old plain rule names.

use zot_test_support::fixtures;

use std::path::Path;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

async fn start(s: &FakeLlm, home: &Path, cwd: &Path, ext: &Path) -> Rpc {
    Rpc::against(
        s,
        home,
        cwd,
        &[
            "--no-session",
            "--no-ext",
            "--approvals",
            "ask",
            "-e",
            ext.to_str().unwrap(),
        ],
        &[],
    )
    .await
}

/// A fixture extension `name` offering `lookup` (echoing its args).
fn lookup_ext(parent: &Path, name: &str, read_only: bool) -> std::path::PathBuf {
    fixtures::agent_ext(
        parent,
        name,
        json!({"name": name, "tools": {"lookup": {
            "description": "looks things up", "schema": {"type": "object"},
            "echo": true, "read_only": read_only}}}),
    )
}

fn script_lookup(s: &FakeLlm, id: &str) {
    s.push(anthropic_tool("", id, "lookup", &[r#"{"q":1}"#]));
    s.push(anthropic_text(&["ok"]));
}

fn config(home: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(home.join("config.json")).unwrap()).unwrap()
}

/// Sends a prompt; returns its `tool_approval`, or `None` when the prompt
/// ended without one.
async fn approval_or_done(z: &mut Rpc, prompt: &str) -> Option<Value> {
    z.send(json!({"type": "prompt", "message": prompt})).await;
    let evs = z
        .until(|v| v["type"] == "tool_approval" || v["type"] == "done")
        .await;
    evs.last().filter(|v| v["type"] == "tool_approval").cloned()
}

async fn answer(z: &mut Rpc, ap: &Value, decision: &str, remember: bool) {
    let from = z.log.len();
    z.send_raw(
        &json!({"type": "approve_tool", "id": ap["id"], "decision": decision, "remember": remember})
            .to_string(),
    )
    .await;
    let r = z
        .find_from(from, |v| {
            v["type"] == "response" && v["command"] == "approve_tool"
        })
        .await;
    assert_eq!(r["success"], true, "{r}");
    z.until(|v| v["type"] == "done").await;
}

#[tokio::test]
async fn a_read_only_claim_is_asked_about_until_the_user_trusts_that_extension() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ext = lookup_ext(home.path(), "claims", true);
    script_lookup(&s, "t1");
    script_lookup(&s, "t2");
    let mut z = start(&s, home.path(), cwd.path(), &ext).await;

    let ap = approval_or_done(&mut z, "first")
        .await
        .expect("a read-only claim skipped approval");
    assert_eq!(ap["extension"], "claims");
    assert_eq!(ap["read_only_claim"], true, "{ap}");
    let reason = ap["reason"].as_str().unwrap();
    assert!(reason.contains("says it only reads"), "{reason}");
    assert!(
        reason.contains("approvals.extensions.claims.trust_read_only"),
        "{reason}"
    );
    answer(&mut z, &ap, "deny", false).await;

    // The user trusts this extension's claims (config.json is read at each
    // call): its read-only tool now runs without a question.
    std::fs::write(
        home.path().join("config.json"),
        json!({"approvals": {"extensions": {"claims": {"trust_read_only": true}}}}).to_string(),
    )
    .unwrap();
    assert_eq!(approval_or_done(&mut z, "second").await, None);
    let res = of(&z.log, "tool_result");
    assert_eq!(res.last().unwrap()["is_error"], false, "{res:?}");
}

#[tokio::test]
async fn trusting_one_extension_leaves_another_ones_claims_asked_about() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(
        home.path().join("config.json"),
        json!({"approvals": {"extensions": {"trusted": {"trust_read_only": true}}}}).to_string(),
    )
    .unwrap();
    let ext = lookup_ext(home.path(), "other", true);
    script_lookup(&s, "t1");
    let mut z = start(&s, home.path(), cwd.path(), &ext).await;
    let ap = approval_or_done(&mut z, "go").await.expect("not asked");
    assert_eq!(ap["extension"], "other");
    answer(&mut z, &ap, "deny", false).await;
}

#[tokio::test]
async fn always_allow_is_remembered_per_extension_and_a_same_named_tool_is_asked_about() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let good = lookup_ext(home.path(), "good", false);
    let evil = lookup_ext(home.path(), "evil", false);
    script_lookup(&s, "t1");
    script_lookup(&s, "t2");
    let mut z = start(&s, home.path(), cwd.path(), &good).await;
    let ap = approval_or_done(&mut z, "first").await.expect("not asked");
    assert_eq!(
        ap["remember"], "every call of lookup from extension good",
        "{ap}"
    );
    answer(&mut z, &ap, "allow", true).await;
    let c = config(home.path());
    assert_eq!(
        c["approvals"]["extensions"]["good"]["tools"]["lookup"], "allow",
        "{c}"
    );
    assert!(c["approvals"]["tools"].get("lookup").is_none(), "{c}");
    assert_eq!(approval_or_done(&mut z, "again").await, None);
    drop(z);

    // Another extension offering `lookup` is not allowed by good's rule.
    script_lookup(&s, "t3");
    let mut z = start(&s, home.path(), cwd.path(), &evil).await;
    let ap = approval_or_done(&mut z, "third")
        .await
        .expect("evil's lookup ran unasked");
    assert_eq!(ap["extension"], "evil");
    answer(&mut z, &ap, "deny", false).await;
    drop(z);

    // Nor by a plain rule an older zot remembered: it still reads (no
    // broken-section error), allows no extension tool and says why.
    std::fs::write(
        home.path().join("config.json"),
        json!({"approvals": {"tools": {"lookup": "allow"}}}).to_string(),
    )
    .unwrap();
    script_lookup(&s, "t4");
    let mut z = start(&s, home.path(), cwd.path(), &evil).await;
    z.call(json!({"type": "ping"})).await;
    assert!(of(&z.log, "error").is_empty(), "{:#?}", z.log);
    let ap = approval_or_done(&mut z, "fourth")
        .await
        .expect("a plain rule let it in");
    assert!(
        ap["reason"]
            .as_str()
            .unwrap()
            .contains("built-in tools only"),
        "{ap}"
    );
    answer(&mut z, &ap, "deny", false).await;
}
