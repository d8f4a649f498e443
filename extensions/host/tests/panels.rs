//! Panels: opened by a command, keys and closes routed to the owner only,
//! and an owner that dies takes its panels with it.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_host::{HostError, HostEvent, PanelKey};
use zot_ext_protocol::rpc::UiEvent;

fn panel_ext() -> serde_json::Value {
    json!({
        "panels": true,
        "register":[{"type":"register_command","name":"todo"}],
        "commands":{"todo":{"response":{"action":"open_panel","open_panel":{"id":"todos-main","title":"Todos","lines":["a"]}}}}
    })
}

fn not_changed(e: &HostEvent) -> bool {
    !matches!(e, HostEvent::Ui(UiEvent::ExtChanged {}))
}

/// What follows the panel's opening: skips registry changes and the open.
fn after_open(e: &HostEvent) -> bool {
    not_changed(e) && !matches!(e, HostEvent::Ui(UiEvent::ExtPanelOpen { .. }))
}

#[tokio::test]
async fn keys_go_to_the_owner_and_its_renders_come_back() {
    let env = Env::new();
    env.global("todo", panel_ext());
    env.global("other", json!({"panels": true}));
    let (host, mut rx) = start(env.config()).await;
    let out = host.invoke_command("todo", "").await.unwrap();
    assert_eq!(out.response.open_panel.unwrap().id, "todos-main");
    host.panel_key("todos-main", PanelKey::Rune, Some("x".into()))
        .unwrap();
    let ev = wait_event(&mut rx, after_open).await;
    assert_eq!(
        ev,
        HostEvent::Ui(UiEvent::ExtPanelRender {
            extension: "todo".into(),
            panel_id: "todos-main".into(),
            title: Some("T".into()),
            lines: vec!["rune".into(), "x".into()],
            footer: None,
            placement: Default::default(),
        })
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_render_sent_right_after_open_panel_follows_the_open_event() {
    let env = Env::new();
    env.global(
        "todo",
        json!({
            "register":[{"type":"register_command","name":"todo"}],
            "commands":{"todo":{
                "response":{"action":"open_panel","open_panel":{"id":"p","lines":["old"]}},
                "then":[{"type":"panel_render","panel_id":"p","lines":["new"]}]
            }}
        }),
    );
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("todo", "").await.unwrap();
    let open = wait_event(&mut rx, not_changed).await;
    assert!(
        matches!(&open, HostEvent::Ui(UiEvent::ExtPanelOpen { panel, .. }) if panel.lines == ["old"]),
        "{open:?}"
    );
    let render = wait_event(&mut rx, not_changed).await;
    assert!(
        matches!(&render, HostEvent::Ui(UiEvent::ExtPanelRender { lines, .. }) if lines == &["new"]),
        "{render:?}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn display_and_insert_actions_become_ui_events() {
    let env = Env::new();
    env.global(
        "n",
        json!({
            "register":[{"type":"register_command","name":"show"},{"type":"register_command","name":"put"}],
            "commands":{
                "show":{"response":{"action":"display","display":"shown"}},
                "put":{"response":{"action":"insert","insert":"typed"}}
            }
        }),
    );
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("show", "").await.unwrap();
    let ev = wait_event(&mut rx, not_changed).await;
    assert_eq!(
        ev,
        HostEvent::Ui(UiEvent::ExtDisplay {
            extension: "n".into(),
            text: "shown".into()
        })
    );
    host.invoke_command("put", "").await.unwrap();
    let ev = wait_event(&mut rx, not_changed).await;
    assert_eq!(
        ev,
        HostEvent::Ui(UiEvent::ExtInsert {
            extension: "n".into(),
            text: "typed".into()
        })
    );
    host.shutdown().await;
}

#[tokio::test]
async fn frames_for_a_panel_the_extension_does_not_own_are_ignored_and_logged() {
    let env = Env::new();
    env.global("todo", panel_ext());
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("todo", "").await.unwrap();
    host.panel_key("todos-main", PanelKey::Tab, None).unwrap();
    // The notify comes after the two stray frames, so they were not shown.
    let ev = wait_event(&mut rx, after_open).await;
    assert!(
        matches!(ev, HostEvent::Ui(UiEvent::ExtNotify { ref message, .. }) if message == "tab done"),
        "{ev:?}"
    );
    let log = env.log("todo");
    assert!(log.contains("panel_render for 'not-mine'"), "{log}");
    assert!(log.contains("panel_close for 'not-mine'"), "{log}");
    assert_eq!(host.open_panels().len(), 1);
    host.shutdown().await;
}

#[tokio::test]
async fn closing_from_the_ui_tells_the_owner_and_forgets_the_panel() {
    let env = Env::new();
    env.global("todo", panel_ext());
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("todo", "").await.unwrap();
    host.close_panel("todos-main").unwrap();
    let ev = wait_event(&mut rx, after_open).await;
    assert!(
        matches!(ev, HostEvent::Ui(UiEvent::ExtNotify { ref message, .. }) if message == "closed todos-main"),
        "{ev:?}"
    );
    let err = host
        .panel_key("todos-main", PanelKey::Down, None)
        .unwrap_err();
    assert!(matches!(err, HostError::UnknownPanel(_)), "{err}");
    assert!(host.close_panel("todos-main").is_err());
    host.shutdown().await;
}

#[tokio::test]
async fn the_owner_can_close_its_panel() {
    let env = Env::new();
    env.global("todo", panel_ext());
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("todo", "").await.unwrap();
    host.panel_key("todos-main", PanelKey::Esc, None).unwrap();
    let ev = wait_event(&mut rx, after_open).await;
    assert_eq!(
        ev,
        HostEvent::Ui(UiEvent::ExtPanelClose {
            extension: "todo".into(),
            panel_id: "todos-main".into(),
            reason: None,
        })
    );
    assert!(host.open_panels().is_empty());
    host.shutdown().await;
}

#[tokio::test]
async fn an_owner_that_crashes_closes_its_panels() {
    let env = Env::new();
    env.global("todo", panel_ext());
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("todo", "").await.unwrap();
    host.panel_key("todos-main", PanelKey::Delete, None)
        .unwrap();
    let ev = wait_event(&mut rx, |e| {
        matches!(e, HostEvent::Ui(UiEvent::ExtPanelClose { .. }))
    })
    .await;
    let HostEvent::Ui(UiEvent::ExtPanelClose {
        extension,
        panel_id,
        reason,
    }) = ev
    else {
        unreachable!()
    };
    assert_eq!(
        (extension.as_str(), panel_id.as_str()),
        ("todo", "todos-main")
    );
    let reason = reason.unwrap_or_default();
    assert!(
        reason.contains("'todo' crashed; restarting in 0.5 s"),
        "{reason}"
    );
    assert!(host.open_panels().is_empty());
    host.shutdown().await;
}

#[tokio::test]
async fn another_extension_cannot_take_over_an_open_panel_id() {
    let env = Env::new();
    env.global("aowner", panel_ext());
    env.global(
        "thief",
        json!({
            "panels": true,
            "register":[{"type":"register_command","name":"steal"}],
            "commands":{"steal":{"response":{"action":"open_panel","open_panel":{"id":"todos-main","title":"Mine now","lines":["x"]}}}}
        }),
    );
    let (host, mut rx) = start(env.config()).await;
    host.invoke_command("todo", "").await.unwrap();
    let out = host.invoke_command("steal", "").await.unwrap();
    assert_eq!(out.extension, "thief");
    assert!(out.response.open_panel.is_none());
    let err = out.response.error.unwrap();
    assert!(
        err.contains("'todos-main'") && err.contains("'aowner'"),
        "{err}"
    );
    assert!(env.log("thief").contains("open_panel 'todos-main' refused"));
    assert_eq!(
        host.open_panels(),
        vec![("todos-main".to_owned(), "aowner".to_owned())]
    );
    // The owner keeps its keys.
    while rx.try_recv().is_ok() {}
    host.panel_key("todos-main", PanelKey::Rune, Some("k".into()))
        .unwrap();
    let ev = wait_event(&mut rx, after_open).await;
    match ev {
        HostEvent::Ui(UiEvent::ExtPanelRender { extension, .. }) => assert_eq!(extension, "aowner"),
        other => panic!("unexpected {other:?}"),
    }
    host.shutdown().await;
}
