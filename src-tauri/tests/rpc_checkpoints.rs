//! Checkpoints and rewind through the real binary in RPC mode (docs/rpc.md
//! "Checkpoints and rewind"): a checkpoint before each prompt covers what
//! `bash` and `edit` changed; `rewind` restores the files, truncates the
//! conversation (also after a restart), and is itself undoable; the
//! preview names files changed outside zot; the project's own git
//! repository is untouched (status, refs, stash, index); and the bad
//! inputs: a rewind while a prompt runs, an unknown checkpoint, a project
//! over the size limit (the prompt still runs).

use zot_test_support::fixtures::git;

use std::path::Path;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

/// Everything about the user's repository a checkpoint must not change:
/// status, refs, stash, and what the index stages (its entries; the stat
/// cache in it is refreshed by this very `git status` once zot's tools
/// changed files, which is git's doing, not zot's).
fn user_git(p: &Path) -> (String, String, String, String) {
    (
        git(p, &["status", "--porcelain", "--untracked-files=all"]),
        git(p, &["for-each-ref"]),
        git(p, &["stash", "list"]),
        git(p, &["ls-files", "--stage"]),
    )
}

fn read(p: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(p.join(rel)).ok()
}

/// A project that is a git repository with a commit, a staged change, a
/// stash entry and an untracked file.
fn project(p: &Path) {
    git(p, &["init", "-q"]);
    std::fs::write(p.join("a.txt"), "one\n").unwrap();
    std::fs::write(p.join("b.txt"), "bee\n").unwrap();
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "init"]);
    std::fs::write(p.join("b.txt"), "stashed\n").unwrap();
    git(p, &["stash", "-q"]);
    std::fs::write(p.join("staged.txt"), "s\n").unwrap();
    git(p, &["add", "staged.txt"]);
    std::fs::write(p.join("untracked.txt"), "u\n").unwrap();
}

fn args(url: &str) -> Vec<&str> {
    vec!["--base-url", url, "--api-key", "k", "--no-ext"]
}

fn checkpoints(v: &Value) -> Vec<Value> {
    v["data"]["checkpoints"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn strings(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn bash_and_edit_are_rewound_the_conversation_truncated_and_the_users_git_untouched() {
    let s = FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let p = cwd.path();
    project(p);
    let before = user_git(p);
    let mut z = Rpc::start(home.path(), p, &args(&s.url), &[]).await;

    s.push(anthropic_text(&["nothing to do"]));
    z.prompt("first").await;

    let edit = json!({"path":"a.txt","old_string":"one","new_string":"two"});
    s.push(anthropic_tool("", "t1", "edit", &[&edit.to_string()]));
    let bash = json!({"command":"echo made > script.txt && rm b.txt"});
    s.push(anthropic_tool("", "t2", "bash", &[&bash.to_string()]));
    s.push(anthropic_text(&["done"]));
    let evs = z.prompt("change things").await;
    assert!(of(&evs, "error").is_empty(), "{evs:#?}");
    assert_eq!(read(p, "a.txt").as_deref(), Some("two\n"));
    assert_eq!(read(p, "script.txt").as_deref(), Some("made\n"));
    assert!(!p.join("b.txt").exists());

    let list = z.call(json!({"type":"checkpoints"})).await;
    assert_eq!(list["success"], true, "{list}");
    let cps = checkpoints(&list);
    assert_eq!(cps.len(), 2, "{list}");
    assert_eq!(cps[0]["message_index"], 0);
    let msgs = z.call(json!({"type":"get_messages"})).await;
    let second = cps[1]["message_index"].as_u64().unwrap() as usize;
    assert_eq!(
        msgs["data"]["messages"][second]["content"][0]["text"],
        "change things"
    );
    assert_eq!(cps[1]["files_changed"], 3, "{list}");
    assert!(cps[1]["created_at"].as_str().unwrap().contains('T'));
    let cp = cps[1]["id"].as_str().unwrap().to_owned();

    // The user edits a file between prompts: the preview says so.
    std::fs::write(p.join("mine.txt"), "my own work\n").unwrap();
    let pre = z
        .call(json!({"type":"checkpoint_preview","checkpoint":cp}))
        .await;
    assert_eq!(pre["success"], true, "{pre}");
    let files = pre["data"]["files"].as_array().unwrap();
    let find = |path: &str| files.iter().find(|f| f["path"] == path).cloned().unwrap();
    assert_eq!(find("mine.txt")["outside"], true, "{pre}");
    assert_eq!(find("mine.txt")["change"], "deleted");
    assert_eq!(find("a.txt")["outside"], false);
    assert_eq!(find("a.txt")["now"], "two\n");
    assert_eq!(find("a.txt")["then"], "one\n");
    assert_eq!(find("b.txt")["change"], "added");
    assert_eq!(pre["data"]["outside"], 1);
    assert_eq!(
        read(p, "a.txt").as_deref(),
        Some("two\n"),
        "a preview changes nothing"
    );

    let r = z
        .call(json!({"type":"rewind","checkpoint":cp,"scope":"both"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(
        strings(&r["data"]["files"]),
        ["a.txt", "b.txt", "mine.txt", "script.txt"]
    );
    assert_eq!(r["data"]["messages"], second);
    assert_eq!(read(p, "a.txt").as_deref(), Some("one\n"));
    assert_eq!(read(p, "b.txt").as_deref(), Some("bee\n"));
    assert!(!p.join("script.txt").exists());
    let msgs = z.call(json!({"type":"get_messages"})).await;
    assert_eq!(msgs["data"]["messages"].as_array().unwrap().len(), second);
    assert_eq!(user_git(p), before, "the user's repository is untouched");
    assert!(!p.join(".git/refs/zot").exists());

    // The rewind of code is undoable, the user's own file included.
    let undo = r["data"]["undo"].as_str().unwrap().to_owned();
    let u = z
        .call(json!({"type":"rewind","checkpoint":undo,"scope":"code"}))
        .await;
    assert_eq!(u["success"], true, "{u}");
    assert_eq!(read(p, "a.txt").as_deref(), Some("two\n"));
    assert_eq!(read(p, "mine.txt").as_deref(), Some("my own work\n"));
    assert_eq!(user_git(p).1, before.1);
    assert_eq!(user_git(p).2, before.2);
    assert_eq!(user_git(p).3, before.3);
    z.close().await;
}

#[tokio::test]
async fn a_rewound_conversation_stays_rewound_after_a_restart() {
    let s = FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let mut z = Rpc::start(home.path(), cwd.path(), &args(&s.url), &[]).await;
    for t in ["one", "two", "three"] {
        s.push(anthropic_text(&[t]));
        z.prompt(t).await;
    }
    let cps = checkpoints(&z.call(json!({"type":"checkpoints"})).await);
    assert_eq!(cps.len(), 3);
    let r = z
        .call(json!({"type":"rewind","checkpoint":cps[1]["id"],"scope":"conversation"}))
        .await;
    assert_eq!(r["data"]["messages"], 2, "{r}");
    assert!(r["data"].get("undo").is_none(), "no files were touched");
    z.close().await;

    let mut a = args(&s.url);
    a.push("--continue");
    let mut z = Rpc::start(home.path(), cwd.path(), &a, &[]).await;
    let msgs = z.call(json!({"type":"get_messages"})).await;
    let texts: Vec<&str> = msgs["data"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"][0]["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["one", "one"]);
    let left = checkpoints(&z.call(json!({"type":"checkpoints"})).await);
    assert_eq!(left.len(), 1);
    assert_eq!(
        left[0]["id"], cps[0]["id"],
        "found by id from the session file"
    );
    z.close().await;
}

#[tokio::test]
async fn a_rewind_while_a_prompt_runs_is_refused_and_unknown_checkpoints_are_named() {
    let s = FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let mut a = args(&s.url);
    a.extend(["--approvals", "ask"]);
    let mut z = Rpc::start(home.path(), cwd.path(), &a, &[]).await;
    s.push(anthropic_text(&["hi"]));
    z.prompt("first").await;
    let cp = checkpoints(&z.call(json!({"type":"checkpoints"})).await)[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    // The prompt waits for the user's approval: it is running.
    let bash = json!({"command":"echo hi > x.txt"});
    s.push(anthropic_tool("", "t1", "bash", &[&bash.to_string()]));
    s.push(anthropic_text(&["ok"]));
    z.send(json!({"type":"prompt","message":"go"})).await;
    z.until(|v| v["type"] == "tool_approval").await;
    for cmd in [
        json!({"type":"rewind","checkpoint":cp,"scope":"both"}),
        json!({"type":"checkpoint_preview","checkpoint":cp}),
        json!({"type":"fork","checkpoint":cp}),
    ] {
        let r = z.call(cmd).await;
        assert_eq!(r["success"], false, "{r}");
        let e = r["error"].as_str().unwrap();
        assert!(
            e.contains("a prompt is running") && e.contains("abort"),
            "{e}"
        );
    }
    z.call(json!({"type":"abort"})).await;
    z.until(|v| v["type"] == "done").await;

    let bogus = "0123456789abcdef0123456789abcdef01234567";
    let r = z
        .call(json!({"type":"rewind","checkpoint":bogus,"scope":"code"}))
        .await;
    assert_eq!(r["success"], false);
    assert!(r["error"].as_str().unwrap().contains(bogus), "{r}");
    let r = z
        .call(json!({"type":"rewind","checkpoint":"nope","scope":"sideways"}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    z.close().await;
}

#[tokio::test]
async fn a_project_over_the_size_limit_is_skipped_with_one_error_and_the_prompt_runs() {
    let s = FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    for i in 0..4 {
        std::fs::write(cwd.path().join(format!("f{i}")), "x").unwrap();
    }
    std::fs::write(
        home.path().join("config.json"),
        json!({"checkpoints":{"max_files":2}}).to_string(),
    )
    .unwrap();
    let mut z = Rpc::start(home.path(), cwd.path(), &args(&s.url), &[]).await;
    s.push(anthropic_text(&["still here"]));
    let evs = z.prompt("one").await;
    let errs = of(&evs, "error");
    assert_eq!(errs.len(), 1, "{evs:#?}");
    let m = errs[0]["message"].as_str().unwrap();
    assert!(
        m.contains("more than 2 files") && m.contains("checkpoints.max_files"),
        "{m}"
    );
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "still here");
    s.push(anthropic_text(&["again"]));
    let evs = z.prompt("two").await;
    assert!(of(&evs, "error").is_empty(), "said once: {evs:#?}");
    assert!(checkpoints(&z.call(json!({"type":"checkpoints"})).await).is_empty());
    z.close().await;
}

#[tokio::test]
async fn a_fork_with_code_restores_the_files_into_a_new_session_and_leaves_the_old_one() {
    let s = FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let p = cwd.path();
    std::fs::write(p.join("a.txt"), "one\n").unwrap();
    let mut z = Rpc::start(home.path(), p, &args(&s.url), &[]).await;
    s.push(anthropic_text(&["first"]));
    z.prompt("first").await;
    let bash = json!({"command":"echo two > a.txt"});
    s.push(anthropic_tool("", "t1", "bash", &[&bash.to_string()]));
    s.push(anthropic_text(&["done"]));
    z.prompt("second").await;
    assert_eq!(read(p, "a.txt").as_deref(), Some("two\n"));
    let old = z.call(json!({"type":"get_state"})).await["data"]["session"].clone();
    let cps = checkpoints(&z.call(json!({"type":"checkpoints"})).await);

    let f = z
        .call(json!({"type":"fork","checkpoint":cps[1]["id"],"code":true}))
        .await;
    assert_eq!(f["success"], true, "{f}");
    assert_eq!(strings(&f["data"]["files"]), ["a.txt"]);
    assert_eq!(f["data"]["messages"], 2);
    assert_eq!(read(p, "a.txt").as_deref(), Some("one\n"));
    let now = z.call(json!({"type":"get_state"})).await["data"]["session"].clone();
    assert_ne!(now, old);
    assert_eq!(now, f["data"]["path"]);
    z.close().await;
    // The old session still holds both prompts.
    let text = std::fs::read_to_string(old.as_str().unwrap()).unwrap();
    assert!(text.contains("second"), "{text}");
}
