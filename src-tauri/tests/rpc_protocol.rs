//! The RPC surface itself: bad lines, unknown commands and missing fields
//! get `success:false` and the process keeps serving; hello and its token;
//! state, models and the missing-key message; exit 0 on stdin EOF.

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

#[tokio::test]
async fn bad_lines_get_clear_errors_and_the_process_keeps_serving() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::start(home.path(), cwd.path(), &["--no-ext", "--no-session"], &[]).await;
    z.send_raw("this is not json").await;
    let r = z.until(|v| v["type"] == "response").await.pop().unwrap();
    assert_eq!(r["success"], false);
    assert!(r["error"].as_str().unwrap().contains("not JSON"), "{r}");
    let r = z.call(json!({"type":"teleport"})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("unknown command type \"teleport\""),
        "{r}"
    );
    let r = z.call(json!({"type":"prompt"})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("missing field `message`"),
        "{r}"
    );
    let r = z.call(json!({"type":"set_model"})).await;
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("missing field `model`"),
        "{r}"
    );
    z.send_raw("[1,2]").await;
    let r = z
        .until(|v| v["type"] == "response" && v.get("id").is_none())
        .await
        .pop()
        .unwrap();
    assert!(
        r["error"].as_str().unwrap().contains("not a JSON object"),
        "{r}"
    );
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(r["data"]["pong"], true);
    assert!(z.close().await.success());
}

#[tokio::test]
async fn hello_reports_versions_and_a_wrong_token_exits_1() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &[
            "--no-ext",
            "--no-session",
            "--provider",
            "kimi",
            "--model",
            "k2",
        ],
        &[],
    )
    .await;
    let r = z.call(json!({"type":"hello"})).await;
    assert_eq!(r["data"]["protocol_version"], 1);
    assert_eq!(r["data"]["provider"], "kimi");
    assert_eq!(r["data"]["model"], "k2");
    assert_eq!(
        r["data"]["cwd"],
        cwd.path().canonicalize().unwrap().display().to_string()
    );
    z.close().await;

    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session"],
        &[("ZOT_RPC_TOKEN", "s3cret")],
    )
    .await;
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(
        r["success"], false,
        "commands before hello are refused when a token is required"
    );
    assert!(
        r["error"].as_str().unwrap().contains("ZOT_RPC_TOKEN"),
        "{r}"
    );
    let r = z.call(json!({"type":"hello","token":"s3cret"})).await;
    assert_eq!(r["success"], true);
    assert_eq!(z.call(json!({"type":"ping"})).await["success"], true);
    let r = z.call(json!({"type":"hello","token":"s3cret"})).await;
    assert_eq!(r["success"], true);
    let r = z.call(json!({"type":"hello","token":"guess"})).await;
    assert_eq!(r["success"], false);
    assert!(r["error"].as_str().unwrap().contains("ZOT_RPC_TOKEN"));
    let status = tokio::time::timeout(WAIT, z.child.wait())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status.code(), Some(1));
}

#[tokio::test]
async fn without_a_key_a_prompt_says_exactly_how_to_set_one_and_serving_goes_on() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session", "--provider", "openai"],
        &[],
    )
    .await;
    let evs = z.prompt("hi").await;
    let m = of(&evs, "error")[0]["message"].as_str().unwrap().to_owned();
    assert!(
        m.contains("--api-key") && m.contains("OPENAI_API_KEY") && m.contains("auth.json"),
        "{m}"
    );
    assert_eq!(of(&evs, "turn_end")[0]["stop"], "error");
    assert_eq!(z.call(json!({"type":"ping"})).await["success"], true);
    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["message_count"], 0);
}

#[tokio::test]
async fn a_key_in_auth_json_is_used() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["ok"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(
        home.path().join("auth.json"),
        r#"{"anthropic":{"api_key":"from-file"}}"#,
    )
    .unwrap();
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session", "--base-url", &s.url],
        &[],
    )
    .await;
    z.prompt("hi").await;
    assert_eq!(s.requests()[0].header("x-api-key"), Some("from-file"));
}

#[tokio::test]
async fn models_state_and_set_model() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["ok"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session"],
        &[],
    )
    .await;
    let r = z.call(json!({"type":"get_models"})).await;
    assert_eq!(r["data"]["models"][0]["id"], "fake-model-1");
    assert_eq!(r["data"]["models"][0]["provider"], "anthropic");
    let r = z
        .call(json!({"type":"set_model","model":"fake-model-2"}))
        .await;
    assert_eq!(r["success"], true);
    z.prompt("hi").await;
    assert_eq!(s.requests().last().unwrap().body["model"], "fake-model-2");
    let r = z.call(json!({"type":"command","name":"model"})).await;
    assert_eq!(r["data"]["model"], "fake-model-2");
    let r = z.call(json!({"type":"clear"})).await;
    assert_eq!(r["success"], true);
    assert_eq!(
        z.call(json!({"type":"get_state"})).await["data"]["message_count"],
        0
    );
    let r = z.call(json!({"type":"command","name":"nope"})).await;
    assert_eq!(r["success"], false);
    assert!(r["error"].as_str().unwrap().contains("/nope"), "{r}");
}

#[tokio::test]
async fn system_prompt_flags_reach_the_model() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["ok"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(home.path().join("SYSTEM.md"), "from SYSTEM.md").unwrap();
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &[
            "--no-ext",
            "--no-session",
            "--append-system-prompt",
            "A1",
            "--append-system-prompt",
            "A2",
        ],
        &[],
    )
    .await;
    z.prompt("hi").await;
    assert_eq!(
        s.requests()[0].body["system"][0]["text"],
        "from SYSTEM.md\n\nA1\n\nA2"
    );
}

#[tokio::test]
async fn prompt_images_reach_the_model_and_bad_base64_is_refused() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["a cat"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session"],
        &[],
    )
    .await;
    let r = z.call(json!({"type":"prompt","message":"what?","images":[{"mime_type":"image/png","data":"not base64!"}]})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("not valid base64"),
        "{r}"
    );
    // A type the providers do not take, and one over the size limit: each
    // refused with the rule in the message, and nothing reaches the model.
    let r = z.call(json!({"type":"prompt","message":"what?","images":[{"mime_type":"image/tiff","data":"iVBORw=="}]})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("PNG, JPEG, GIF or WebP; this one is image/tiff"),
        "{r}"
    );
    use base64::Engine as _;
    let big = base64::engine::general_purpose::STANDARD.encode(vec![0u8; 5 * 1024 * 1024 + 1]);
    let r = z.call(json!({"type":"prompt","message":"what?","images":[{"mime_type":"image/png","data":big}]})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("over the limit of 5 MiB"),
        "{r}"
    );
    assert!(s.requests().is_empty());
    z.send(json!({"type":"prompt","message":"what?","images":[{"mime_type":"image/png","data":"iVBORw=="}]})).await;
    let evs = z.until(|v| v["type"] == "done").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "a cat");
    let img = &s.requests()[0].body["messages"][0]["content"][1];
    assert_eq!(img["source"]["data"], "iVBORw==");
    assert_eq!(img["source"]["media_type"], "image/png");
}
