//! Session-scoped extension state through the real binary (docs/rpc.md
//! "Checkpoints and rewind", docs/protocol.md "Session state"), with the
//! plan example as the extension: what it stores with `state_set` is in
//! the session file, comes back in `hello_ack.state` on resume, and
//! follows the conversation through a rewind, a fork and a clear
//! (`state_restored`); a `state_set` over the limits is refused with a
//! logged reason and the session file stays valid.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::fixtures::files_under;
use zot_test_support::rpc::*;

fn plan_example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/extensions/plan")
}

/// The plan's lines as `/plan` shows them in its panel.
async fn plan(z: &mut Rpc) -> Vec<String> {
    let r = z
        .call(json!({"type":"command","name":"plan","args":""}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    r["data"]["open_panel"]["lines"]
        .as_array()
        .unwrap_or_else(|| panic!("no panel: {r}"))
        .iter()
        .map(|l| l.as_str().unwrap().to_owned())
        .collect()
}

async fn add(z: &mut Rpc, step: &str) {
    let r = z
        .call(json!({"type":"command","name":"plan","args":step}))
        .await;
    assert!(
        r["data"]["display"]
            .as_str()
            .unwrap_or("")
            .starts_with("added"),
        "{r}"
    );
}

fn checkpoint_ids(v: &Value) -> Vec<String> {
    v["data"]["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_plan_follows_the_conversation_through_resume_rewind_fork_and_clear() {
    let s = FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let ext = plan_example();
    let base = [
        "--base-url",
        s.url.as_str(),
        "--api-key",
        "k",
        "-e",
        ext.to_str().unwrap(),
    ];
    let mut z = Rpc::start(home.path(), cwd.path(), &base, &[]).await;
    assert_eq!(
        plan(&mut z).await,
        ["(no plan yet: /plan <step> adds one, or ask the agent to plan)"]
    );

    // The model makes the plan with the tool during the first prompt.
    let steps = json!({"steps":[{"text":"read","done":true}]});
    s.push(anthropic_tool(
        "",
        "t1",
        "plan_update",
        &[&steps.to_string()],
    ));
    s.push(anthropic_text(&["planned"]));
    z.prompt("one").await;
    add(&mut z, "write").await;
    s.push(anthropic_text(&["ok"]));
    z.prompt("two").await;
    add(&mut z, "test").await;
    assert_eq!(
        plan(&mut z).await,
        ["1. [x] read", "2. [ ] write", "3. [ ] test"]
    );
    z.close().await;

    // Resume: hello_ack.state brings the plan back.
    let mut resume = base.to_vec();
    resume.push("--continue");
    let mut z = Rpc::start(home.path(), cwd.path(), &resume, &[]).await;
    assert_eq!(
        plan(&mut z).await,
        ["1. [x] read", "2. [ ] write", "3. [ ] test"]
    );
    let cps = checkpoint_ids(&z.call(json!({"type":"checkpoints"})).await);
    assert_eq!(cps.len(), 2);

    // Rewind the conversation to before "two": the plan as it was then,
    // redrawn in the open panel by state_restored.
    let from = z.log.len();
    let r = z
        .call(json!({"type":"rewind","checkpoint":cps[1],"scope":"conversation"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let redraw = z
        .find_from(from, |v| {
            v["type"] == "ext_panel_render" && v["extension"] == "plan"
        })
        .await;
    assert_eq!(redraw["lines"], json!(["1. [x] read", "2. [ ] write"]));
    assert_eq!(plan(&mut z).await, ["1. [x] read", "2. [ ] write"]);

    // Fork from before "one": a new session where the plan is empty.
    let f = z.call(json!({"type":"fork","checkpoint":cps[0]})).await;
    assert_eq!(f["success"], true, "{f}");
    assert_eq!(f["data"]["messages"], 0);
    let forked = f["data"]["path"].as_str().unwrap().to_owned();
    assert_eq!(
        plan(&mut z).await,
        ["(no plan yet: /plan <step> adds one, or ask the agent to plan)"]
    );
    add(&mut z, "other approach").await;
    z.close().await;

    // The original session kept its rewound plan; the fork has its own.
    let mut open_fork = base.to_vec();
    open_fork.extend(["--session", forked.as_str()]);
    let mut z = Rpc::start(home.path(), cwd.path(), &open_fork, &[]).await;
    assert_eq!(plan(&mut z).await, ["1. [ ] other approach"]);
    // Clear: a new conversation holds no plan.
    z.call(json!({"type":"clear"})).await;
    assert_eq!(
        plan(&mut z).await,
        ["(no plan yet: /plan <step> adds one, or ask the agent to plan)"]
    );
    z.close().await;
}

/// A raw extension (no SDK, which refuses over-limit values itself) that
/// stores a 70 KiB value on `/big` and a small one on `/small`.
fn raw_ext(dir: &Path) -> PathBuf {
    let d = dir.join("raw");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("raw.py"),
        r#"#!/usr/bin/env python3
import json, sys
def emit(o):
    sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
emit({"type": "hello", "name": "raw", "version": "0.1.0"})
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello_ack":
        with open("ack.json", "w") as f: json.dump(m.get("state"), f)
        for c in ("big", "small"):
            emit({"type": "register_command", "name": c})
        emit({"type": "ready"})
    elif m["type"] == "command_invoked":
        value = "x" * (70 * 1024) if m["name"] == "big" else "fits"
        emit({"type": "state_set", "key": m["name"], "value": value})
        emit({"type": "command_response", "id": m["id"], "action": "noop"})
    elif m["type"] == "shutdown":
        emit({"type": "shutdown_ack"}); break
"#,
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(d.join("raw.py"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        d.join("extension.json"),
        json!({"name":"raw","version":"0.1.0","exec":"./raw.py","language":"python"}).to_string(),
    )
    .unwrap();
    d
}

#[tokio::test]
async fn a_state_set_over_the_limit_is_refused_with_a_reason_and_the_session_stays_valid() {
    let s = FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let cwd = tempfile::tempdir().unwrap();
    let ext = raw_ext(home.path());
    let base = [
        "--base-url",
        s.url.as_str(),
        "--api-key",
        "k",
        "-e",
        ext.to_str().unwrap(),
    ];
    let mut z = Rpc::start(home.path(), cwd.path(), &base, &[]).await;
    s.push(anthropic_text(&["hi"]));
    z.prompt("one").await;
    let from = z.log.len();
    z.call(json!({"type":"command","name":"big","args":""}))
        .await;
    let warn = z
        .find_from(from, |v| {
            v["type"] == "ext_status" && v["extension"] == "raw"
        })
        .await;
    let text = warn["text"].as_str().unwrap();
    assert!(
        text.contains("state_set refused") && text.contains("65536"),
        "{text}"
    );
    z.call(json!({"type":"command","name":"small","args":""}))
        .await;
    z.close().await;
    let log = std::fs::read_to_string(home.path().join("logs/ext-raw.log"))
        .or_else(|_| {
            files_under(&home.path().join("logs"))
                .into_iter()
                .find(|p| p.to_string_lossy().contains("raw"))
                .map(std::fs::read_to_string)
                .unwrap()
        })
        .unwrap();
    assert!(log.contains("state_set refused"), "{log}");

    let mut resume = base.to_vec();
    resume.push("--continue");
    let mut z = Rpc::start(home.path(), cwd.path(), &resume, &[]).await;
    let msgs = z.call(json!({"type":"get_messages"})).await;
    assert_eq!(msgs["data"]["messages"].as_array().unwrap().len(), 2);
    z.close().await;
    let ack: Value =
        serde_json::from_str(&std::fs::read_to_string(ext.join("ack.json")).unwrap()).unwrap();
    assert_eq!(
        ack,
        json!({"small":"fits"}),
        "only the value within the limits was kept"
    );
}
