//! Defence in depth: a panic inside the agent while it runs a prompt (here
//! injected through the debug-only `ZOT_TEST_PANIC_ON_PROMPT` hook) ends
//! that prompt with `error`, `turn_end{stop:"error"}` and `done`; `busy`
//! drops, `clear` answers, and the next prompt runs normally.

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

#[tokio::test]
async fn a_panic_in_the_agent_fails_that_prompt_and_the_next_one_runs() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["still ", "here"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let args = ["--provider", "anthropic", "--no-ext", "--no-session"];
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &args,
        &[("ZOT_TEST_PANIC_ON_PROMPT", "explode")],
    )
    .await;

    let evs = z.prompt("explode").await;
    let errors = of(&evs, "error");
    assert_eq!(errors.len(), 1, "{evs:#?}");
    let msg = errors[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("internal error") && msg.contains("injected panic"),
        "{msg}"
    );
    let ends = of(&evs, "turn_end");
    assert_eq!(ends.len(), 1, "{evs:#?}");
    assert_eq!(ends[0]["stop"], "error");
    assert_eq!(of(&evs, "done").len(), 1);

    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["busy"], false, "{st}");

    let evs = z.prompt("hello again").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "still here");
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "end_turn");

    let r = z.call(json!({"type":"clear"})).await;
    assert_eq!(r["success"], true, "{r}");
    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["busy"], false, "{st}");
    assert_eq!(st["data"]["message_count"], 0, "{st}");
    assert!(z.close().await.success());
}
