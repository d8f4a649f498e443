//! Sessions that survive anything, through the real binary: a file with
//! damaged lines anywhere (one torn inside a UTF-8 character, one not
//! JSON) loads the rest with one warning and the conversation continues; a
//! second zot that would write the same file is refused with an error
//! naming it and what to do; files are 0600 in 0700 directories (stat).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn message(role: &str, text: &str) -> String {
    json!({"type":"message","message":{"role":role,"content":[{"type":"text","text":text}]}})
        .to_string()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn a_session_with_damaged_lines_anywhere_loads_the_rest_and_continues() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["welcome back"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = cwd.path().join("torn.jsonl");
    let mut body = Vec::new();
    body.extend_from_slice(
        json!({"type":"session","version":1,"cwd":"/x"})
            .to_string()
            .as_bytes(),
    );
    body.push(b'\n');
    body.extend_from_slice(message("user", "first question").as_bytes());
    body.push(b'\n');
    // A line torn inside "é" (0xC3 0xA9): invalid UTF-8, mid-file.
    let torn = message("assistant", "café");
    let cut = torn.find('é').unwrap() + 1;
    body.extend_from_slice(&torn.as_bytes()[..cut]);
    body.push(b'\n');
    body.extend_from_slice(b"{not json at all\n");
    body.extend_from_slice(&[0xff, 0xfe, b'\n']);
    body.extend_from_slice(message("assistant", "first answer").as_bytes());
    body.push(b'\n');
    std::fs::write(&file, &body).unwrap();

    let f = file.to_str().unwrap();
    let args = ["--no-ext", "--session", f];
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["message_count"], 2, "{st}");
    let warnings: Vec<_> = of(&z.log, "error")
        .into_iter()
        .map(|v| v["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(warnings.len(), 1, "{:#?}", z.log);
    assert!(
        warnings[0].contains("skipped 3 damaged lines") && warnings[0].contains("torn.jsonl"),
        "{}",
        warnings[0]
    );
    let evs = z.prompt("second question").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "welcome back");
    let sent = &s.requests()[0].body["messages"];
    assert_eq!(sent[0]["content"][0]["text"], "first question", "{sent}");
    assert_eq!(sent[1]["content"][0]["text"], "first answer", "{sent}");
    assert!(z.close().await.success());
    // The new turn was appended after the damage and loads.
    let msgs = zot_lib::agent::session::load(&file).unwrap();
    assert_eq!(msgs.len(), 4, "{msgs:#?}");
}

/// Runs a second zot that must refuse to start; returns its stderr.
async fn refused(home: &Path, cwd: &Path, args: &[&str]) -> String {
    let mut all = vec!["--mode", "rpc"];
    all.extend_from_slice(args);
    let out = tokio::time::timeout(
        WAIT,
        command(home, cwd, &all)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output(),
    )
    .await
    .expect("the second zot hung")
    .unwrap();
    assert!(!out.status.success(), "the second zot started");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[tokio::test]
async fn a_second_zot_writing_the_same_session_is_refused() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["one"]));
    s.push(anthropic_text(&["two"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let base = ["--no-ext", "--base-url", &s.url, "--api-key", "k"];

    // A given file: refused even before the first zot has written to it.
    let file = cwd.path().join("shared.jsonl");
    let f = file.to_str().unwrap();
    let mut with_file = base.to_vec();
    with_file.extend_from_slice(&["--session", f]);
    let mut first = Rpc::start(home.path(), cwd.path(), &with_file, &[]).await;
    let e = refused(home.path(), cwd.path(), &with_file).await;
    assert!(
        e.contains("shared.jsonl")
            && e.contains("already open in another zot")
            && e.contains("--session")
            && e.contains("--no-session"),
        "{e}"
    );
    first.prompt("hello").await;
    assert!(first.close().await.success());
    // Once the first is gone, the file is free again.
    let z = Rpc::start(home.path(), cwd.path(), &with_file, &[]).await;
    assert!(z.close().await.success());

    // --continue picks the same newest file: refused too.
    let mut first = Rpc::start(home.path(), cwd.path(), &base, &[]).await;
    first.prompt("new one").await;
    let mut cont = base.to_vec();
    cont.push("--continue");
    let e = refused(home.path(), cwd.path(), &cont).await;
    assert!(e.contains("already open in another zot"), "{e}");
    // --no-session always starts.
    let mut none = base.to_vec();
    none.push("--no-session");
    let z = Rpc::start(home.path(), cwd.path(), &none, &[]).await;
    assert!(z.close().await.success());
    assert!(first.close().await.success());
}

#[tokio::test]
async fn session_files_are_0600_in_0700_directories() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["hi"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = ["--no-ext"];
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    z.prompt("x").await;
    assert!(z.close().await.success());
    let sessions = home.path().join("sessions");
    assert_eq!(mode(&sessions), 0o700);
    let project = std::fs::read_dir(&sessions)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert_eq!(mode(&project), 0o700);
    let file = std::fs::read_dir(&project)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert_eq!(mode(&file), 0o600, "{}", file.display());

    // A --session file in a new directory: the same.
    s.push(anthropic_text(&["hi"]));
    let target = cwd.path().join("new/dir/s.jsonl");
    let t = target.to_str().unwrap();
    let mut with_file = args.to_vec();
    with_file.extend_from_slice(&["--session", t]);
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &with_file, &[]).await;
    z.prompt("y").await;
    assert!(z.close().await.success());
    assert_eq!(mode(&target), 0o600);
    assert_eq!(mode(target.parent().unwrap()), 0o700);
    assert_eq!(mode(&cwd.path().join("new")), 0o700);
}
