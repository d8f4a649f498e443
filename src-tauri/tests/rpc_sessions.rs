//! The sessions sidebar's commands through the real binary (docs/rpc.md
//! "Sessions"): list newest first with titles and counts, search by text,
//! rename, open an older session in place of the current one, delete to
//! the trash; and the bad inputs: a path outside the project, the current
//! session, a damaged file, one written by a newer zot.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn line(v: Value) -> String {
    format!("{v}\n")
}

fn user(text: &str) -> String {
    line(
        json!({"type":"message","message":{"role":"user","content":[{"type":"text","text":text}]}}),
    )
}

fn assistant(text: &str) -> String {
    line(
        json!({"type":"message","message":{"role":"assistant","content":[{"type":"text","text":text}]}}),
    )
}

/// Writes a session file beside the real ones, with an mtime `age_s` ago.
fn write_session(dir: &Path, name: &str, version: u32, body: &str, age_s: u64) -> PathBuf {
    let p = dir.join(name);
    let header = line(json!({"type":"session","version":version,"cwd":"/x"}));
    std::fs::write(&p, format!("{header}{body}")).unwrap();
    let t = std::time::SystemTime::now() - std::time::Duration::from_secs(age_s);
    std::fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_modified(t)
        .unwrap();
    p
}

fn sessions(v: &Value) -> Vec<Value> {
    v["data"]["sessions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn list_search_rename_open_and_delete() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["hi"]));
    s.push(anthropic_text(&["again"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let data = tempfile::tempdir().unwrap();
    let xdg = data.path().display().to_string();
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext"],
        &[("XDG_DATA_HOME", &xdg)],
    )
    .await;
    z.prompt("fix the flaky build\nplease").await;

    let listed = sessions(&z.call(json!({"type":"session_list"})).await);
    assert_eq!(listed.len(), 1, "{listed:?}");
    let current = PathBuf::from(listed[0]["path"].as_str().unwrap());
    assert_eq!(listed[0]["title"], "fix the flaky build");
    assert_eq!(listed[0]["messages"], 2);
    assert_eq!(listed[0]["current"], true);
    let dir = current.parent().unwrap().to_path_buf();

    let old = write_session(
        &dir,
        "00000000000000000001-1.jsonl",
        1,
        &format!(
            "{}{}",
            user("rename the parser module"),
            assistant("done: parser renamed")
        ),
        3600,
    );
    let damaged = write_session(
        &dir,
        "00000000000000000002-1.jsonl",
        1,
        &format!("{}{{not json\n", user("a damaged one")),
        7200,
    );
    let newer = write_session(
        &dir,
        "00000000000000000003-1.jsonl",
        2,
        &format!(
            "{}{}",
            user("from the future"),
            line(json!({"type":"hologram","x":1}))
        ),
        10800,
    );
    let newer_bytes = std::fs::read(&newer).unwrap();

    // Newest first, each with its problem named.
    let listed = sessions(&z.call(json!({"type":"session_list"})).await);
    let titles: Vec<&str> = listed
        .iter()
        .map(|v| v["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "fix the flaky build",
            "rename the parser module",
            "a damaged one",
            "from the future"
        ]
    );
    assert!(listed[1].get("problem").is_none());
    assert!(
        listed[2]["problem"]
            .as_str()
            .unwrap()
            .contains("1 damaged line"),
        "{:?}",
        listed[2]
    );
    assert!(
        listed[3]["problem"]
            .as_str()
            .unwrap()
            .contains("newer zot (format 2"),
        "{:?}",
        listed[3]
    );

    // Search reads the text of every message, not only titles.
    let found = sessions(
        &z.call(json!({"type":"session_list","query":"PARSER RENAMED"}))
            .await,
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["path"], old.display().to_string());

    // Rename; an empty title goes back to the first prompt.
    let r = z
        .call(
            json!({"type":"session_rename","path":old.display().to_string(),"title":"Parser work"}),
        )
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(
        sessions(
            &z.call(json!({"type":"session_list","query":"parser work"}))
                .await
        )
        .len(),
        1
    );

    // Open the older one: its messages replace the current transcript and the next prompt continues it.
    let r = z
        .call(json!({"type":"session_open","path":old.display().to_string()}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["messages"], 2);
    let msgs = z.call(json!({"type":"get_messages"})).await;
    assert_eq!(
        msgs["data"]["messages"][0]["content"][0]["text"], "rename the parser module",
        "{msgs}"
    );
    z.prompt("and the lexer").await;
    let sent = &s.requests()[1].body["messages"];
    assert_eq!(
        sent[0]["content"][0]["text"], "rename the parser module",
        "{sent}"
    );
    assert!(std::fs::read_to_string(&old)
        .unwrap()
        .contains("and the lexer"));

    // The damaged one opens with a warning, the rest loaded.
    let r = z
        .call(json!({"type":"session_open","path":damaged.display().to_string()}))
        .await;
    assert!(
        r["data"]["warning"]
            .as_str()
            .unwrap()
            .contains("skipped 1 damaged line"),
        "{r}"
    );

    // The newer one is refused, then opened as a copy; the original is untouched.
    let r = z
        .call(json!({"type":"session_open","path":newer.display().to_string()}))
        .await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("readable_part"),
        "{r}"
    );
    let r = z
        .call(
            json!({"type":"session_open","path":newer.display().to_string(),"readable_part":true}),
        )
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_ne!(r["data"]["path"], newer.display().to_string());
    assert!(
        r["data"]["warning"].as_str().unwrap().contains("copy"),
        "{r}"
    );
    assert_eq!(std::fs::read(&newer).unwrap(), newer_bytes);

    // Delete: to the trash (under XDG_DATA_HOME), never the current one, never outside.
    let r = z
        .call(json!({"type":"session_delete","path":current.display().to_string()}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["trashed"], true);
    assert!(!current.exists());
    let trashed: Vec<_> = std::fs::read_dir(data.path().join("Trash/files"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(trashed.len(), 1);
    let now = z.call(json!({"type":"get_state"})).await;
    let _ = now;
    let cur = sessions(&z.call(json!({"type":"session_list"})).await)
        .into_iter()
        .find(|v| v["current"] == true)
        .unwrap();
    let r = z
        .call(json!({"type":"session_delete","path":cur["path"]}))
        .await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("the session you are in"),
        "{r}"
    );
    let outside = cwd.path().join("x.jsonl");
    std::fs::write(&outside, "{}").unwrap();
    for cmd in ["session_delete", "session_open"] {
        let r = z
            .call(json!({"type":cmd,"path":outside.display().to_string()}))
            .await;
        assert_eq!(r["success"], false);
        assert!(
            r["error"]
                .as_str()
                .unwrap()
                .contains("is not a session of this project"),
            "{r}"
        );
    }
    assert!(outside.exists());
    z.close().await;
}

#[tokio::test]
async fn with_no_session_opening_says_how() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session", "--api-key", "k"],
        &[],
    )
    .await;
    assert_eq!(
        sessions(&z.call(json!({"type":"session_list"})).await).len(),
        0
    );
    let r = z
        .call(json!({"type":"session_open","path":"/nope.jsonl"}))
        .await;
    assert!(r["error"].as_str().unwrap().contains("--no-session"), "{r}");
    z.close().await;
}
