//! Supervision over RPC (docs/rpc.md "Supervision", #13), with the real
//! binary and a real crashing Python extension: the crash is reported
//! (`ext_error`, then `ext_restarting`), the extension comes back with its
//! tool, `ext_list` shows `restarts` and `last_exit`, and `ext_restart`
//! starts it again with a fresh budget.

use zot_test_support::fixtures;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

async fn fx(z: &mut Rpc) -> Value {
    z.call(json!({"type":"ext_list"})).await["data"]["extensions"][0].clone()
}

#[tokio::test]
async fn a_crash_is_restarted_listed_and_ext_restart_resets_the_budget() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ext = fixtures::agent_ext(
        home.path(),
        "fx-src",
        json!({"tools": {"boom": {"crash": true}}}),
    );
    s.push(anthropic_tool("", "t1", "boom", &["{}"]));
    s.push(anthropic_text(&["ok"]));
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-session", "--no-ext", "-e", ext.to_str().unwrap()],
        &[],
    )
    .await;
    let first = fx(&mut z).await;
    assert_eq!(
        (first["restarts"].clone(), first["last_exit"].clone()),
        (json!(0), Value::Null)
    );
    z.send(json!({"type":"prompt","message":"go"})).await;
    let evs = z.until(|v| v["type"] == "ext_restarting").await;
    let restarting = evs.last().unwrap();
    assert_eq!(restarting["extension"], "fx");
    assert_eq!(restarting["attempt"], 1);
    assert_eq!(restarting["delay_ms"], 500);
    assert_eq!(restarting["exit_status"], "status 3");
    assert!(
        !of(&evs, "ext_error").is_empty(),
        "the crash is still reported: {evs:#?}"
    );
    // Back after the backoff: ready, counted, with its last exit.
    let mut back = fx(&mut z).await;
    for _ in 0..300 {
        if back["state"] == "ready" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        back = fx(&mut z).await;
    }
    assert_eq!(back["state"], "ready", "{back}");
    assert_eq!(back["restarts"], 1);
    assert_eq!(back["last_exit"], "status 3");
    assert_eq!(back["tools"][0]["name"], "boom");
    let r = z.call(json!({"type":"ext_restart","name":"fx"})).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"], json!({"name":"fx","state":"ready"}));
    assert_eq!(fx(&mut z).await["restarts"], 0);
    let r = z.call(json!({"type":"ext_restart","name":"nope"})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("no extension 'nope'"),
        "{r}"
    );
    assert!(z.close().await.success());
}
