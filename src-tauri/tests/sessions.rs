//! Sessions through the real binary: messages land in
//! `$ZOT_HOME/sessions/<cwd key>/` as they complete, `--continue` and
//! `--session FILE` resume, `--no-session` writes nothing, and a kill -9
//! mid-answer leaves a file that loads with only the message in flight lost.

use std::path::Path;

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

fn session_files(home: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(dirs) = std::fs::read_dir(home.join("sessions")) {
        for d in dirs.flatten() {
            for f in std::fs::read_dir(d.path()).unwrap().flatten() {
                out.push(f.path());
            }
        }
    }
    out
}

#[tokio::test]
async fn continue_resumes_the_newest_session_of_the_project() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["one"]));
    s.push(anthropic_text(&["two"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = ["--no-ext"];
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    z.prompt("first").await;
    assert!(z.close().await.success());
    let files = session_files(home.path());
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0]
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .contains("tmp"));

    let mut cont = args.to_vec();
    cont.push("--continue");
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &cont, &[]).await;
    assert_eq!(
        z.call(json!({"type":"get_state"})).await["data"]["message_count"],
        2
    );
    z.prompt("second").await;
    let sent = &s.requests()[1].body["messages"];
    assert_eq!(sent.as_array().unwrap().len(), 3, "{sent}");
    assert_eq!(sent[1]["content"][0]["text"], "one");
    z.close().await;
    assert_eq!(
        session_files(home.path()).len(),
        1,
        "--continue appends to the same file"
    );
}

#[tokio::test]
async fn session_file_and_no_session() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["a"]));
    s.push(anthropic_text(&["b"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = cwd.path().join("my.jsonl");
    let f = file.to_str().unwrap();
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--session", f],
        &[],
    )
    .await;
    z.prompt("x").await;
    z.close().await;
    assert_eq!(
        std::fs::read_to_string(&file).unwrap().lines().count(),
        3,
        "header + 2 messages"
    );
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--session", f],
        &[],
    )
    .await;
    assert_eq!(
        z.call(json!({"type":"get_state"})).await["data"]["message_count"],
        2
    );
    z.close().await;

    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session"],
        &[],
    )
    .await;
    z.prompt("y").await;
    z.close().await;
    assert!(session_files(home.path()).is_empty());
}

#[tokio::test]
async fn kill_9_mid_answer_loses_only_the_message_in_flight() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "",
        "tu_1",
        "write",
        &["{\"path\":\"f.txt\",\"content\":\"1\"}"],
    ));
    s.push(anthropic_text(&["written"]));
    s.push(Reply::SseThenHang(vec![
        ev("message_start", json!({"type":"message_start","message":{"usage":{}}})),
        ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})),
        ev("content_block_delta", json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"half an ans"}})),
    ]));
    s.push(anthropic_text(&["recovered"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = ["--no-ext"];
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    z.prompt("write").await;
    z.send(json!({"type":"prompt","message":"then this"})).await;
    z.until(|v| v["type"] == "text_delta").await;
    z.child.start_kill().unwrap();
    z.child.wait().await.unwrap();

    let mut cont = args.to_vec();
    cont.push("--continue");
    let mut z = Rpc::against(&s, home.path(), cwd.path(), &cont, &[]).await;
    let msgs = z.call(json!({"type":"get_messages"})).await["data"]["messages"].clone();
    // user, assistant(tool_use), user(tool_result), assistant, user: the
    // half answer was in flight and is the only thing lost.
    assert_eq!(msgs.as_array().unwrap().len(), 5, "{msgs:#}");
    assert_eq!(msgs[4]["content"][0]["text"], "then this");
    let evs = z.prompt("go on").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "recovered");
}

#[tokio::test]
async fn a_kill_at_any_moment_leaves_a_session_that_loads_and_works() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let s = FakeLlm::start().await;
    for round in 0..6u64 {
        for i in 0..3 {
            s.push(anthropic_tool(
                "step",
                &format!("t{round}{i}"),
                "bash",
                &["{\"command\":\"echo hi\"}"],
            ));
        }
        s.push(anthropic_text(&["end"]));
        let mut args = vec!["--no-ext"];
        if round > 0 {
            args.push("--continue");
        }
        let mut z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
        z.send(json!({"type":"prompt","message":format!("round {round}")}))
            .await;
        z.until(|v| v["type"] == "user_message").await;
        // Kill at a different point of the multi-step turn each round.
        tokio::time::sleep(std::time::Duration::from_millis(5 + round * 15)).await;
        z.child.start_kill().unwrap();
        z.child.wait().await.unwrap();
        let files = session_files(home.path());
        assert_eq!(files.len(), 1, "round {round}: {files:?}; log {:?}", z.log);
        let msgs = zot_lib::agent::session::load(&files[0]).unwrap();
        assert!(
            !msgs.is_empty(),
            "round {round}: the user message was written first"
        );
        // Every tool call has its result (repaired if the kill came between).
        let mut open = 0i64;
        for m in &msgs {
            for b in &m.content {
                match b {
                    zot_lib::providers::transcript::Block::ToolUse { .. } => open += 1,
                    zot_lib::providers::transcript::Block::ToolResult { .. } => open -= 1,
                    _ => {}
                }
            }
        }
        assert_eq!(open, 0, "round {round}: {msgs:#?}");
    }
    // After all that, a resumed session still talks to the model.
    let z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--continue"],
        &[],
    )
    .await;
    let fresh = FakeLlm::start().await;
    z.close().await;
    fresh.push(anthropic_text(&["alive"]));
    let mut z = Rpc::against(
        &fresh,
        home.path(),
        cwd.path(),
        &["--no-ext", "--continue"],
        &[],
    )
    .await;
    let evs = z.prompt("still there?").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "alive");
}
