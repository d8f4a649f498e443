//! Tool approvals through the real binary in RPC mode (docs/rpc.md "Tool
//! approvals", docs/security.md): `--approvals ask` announces calls that
//! need the user as `tool_approval` and waits; `approve_tool` answers,
//! once; `abort` denies what waits; remembered rules land in
//! `config.json` and apply to the next call; writes are judged where they
//! really point; a bash prefix rule never lets chained commands through;
//! a broken rule section never allows anything.

use zot_test_support::fixtures;

use std::path::Path;

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

/// The model calls `tool` with `args`, then says "ok".
pub(crate) fn script(e: &Setup, id: &str, tool: &str, args: Value) {
    e.llm
        .push(anthropic_tool("", id, tool, &[&args.to_string()]));
    e.llm.push(anthropic_text(&["ok"]));
}

pub(crate) fn text(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

pub(crate) fn config(home: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(home.join("config.json")).unwrap()).unwrap()
}

/// Answers approval `ap` (its id is the request's id on the wire, as the
/// spec says) and returns the response to exactly this line.
pub(crate) async fn answer(z: &mut Rpc, id: &Value, decision: &str, extra: Value) -> Value {
    let mut cmd = json!({"type": "approve_tool", "id": id, "decision": decision});
    if let (Some(c), Some(x)) = (cmd.as_object_mut(), extra.as_object()) {
        c.extend(x.clone());
    }
    let from = z.log.len();
    z.send_raw(&cmd.to_string()).await;
    z.find_from(from, |v| {
        v["type"] == "response" && v["command"] == "approve_tool"
    })
    .await
}

/// Sends a prompt and reads up to its `tool_approval`.
pub(crate) async fn until_approval(z: &mut Rpc, prompt: &str) -> Value {
    z.send(json!({"type":"prompt","message":prompt})).await;
    let evs = z.until(|v| v["type"] == "tool_approval").await;
    evs.last().unwrap().clone()
}

#[tokio::test]
async fn an_approved_call_runs_after_its_tool_call_event() {
    let e = Setup::new().await;
    script(&e, "t1", "bash", json!({"command": "echo approved-run"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    z.send(json!({"type":"prompt","message":"go"})).await;
    let before = z.until(|v| v["type"] == "tool_approval").await;
    assert_eq!(
        types(&before).iter().rev().take(2).collect::<Vec<_>>(),
        ["tool_approval", "tool_call"]
    );
    let ap = before.last().unwrap().clone();
    assert_eq!(ap["tool"], "bash");
    assert_eq!(ap["call_id"], "t1");
    assert_eq!(ap["args"], json!({"command": "echo approved-run"}));
    assert!(ap["reason"].as_str().unwrap().contains("bash"), "{ap}");
    assert!(ap["remember"]
        .as_str()
        .unwrap()
        .contains("echo approved-run"));
    // Nothing ran yet: the turn waits.
    assert!(of(&z.log, "tool_result").is_empty());
    let r = answer(&mut z, &ap["id"], "allow", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"]["decision"], "allow");
    let evs = z.until(|v| v["type"] == "done").await;
    let res = of(&evs, "tool_result")[0];
    assert_eq!(res["is_error"], false, "{res}");
    assert!(text(res).contains("approved-run"));
}

#[tokio::test]
async fn a_denied_call_is_an_error_result_for_the_model() {
    let e = Setup::new().await;
    let marker = e.cwd.path().join("ran.txt");
    script(&e, "t1", "bash", json!({"command": "touch ran.txt"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "go").await;
    let r = answer(&mut z, &ap["id"], "deny", json!({})).await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.until(|v| v["type"] == "done").await;
    let res = of(&evs, "tool_result")[0];
    assert_eq!(res["is_error"], true);
    assert!(text(res).contains("denied by the user"), "{res}");
    assert!(!marker.exists(), "a denied command ran");
    let sent = &e.llm.requests()[1].body["messages"][2]["content"][0];
    assert_eq!(sent["is_error"], true);
    assert!(sent["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("denied by the user"));
}

#[tokio::test]
async fn a_remembered_command_runs_next_time_without_asking() {
    let e = Setup::new().await;
    std::fs::write(e.home.path().join("config.json"), r#"{"theme":"light"}"#).unwrap();
    script(&e, "t1", "bash", json!({"command": "echo remembered"}));
    script(&e, "t2", "bash", json!({"command": "echo remembered"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "first").await;
    let r = answer(&mut z, &ap["id"], "allow", json!({"remember":true})).await;
    assert_eq!(r["success"], true, "{r}");
    assert!(r["data"]["remembered"]
        .as_str()
        .unwrap()
        .contains("echo remembered"));
    z.until(|v| v["type"] == "done").await;
    let c = config(e.home.path());
    assert_eq!(c["approvals"]["bash"], json!(["echo remembered"]));
    assert_eq!(c["theme"], "light", "the rest of config.json is kept");
    let evs = z.prompt("second").await;
    assert!(of(&evs, "tool_approval").is_empty(), "{evs:#?}");
    assert_eq!(of(&evs, "tool_result")[0]["is_error"], false);
}

#[tokio::test]
async fn a_client_prefix_rule_must_match_the_command() {
    let e = Setup::new().await;
    script(&e, "t1", "bash", json!({"command": "echo prefix one"}));
    script(&e, "t2", "bash", json!({"command": "echo prefix two"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "first").await;
    let r = answer(
        &mut z,
        &ap["id"],
        "allow",
        json!({"remember":true,"rule":"ls *"}),
    )
    .await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("does not match"),
        "{r}"
    );
    let r = answer(
        &mut z,
        &ap["id"],
        "allow",
        json!({"remember":true,"rule":"echo prefix *"}),
    )
    .await;
    assert_eq!(r["success"], true, "{r}");
    z.until(|v| v["type"] == "done").await;
    let evs = z.prompt("second").await;
    assert!(of(&evs, "tool_approval").is_empty());
    assert!(text(of(&evs, "tool_result")[0]).contains("prefix two"));
}

#[tokio::test]
async fn abort_denies_a_waiting_approval_and_ends_the_prompt_once() {
    let e = Setup::new().await;
    e.llm.push(anthropic_tool(
        "",
        "t1",
        "bash",
        &[&json!({"command": "touch never.txt"}).to_string()],
    ));
    e.llm.push(anthropic_text(&["after"]));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "go").await;
    // An unanswered approval keeps the prompt running.
    let st = z.call(json!({"type":"get_state"})).await;
    assert_eq!(st["data"]["busy"], true, "{st}");
    z.call(json!({"type":"abort"})).await;
    let evs = z.until(|v| v["type"] == "done").await;
    let res = of(&evs, "tool_result")[0];
    assert_eq!(res["is_error"], true);
    assert!(text(res).contains("aborted"), "{res}");
    assert_eq!(of(&evs, "turn_end").last().unwrap()["stop"], "aborted");
    assert!(!e.cwd.path().join("never.txt").exists());
    // Answering now is refused: the approval was settled by the abort.
    let r = answer(&mut z, &ap["id"], "allow", json!({})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("already answered"),
        "{r}"
    );
    let pong = z.call(json!({"type":"ping"})).await;
    assert_eq!(pong["success"], true);
    assert_eq!(of(&z.log, "done").len(), 1, "exactly one done");
    // The next prompt runs normally.
    let evs = z.prompt("again").await;
    let said: Vec<&Value> = of(&evs, "assistant_message");
    assert_eq!(
        said.first().map(|m| m["content"].clone()),
        Some(json!("after")),
        "{evs:#?}"
    );
}

#[tokio::test]
async fn a_second_answer_and_an_unknown_id_are_refused() {
    let e = Setup::new().await;
    script(&e, "t1", "bash", json!({"command": "echo once"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let r = answer(&mut z, &json!("approval-99"), "allow", json!({})).await;
    assert_eq!(r["success"], false);
    assert!(
        r["error"].as_str().unwrap().contains("no approval has id"),
        "{r}"
    );
    let ap = until_approval(&mut z, "go").await;
    let first = answer(&mut z, &ap["id"], "allow", json!({})).await;
    assert_eq!(first["success"], true);
    let second = answer(&mut z, &ap["id"], "deny", json!({})).await;
    assert_eq!(second["success"], false);
    assert!(second["error"]
        .as_str()
        .unwrap()
        .contains("already answered"));
    let evs = z.until(|v| v["type"] == "done").await;
    assert_eq!(of(&evs, "tool_result")[0]["is_error"], false);
    let r = z.call(json!({"type":"approve_tool","id":"x"})).await;
    assert_eq!(r["success"], false, "a missing decision is refused: {r}");
    let from = z.log.len();
    z.send_raw(r#"{"type":"approve_tool","decision":"allow"}"#)
        .await;
    let r = z
        .find_from(from, |v| v["type"] == "response" && v["id"].is_null())
        .await;
    assert!(r["error"].as_str().unwrap().contains("needs \"id\""), "{r}");
}

#[tokio::test]
async fn writes_inside_the_project_run_and_outside_or_through_a_link_ask() {
    let e = Setup::new().await;
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), e.cwd.path().join("out")).unwrap();
    let far = outside.path().join("far.txt");
    std::fs::write(&far, "old line\n").unwrap();
    e.llm.push(anthropic_tool(
        "",
        "w1",
        "write",
        &[&json!({"path": "sub/../in.txt", "content": "inside"}).to_string()],
    ));
    e.llm.push(anthropic_tool(
        "",
        "w2",
        "write",
        &[&json!({"path": far.to_str().unwrap(), "content": "new line\n"}).to_string()],
    ));
    e.llm.push(anthropic_tool(
        "",
        "w3",
        "edit",
        &[
            &json!({"path": "out/far.txt", "old_string": "old", "new_string": "linked"})
                .to_string(),
        ],
    ));
    e.llm.push(anthropic_text(&["ok"]));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "write").await;
    // The first write (inside) ran without asking.
    let res = of(&z.log, "tool_result");
    assert_eq!(res.len(), 1);
    assert_eq!(res[0]["is_error"], false, "{:?}", res[0]);
    assert_eq!(
        std::fs::read_to_string(e.cwd.path().join("in.txt")).unwrap(),
        "inside"
    );
    assert_eq!(ap["call_id"], "w2");
    assert!(ap["reason"]
        .as_str()
        .unwrap()
        .contains("outside the project"));
    assert_eq!(ap["before"], "old line\n", "the current text, for a diff");
    answer(&mut z, &ap["id"], "deny", json!({})).await;
    let ap = z
        .until(|v| v["type"] == "tool_approval")
        .await
        .pop()
        .unwrap();
    assert_eq!(ap["call_id"], "w3");
    let real = std::fs::canonicalize(outside.path()).unwrap();
    assert!(
        ap["reason"]
            .as_str()
            .unwrap()
            .contains(real.join("far.txt").to_str().unwrap()),
        "the reason names where the link really points: {ap}"
    );
    answer(&mut z, &ap["id"], "deny", json!({})).await;
    z.until(|v| v["type"] == "done").await;
    assert_eq!(std::fs::read_to_string(&far).unwrap(), "old line\n");
}

#[tokio::test]
async fn a_prefix_rule_cannot_be_stretched_with_chained_commands() {
    let e = Setup::new().await;
    std::fs::write(
        e.home.path().join("config.json"),
        json!({"approvals": {"bash": ["echo safe *"]}}).to_string(),
    )
    .unwrap();
    let attempts = [
        "echo safe; touch pwned1",
        "echo safe && touch pwned2",
        "echo safe | tee pwned3",
        "echo safe $(touch pwned4)",
        "echo safe\ntouch pwned5",
    ];
    e.llm.push(anthropic_tool(
        "",
        "ok1",
        "bash",
        &[&json!({"command": "echo safe words"}).to_string()],
    ));
    for (i, cmd) in attempts.iter().enumerate() {
        e.llm.push(anthropic_tool(
            "",
            &format!("bad{i}"),
            "bash",
            &[&json!({ "command": cmd }).to_string()],
        ));
    }
    e.llm.push(anthropic_text(&["ok"]));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    z.send(json!({"type":"prompt","message":"go"})).await;
    for cmd in attempts {
        let ap = z
            .until(|v| v["type"] == "tool_approval")
            .await
            .pop()
            .unwrap();
        assert_eq!(ap["args"]["command"], cmd, "asked about the exact command");
        answer(&mut z, &ap["id"], "deny", json!({})).await;
    }
    let evs = z.until(|v| v["type"] == "done").await;
    let all = of(&z.log, "tool_result");
    assert_eq!(all.len(), 6, "{evs:#?}");
    assert_eq!(all[0]["is_error"], false, "the plain command ran unasked");
    assert!(text(all[0]).contains("safe words"));
    for i in 1..=5 {
        assert!(!e.cwd.path().join(format!("pwned{i}")).exists(), "pwned{i}");
    }
}

#[tokio::test]
async fn a_broken_rule_section_denies_in_auto_and_asks_in_ask() {
    let e = Setup::new().await;
    std::fs::write(
        e.home.path().join("config.json"),
        json!({"approvals": {"tools": {"bash": "alow"}}}).to_string(),
    )
    .unwrap();
    script(&e, "t1", "bash", json!({"command": "touch ran.txt"}));
    // `auto` is the RPC default: no flag.
    let mut z = e.rpc(&[]).await;
    z.call(json!({"type":"ping"})).await;
    let warned = of(&z.log, "error");
    assert!(
        warned.iter().any(|v| v["message"]
            .as_str()
            .unwrap()
            .contains("approvals.tools.bash")),
        "a broken section is said at start: {:#?}",
        z.log
    );
    let evs = z.prompt("go").await;
    let res = of(&evs, "tool_result")[0];
    assert_eq!(res["is_error"], true);
    assert!(
        text(res).contains("approvals.tools.bash is \"alow\""),
        "{res}"
    );
    assert!(!e.cwd.path().join("ran.txt").exists());
    drop(z);

    // Not JSON at all, in `ask`: even `read` is asked, with the reason.
    std::fs::write(e.home.path().join("config.json"), "{not json").unwrap();
    script(&e, "t2", "read", json!({"path": "x.txt"}));
    let mut z = e.rpc(&["--approvals", "ask"]).await;
    let ap = until_approval(&mut z, "read").await;
    assert!(
        ap["reason"].as_str().unwrap().contains("not valid JSON"),
        "{ap}"
    );
    let r = answer(&mut z, &ap["id"], "allow", json!({"remember":true})).await;
    assert_eq!(r["success"], false, "a broken file is never rewritten: {r}");
    assert_eq!(
        std::fs::read_to_string(e.home.path().join("config.json")).unwrap(),
        "{not json"
    );
    let r = answer(&mut z, &ap["id"], "allow", json!({})).await;
    assert_eq!(r["success"], true, "the call still waited: {r}");
    z.until(|v| v["type"] == "done").await;
}

#[tokio::test]
async fn deny_rules_hold_in_auto_mode_and_auto_never_asks() {
    let e = Setup::new().await;
    std::fs::write(
        e.home.path().join("config.json"),
        json!({"approvals": {"tools": {"write": "deny"}}}).to_string(),
    )
    .unwrap();
    script(&e, "t1", "write", json!({"path": "a.txt", "content": "x"}));
    script(&e, "t2", "bash", json!({"command": "echo auto"}));
    let mut z = e.rpc(&[]).await;
    let evs = z.prompt("write").await;
    assert!(text(of(&evs, "tool_result")[0]).contains("approvals.tools.write is \"deny\""));
    assert!(!e.cwd.path().join("a.txt").exists());
    let evs = z.prompt("bash").await;
    assert!(of(&evs, "tool_approval").is_empty());
    assert_eq!(of(&evs, "tool_result")[0]["is_error"], false);
}

#[tokio::test]
async fn approval_is_asked_on_the_arguments_an_interceptor_rewrote() {
    let e = Setup::new().await;
    let ext = fixtures::agent_ext(
        e.home.path(),
        "fx-src",
        json!({"subscribe": {"intercept": ["tool_call"]},
            "intercept": {"tool_call": {"modified_args": {"command": "echo REWRITTEN"}}}}),
    );
    script(&e, "t1", "bash", json!({"command": "echo original"}));
    let mut z = e
        .rpc(&["--approvals", "ask", "-e", ext.to_str().unwrap()])
        .await;
    let ap = until_approval(&mut z, "go").await;
    assert_eq!(ap["args"], json!({"command": "echo REWRITTEN"}));
    answer(&mut z, &ap["id"], "allow", json!({})).await;
    let evs = z.until(|v| v["type"] == "done").await;
    assert!(text(of(&evs, "tool_result")[0]).contains("REWRITTEN"));
}

#[tokio::test]
async fn extension_tools_ask_unless_a_rule_allows_them() {
    let e = Setup::new().await;
    let ext = fixtures::agent_ext(
        e.home.path(),
        "fx-src",
        json!({"tools": {"lookup": {"description": "d", "schema": {"type":"object"}, "echo": true}}}),
    );
    script(&e, "t1", "lookup", json!({"q": 1}));
    script(&e, "t2", "lookup", json!({"q": 2}));
    let mut z = e
        .rpc(&["--approvals", "ask", "-e", ext.to_str().unwrap()])
        .await;
    let ap = until_approval(&mut z, "go").await;
    assert_eq!(ap["extension"], "fx");
    assert!(ap["reason"].as_str().unwrap().contains("extension fx"));
    answer(&mut z, &ap["id"], "allow", json!({"remember":true})).await;
    z.until(|v| v["type"] == "done").await;
    assert_eq!(
        config(e.home.path())["approvals"]["extensions"]["fx"]["tools"]["lookup"],
        "allow"
    );
    let evs = z.prompt("again").await;
    assert!(of(&evs, "tool_approval").is_empty());
}

#[tokio::test]
async fn print_mode_cannot_ask_so_it_denies_and_says_how_to_allow() {
    let e = Setup::new().await;
    script(&e, "t1", "bash", json!({"command": "touch ran.txt"}));
    let out = command(
        e.home.path(),
        e.cwd.path(),
        &[
            "--mode",
            "json",
            "--no-session",
            "--no-ext",
            "--base-url",
            &e.llm.url,
            "--api-key",
            "k",
            "--approvals",
            "ask",
            "go",
        ],
    )
    .output()
    .await
    .unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let res = of(&lines, "tool_result")[0];
    assert_eq!(res["is_error"], true);
    assert!(text(res).contains("cannot ask"), "{res}");
    assert!(of(&lines, "tool_approval").is_empty());
    assert!(!e.cwd.path().join("ran.txt").exists());
}
