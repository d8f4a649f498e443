//! Compaction end to end with the real binary and the fake server: the
//! `compact` command and `/compact`, the summary replacing the older part
//! of the transcript, the session file giving the same transcript after a
//! reload, `compact_done` to the client and to a subscribed extension, and
//! automatic compaction near the context window set in `config.json`.

use zot_test_support::fixtures;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

async fn rpc(home: &std::path::Path, cwd: &std::path::Path, url: &str, extra: &[&str]) -> Rpc {
    let mut args = vec![
        "--no-ext",
        "--base-url",
        url,
        "--api-key",
        "k",
        "--system-prompt",
        "sys",
    ];
    args.extend_from_slice(extra);
    Rpc::start(home, cwd, &args, &[]).await
}

fn texts(messages: &Value) -> Vec<String> {
    messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"][0]["text"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[tokio::test]
async fn compact_summarises_the_older_turns_and_a_reload_gives_the_same_transcript() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = home.path().join("s.jsonl");
    let ext = fixtures::agent_ext(
        home.path(),
        "fx-src",
        json!({"subscribe": {"events": ["compact_done"]}}),
    );
    s.push(anthropic_text(&["first answer"]));
    s.push(anthropic_text(&["second answer"]));
    s.push(anthropic_text(&["The user asked twice; both answered."]));
    let mut z = rpc(
        home.path(),
        cwd.path(),
        &s.url,
        &[
            "--session",
            file.to_str().unwrap(),
            "-e",
            ext.to_str().unwrap(),
        ],
    )
    .await;
    // Nothing to summarise yet.
    let r = z.call(json!({"type":"compact"})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("nothing to compact"),
        "{r}"
    );
    z.prompt("first question").await;
    z.prompt("second question").await;
    let r = z
        .call(json!({"type":"compact","instructions":"keep the questions"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let d = &r["data"];
    assert_eq!(
        (
            d["summarized_messages"].as_u64(),
            d["kept_messages"].as_u64()
        ),
        (Some(2), Some(2))
    );
    assert!(d["before_tokens"].as_u64().unwrap() > 0 && d["after_tokens"].as_u64().unwrap() > 0);
    let ev = z.until(|v| v["type"] == "compact_done").await;
    let ev = ev.last().unwrap();
    assert_eq!(ev["before_tokens"], d["before_tokens"]);
    assert_eq!(ev["after_tokens"], d["after_tokens"]);
    // The summarising request: the older turn and the instructions, no tools.
    let sum = &s.requests()[2].body;
    let ask = sum["messages"][0]["content"][0]["text"].as_str().unwrap();
    assert!(
        ask.contains("User: first question") && ask.contains("Assistant: first answer"),
        "{ask}"
    );
    assert!(
        !ask.contains("second question"),
        "the kept turn is not summarised: {ask}"
    );
    assert!(ask.contains("keep the questions"));
    assert!(sum.get("tools").is_none());
    let msgs = z.call(json!({"type":"get_messages"})).await["data"]["messages"].clone();
    let t = texts(&msgs);
    assert!(
        t[0].contains("The user asked twice; both answered."),
        "{t:?}"
    );
    assert_eq!(&t[1..], ["second question", "second answer"]);
    let seen = fixtures::wait_seen(&ext, |f| {
        f["type"] == "event" && f["event"] == "compact_done"
    })
    .await;
    assert_eq!(seen["before_tokens"], d["before_tokens"]);
    assert_eq!(seen["after_tokens"], d["after_tokens"]);
    z.close().await;
    // A reload gives the same transcript.
    let mut z = rpc(
        home.path(),
        cwd.path(),
        &s.url,
        &["--session", file.to_str().unwrap()],
    )
    .await;
    let again = z.call(json!({"type":"get_messages"})).await["data"]["messages"].clone();
    assert_eq!(again, msgs);
    z.close().await;
}

#[tokio::test]
async fn the_compact_builtin_takes_instructions() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    s.push(anthropic_text(&["a1"]));
    s.push(anthropic_text(&["a2"]));
    s.push(anthropic_text(&["summary"]));
    let mut z = rpc(home.path(), cwd.path(), &s.url, &["--no-session"]).await;
    z.prompt("q1").await;
    z.prompt("q2").await;
    let r = z
        .call(json!({"type":"command","name":"compact","args":"mention q1"}))
        .await;
    assert_eq!(r["data"]["summarized_messages"], 2, "{r}");
    let ask = s.requests()[2].body["messages"][0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        ask.ends_with("follow these instructions: mention q1"),
        "{ask}"
    );
    let help = z.call(json!({"type":"command","name":"help"})).await;
    assert!(help["data"]["text"].as_str().unwrap().contains("/compact"));
    z.close().await;
}

#[tokio::test]
async fn a_request_past_the_configured_share_of_the_window_compacts_first() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // 2000 tokens, compacting at half: about 4000 bytes of request.
    std::fs::write(
        home.path().join("config.json"),
        json!({"context_window": 2000, "compact_at": 0.5}).to_string(),
    )
    .unwrap();
    s.push(anthropic_text(&["noted"]));
    s.push(anthropic_text(&["Short summary."]));
    s.push(anthropic_text(&["answer"]));
    let mut z = rpc(home.path(), cwd.path(), &s.url, &["--no-session"]).await;
    let big = "x".repeat(6000);
    z.prompt(&big).await;
    let evs = z.prompt("next").await;
    assert!(evs.iter().any(|v| v["type"] == "compact_done"), "{evs:#?}");
    let reqs = s.requests();
    assert_eq!(reqs.len(), 3);
    assert!(reqs[1].body["system"][0]["text"]
        .as_str()
        .unwrap()
        .contains("You compact a conversation"));
    let sent = texts(&reqs[2].body["messages"]);
    assert_eq!(
        sent.len(),
        1,
        "summary and prompt merge into one user message: {sent:?}"
    );
    let m = &reqs[2].body["messages"][0]["content"];
    assert!(m[0]["text"].as_str().unwrap().contains("Short summary."));
    assert_eq!(m[1]["text"], "next");
    z.close().await;
}
