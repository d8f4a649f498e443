//! Dialogs over RPC (docs/rpc.md "Dialogs") with the real binary and a
//! real Python fixture extension: every kind goes out as a `ui_request`
//! event and comes back to the extension as its one `ui_response`; a bad
//! request, a fifth one, a timeout, an extension that exits and a mode
//! with no user each end in `cancel` with their reason.

use zot_test_support::fixtures;

use std::path::Path;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

/// The `ui_response` the extension received for its request `id`.
async fn answer_to(dir: &Path, id: &str) -> Value {
    let id = id.to_owned();
    fixtures::wait_seen(dir, move |v| v["type"] == "ui_response" && v["id"] == id).await
}

async fn start(
    plan: Value,
) -> (
    FakeLlm,
    tempfile::TempDir,
    tempfile::TempDir,
    Rpc,
    std::path::PathBuf,
) {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let dir = fixtures::agent_ext(&home.path().join("extensions"), "asker", plan);
    let args = ["--no-session"];
    let z = Rpc::against(&s, home.path(), cwd.path(), &args, &[]).await;
    (s, home, cwd, z, dir)
}

fn form_schema() -> Value {
    json!({"type": "object", "properties": {
        "title": {"type": "string", "minLength": 1},
        "due": {"type": "string", "format": "date"}},
        "required": ["title"]})
}

#[tokio::test]
async fn every_kind_is_asked_and_answered_once() {
    let (_s, _h, _c, mut z, dir) = start(json!({"name": "asker", "commands": {"ask": {
    "action": "noop",
    "ask": [
        {"id": "c", "kind": "confirm", "title": "Delete it?"},
        {"id": "s", "kind": "select", "title": "Which?", "options": ["a", "b"], "default": "b"},
        {"id": "i", "kind": "input", "title": "Name?", "placeholder": "a name"},
        {"id": "f", "kind": "form", "title": "New item", "schema": form_schema()}
    ]}}}))
    .await;
    z.call(json!({"type": "command", "name": "ask"})).await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let ev = z.until(|v| v["type"] == "ui_request").await.pop().unwrap();
        assert_eq!(ev["extension"], "asker", "{ev}");
        assert_eq!(ev["timeout_ms"], 120_000, "{ev}");
        ids.push((
            ev["kind"].as_str().unwrap().to_owned(),
            ev["request_id"].as_str().unwrap().to_owned(),
            ev,
        ));
    }
    let kinds: Vec<&str> = ids.iter().map(|(k, _, _)| k.as_str()).collect();
    assert_eq!(kinds, ["confirm", "select", "input", "form"]);
    assert_eq!(ids[1].2["options"], json!(["a", "b"]));
    assert_eq!(ids[3].2["schema"], form_schema());

    // A value that does not fit is refused, naming the field; the dialog
    // stays open and takes a good answer after.
    let form = ids[3].1.clone();
    let r = z
        .call(json!({"type": "ui_respond", "request_id": form, "action": "accept", "value": {"title": "milk", "due": "tomorrow"}}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    let err = r["error"].as_str().unwrap();
    assert!(err.contains("due: must be a date"), "{err}");
    let r = z
        .call(
            json!({"type": "ui_respond", "request_id": ids[1].1, "action": "accept", "value": "c"}),
        )
        .await;
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("not one of the options"),
        "{r}"
    );

    for (kind, rid, _) in &ids {
        let (action, value) = match kind.as_str() {
            "confirm" => ("accept", json!(true)),
            "select" => ("accept", json!("a")),
            "input" => ("decline", Value::Null),
            _ => ("accept", json!({"title": "milk", "due": "2026-12-31"})),
        };
        let mut cmd = json!({"type": "ui_respond", "request_id": rid, "action": action});
        if !value.is_null() {
            cmd["value"] = value;
        }
        let r = z.call(cmd).await;
        assert_eq!(r["success"], true, "{r}");
    }
    assert_eq!(answer_to(&dir, "c").await["value"], true);
    assert_eq!(answer_to(&dir, "s").await["value"], "a");
    let i = answer_to(&dir, "i").await;
    assert_eq!(i["action"], "decline");
    assert!(i.get("value").is_none(), "{i}");
    assert_eq!(
        answer_to(&dir, "f").await["value"],
        json!({"title": "milk", "due": "2026-12-31"})
    );

    // Exactly once: a second answer finds nothing.
    let r = z
        .call(json!({"type": "ui_respond", "request_id": ids[0].1, "action": "accept"}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("no dialog waits"),
        "{r}"
    );
    let answers = fixtures::seen(&dir)
        .into_iter()
        .filter(|v| v["type"] == "ui_response")
        .count();
    assert_eq!(answers, 4);
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_bad_request_is_cancelled_at_once_naming_its_field() {
    let (_s, home, _c, mut z, dir) = start(json!({"name": "asker", "commands": {"ask": {
        "action": "noop",
        "ask": [
            {"id": "k", "kind": "pick", "title": "?"},
            {"id": "o", "kind": "select", "title": "?", "options": []},
            {"id": "n", "kind": "form", "title": "?", "schema": {"type": "object", "properties": {"x": {"type": "object"}}}},
            {"id": "d", "kind": "select", "title": "?", "options": ["a"], "default": "z"}
        ]}}}))
    .await;
    z.call(json!({"type": "command", "name": "ask"})).await;
    for (id, field) in [
        ("k", "kind"),
        ("o", "options"),
        ("n", "schema.properties.x"),
        ("d", "default"),
    ] {
        let a = answer_to(&dir, id).await;
        assert_eq!(a["action"], "cancel", "{a}");
        let reason = a["reason"].as_str().unwrap();
        assert!(reason.starts_with(&format!("{field}: ")), "{id}: {reason}");
    }
    assert!(
        z.log.iter().all(|v| v["type"] != "ui_request"),
        "a bad request was shown"
    );
    let log = std::fs::read_to_string(home.path().join("logs/ext-asker.log")).unwrap();
    assert_eq!(
        log.matches("ui_request 'o' refused: options").count(),
        1,
        "{log}"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_flood_of_bad_requests_is_answered_in_full_but_logged_only_up_to_the_cap() {
    const FLOOD: usize = 25;
    let ask: Vec<Value> = (1..=FLOOD)
        .map(|i| json!({"id": format!("b{i}"), "kind": "pick", "title": "?"}))
        .collect();
    let (_s, home, _c, mut z, dir) =
        start(json!({"name": "asker", "commands": {"ask": {"action": "noop", "ask": ask}}})).await;
    z.call(json!({"type": "command", "name": "ask"})).await;
    // Every request gets its answer: only the log lines are capped.
    for i in 1..=FLOOD {
        let a = answer_to(&dir, &format!("b{i}")).await;
        assert_eq!(a["action"], "cancel", "{a}");
        assert!(a["reason"].as_str().unwrap().starts_with("kind: "), "{a}");
    }
    let log = std::fs::read_to_string(home.path().join("logs/ext-asker.log")).unwrap();
    // REFUSED_LINES_PER_MINUTE in extensions/host/src/io/ext_log.rs.
    let cap = 10;
    let refused: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("ui_request 'b"))
        .collect();
    assert_eq!(refused.len(), cap + 1, "{log}");
    assert!(
        refused[cap].contains("the rest are counted, not logged"),
        "the last line says the rest are not logged: {log}"
    );
    assert_eq!(
        log.matches("counted, not logged").count(),
        1,
        "said once: {log}"
    );
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_fifth_request_is_too_many_and_a_timeout_cancels() {
    let ask: Vec<Value> = (1..=5)
        .map(|i| json!({"id": format!("q{i}"), "kind": "confirm", "title": format!("#{i}"), "timeout_ms": if i == 1 { 50 } else { 600_000_000 }}))
        .collect();
    let (_s, _h, _c, mut z, dir) =
        start(json!({"name": "asker", "commands": {"ask": {"action": "noop", "ask": ask}}})).await;
    z.call(json!({"type": "command", "name": "ask"})).await;
    let five = answer_to(&dir, "q5").await;
    assert_eq!(five["action"], "cancel");
    assert_eq!(five["reason"], "too many");
    // The first times out: the extension and the client are told.
    let one = answer_to(&dir, "q1").await;
    assert_eq!(one["reason"], "timeout", "{one}");
    let done = z.until(|v| v["type"] == "ui_request_done").await;
    let done = done.last().unwrap();
    assert_eq!(done["action"], "cancel");
    assert_eq!(done["reason"], "timeout");
    let shown: Vec<&Value> = z.log.iter().filter(|v| v["type"] == "ui_request").collect();
    assert_eq!(shown.len(), 4, "the fifth is never shown");
    assert_eq!(shown[1]["timeout_ms"], 600_000, "capped");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn dialogs_close_when_their_extension_exits() {
    let (_s, _h, _c, mut z, dir) = start(
        json!({"name": "asker", "restart": "never", "commands": {"ask": {
        "action": "noop", "exit": 3,
        "ask": [{"id": "c", "kind": "confirm", "title": "Sure?"}]}}}),
    )
    .await;
    z.call(json!({"type": "command", "name": "ask"})).await;
    let ev = z.until(|v| v["type"] == "ui_request").await.pop().unwrap();
    let done = z
        .until(|v| v["type"] == "ui_request_done")
        .await
        .pop()
        .unwrap();
    assert_eq!(done["request_id"], ev["request_id"]);
    assert_eq!(done["action"], "cancel");
    assert!(
        done["reason"].as_str().unwrap().contains("stopped"),
        "{done}"
    );
    let r = z
        .call(json!({"type": "ui_respond", "request_id": ev["request_id"], "action": "accept"}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    assert!(fixtures::seen(&dir)
        .iter()
        .all(|v| v["type"] != "ui_response"));
    assert!(z.close().await.success());
}

#[tokio::test]
async fn json_mode_has_no_user_and_answers_cancel() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["ok"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let dir = fixtures::agent_ext(
        &home.path().join("extensions"),
        "asker",
        json!({"name": "asker", "ask_at_start": [{"id": "c", "kind": "confirm", "title": "Sure?"}]}),
    );
    let out = command(
        home.path(),
        cwd.path(),
        &[
            "--mode",
            "json",
            "hi",
            "--no-session",
            "--base-url",
            &s.url,
            "--api-key",
            "k",
        ],
    )
    .output()
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let a = answer_to(&dir, "c").await;
    assert_eq!(a["action"], "cancel");
    assert_eq!(a["reason"], "no user");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("\"ui_request\""), "{stdout}");
}

#[tokio::test]
async fn abort_cancels_what_the_aborted_prompt_asked_and_nothing_else() {
    let (s, _h, _c, mut z, dir) = start(json!({"name": "asker",
        "commands": {"ask": {"action": "noop", "ask": [{"id": "before", "kind": "confirm", "title": "Asked outside a prompt"}]}},
        "tools": {"careful": {"ask": [{"id": "during", "kind": "confirm", "title": "Asked by a tool"}]}}}))
    .await;
    z.call(json!({"type": "command", "name": "ask"})).await;
    let before = z.until(|v| v["type"] == "ui_request").await.pop().unwrap();
    s.push(anthropic_tool("Checking.", "t1", "careful", &["{}"]));
    s.push(anthropic_text(&["never reached"]));
    z.send(json!({"type": "prompt", "message": "go"})).await;
    let during = z.until(|v| v["type"] == "ui_request").await.pop().unwrap();
    assert_eq!(during["title"], "Asked by a tool");
    z.call(json!({"type": "abort"})).await;
    let done = z
        .until(|v| v["type"] == "ui_request_done")
        .await
        .pop()
        .unwrap();
    assert_eq!(done["request_id"], during["request_id"]);
    assert_eq!(done["reason"], "aborted");
    assert_eq!(answer_to(&dir, "during").await["reason"], "aborted");
    z.until(|v| v["type"] == "done").await;
    // The one asked outside the prompt still waits, and can be answered.
    let r = z
        .call(json!({"type": "ui_respond", "request_id": before["request_id"], "action": "accept"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(answer_to(&dir, "before").await["action"], "accept");
    assert!(z.close().await.success());
}
