//! "Always allow" with a scope, and the remembered rules reviewed and
//! revoked, through the real binary in RPC mode (docs/rpc.md "Tool
//! approvals"): each `tool_approval` offers its scopes narrowest first;
//! `approve_tool{remember, scope}` writes that one rule; a call into zot's
//! own state offers none and cannot be remembered; `approval_rules` lists
//! what `config.json` remembers and `approval_rule_forget` revokes one, so
//! the next such call asks again.

use crate::rpc_approvals::{answer, config, script, text, until_approval};
use zot_test_support::rpc::*;

use serde_json::{json, Value};

fn scopes(ap: &Value) -> Vec<String> {
    ap["scopes"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["scope"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_folder_scope_lets_later_writes_there_run_and_forgetting_it_asks_again() {
    let e = Setup::new().await;
    let outside = tempfile::tempdir().unwrap();
    let dir = std::fs::canonicalize(outside.path()).unwrap();
    let (a, b, c) = (dir.join("a.md"), dir.join("sub/b.md"), dir.join("c.md"));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    script(&e, "t1", "write", json!({"path": a, "content": "one"}));
    script(&e, "t2", "write", json!({"path": b, "content": "two"}));
    script(&e, "t3", "write", json!({"path": c, "content": "three"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;

    let ap = until_approval(&mut z, "first").await;
    assert_eq!(scopes(&ap), ["exact", "folder", "tool"], "{ap}");
    assert_eq!(
        ap["scopes"][1]["label"],
        format!("write in {} and below", dir.display())
    );
    let r = answer(
        &mut z,
        &ap["id"],
        "allow",
        json!({"remember": true, "scope": "folder"}),
    )
    .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(
        r["data"]["remembered"],
        format!("write in {} and below", dir.display())
    );
    z.until(|v| v["type"] == "done").await;
    assert_eq!(
        config(e.home.path())["approvals"]["folders"]["write"],
        json!([dir])
    );

    // Below the folder: runs without asking.
    z.send(json!({"type":"prompt","message":"second"})).await;
    let evs = z.until(|v| v["type"] == "done").await;
    assert!(of(&evs, "tool_approval").is_empty(), "asked again");
    assert_eq!(std::fs::read_to_string(&b).unwrap(), "two");

    // The Permissions page's list, then Revoke.
    let listed = z.call(json!({"type":"approval_rules"})).await;
    let rules = listed["data"]["rules"].clone();
    assert_eq!(rules.as_array().unwrap().len(), 1, "{rules}");
    assert_eq!(rules[0]["kind"], "folder");
    assert_eq!(rules[0]["tool"], "write");
    let forget = json!({"type":"approval_rule_forget","rule": rules[0]});
    let left = z.call(forget.clone()).await;
    assert_eq!(left["success"], true, "{left}");
    assert_eq!(left["data"]["rules"], json!([]));
    // Forgetting it twice says it is gone, and how to see what is there.
    let again = z.call(forget).await;
    assert_eq!(again["success"], false);
    assert!(
        again["error"].as_str().unwrap().contains("approval_rules"),
        "{again}"
    );

    // The next write there asks again.
    let ap = until_approval(&mut z, "third").await;
    assert_eq!(ap["call_id"], "t3");
    answer(&mut z, &ap["id"], "deny", json!({})).await;
    let evs = z.until(|v| v["type"] == "done").await;
    assert!(text(of(&evs, "tool_result")[0]).contains("denied"));
    assert!(!c.exists());
}

#[tokio::test]
async fn a_prefix_scope_remembers_program_and_subcommand_and_an_unoffered_scope_is_refused() {
    let e = Setup::new().await;
    script(&e, "t1", "bash", json!({"command": "git status --short"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "go").await;
    assert_eq!(scopes(&ap), ["exact", "prefix", "tool"], "{ap}");
    assert_eq!(
        ap["scopes"][1]["label"],
        "bash commands matching \"git status *\""
    );
    let r = answer(
        &mut z,
        &ap["id"],
        "allow",
        json!({"remember": true, "scope": "folder"}),
    )
    .await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("offers exact, prefix, tool"),
        "{r}"
    );
    let r = answer(&mut z, &ap["id"], "allow", json!({"scope": "prefix"})).await;
    assert!(
        r["error"].as_str().unwrap().contains("need \"remember\""),
        "{r}"
    );
    let r = answer(
        &mut z,
        &ap["id"],
        "allow",
        json!({"remember": true, "scope": "prefix"}),
    )
    .await;
    assert_eq!(r["success"], true, "{r}");
    z.until(|v| v["type"] == "done").await;
    assert_eq!(
        config(e.home.path())["approvals"]["bash"],
        json!(["git status *"])
    );
}

#[tokio::test]
async fn a_read_of_zots_own_state_offers_no_scope_and_cannot_be_remembered() {
    let e = Setup::new().await;
    script(&e, "t1", "read", json!({"path": "/proc/self/environ"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "go").await;
    assert!(ap.get("scopes").is_none(), "{ap}");
    let r = answer(&mut z, &ap["id"], "allow", json!({"remember": true})).await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("can only be allowed once"),
        "{r}"
    );
    // Still waiting: a plain answer is taken.
    let r = answer(&mut z, &ap["id"], "deny", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    z.until(|v| v["type"] == "done").await;
    assert!(!e.home.path().join("config.json").exists());
}
