//! A key that reaches a tool result is masked before the result enters the
//! transcript, not only in the event the client gets: the session file and
//! the next provider request carry `[redacted key]` instead. The real
//! binary runs with a canary `--api-key` and a canary `ZOTCORE_RPC_TOKEN`
//! (the reference zot's name for the RPC token, masked like
//! `ZOT_RPC_TOKEN`); a scripted model `read`s a project file holding both,
//! and calls a fixture extension's tool whose result holds them too.

use zot_test_support::fixtures;

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::fixtures::files_under;
use zot_test_support::rpc::*;

const FLAG_CANARY: &str = "sk-ant-MASKED-FLAG-6c3e9a1f7b04";
const TOKEN_CANARY: &str = "zot-MASKED-TOKEN-9d4b2e8a1c57";
const MASK: &str = "[redacted key]";

fn leaks(what: &str, text: &str) -> Vec<String> {
    [FLAG_CANARY, TOKEN_CANARY]
        .iter()
        .filter(|c| text.contains(*c))
        .map(|c| format!("{what} holds {c}"))
        .collect()
}

#[tokio::test]
async fn keys_in_tool_results_never_reach_the_session_or_the_provider() {
    let s = FakeLlm::start().await;
    let (home, cwd, exts) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    std::fs::write(
        cwd.path().join(".env"),
        format!("API_KEY={FLAG_CANARY}\nRPC={TOKEN_CANARY}\nNAME=demo\n"),
    )
    .unwrap();
    let ext = fixtures::agent_ext(
        exts.path(),
        "talker",
        json!({"name": "talker", "tools": {"whoami": {
            "result": {"content": [{"type": "text",
                "text": format!("config: key={FLAG_CANARY} token={TOKEN_CANARY}")}]}}}}),
    );
    s.push(anthropic_tool("", "r1", "read", &[r#"{"path":".env"}"#]));
    s.push(anthropic_tool("", "x1", "whoami", &["{}"]));
    s.push(anthropic_text(&["done"]));
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &[
            "--base-url",
            &s.url,
            "--api-key",
            FLAG_CANARY,
            "-e",
            ext.to_str().unwrap(),
        ],
        &[("ZOTCORE_RPC_TOKEN", TOKEN_CANARY)],
    )
    .await;
    let r = z
        .call(json!({"type": "hello", "token": TOKEN_CANARY}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.prompt("read the env file").await;
    let results = of(&evs, "tool_result");
    assert_eq!(results.len(), 2, "{evs:#?}");

    let reqs = s.requests();
    assert_eq!(reqs.len(), 3);
    // The model saw the rest of the file, with the keys masked.
    let second = reqs[1].body.to_string();
    assert!(second.contains("NAME=demo"), "{second}");
    assert!(second.contains(MASK), "{second}");
    let third = reqs[2].body.to_string();
    assert!(third.contains("config: key="), "{third}");
    let mut found = Vec::new();
    for (i, r) in reqs.iter().enumerate() {
        found.extend(leaks(&format!("model request {i}"), &r.body.to_string()));
    }
    let m = z.call(json!({"type": "get_messages"})).await;
    found.extend(leaks("get_messages", &m.to_string()));
    let log = z.log.clone();
    assert!(z.close().await.success());
    for (i, line) in log.iter().enumerate() {
        found.extend(leaks(&format!("RPC line {i}"), &line.to_string()));
    }
    let sessions = files_under(&home.path().join("sessions"));
    assert!(!sessions.is_empty(), "no session was written");
    for p in sessions {
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(MASK), "{}: {text}", p.display());
        found.extend(leaks(&p.display().to_string(), &text));
    }
    assert!(found.is_empty(), "the keys leaked:\n{}", found.join("\n"));
}
