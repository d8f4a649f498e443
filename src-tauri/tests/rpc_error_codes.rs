//! Every failed response carries a `code` beside its `error` (docs/rpc.md
//! "Commands"): `invalid` for a malformed line or field, `not_found` for a
//! name that is not there, `denied` for a missing token, `busy` for what
//! must wait. Driven through the real binary in RPC mode.

use zot_test_support::rpc::*;

use serde_json::{json, Value};

fn code(r: &Value) -> &str {
    assert_eq!(r["success"], false, "{r}");
    assert!(r["error"].as_str().is_some_and(|e| !e.is_empty()), "{r}");
    r["code"].as_str().unwrap_or_else(|| panic!("no code: {r}"))
}

#[tokio::test]
async fn failures_say_their_kind() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let mut z = Rpc::start(home.path(), cwd.path(), &["--no-ext", "--no-session"], &[]).await;

    z.send_raw("{not json").await;
    let r = z.until(|v| v["type"] == "response").await.pop().unwrap();
    assert_eq!(code(&r), "invalid");
    let r = z.call(json!({"type":"no_such_command"})).await;
    assert_eq!(code(&r), "invalid");
    let r = z.call(json!({"type":"set_model","model":" "})).await;
    assert_eq!(code(&r), "invalid");
    let r = z
        .call(json!({"type":"panel_resize","panel_id":"p","cols":0,"rows":3}))
        .await;
    assert_eq!(code(&r), "invalid");

    let r = z
        .call(json!({"type":"panel_close","panel_id":"nope"}))
        .await;
    assert_eq!(code(&r), "not_found");
    let r = z
        .call(json!({"type":"command","name":"no-such-command"}))
        .await;
    assert_eq!(code(&r), "not_found");
    let r = z
        .call(json!({"type":"approve_tool","id":"a1","decision":"allow"}))
        .await;
    assert_eq!(code(&r), "not_found");
    let r = z
        .call(json!({"type":"ui_respond","request_id":"r1","action":"cancel"}))
        .await;
    assert_eq!(code(&r), "not_found");

    // A success has no code.
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(r["success"], true);
    assert!(r.get("code").is_none(), "{r}");
    z.close().await;
}

#[tokio::test]
async fn a_missing_token_is_denied() {
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session"],
        &[("ZOT_RPC_TOKEN", "s3cret")],
    )
    .await;
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(code(&r), "denied");
    let r = z.call(json!({"type":"hello","token":"guess"})).await;
    assert_eq!(code(&r), "denied");
    z.close().await;
}
