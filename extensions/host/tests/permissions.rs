//! Permission scopes (docs/protocol.md "Permissions"), with real extension
//! processes: every kind of frame a manifest does not grant is refused at
//! the router and never reaches the agent or the UI; the log says what and
//! why, throttled under a flood; `ext_list` counts refusals; an unknown
//! permission fails the load; an update that asks for more is not started
//! until the user accepts it.

use crate::support;

use std::path::Path;

use serde_json::{json, Value};
use support::*;
use zot_ext_host::{HostEvent, ToolCallVerdict};
use zot_ext_protocol::rpc::{ExtState, UiEvent};
use zot_ext_protocol::{Permission, PermissionGrant};

/// Adds `permissions` to the manifest in `dir` (or removes it for `Null`).
fn set_permissions(dir: &Path, permissions: Value) {
    let file = dir.join("extension.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let obj = m.as_object_mut().unwrap();
    if permissions.is_null() {
        obj.remove("permissions");
    } else {
        obj.insert("permissions".into(), permissions);
    }
    std::fs::write(&file, m.to_string()).unwrap();
}

/// Waits for the notify `message` of `ext`, collecting every UI event and
/// submit seen before it.
async fn until_note(
    rx: &mut tokio::sync::mpsc::Receiver<HostEvent>,
    message: &str,
) -> Vec<HostEvent> {
    let mut seen = Vec::new();
    wait_event(rx, |ev| {
        let done =
            matches!(ev, HostEvent::Ui(UiEvent::ExtNotify { message: m, .. }) if m == message);
        if !done {
            seen.push(ev.clone());
        }
        done
    })
    .await;
    seen
}

/// Whether anything the extension sent reached the UI or the agent.
fn reached(events: &[HostEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|ev| match ev {
            HostEvent::Submit { text, .. } => Some(format!("submit {text}")),
            HostEvent::Ui(UiEvent::ExtNotify { message, .. }) => Some(format!("note {message}")),
            HostEvent::Ui(UiEvent::ExtClearNotes { .. }) => Some("clear_notes".into()),
            HostEvent::Ui(UiEvent::ExtInsert { text, .. }) => Some(format!("insert {text}")),
            HostEvent::Ui(UiEvent::ExtDisplay { text, .. }) => Some(format!("display {text}")),
            HostEvent::Ui(UiEvent::ExtPanelOpen { .. }) => Some("panel open".into()),
            HostEvent::Ui(UiEvent::ExtPanelRender { .. }) => Some("panel render".into()),
            HostEvent::Ui(UiEvent::ExtPanelClose { .. }) => Some("panel close".into()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn registrations_and_subscriptions_not_granted_are_refused() {
    let env = Env::new();
    let dir = env.global(
        "quiet",
        json!({"register":[
            {"type":"register_command","name":"hi","description":"x"},
            {"type":"register_tool","name":"peek","description":"x","schema":{"type":"object"}},
            {"type":"subscribe","events":["tool_call"],"intercept":["tool_call"]}
        ], "intercept": {"tool_call": {"block": true, "reason": "should never be asked"}}}),
    );
    set_permissions(&dir, json!(["notes"]));
    let (host, _rx) = start(env.config()).await;
    let s = summary(&host, "quiet");
    assert_eq!(s.state, ExtState::Ready);
    assert!(s.commands.is_empty() && s.tools.is_empty(), "{s:?}");
    assert_eq!(
        s.permissions,
        PermissionGrant::List(vec![Permission::Notes])
    );
    for p in ["commands", "tools", "events", "intercept"] {
        assert_eq!(s.refused.get(p), Some(&1), "{p}: {:?}", s.refused);
    }
    // Its interception was never registered: a tool call is not asked.
    let v = host
        .intercept_tool_call("t1", "bash", json!({"command":"ls"}))
        .await;
    assert!(matches!(v, ToolCallVerdict::Allow { .. }), "{v:?}");
    host.shutdown().await;
    let log = env.log("quiet");
    assert!(
        log.contains("refused register_tool 'peek'")
            && log.contains("does not grant \"tools\"")
            && log.contains("subscribe.intercept [tool_call]"),
        "{log}"
    );
}

#[tokio::test]
async fn one_way_frames_not_granted_never_reach_the_ui_or_the_agent() {
    let env = Env::new();
    let frames = [
        json!({"type":"submit","text":"run rm -rf"}),
        json!({"type":"panel_render","panel_id":"p","title":"t","lines":["x"]}),
        json!({"type":"panel_close","panel_id":"p"}),
        json!({"type":"event_intercept_response","id":"7","block":true}),
        json!({"type":"tool_result","id":"8","content":[]}),
        json!({"type":"command_response","id":"9","action":"prompt","prompt":"x"}),
    ];
    let replay = env.home.path().join("frames.jsonl");
    let text: Vec<String> = frames.iter().map(Value::to_string).collect();
    std::fs::write(&replay, text.join("\n")).unwrap();
    let dir = env.global("sly", json!({"replay": replay, "marker": "m"}));
    set_permissions(&dir, json!(["notes"]));
    let (host, mut rx) = start(env.config()).await;
    let seen = until_note(&mut rx, "replay done m").await;
    assert_eq!(reached(&seen), Vec::<String>::new());
    let s = summary(&host, "sly");
    for (p, n) in [
        ("submit", 1),
        ("panels", 2),
        ("intercept", 1),
        ("tools", 1),
        ("commands", 1),
    ] {
        assert_eq!(s.refused.get(p), Some(&n), "{p}: {:?}", s.refused);
    }
    host.shutdown().await;
    assert!(
        env.log("sly").contains("refused submit"),
        "{}",
        env.log("sly")
    );
}

#[tokio::test]
async fn notes_not_granted_are_refused() {
    let env = Env::new();
    let dir = env.global(
        "mute",
        json!({"flood_frame": {"frame": {"type":"clear_notes"}, "n": 3}}),
    );
    set_permissions(&dir, json!(["commands"]));
    let (host, mut rx) = start(env.config()).await;
    // Its "frames done" note is refused too: wait for the count instead.
    eventually(|| summary(&host, "mute").refused.get("notes") == Some(&4)).await;
    while let Ok(ev) = rx.try_recv() {
        assert!(reached(std::slice::from_ref(&ev)).is_empty(), "{ev:?}");
    }
    host.shutdown().await;
}

#[tokio::test]
async fn command_answers_not_granted_become_a_noop_that_says_why() {
    let env = Env::new();
    let commands = json!({
        "p": {"response": {"action":"prompt","prompt":"delete everything"}},
        "i": {"response": {"action":"insert","insert":"typed"}},
        "d": {"response": {"action":"display","display":"shown"}},
        "o": {"response": {"action":"open_panel","open_panel":{"id":"x","title":"X","lines":[]}}},
    });
    let register: Vec<Value> = ["p", "i", "d", "o"]
        .iter()
        .map(|n| json!({"type":"register_command","name":n,"description":"x"}))
        .collect();
    let dir = env.global("cmds", json!({"register": register, "commands": commands}));
    set_permissions(&dir, json!(["commands"]));
    let (host, mut rx) = start(env.config()).await;
    for (name, perm) in [
        ("p", "prompt"),
        ("i", "insert"),
        ("d", "notes"),
        ("o", "panels"),
    ] {
        let out = host.invoke_command(name, "").await.unwrap();
        assert_eq!(
            out.response.action,
            Some(zot_ext_protocol::CommandAction::Noop),
            "{name}"
        );
        assert!(out.response.prompt.is_none() && out.response.insert.is_none());
        let err = out.response.error.unwrap_or_default();
        assert!(err.contains(&format!("\"{perm}\"")), "{name}: {err}");
    }
    let mut leaked = Vec::new();
    while let Ok(ev) = rx.try_recv() {
        leaked.extend(reached(&[ev]));
    }
    assert_eq!(leaked, Vec::<String>::new());
    assert!(host.open_panels().is_empty());
    let s = summary(&host, "cmds");
    for p in ["prompt", "insert", "notes", "panels"] {
        assert_eq!(s.refused.get(p), Some(&1), "{p}: {:?}", s.refused);
    }
    host.shutdown().await;
}

#[tokio::test]
async fn a_flood_of_ungranted_frames_is_refused_and_the_log_stays_short() {
    let env = Env::new();
    let n = 20_000u64;
    let dir = env.global(
        "flood",
        json!({"flood_frame": {"frame": {"type":"submit","text":"again"}, "n": n}}),
    );
    set_permissions(&dir, json!(["notes"]));
    let (host, mut rx) = start(env.config()).await;
    let seen = until_note(&mut rx, "frames done").await;
    assert_eq!(reached(&seen), Vec::<String>::new());
    assert_eq!(summary(&host, "flood").refused.get("submit"), Some(&n));
    host.shutdown().await;
    let log = env.log("flood");
    let lines = log.lines().filter(|l| l.contains("refused")).count();
    // The first 20 one by one, a note that summaries follow, then at most
    // one summary a second (this flood takes a few at most).
    assert!((21..60).contains(&lines), "{lines} refusal lines:\n{log}");
}

#[tokio::test]
async fn an_unrestricted_extension_is_shown_as_such_and_refused_nothing() {
    let env = Env::new();
    env.global(
        "free",
        json!({"register":[{"type":"register_command","name":"hi","description":"x"}]}),
    );
    let (host, _rx) = start(env.config()).await;
    let s = summary(&host, "free");
    assert!(s.permissions.is_unrestricted());
    assert!(s.refused.is_empty());
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(v.get("permissions"), Some(&json!("unrestricted")));
    host.shutdown().await;
}

#[tokio::test]
async fn an_unknown_permission_fails_the_load_naming_it() {
    let env = Env::new();
    let dir = env.global("odd", json!({}));
    set_permissions(&dir, json!(["tools", "telepathy"]));
    let (host, _rx) = start(env.config()).await;
    let s = summary(&host, "odd");
    assert_eq!(s.state, ExtState::Failed);
    let err = s.error.unwrap_or_default();
    assert!(
        err.contains("permissions") && err.contains("\"telepathy\""),
        "{err}"
    );
    assert!(!dir.join("pid").exists(), "it was started");
    host.shutdown().await;
}

#[tokio::test]
async fn capabilities_beyond_the_grant_are_a_warning() {
    let env = Env::new();
    let dir = env.global("claims", json!({"capabilities": ["commands", "panels"]}));
    set_permissions(&dir, json!(["commands"]));
    let (host, _rx) = start(env.config()).await;
    let report = host.report();
    let e = report
        .extensions
        .iter()
        .find(|e| e.summary.name == "claims")
        .unwrap();
    assert!(
        e.warnings
            .iter()
            .any(|w| w.contains("hello.capabilities") && w.contains("\"panels\"")),
        "{:?}",
        e.warnings
    );
    assert_eq!(e.summary.state, ExtState::Ready);
    host.shutdown().await;
}

#[tokio::test]
async fn an_update_asking_for_more_is_not_started_until_accepted() {
    let env = Env::new();
    let dir = env.global(
        "grow",
        json!({"register":[{"type":"register_command","name":"hi","description":"x"}]}),
    );
    set_permissions(&dir, json!(["commands"]));
    // First seen: what it asks for now is remembered as accepted.
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "grow").state, ExtState::Ready);
    // The update asks for `submit` too; a reload finds it.
    set_permissions(&dir, json!(["commands", "submit"]));
    std::fs::remove_file(dir.join("pid")).unwrap();
    host.reload().await;
    host.wait_settled().await;
    let s = summary(&host, "grow");
    assert_eq!(s.state, ExtState::Failed);
    assert_eq!(s.unaccepted, vec![Permission::Submit]);
    let err = s.error.unwrap_or_default();
    assert!(
        err.contains("submit") && err.contains("zot ext accept grow"),
        "{err}"
    );
    assert!(!dir.join("pid").exists(), "it was started");
    // Fewer permissions never need a yes.
    set_permissions(&dir, json!([]));
    host.reload().await;
    host.wait_ready().await;
    assert_eq!(summary(&host, "grow").state, ExtState::Ready);
    // Accepting the larger list starts it on the next load.
    set_permissions(&dir, json!(["commands", "submit"]));
    let done = zot_ext_host::consent::accept(env.home.path(), env.project.path(), "grow").unwrap();
    assert_eq!(done.added, vec![Permission::Submit]);
    host.reload().await;
    host.wait_ready().await;
    let s = summary(&host, "grow");
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    assert!(s.unaccepted.is_empty());
    host.shutdown().await;
}

/// A sandboxed probe (`fixtures/sandbox_probe.py`, zot's Python SDK) in
/// `$ZOT_HOME/extensions/<name>`.
fn sandboxed_probe(env: &Env, name: &str, sandbox: Value) -> std::path::PathBuf {
    let dir = env.global_dir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("sandbox_probe.py"), dir.join("probe.py")).unwrap();
    let manifest = json!({
        "name": name, "exec": "python3", "args": ["./probe.py", name],
        "permissions": ["tools"], "sandbox": sandbox,
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

async fn probe_read(host: &zot_ext_host::Host, path: &Path) -> String {
    let out = host
        .call_tool("probe_read", json!({"path": path}))
        .await
        .unwrap();
    match out.content.first() {
        Some(zot_ext_protocol::ContentBlock::Text { text }) => text.clone(),
        other => panic!("no text: {other:?}"),
    }
}

#[tokio::test]
async fn an_extension_that_drops_its_own_sandbox_is_failed_until_the_user_accepts() {
    let env = Env::new();
    let canary = env.loose.path().join("canary.txt");
    std::fs::write(&canary, "canary-outside-the-sandbox").unwrap();
    let dir = sandboxed_probe(&env, "selfedit", json!({"net": false}));
    let (host, _rx) = start(env.config()).await;
    let s = summary(&host, "selfedit");
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    assert!(s.sandboxed);
    // The sandbox holds: the canary outside its view is not readable.
    let said = probe_read(&host, &canary).await;
    assert!(!said.contains("canary-outside"), "{said}");
    // Its folder is writable from inside: it rewrites its manifest without
    // the sandbox (written from the test here; the manifest itself is
    // read-only inside the sandbox, docs/security.md).
    let m = json!({"name": "selfedit", "exec": "python3", "args": ["./probe.py", "selfedit"],
        "permissions": ["tools"]});
    std::fs::write(dir.join("extension.json"), m.to_string()).unwrap();
    host.reload().await;
    host.wait_settled().await;
    let s = summary(&host, "selfedit");
    assert_eq!(s.state, ExtState::Failed);
    let err = s.error.clone().unwrap_or_default();
    assert!(
        err.contains("sandbox") && err.contains("zot ext accept selfedit"),
        "{err}"
    );
    assert_eq!(
        s.widened
            .iter()
            .map(|w| w.field.as_str())
            .collect::<Vec<_>>(),
        ["sandbox"]
    );
    assert!(
        s.widened[0].words.contains("without its OS sandbox"),
        "{s:?}"
    );
    assert!(host
        .call_tool("probe_read", json!({"path": canary}))
        .await
        .is_err());
    // A wider sandbox asks the same way; a narrower one never does.
    let wider = json!({"name": "selfedit", "exec": "python3", "args": ["./probe.py", "selfedit"],
        "permissions": ["tools"], "sandbox": {"read": [env.loose.path()], "net": true}});
    std::fs::write(dir.join("extension.json"), wider.to_string()).unwrap();
    host.reload().await;
    host.wait_settled().await;
    let s = summary(&host, "selfedit");
    assert_eq!(s.state, ExtState::Failed);
    let fields: Vec<&str> = s.widened.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(fields, ["sandbox.read", "sandbox.net"]);
    // The user accepts what it asks for now: it runs again, as it is now.
    std::fs::write(dir.join("extension.json"), m.to_string()).unwrap();
    let done =
        zot_ext_host::consent::accept(env.home.path(), env.project.path(), "selfedit").unwrap();
    assert_eq!(done.widened.len(), 1, "{:?}", done.widened);
    host.reload().await;
    host.wait_ready().await;
    let s = summary(&host, "selfedit");
    assert_eq!(s.state, ExtState::Ready, "{:?}", s.error);
    assert!(!s.sandboxed && s.widened.is_empty());
    assert!(probe_read(&host, &canary).await.contains("canary-outside"));
    host.shutdown().await;
}

#[tokio::test]
async fn a_changed_program_arguments_or_environment_is_failed_until_accepted() {
    let env = Env::new();
    let dir = env.global(
        "moves",
        json!({"register":[{"type":"register_command","name":"hi","description":"x"}]}),
    );
    let file = dir.join("extension.json");
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "moves").state, ExtState::Ready);
    let original = std::fs::read_to_string(&file).unwrap();
    let mut m: Value = serde_json::from_str(&original).unwrap();
    m["env"] = json!({"PROBE_MODE": "loud"});
    std::fs::write(&file, m.to_string()).unwrap();
    std::fs::remove_file(dir.join("pid")).ok();
    host.reload().await;
    host.wait_settled().await;
    let s = summary(&host, "moves");
    assert_eq!(s.state, ExtState::Failed);
    assert!(s.error.unwrap_or_default().contains("PROBE_MODE"));
    assert!(!dir.join("pid").exists(), "it was started");
    let mut m: Value = serde_json::from_str(&original).unwrap();
    m["exec"] = json!("/bin/sh");
    std::fs::write(&file, m.to_string()).unwrap();
    host.reload().await;
    host.wait_settled().await;
    let s = summary(&host, "moves");
    assert_eq!(s.state, ExtState::Failed);
    assert!(s.widened.iter().any(|w| w.field == "exec"), "{s:?}");
    // Back to what was accepted: it runs without a question.
    std::fs::write(&file, &original).unwrap();
    host.reload().await;
    host.wait_ready().await;
    assert_eq!(summary(&host, "moves").state, ExtState::Ready);
    host.shutdown().await;
}
