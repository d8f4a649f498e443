//! Project trust in RPC mode (docs/rpc.md "Project trust"), with the real
//! binary and real fixture extensions: an untrusted project's extensions
//! are listed `untrusted` and never run, `project_untrusted` comes once
//! after `ready`, `trust_project` starts them (their command then works),
//! `untrust_project` stops them, `--trust-project` trusts for one run, and
//! a `..` or symlinked `--cwd` is keyed by the folder it names.

use zot_test_support::fixtures;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

struct Env {
    s: FakeLlm,
    home: tempfile::TempDir,
    cwd: tempfile::TempDir,
    /// The project's extension.
    local: PathBuf,
}

async fn env() -> Env {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let local = fixtures::agent_ext(
        &cwd.path().join(".zot/extensions"),
        "local",
        json!({"name": "local", "commands": {"hi": {"action": "display", "display": "hi from the project"}}}),
    );
    Env {
        s,
        home,
        cwd,
        local,
    }
}

async fn start_in(e: &Env, cwd: &Path, extra: &[&str]) -> Rpc {
    let mut args = vec!["--no-session"];
    args.extend_from_slice(extra);
    Rpc::against(&e.s, e.home.path(), cwd, &args, &[]).await
}

fn ext_state(list: &Value, name: &str) -> String {
    list["data"]["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == name)
        .map(|x| x["state"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| panic!("{name} not listed: {list}"))
}

/// Whether the fixture process ever ran (it records every frame it gets).
fn ran(dir: &Path) -> bool {
    dir.join("seen.jsonl").exists()
}

fn trust_file(e: &Env) -> PathBuf {
    e.home.path().join("trust.json")
}

#[tokio::test]
async fn an_untrusted_project_waits_and_trust_project_starts_its_extension() {
    let e = env().await;
    let mut z = start_in(&e, e.cwd.path(), &[]).await;
    // Once, after ready, before session_start.
    let first = z.until(|v| v["type"] == "session_start").await;
    let ev = of(&first, "project_untrusted");
    assert_eq!(ev.len(), 1, "{first:#?}");
    let canon = std::fs::canonicalize(e.cwd.path()).unwrap();
    assert_eq!(ev[0]["dir"], json!(canon));
    assert_eq!(ev[0]["extensions"], json!(["local"]));
    let exec = ev[0]["details"][0]["exec"].as_str().unwrap();
    assert!(
        exec.ends_with("agent_ext.py") && !exec.contains("/./"),
        "{exec}"
    );

    assert_eq!(
        ext_state(&z.call(json!({"type":"ext_list"})).await, "local"),
        "untrusted"
    );
    assert!(!ran(&e.local), "an untrusted extension was spawned");
    let r = z.call(json!({"type":"command","name":"hi"})).await;
    assert_eq!(r["success"], false, "{r}");

    let r = z
        .call(json!({"type":"trust_project","remember":true}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["started"], json!(["local"]));
    assert_eq!(
        ext_state(&z.call(json!({"type":"ext_list"})).await, "local"),
        "ready"
    );
    let r = z.call(json!({"type":"command","name":"hi"})).await;
    assert_eq!(r["data"]["display"], "hi from the project", "{r}");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(trust_file(&e)).unwrap()).unwrap();
    assert_eq!(saved["trusted"], json!([canon]));
    let st = z.call(json!({"type":"trust_status"})).await;
    assert_eq!(st["data"]["trusted"], true);
    assert_eq!(st["data"]["trusted_dirs"], json!([canon]));

    let r = z.call(json!({"type":"untrust_project"})).await;
    assert_eq!(r["data"]["stopped"], json!(["local"]), "{r}");
    assert_eq!(
        ext_state(&z.call(json!({"type":"ext_list"})).await, "local"),
        "untrusted"
    );
    assert!(
        !trust_file(&e).exists()
            || std::fs::read_to_string(trust_file(&e))
                .unwrap()
                .contains("[]")
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_remembered_project_runs_at_once_and_says_nothing() {
    let e = env().await;
    let out = command(e.home.path(), e.cwd.path(), &["ext", "trust"])
        .output()
        .await
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut z = start_in(&e, e.cwd.path(), &[]).await;
    let first = z.until(|v| v["type"] == "session_start").await;
    assert!(of(&first, "project_untrusted").is_empty(), "{first:#?}");
    assert_eq!(
        ext_state(&z.call(json!({"type":"ext_list"})).await, "local"),
        "ready"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn trust_project_flag_trusts_for_one_run_only() {
    let e = env().await;
    let mut z = start_in(&e, e.cwd.path(), &["--trust-project"]).await;
    let first = z.until(|v| v["type"] == "session_start").await;
    assert!(of(&first, "project_untrusted").is_empty(), "{first:#?}");
    assert_eq!(
        ext_state(&z.call(json!({"type":"ext_list"})).await, "local"),
        "ready"
    );
    assert!(z.close().await.success());
    assert!(
        !trust_file(&e).exists(),
        "--trust-project must not remember"
    );
}

#[tokio::test]
async fn a_corrupt_trust_file_is_reported_once_and_rewritten_on_trust() {
    let e = env().await;
    let canon = std::fs::canonicalize(e.cwd.path()).unwrap();
    std::fs::write(
        trust_file(&e),
        format!("{{\"trusted\":[{:?}", canon.display().to_string()),
    )
    .unwrap();
    let mut z = start_in(&e, e.cwd.path(), &[]).await;
    let first = z.until(|v| v["type"] == "session_start").await;
    let errors: Vec<&Value> = of(&first, "error");
    assert_eq!(errors.len(), 1, "{first:#?}");
    let msg = errors[0]["message"].as_str().unwrap();
    assert!(
        msg.contains(&trust_file(&e).display().to_string()) && msg.contains("corrupt"),
        "{msg}"
    );
    assert_eq!(of(&first, "project_untrusted").len(), 1);
    // A reload reads the file again but does not repeat the message.
    z.call(json!({"type":"command","name":"reload-ext"})).await;
    let r = z
        .call(json!({"type":"trust_project","remember":true}))
        .await;
    assert_eq!(r["data"]["started"], json!(["local"]), "{r}");
    let reports = z
        .log
        .iter()
        .filter(|v| {
            v["type"] == "error" && v["message"].as_str().unwrap_or("").contains("trust file")
        })
        .count();
    assert_eq!(
        reports, 1,
        "the broken file was reported more than once: {:#?}",
        z.log
    );
    assert!(z.close().await.success());
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(trust_file(&e)).unwrap()).unwrap();
    assert_eq!(saved["trusted"], json!([canon]));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(trust_file(&e))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[tokio::test]
async fn a_dotdot_or_symlinked_cwd_is_keyed_by_the_folder_it_names() {
    let e = env().await;
    // Trusted through a `..` path: stored as the canonical folder.
    let dotdot = e.cwd.path().join(".zot/..");
    let mut z = start_in(&e, e.home.path(), &["--cwd", dotdot.to_str().unwrap()]).await;
    let r = z
        .call(json!({"type":"trust_project","remember":true}))
        .await;
    assert_eq!(r["data"]["started"], json!(["local"]), "{r}");
    assert!(z.close().await.success());
    let canon = std::fs::canonicalize(e.cwd.path()).unwrap();
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(trust_file(&e)).unwrap()).unwrap();
    assert_eq!(saved["trusted"], json!([canon]));

    // Another project reached through a symlink placed inside the trusted
    // one does not borrow its trust.
    let other = tempfile::tempdir().unwrap();
    let evil = fixtures::agent_ext(
        &other.path().join(".zot/extensions"),
        "evil",
        json!({"name":"evil"}),
    );
    let link = e.cwd.path().join("vendor-link");
    std::os::unix::fs::symlink(other.path(), &link).unwrap();
    let mut z = start_in(&e, e.home.path(), &["--cwd", link.to_str().unwrap()]).await;
    let first = z.until(|v| v["type"] == "session_start").await;
    assert_eq!(
        of(&first, "project_untrusted")[0]["extensions"],
        json!(["evil"])
    );
    assert_eq!(
        ext_state(&z.call(json!({"type":"ext_list"})).await, "evil"),
        "untrusted"
    );
    assert!(!ran(&evil));
    assert!(z.close().await.success());
}

#[tokio::test]
async fn bad_trust_commands_say_what_was_wrong() {
    let e = env().await;
    let mut z = start_in(&e, e.cwd.path(), &[]).await;
    let r = z
        .call(json!({"type":"trust_project","remember":"yes"}))
        .await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("bad trust_project command"),
        "{r}"
    );
    let r = z.call(json!({"type":"untrust_project","dir":""})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("\"dir\" is empty"),
        "{r}"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn an_extension_the_model_plants_in_a_trusted_project_does_not_run_after_reload() {
    let e = env().await;
    // The user trusted this project and its extension `local`.
    let out = command(e.home.path(), e.cwd.path(), &["ext", "trust"])
        .output()
        .await
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let marker = e.cwd.path().join("planted-ran");
    // A prompt-injected model writes a new extension into .zot/extensions
    // (approvals are `auto` in RPC mode, and .zot is inside the project).
    let script = format!(
        "#!/bin/sh\necho ran > '{}'\nprintf '%s\\n' '{{\"type\":\"hello\",\"name\":\"x\"}}'\nexec sleep 60\n",
        marker.display()
    );
    let files = [
        (
            ".zot/extensions/x/extension.json",
            r#"{"name":"x","exec":"./run.sh"}"#.to_owned(),
        ),
        (".zot/extensions/x/run.sh", script),
    ];
    for (i, (path, content)) in files.iter().enumerate() {
        let args = json!({"path": path, "content": content});
        e.s.push(anthropic_tool(
            "",
            &format!("w{i}"),
            "write",
            &[&args.to_string()],
        ));
    }
    // The script must be executable for a later start; the model's bash.
    let chmod = json!({"command": "chmod +x .zot/extensions/x/run.sh"});
    e.s.push(anthropic_tool("", "c", "bash", &[&chmod.to_string()]));
    e.s.push(anthropic_text(&["done"]));
    let mut z = start_in(&e, e.cwd.path(), &[]).await;
    z.until(|v| v["type"] == "session_start").await;
    z.prompt("set things up").await;
    assert!(e.cwd.path().join(".zot/extensions/x/run.sh").is_file());
    let r = z.call(json!({"type":"command","name":"reload-ext"})).await;
    assert_eq!(r["success"], true, "{r}");
    let list = z.call(json!({"type":"ext_list"})).await;
    assert_eq!(ext_state(&list, "x"), "untrusted", "{list}");
    assert_eq!(ext_state(&list, "local"), "ready", "{list}");
    assert!(!marker.exists(), "the planted extension ran");
    // The banner's event lists it, marked new in a trusted project.
    let st = z.call(json!({"type":"trust_status"})).await;
    assert_eq!(st["data"]["trusted"], true, "{st}");
    let waiting = st["data"]["extensions"].as_array().unwrap();
    assert_eq!(waiting.len(), 1, "{st}");
    assert_eq!(waiting[0]["name"], "x");
    assert_eq!(waiting[0]["new"], true);
    assert!(z.close().await.success());
}
