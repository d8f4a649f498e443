//! `ext_update` and `ext_rollback` over RPC with the real binary and a
//! real fixture extension installed from a folder: `ext_list` shows the
//! source, a check changes nothing, an update runs the new copy at once
//! (the reload), a rollback runs the old one, and a name that cannot be
//! updated is an error naming it. The daily background check runs only
//! when Settings turned it on, and at most once a day.

use zot_test_support::fixtures;
use zot_test_support::fixtures::git;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn entry(r: &Value, name: &str) -> Value {
    r["data"]["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} not in {r}"))
}

fn set_version(dir: &std::path::Path, v: &str) {
    let path = dir.join("extension.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    m["version"] = v.into();
    std::fs::write(&path, m.to_string()).unwrap();
}

/// `fx` installed from a folder in the project (its source, returned), and
/// zot in RPC mode with discovery on.
async fn fx_installed() -> (Setup, std::path::PathBuf, Rpc) {
    let zot = Setup::new().await;
    let src = fixtures::agent_ext(zot.cwd.path(), "fx-src", json!({"name": "fx"}));
    let out = command(
        zot.home.path(),
        zot.cwd.path(),
        &["ext", "install", src.to_str().unwrap()],
    )
    .output()
    .await
    .unwrap();
    assert!(out.status.success(), "{out:?}");
    let z = zot.rpc_with(&["--no-session"], &[]).await;
    (zot, src, z)
}

#[tokio::test]
async fn ext_update_checks_updates_and_ext_rollback_puts_the_old_copy_back_running() {
    let (_zot, src, mut z) = fx_installed().await;

    let x = entry(&z.call(json!({"type":"ext_list"})).await, "fx");
    assert_eq!(x["source"]["kind"], "folder", "{x}");
    assert_eq!(x["source"]["version"], "0.1.0");

    let r = z
        .call(json!({"type":"ext_update","name":"fx","check":true}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["updates"], json!([]), "nothing new yet: {r}");

    set_version(&src, "0.2.0");
    let r = z.call(json!({"type":"ext_update","check":true})).await;
    assert_eq!(r["data"]["updates"][0]["name"], "fx", "{r}");
    assert_eq!(r["data"]["updates"][0]["from"], "0.1.0");
    assert_eq!(r["data"]["updates"][0]["to"], "0.2.0");
    assert_eq!(r["data"]["updates"][0]["installed"], false);
    assert_eq!(
        entry(&z.call(json!({"type":"ext_list"})).await, "fx")["version"],
        "0.1.0"
    );

    let r = z.call(json!({"type":"ext_update","name":"fx"})).await;
    assert_eq!(r["command"], "ext_update", "{r}");
    assert_eq!(r["data"]["updates"][0]["installed"], true, "{r}");
    let x = entry(&z.call(json!({"type":"ext_list"})).await, "fx");
    assert_eq!(x["version"], "0.2.0", "{x}");
    assert_eq!(x["state"], "ready", "the reload runs the new copy: {x}");

    let r = z.call(json!({"type":"ext_rollback","name":"fx"})).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["from"], "0.2.0");
    assert_eq!(r["data"]["to"], "0.1.0");
    let x = entry(&z.call(json!({"type":"ext_list"})).await, "fx");
    assert_eq!(x["version"], "0.1.0", "{x}");
    assert_eq!(x["state"], "ready", "{x}");

    let r = z.call(json!({"type":"ext_update","name":"ghost"})).await;
    assert_eq!(r["success"], false, "{r}");
    assert!(r["error"].as_str().unwrap().contains("ghost"), "{r}");
    let r = z
        .call(json!({"type":"ext_rollback","name":"fx-none"}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("no earlier copy"),
        "{r}"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_git_source_lists_its_commits_and_a_rewritten_remote_is_an_error_that_changes_nothing() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let repo = fixtures::agent_ext(cwd.path(), "fx-repo", json!({"name": "gx"}));
    git(&repo, &["-c", "init.defaultBranch=main", "init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-qm", "first"]);
    let url = format!("file://{}", repo.display());
    let out = command(home.path(), cwd.path(), &["ext", "install", &url])
        .output()
        .await
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let args = ["--no-session"];
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    assert_eq!(
        entry(&z.call(json!({"type":"ext_list"})).await, "gx")["source"]["kind"],
        "git"
    );

    set_version(&repo, "0.3.0");
    git(&repo, &["commit", "-qam", "bump to 0.3.0"]);
    let r = z
        .call(json!({"type":"ext_update","name":"gx","check":true}))
        .await;
    let u = &r["data"]["updates"][0];
    assert_eq!(u["from"], "0.1.0", "{r}");
    assert_eq!(u["to"], "0.3.0");
    assert!(
        u["changes"][0].as_str().unwrap().ends_with("bump to 0.3.0"),
        "{r}"
    );

    git(&repo, &["reset", "-q", "--hard", "HEAD~1"]);
    set_version(&repo, "0.4.0");
    git(&repo, &["commit", "-qa", "--amend", "-m", "rewritten"]);
    let r = z.call(json!({"type":"ext_update","name":"gx"})).await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("was rewritten"),
        "{r}"
    );
    let x = entry(&z.call(json!({"type":"ext_list"})).await, "gx");
    assert_eq!(x["version"], "0.1.0", "nothing changed: {x}");
    assert_eq!(x["state"], "ready");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn the_daily_check_is_refused_when_off_and_runs_once_then_answers_what_it_found() {
    let (zot, src, mut z) = fx_installed().await;

    // Off by default: the background check never runs.
    let r = z.call(json!({"type":"ext_update","daily":true})).await;
    assert_eq!(r["success"], false, "{r}");
    assert!(r["error"].as_str().unwrap().contains("Settings"), "{r}");
    assert!(!zot.home.path().join("update-check.json").exists());

    std::fs::write(
        zot.home.path().join("config.json"),
        json!({"update_check": true}).to_string(),
    )
    .unwrap();
    set_version(&src, "0.2.0");
    let r = z.call(json!({"type":"ext_update","daily":true})).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["updates"][0]["to"], "0.2.0", "{r}");
    let at = r["data"]["checked_at"].as_u64().unwrap();
    let kept: Value = serde_json::from_str(
        &std::fs::read_to_string(zot.home.path().join("update-check.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(kept["checked_at"], at);

    // Within the day nothing is asked again: a newer version is not seen
    // until the next check, and the answer is the one remembered.
    set_version(&src, "0.3.0");
    let r = z.call(json!({"type":"ext_update","daily":true})).await;
    assert_eq!(r["data"]["checked_at"], at, "{r}");
    assert_eq!(r["data"]["updates"][0]["to"], "0.2.0", "{r}");
    // It installed nothing.
    assert_eq!(
        entry(&z.call(json!({"type":"ext_list"})).await, "fx")["version"],
        "0.1.0"
    );
    // An update made forgets what the check remembered of it.
    let r = z.call(json!({"type":"ext_update","name":"fx"})).await;
    assert_eq!(r["success"], true, "{r}");
    let r = z.call(json!({"type":"ext_update","daily":true})).await;
    assert_eq!(r["data"]["updates"], json!([]), "{r}");
    assert!(z.close().await.success());
}
