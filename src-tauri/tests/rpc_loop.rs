//! The agent loop end to end through the real binary in RPC mode against
//! the fake LLM server: streaming, tool steps, errors that leave the
//! transcript usable, abort, max-steps and the prompt queue.

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

async fn start(s: &FakeLlm, home: &std::path::Path, cwd: &std::path::Path, extra: &[&str]) -> Rpc {
    let mut args = vec!["--provider", "anthropic", "--no-ext", "--no-session"];
    args.extend_from_slice(extra);
    Rpc::against(s, home, cwd, &args, &[]).await
}

#[tokio::test]
async fn a_text_prompt_streams_deltas_and_ends_with_turn_end_and_done() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["Hel", "lo"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    let evs = z.prompt("hi").await;
    assert_eq!(
        types(&evs),
        vec![
            "session_start",
            "response",
            "user_message",
            "turn_start",
            "assistant_start",
            "usage",
            "assistant_message",
            "turn_end",
            "done"
        ],
        "{evs:#?}"
    );
    let deltas: Vec<_> = of(&evs, "text_delta")
        .iter()
        .map(|v| v["delta"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(deltas, vec!["Hel", "lo"]);
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "Hello");
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "end_turn");
    assert_eq!(of(&evs, "usage")[0]["input_tokens"], 11);
    assert_eq!(of(&evs, "turn_start")[0]["step"], 1);
    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["message_count"], 2);
    assert_eq!(st["data"]["busy"], false);
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_tool_step_runs_the_tool_and_sends_its_result_on_the_next_request() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "Writing.",
        "tu_1",
        "write",
        &["{\"path\":\"out.txt\",", "\"content\":\"hey\"}"],
    ));
    s.push(anthropic_text(&["Done."]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    let evs = z.prompt("write it").await;
    assert_eq!(
        std::fs::read_to_string(cwd.path().join("out.txt")).unwrap(),
        "hey"
    );
    let ends: Vec<_> = of(&evs, "turn_end")
        .iter()
        .map(|v| v["stop"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ends, vec!["tool_use", "end_turn"]);
    let call = of(&evs, "tool_call")[0];
    assert_eq!(
        (call["id"].as_str(), call["name"].as_str()),
        (Some("tu_1"), Some("write"))
    );
    assert_eq!(call["args"], json!({"path":"out.txt","content":"hey"}));
    assert_eq!(of(&evs, "tool_result")[0]["is_error"], false);
    assert_eq!(of(&evs, "turn_start")[1]["step"], 2);
    let second = &s.requests()[1].body;
    let last = second["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["content"][0]["type"], "tool_result");
    assert_eq!(last["content"][0]["tool_use_id"], "tu_1");
    let msgs = z.call(json!({"type":"get_messages"})).await;
    assert_eq!(msgs["data"]["messages"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn tool_args_that_are_not_json_reach_the_model_as_a_tool_error() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool("", "tu_1", "read", &["{\"path\": oops"]));
    s.push(anthropic_text(&["Sorry."]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    let evs = z.prompt("read").await;
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], true);
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("expected a JSON object"),
        "{r}"
    );
    assert_eq!(of(&evs, "turn_end").last().unwrap()["stop"], "end_turn");
    let sent = &s.requests()[1].body["messages"][2]["content"][0];
    assert_eq!(sent["is_error"], true);
}

#[tokio::test]
async fn an_unknown_tool_is_a_tool_error_listing_the_real_ones() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool("", "tu_1", "fly", &["{}"]));
    s.push(anthropic_text(&["ok"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &["--tools", "read"]).await;
    let evs = z.prompt("go").await;
    let t = of(&evs, "tool_result")[0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(t.contains("unknown tool fly") && t.contains("read"), "{t}");
    // --tools read advertises only read.
    let tools: Vec<_> = s.requests()[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(tools, vec![json!("read")]);
}

#[tokio::test]
async fn a_truncated_stream_is_an_error_event_and_the_next_prompt_works() {
    let s = FakeLlm::start().await;
    s.push(Reply::Sse(vec![
        ev("message_start", json!({"type":"message_start","message":{"usage":{}}})),
        ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"read"}})),
        ev("content_block_delta", json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"pa"}})),
    ]));
    s.push(anthropic_text(&["fine"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    let evs = z.prompt("one").await;
    assert!(
        of(&evs, "error")[0]["message"]
            .as_str()
            .unwrap()
            .contains("truncated"),
        "{evs:#?}"
    );
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "error");
    let evs = z.prompt("two").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "fine");
    // No half tool call was kept: the second request holds only user text.
    let m = &s.requests()[1].body["messages"];
    assert_eq!(m.as_array().unwrap().len(), 1, "{m}");
    assert_eq!(m[0]["content"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_401_and_exhausted_5xx_become_error_events_with_the_providers_words() {
    let s = FakeLlm::start().await;
    s.push(error_status(401, "bad key", None));
    for _ in 0..4 {
        s.push(error_status(529, "Overloaded right now", None));
    }
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    let evs = z.prompt("a").await;
    assert!(of(&evs, "error")[0]["message"]
        .as_str()
        .unwrap()
        .contains("invalid API key for anthropic"));
    let evs = z.prompt("b").await;
    let m = of(&evs, "error")[0]["message"].as_str().unwrap().to_owned();
    assert!(
        m.contains("Overloaded right now") && m.contains("4 attempts"),
        "{m}"
    );
    assert_eq!(s.requests().len(), 5);
}

#[tokio::test]
async fn abort_mid_stream_ends_with_aborted_and_done_and_keeps_serving() {
    let s = FakeLlm::start().await;
    s.push(Reply::SseThenHang(vec![
        ev("message_start", json!({"type":"message_start","message":{"usage":{}}})),
        ev("content_block_start", json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})),
        ev("content_block_delta", json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"partial"}})),
    ]));
    s.push(anthropic_text(&["after"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    z.send(json!({"type":"prompt","message":"long"})).await;
    z.until(|v| v["type"] == "text_delta").await;
    let r = z.call(json!({"type":"abort"})).await;
    assert_eq!(r["success"], true);
    let evs = z.until(|v| v["type"] == "done").await;
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "aborted", "{evs:#?}");
    let evs = z.prompt("again").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "after");
    let msgs = z.call(json!({"type":"get_messages"})).await;
    // The partial text the user saw stays, so the model knows it was cut off.
    assert_eq!(msgs["data"]["messages"][1]["content"][0]["text"], "partial");
}

#[tokio::test]
async fn abort_during_a_bash_call_kills_it_and_answers_the_call() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "",
        "tu_1",
        "bash",
        &["{\"command\":\"echo started; sleep 30\"}"],
    ));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    z.send(json!({"type":"prompt","message":"run"})).await;
    z.until(|v| v["type"] == "tool_call").await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    z.call(json!({"type":"abort"})).await;
    let evs = z.until(|v| v["type"] == "done").await;
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], true);
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("aborted"),
        "{r}"
    );
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "aborted");
    let msgs = z.call(json!({"type":"get_messages"})).await;
    assert_eq!(
        msgs["data"]["messages"][2]["content"][0]["type"],
        "tool_result"
    );
}

#[tokio::test]
async fn max_steps_stops_the_loop_with_an_error_event() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool("", "tu_1", "read", &["{\"path\":\"x\"}"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &["--max-steps", "1"]).await;
    let evs = z.prompt("go").await;
    assert!(
        of(&evs, "error")[0]["message"]
            .as_str()
            .unwrap()
            .contains("--max-steps"),
        "{evs:#?}"
    );
    assert_eq!(s.requests().len(), 1);
}

#[tokio::test]
async fn a_second_prompt_queues_behind_the_first() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["first"]));
    s.push(anthropic_text(&["second"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path(), &[]).await;
    z.send(json!({"type":"prompt","message":"1"})).await;
    z.send(json!({"type":"prompt","message":"2"})).await;
    let a = z.until(|v| v["type"] == "done").await;
    let b = z.until(|v| v["type"] == "done").await;
    assert_eq!(of(&a, "assistant_message")[0]["content"], "first");
    assert_eq!(of(&b, "assistant_message")[0]["content"], "second");
    assert_eq!(of(&b, "user_message")[0]["content"], "2");
    // The user's own prompt names no extension.
    assert!(of(&b, "user_message")[0].get("extension").is_none());
}

#[tokio::test]
async fn the_openai_wire_format_runs_the_same_loop() {
    let s = FakeLlm::start().await;
    s.push(openai_tool(
        "c1",
        "write",
        &["{\"path\":\"o.txt\",\"content\":\"x\"}"],
    ));
    s.push(openai_text(&["ok"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let url = format!("{}/v1", s.url);
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &[
            "--provider",
            "openai",
            "--base-url",
            &url,
            "--api-key",
            "k",
            "--no-ext",
            "--no-session",
        ],
        &[],
    )
    .await;
    let evs = z.prompt("go").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "ok");
    assert!(cwd.path().join("o.txt").exists());
    assert_eq!(s.requests()[1].body["messages"][3]["role"], "tool");
}
