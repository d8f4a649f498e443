//! The extension rows of docs/rpc.md end to end: the real binary with real
//! Python fixture extensions and the fake LLM server. Command actions,
//! notes, panels, lifecycle events, the three interceptions, extension
//! tools, deferred tools, `submit` ignored headless, and reload.

use zot_test_support::fixtures;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

use crate::one_ext::{env, start};

#[tokio::test]
async fn ext_list_shows_the_ready_extension_with_its_commands_and_tools() {
    let e = env(json!({"commands": {"hi": {"action": "noop"}}, "tools": {"weather": {}}})).await;
    let mut z = start(&e).await;
    let r = z.call(json!({"type":"ext_list"})).await;
    let x = &r["data"]["extensions"][0];
    assert_eq!(x["name"], "fx");
    assert_eq!(x["scope"], "explicit");
    assert_eq!(x["state"], "ready");
    assert_eq!(x["commands"][0]["name"], "hi");
    assert_eq!(x["tools"][0]["name"], "weather");
    let help = z.call(json!({"type":"command","name":"help"})).await;
    assert!(
        help["data"]["text"]
            .as_str()
            .unwrap()
            .contains("/hi - fixture hi [fx]"),
        "{help}"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn command_actions_become_events_and_a_prompt_action_runs_a_turn() {
    let e = env(json!({"commands": {
        "ins": {"action": "insert", "insert": "typed for you"},
        "disp": {"action": "display", "display": "shown once", "notify": true, "clear_notes": true},
        "ask": {"action": "prompt", "prompt": "Greet me."},
        "bad": {"action": "noop", "error": "it broke"},
        "sub": {"action": "noop", "submit": "sneaky prompt"}
    }}))
    .await;
    e.zot.llm.push(anthropic_text(&["Hello!"]));
    let mut z = start(&e).await;

    let r = z
        .call(json!({"type":"command","name":"ins","args":"x"}))
        .await;
    assert_eq!(
        r["data"],
        json!({"extension":"fx","action":"insert","insert":"typed for you"})
    );
    let evs = z.until(|v| v["type"] == "ext_insert").await;
    assert_eq!(evs.last().unwrap()["text"], "typed for you");

    let r = z
        .call(json!({"type":"command","name":"/DISP","args":"now"}))
        .await;
    assert_eq!(r["data"]["action"], "display");
    let evs = z.until(|v| v["type"] == "ext_display").await;
    let note = of(&evs, "ext_notify")[0];
    assert_eq!(
        (note["level"].as_str(), note["message"].as_str()),
        (Some("warn"), Some("heads up: now"))
    );
    assert_eq!(of(&evs, "ext_clear_notes")[0]["extension"], "fx");
    assert_eq!(evs.last().unwrap()["text"], "shown once");

    let r = z.call(json!({"type":"command","name":"bad"})).await;
    assert_eq!(r["data"]["error"], "it broke");
    let evs = z.until(|v| v["type"] == "ext_status").await;
    assert_eq!(evs.last().unwrap()["level"], "error");

    let r = z.call(json!({"type":"command","name":"ask"})).await;
    assert_eq!(r["data"]["action"], "prompt");
    assert_eq!(r["data"]["prompt"], "Greet me.");
    let evs = z.until(|v| v["type"] == "done").await;
    let asked = of(&evs, "user_message")[0];
    assert_eq!(asked["content"], "Greet me.");
    // The window labels it: sent by /ask of fx, not typed by the user.
    assert_eq!(
        (asked["extension"].as_str(), asked["command"].as_str()),
        (Some("fx"), Some("ask"))
    );
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "Hello!");

    // `submit` is ignored in RPC mode: no turn starts.
    z.call(json!({"type":"command","name":"sub"})).await;
    z.call(json!({"type":"ping"})).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["message_count"], 2);
    assert!(!z
        .log
        .iter()
        .any(|v| v["type"] == "user_message" && v["content"] == "sneaky prompt"));
    assert_eq!(e.zot.llm.requests().len(), 1);
}

#[tokio::test]
async fn panels_open_render_on_keys_and_close_tells_the_owner() {
    let e = env(json!({"commands": {"todo": {"action": "open_panel",
        "open_panel": {"id": "p1", "title": "Todos", "lines": ["a"], "footer": "esc close"}}}}))
    .await;
    let mut z = start(&e).await;
    let r = z.call(json!({"type":"command","name":"todo"})).await;
    assert_eq!(r["data"]["open_panel"]["id"], "p1");
    let evs = z.until(|v| v["type"] == "ext_panel_open").await;
    assert_eq!(evs.last().unwrap()["panel"]["title"], "Todos");
    // It declared no panel input beyond the seed's.
    assert!(evs.last().unwrap().get("capabilities").is_none());
    let r = z
        .call(json!({"type":"panel_key","panel_id":"p1","key":"rune","text":"x"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.until(|v| v["type"] == "ext_panel_render").await;
    assert_eq!(evs.last().unwrap()["lines"], json!(["key rune:x"]));
    let r = z.call(json!({"type":"panel_close","panel_id":"p1"})).await;
    assert_eq!(r["success"], true);
    fixtures::wait_seen(&e.ext, |v| {
        v["type"] == "panel_close" && v["panel_id"] == "p1"
    })
    .await;
    let r = z
        .call(json!({"type":"panel_key","panel_id":"nope","key":"up"}))
        .await;
    assert_eq!(r["success"], false);
    assert!(r["error"].as_str().unwrap().contains("nope"));
}

#[tokio::test]
async fn a_panel_esc_extension_receives_esc_as_a_key_and_its_panel_stays_open() {
    let e = env(json!({"capabilities": ["panel_esc"],
        "commands": {"todo": {"action": "open_panel",
        "open_panel": {"id": "p1", "title": "Todos", "lines": ["a"], "footer": "esc cancel"}}}}))
    .await;
    let mut z = start(&e).await;
    z.call(json!({"type":"command","name":"todo"})).await;
    let evs = z.until(|v| v["type"] == "ext_panel_open").await;
    // The UI learns from the open event that Esc belongs to the extension.
    assert_eq!(
        evs.last().unwrap()["capabilities"],
        json!(["panel_esc"]),
        "{evs:?}"
    );
    let r = z
        .call(json!({"type":"panel_key","panel_id":"p1","key":"esc"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    fixtures::wait_seen(&e.ext, |v| {
        v["type"] == "panel_key" && v["panel_id"] == "p1" && v["key"] == "esc"
    })
    .await;
    let evs = z.until(|v| v["type"] == "ext_panel_render").await;
    assert_eq!(evs.last().unwrap()["lines"], json!(["key esc"]));
    // Still open: the host neither closed it nor told the owner it closed.
    assert!(!z.log.iter().any(|v| v["type"] == "ext_panel_close"));
    assert!(!fixtures::seen(&e.ext)
        .iter()
        .any(|v| v["type"] == "panel_close"));
    let r = z
        .call(json!({"type":"panel_key","panel_id":"p1","key":"down"}))
        .await;
    assert_eq!(r["success"], true, "the panel is still open: {r}");
}

#[tokio::test]
async fn subscribers_receive_every_lifecycle_event() {
    let e = env(json!({"subscribe": {"events": ["session_start","turn_start","tool_call","assistant_message","turn_end"]}})).await;
    e.zot.llm.push(anthropic_tool(
        "Reading.",
        "t1",
        "read",
        &["{\"path\":\"nope\"}"],
    ));
    e.zot.llm.push(anthropic_text(&["Fine."]));
    let mut z = start(&e).await;
    z.prompt("go").await;
    fixtures::wait_seen(&e.ext, |v| v["event"] == "turn_end" && v["stop"] == "end").await;
    let evs: Vec<Value> = fixtures::seen(&e.ext)
        .into_iter()
        .filter(|v| v["type"] == "event")
        .collect();
    let names: Vec<&str> = evs.iter().map(|v| v["event"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        vec![
            "session_start",
            "turn_start",
            "assistant_message",
            "tool_call",
            "turn_end",
            "turn_start",
            "assistant_message",
            "turn_end"
        ]
    );
    assert_eq!(evs[1]["step"], 1);
    assert_eq!(evs[3]["tool_name"], "read");
    assert_eq!(evs[3]["tool_args"], json!({"path":"nope"}));
    assert_eq!(evs[4]["stop"], "tool_use");
    assert_eq!(evs[6]["text"], "Fine.");
}

#[tokio::test]
async fn a_blocked_turn_never_calls_the_model() {
    let e = env(json!({"subscribe": {"intercept": ["turn_start"]},
        "intercept": {"turn_start": {"block": true, "reason": "outside business hours"}}}))
    .await;
    let mut z = start(&e).await;
    let evs = z.prompt("hi").await;
    let st = of(&evs, "ext_status")[0];
    assert_eq!(
        (st["extension"].as_str(), st["text"].as_str()),
        (Some("fx"), Some("outside business hours"))
    );
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "blocked");
    assert!(of(&evs, "turn_start").is_empty());
    assert!(e.zot.llm.requests().is_empty());
}

#[tokio::test]
async fn a_blocked_tool_call_reaches_the_model_as_that_tools_error() {
    let e = env(json!({"subscribe": {"intercept": ["tool_call"]},
        "intercept": {"tool_call": {"block": true, "reason": "refused: matches rm -rf"}}}))
    .await;
    e.zot.llm.push(anthropic_tool(
        "",
        "t1",
        "bash",
        &["{\"command\":\"touch gone.txt\"}"],
    ));
    e.zot.llm.push(anthropic_text(&["ok"]));
    let mut z = start(&e).await;
    let evs = z.prompt("clean").await;
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], true);
    assert!(r["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("refused: matches rm -rf"));
    assert!(
        !e.zot.cwd.path().join("gone.txt").exists(),
        "the blocked command ran"
    );
    let sent = &e.zot.llm.requests()[1].body["messages"][2]["content"][0];
    assert_eq!(sent["is_error"], true);
    assert!(sent["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("refused: matches rm -rf"));
}

#[tokio::test]
async fn modified_args_are_what_the_tool_runs() {
    let e = env(json!({"subscribe": {"intercept": ["tool_call"]},
        "intercept": {"tool_call": {"modified_args": {"command": "echo GUARDED"}}}}))
    .await;
    e.zot.llm.push(anthropic_tool(
        "",
        "t1",
        "bash",
        &["{\"command\":\"echo original\"}"],
    ));
    e.zot.llm.push(anthropic_text(&["ok"]));
    let mut z = start(&e).await;
    let evs = z.prompt("run").await;
    assert_eq!(
        of(&evs, "tool_call")[0]["args"],
        json!({"command":"echo GUARDED"})
    );
    assert!(of(&evs, "tool_result")[0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("GUARDED"));
}

#[tokio::test]
async fn replace_text_changes_only_what_the_user_sees() {
    let e = env(json!({"subscribe": {"intercept": ["assistant_message"]},
        "intercept": {"assistant_message": {"replace_text": "[redacted]"}}}))
    .await;
    e.zot.llm.push(anthropic_text(&["my key is sk-123"]));
    e.zot.llm.push(anthropic_text(&["again"]));
    let mut z = start(&e).await;
    let evs = z.prompt("key?").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "[redacted]");
    let m = z.call(json!({"type":"get_messages"})).await;
    assert_eq!(
        m["data"]["messages"][1]["content"][0]["text"],
        "my key is sk-123"
    );
    z.prompt("more").await;
    assert_eq!(
        e.zot.llm.requests()[1].body["messages"][1]["content"][0]["text"],
        "my key is sk-123"
    );
}

#[tokio::test]
async fn extension_tools_are_advertised_called_and_attributed() {
    let e = env(json!({"tools": {"weather": {"description": "Weather for a city.",
        "schema": {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}, "echo": true}}})).await;
    // Arguments that miss the schema reach the extension as sent: the spec
    // makes it responsible for validating and coercing them.
    e.zot
        .llm
        .push(anthropic_tool("", "t0", "weather", &["{\"city\": 5}"]));
    e.zot.llm.push(anthropic_tool(
        "",
        "t1",
        "weather",
        &["{\"city\":", "\"Berlin\"}"],
    ));
    e.zot.llm.push(anthropic_text(&["Foggy."]));
    let mut z = start(&e).await;
    let evs = z.prompt("weather?").await;
    let tools: Vec<Value> = e.zot.llm.requests()[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert!(
        tools.contains(&json!("weather")) && tools.contains(&json!("bash")),
        "{tools:?}"
    );
    let loose = of(&evs, "tool_result")[0];
    assert_eq!(loose["is_error"], false, "{loose}");
    assert_eq!(loose["content"][0]["text"], "{\"city\": 5}");
    assert_eq!(of(&evs, "tool_call")[1]["extension"], "fx");
    let r = of(&evs, "tool_result")[1];
    assert_eq!(r["extension"], "fx");
    assert_eq!(r["content"][0]["text"], "{\"city\": \"Berlin\"}");
}

#[tokio::test]
async fn a_deferred_tool_is_advertised_on_the_request_after_its_activation() {
    let e = env(json!({"tools": {
        "loader": {"result": {"content": [{"type":"text","text":"enabled"}], "activate_tools": ["hidden", "unknown"]}},
        "hidden": {"deferred": true, "echo": true}}})).await;
    e.zot.llm.push(anthropic_tool("", "t1", "loader", &["{}"]));
    e.zot
        .llm
        .push(anthropic_tool("", "t2", "hidden", &["{\"a\":1}"]));
    e.zot.llm.push(anthropic_text(&["done"]));
    let mut z = start(&e).await;
    let evs = z.prompt("load").await;
    // Anthropic: offered for its tool search (`defer_loading`) until the
    // activation, an ordinary tool after it.
    let deferred = |i: usize| -> Option<bool> {
        e.zot.llm.requests()[i].body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "hidden")
            .map(|t| t["defer_loading"] == true)
    };
    assert_eq!(deferred(0), Some(true));
    assert_eq!(deferred(1), Some(false));
    assert_eq!(
        of(&evs, "tool_result")[1]["content"][0]["text"],
        "{\"a\": 1}"
    );
}

#[tokio::test]
async fn reload_ext_reports_and_the_extension_keeps_working() {
    let e = env(json!({"commands": {"hi": {"action": "display", "display": "hello"}}})).await;
    let mut z = start(&e).await;
    let r = z.call(json!({"type":"command","name":"reload-ext"})).await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.until(|v| v["type"] == "ext_reload").await;
    let rep = evs.last().unwrap();
    assert_eq!(
        (
            rep["stopped"].as_u64(),
            rep["loaded"].as_u64(),
            rep["ready"].as_u64()
        ),
        (Some(1), Some(1), Some(1)),
        "{rep}"
    );
    assert_eq!(rep["errors"], json!([]));
    z.call(json!({"type":"ping"})).await;
    assert_eq!(
        of(&z.log, "ext_reload").len(),
        1,
        "one ext_reload per reload"
    );
    let r = z.call(json!({"type":"command","name":"hi"})).await;
    assert_eq!(r["data"]["display"], "hello");
}

#[tokio::test]
async fn without_an_api_key_extensions_still_work() {
    let e = env(json!({"commands": {"hi": {"action": "display", "display": "still here"}}})).await;
    let ext = e.ext.to_str().unwrap().to_owned();
    let mut z = Rpc::start(
        e.zot.home.path(),
        e.zot.cwd.path(),
        &["--no-session", "--no-ext", "-e", &ext],
        &[],
    )
    .await;
    let r = z.call(json!({"type":"command","name":"hi"})).await;
    assert_eq!(r["data"]["display"], "still here");
    let evs = z.prompt("hello").await;
    assert!(of(&evs, "error")[0]["message"]
        .as_str()
        .unwrap()
        .contains("no API key for anthropic"));
    assert_eq!(
        z.call(json!({"type":"ext_list"})).await["data"]["extensions"][0]["state"],
        "ready"
    );
}

#[tokio::test]
async fn a_crashed_extensions_tools_fail_the_call_and_leave_the_registry() {
    // No automatic restart: it would race the model's second request.
    let e = env(json!({"restart": "never", "tools": {"boom": {"crash": true}}})).await;
    e.zot.llm.push(anthropic_tool("", "t1", "boom", &["{}"]));
    e.zot.llm.push(anthropic_text(&["ok"]));
    let mut z = start(&e).await;
    let evs = z.prompt("go").await;
    let r = of(&evs, "tool_result")[0];
    assert_eq!(r["is_error"], true);
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("fx") && text.contains("ext-fx.log"), "{text}");
    let names: Vec<Value> = e.zot.llm.requests()[1].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].clone())
        .collect();
    assert!(!names.contains(&json!("boom")), "{names:?}");
    assert!(names.contains(&json!("read")));
}
