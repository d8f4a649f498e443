//! The Python-SDK todo example through the real host: the panel's keys, the
//! form that adds an item with a due date, the `todo_manage` tool, atomic
//! persistence, and a corrupt todos.json that is moved aside and reported
//! instead of lost.

use serde_json::{json, Value};
use zot_examples_tests::{copy_example, Harness};
use zot_ext_host::PanelKey;
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{
    CommandAction, ContentBlock, DialogAction, DialogKind, MouseAction, NoteLevel, PanelCapability,
    PanelMouseFrame,
};

fn text(c: &[ContentBlock]) -> String {
    match &c[0] {
        ContentBlock::Text { text } => text.clone(),
        other => panic!("expected text, got {other:?}"),
    }
}

fn saved(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("todos.json")).unwrap()).unwrap()
}

/// The next render or close of a panel.
async fn panel_event(h: &mut Harness) -> UiEvent {
    h.ui(|e| {
        matches!(
            e,
            UiEvent::ExtPanelRender { .. } | UiEvent::ExtPanelClose { .. }
        )
    })
    .await
}

/// Sends keys, then returns the lines of the render that follows the last one.
async fn keys(h: &mut Harness, keys: &[(&str, Option<&str>)]) -> Vec<String> {
    let mut last = Vec::new();
    for (k, t) in keys {
        let key = PanelKey::parse(k).unwrap();
        h.host
            .panel_key("todos-main", key, t.map(String::from))
            .unwrap();
        let ev = panel_event(h).await;
        if let UiEvent::ExtPanelRender { lines, .. } = ev {
            last = lines;
        }
    }
    last
}

fn runes(s: &str) -> Vec<(&'static str, Option<&str>)> {
    s.char_indices()
        .map(|(i, c)| ("rune", Some(&s[i..i + c.len_utf8()])))
        .collect()
}

#[tokio::test]
async fn the_panel_adds_toggles_edits_and_deletes_with_keys() {
    let copy = copy_example("todo");
    let mut h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    let r = h.host.invoke_command("todo", "").await.unwrap().response;
    assert_eq!(r.action, Some(CommandAction::OpenPanel));
    let panel = r.open_panel.unwrap();
    assert_eq!(panel.id, "todos-main");
    assert_eq!(panel.lines, ["  (no todos: press a to add one)"]);

    let mut seq = vec![("rune", Some("a"))];
    seq.extend(runes("buy milk"));
    seq.push(("enter", None));
    assert_eq!(keys(&mut h, &seq).await, ["▸ □ buy milk"]);
    assert_eq!(
        saved(&copy.dir)["todos"],
        json!([{"id":1,"text":"buy milk","done":false}])
    );

    let mut seq = vec![("rune", Some("a"))];
    seq.extend(runes("call Bob"));
    seq.push(("enter", None));
    assert_eq!(keys(&mut h, &seq).await, ["  □ buy milk", "▸ □ call Bob"]);

    assert_eq!(
        keys(&mut h, &[("up", None), ("rune", Some("x"))]).await,
        ["▸ ✓ buy milk", "  □ call Bob"]
    );
    assert_eq!(saved(&copy.dir)["todos"][0]["done"], true);

    // Edit: backspace over "milk", type "oat milk", save.
    let mut seq = vec![
        ("rune", Some("e")),
        ("backspace", None),
        ("backspace", None),
        ("backspace", None),
        ("backspace", None),
    ];
    seq.extend(runes("oat milk"));
    seq.push(("enter", None));
    assert_eq!(
        keys(&mut h, &seq).await,
        ["▸ ✓ buy oat milk", "  □ call Bob"]
    );

    // Esc while adding cancels the new line.
    let lines = keys(
        &mut h,
        &[("rune", Some("a")), ("rune", Some("z")), ("esc", None)],
    )
    .await;
    assert_eq!(lines, ["▸ ✓ buy oat milk", "  □ call Bob"]);

    // `d` asks first (a confirm naming the item); a yes deletes it.
    keys(&mut h, &[("down", None)]).await;
    h.host
        .panel_key("todos-main", PanelKey::Rune, Some("d".into()))
        .unwrap();
    let ev = h.ui(|e| matches!(e, UiEvent::UiRequest(_))).await;
    let UiEvent::UiRequest(req) = ev else {
        unreachable!()
    };
    assert_eq!(req.kind, DialogKind::Confirm);
    assert!(req.title.contains("call Bob"), "{}", req.title);
    h.host
        .ui_respond(&req.request_id, DialogAction::Accept, None)
        .unwrap();
    let UiEvent::ExtPanelRender { lines, .. } = panel_event(&mut h).await else {
        panic!("the panel closed instead of redrawing");
    };
    assert_eq!(lines, ["▸ ✓ buy oat milk"]);
    assert_eq!(
        saved(&copy.dir)["todos"],
        json!([{"id":1,"text":"buy oat milk","done":true}])
    );

    // Esc outside the editor closes the panel.
    h.host.panel_key("todos-main", PanelKey::Esc, None).unwrap();
    let ev = h.ui(|e| matches!(e, UiEvent::ExtPanelClose { .. })).await;
    assert!(matches!(ev, UiEvent::ExtPanelClose { panel_id, .. } if panel_id == "todos-main"));
    h.host.shutdown().await;
}

/// Presses `A` in the panel and returns the form dialog it raises.
async fn new_item_form(h: &mut Harness) -> zot_ext_protocol::UiRequestEvent {
    h.host
        .panel_key("todos-main", PanelKey::Rune, Some("A".into()))
        .unwrap();
    let UiEvent::UiRequest(req) = h.ui(|e| matches!(e, UiEvent::UiRequest(_))).await else {
        unreachable!()
    };
    *req
}

#[tokio::test]
async fn a_adds_through_a_form_with_a_due_date_and_old_lists_without_one_still_load() {
    let copy = copy_example("todo");
    // A list saved before items had due dates.
    std::fs::write(
        copy.dir.join("todos.json"),
        json!({"version": 1, "todos": [{"id": 1, "text": "old one", "done": true}]}).to_string(),
    )
    .unwrap();
    let mut h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    let r = h.host.invoke_command("todo", "").await.unwrap().response;
    let panel = r.open_panel.unwrap();
    assert_eq!(panel.lines, ["▸ ✓ old one"]);
    assert!(panel.footer.unwrap().contains("A add with due date"));

    // `A` asks with a form: the text (required) and a due date.
    let req = new_item_form(&mut h).await;
    assert_eq!(req.kind, DialogKind::Form);
    assert_eq!(req.extension, "todo");
    let schema = req.schema.clone().unwrap();
    assert_eq!(schema["required"], json!(["text"]));
    assert_eq!(schema["properties"]["due"]["format"], "date");

    // zot refuses what the schema forbids, naming the field; the dialog stays.
    let err = h
        .host
        .ui_respond(
            &req.request_id,
            DialogAction::Accept,
            Some(json!({"text": "file taxes", "due": "next week"})),
        )
        .unwrap_err();
    assert!(err.message.contains("due"), "{err}");
    let err = h
        .host
        .ui_respond(
            &req.request_id,
            DialogAction::Accept,
            Some(json!({"due": "2027-04-15"})),
        )
        .unwrap_err();
    assert!(err.message.contains("text"), "{err}");

    h.host
        .ui_respond(
            &req.request_id,
            DialogAction::Accept,
            Some(json!({"text": "file taxes", "due": "2027-04-15"})),
        )
        .unwrap();
    let UiEvent::ExtPanelRender { lines, .. } = panel_event(&mut h).await else {
        panic!("the panel closed instead of redrawing");
    };
    assert_eq!(lines, ["  ✓ old one", "▸ □ file taxes (due 2027-04-15)"]);
    assert_eq!(
        saved(&copy.dir)["todos"],
        json!([
            {"id": 1, "text": "old one", "done": true},
            {"id": 2, "text": "file taxes", "done": false, "due": "2027-04-15"}
        ])
    );

    // Without a due date: the item is saved without the key.
    let req = new_item_form(&mut h).await;
    h.host
        .ui_respond(
            &req.request_id,
            DialogAction::Accept,
            Some(json!({"text": "call Bob"})),
        )
        .unwrap();
    let UiEvent::ExtPanelRender { lines, .. } = panel_event(&mut h).await else {
        panic!("the panel closed instead of redrawing");
    };
    assert_eq!(lines[2], "▸ □ call Bob");
    assert_eq!(
        saved(&copy.dir)["todos"][2],
        json!({"id": 3, "text": "call Bob", "done": false})
    );

    // Cancel and decline add nothing; the panel still answers keys.
    for action in [DialogAction::Cancel, DialogAction::Decline] {
        let req = new_item_form(&mut h).await;
        h.host.ui_respond(&req.request_id, action, None).unwrap();
    }
    assert_eq!(keys(&mut h, &[("up", None)]).await.len(), 3);
    assert_eq!(saved(&copy.dir)["todos"].as_array().unwrap().len(), 3);
    h.host.shutdown().await;

    // A new process reads the due date back, and the tool shows and sets it.
    let h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    let r = h
        .host
        .call_tool(
            "todo_manage",
            json!({"action":"add","text":"renew passport","due":"2027-01-31"}),
        )
        .await
        .unwrap();
    assert_eq!(
        text(&r.content),
        "added #4:\n#1 [x] old one\n#2 [ ] file taxes (due 2027-04-15)\n#3 [ ] call Bob\n#4 [ ] renew passport (due 2027-01-31)"
    );
    let r = h
        .host
        .call_tool(
            "todo_manage",
            json!({"action":"add","text":"x","due":"31/01/2027"}),
        )
        .await
        .unwrap();
    assert!(r.is_error);
    assert!(text(&r.content).contains("YYYY-MM-DD"), "{:?}", r.content);
    h.host.shutdown().await;
}

#[tokio::test]
async fn todo_declares_panel_esc_so_esc_cancels_its_editor_and_then_closes_the_panel() {
    let copy = copy_example("todo");
    let mut h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    h.host.invoke_command("todo", "").await.unwrap();
    let open = h.ui(|e| matches!(e, UiEvent::ExtPanelOpen { .. })).await;
    let UiEvent::ExtPanelOpen { capabilities, .. } = open else {
        unreachable!()
    };
    // The desktop then sends Esc to it instead of closing the panel (and
    // clicks, the wheel and the panel's size: its mouse and resize handlers).
    assert_eq!(
        capabilities,
        [
            PanelCapability::PanelMouse,
            PanelCapability::PanelResize,
            PanelCapability::PanelEsc
        ]
    );

    // Esc in the editor cancels the edit and keeps the panel (a render, and
    // the footer that promised it).
    let mut seq = vec![("rune", Some("a"))];
    seq.extend(runes("half"));
    assert_eq!(
        keys(&mut h, &seq).await,
        ["  (no todos: press a to add one)", "", "new: half▏"]
    );
    h.host.panel_key("todos-main", PanelKey::Esc, None).unwrap();
    let ev = panel_event(&mut h).await;
    let UiEvent::ExtPanelRender { lines, footer, .. } = ev else {
        panic!("esc in the editor closed the panel: {ev:?}")
    };
    assert_eq!(lines, ["  (no todos: press a to add one)"]);
    assert!(footer.unwrap().contains("esc close"));
    assert!(!copy.dir.join("todos.json").exists(), "nothing was added");

    // Esc outside the editor: the extension closes its panel itself.
    h.host.panel_key("todos-main", PanelKey::Esc, None).unwrap();
    let ev = panel_event(&mut h).await;
    assert!(
        matches!(&ev, UiEvent::ExtPanelClose { panel_id, reason: None, .. } if panel_id == "todos-main"),
        "{ev:?}"
    );
    h.host.shutdown().await;
}

/// Sends one `panel_mouse` and returns the lines of the render it causes.
async fn mouse(
    h: &mut Harness,
    action: MouseAction,
    row: Option<u32>,
    delta: Option<i32>,
) -> Vec<String> {
    let col = row.map(|_| 2);
    let frame = PanelMouseFrame::checked("todos-main".into(), action, row, col, delta).unwrap();
    assert!(
        h.host.panel_mouse(frame).unwrap(),
        "todo declared panel_mouse"
    );
    match panel_event(h).await {
        UiEvent::ExtPanelRender { lines, .. } => lines,
        other => panic!("expected a render, got {other:?}"),
    }
}

#[tokio::test]
async fn a_click_toggles_a_double_click_edits_the_wheel_moves_and_long_items_fit_the_width() {
    let copy = copy_example("todo");
    let todos: Vec<Value> = ["ship the desktop app", "write the docs", "answer the issue"]
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"id": i + 1, "text": t, "done": false}))
        .collect();
    std::fs::write(
        copy.dir.join("todos.json"),
        json!({"version": 1, "todos": todos}).to_string(),
    )
    .unwrap();
    let mut h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    h.host.invoke_command("todo", "").await.unwrap();

    // A click on row 1 toggles it and puts the cursor there.
    let lines = mouse(&mut h, MouseAction::Click, Some(1), None).await;
    assert_eq!(lines[1], "▸ ✓ write the docs");
    assert_eq!(saved(&copy.dir)["todos"][1]["done"], true);

    // A double click (after its click) edits row 0 and leaves it as it was.
    mouse(&mut h, MouseAction::Click, Some(0), None).await;
    let lines = mouse(&mut h, MouseAction::DoubleClick, Some(0), None).await;
    assert_eq!(lines.last().unwrap(), "edit: ship the desktop app▏");
    assert_eq!(saved(&copy.dir)["todos"][0]["done"], false);
    // Clicks while editing change nothing.
    let lines = mouse(&mut h, MouseAction::Click, Some(2), None).await;
    assert_eq!(lines.last().unwrap(), "edit: ship the desktop app▏");
    h.host.panel_key("todos-main", PanelKey::Esc, None).unwrap();
    panel_event(&mut h).await;

    // The wheel moves the cursor, within the list.
    let lines = mouse(&mut h, MouseAction::Wheel, None, Some(5)).await;
    assert!(lines[2].starts_with('▸'), "{lines:?}");
    let lines = mouse(&mut h, MouseAction::Wheel, None, Some(-1)).await;
    assert!(lines[1].starts_with('▸'), "{lines:?}");

    // Told the width, long items are cut to it with an ellipsis.
    assert!(h.host.panel_resize("todos-main", 12, 10).unwrap());
    let UiEvent::ExtPanelRender { lines, .. } = panel_event(&mut h).await else {
        panic!("expected a render")
    };
    assert_eq!(lines[0], "  □ ship th…");
    assert!(lines.iter().all(|l| l.chars().count() <= 12), "{lines:?}");
    assert_eq!(lines[2], "  □ answer …");
    h.host.shutdown().await;
}

#[tokio::test]
async fn the_tool_manages_the_list_and_it_survives_a_restart() {
    let copy = copy_example("todo");
    let h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    let call = |args: Value| {
        let host = h.host.clone();
        async move { host.call_tool("todo_manage", args).await.unwrap() }
    };
    let r = call(json!({"action":"add","text":"write docs"})).await;
    assert_eq!(text(&r.content), "added #1:\n#1 [ ] write docs");
    call(json!({"action":"add","text":"ship"})).await;
    let r = call(json!({"action":"complete","id":1})).await;
    assert_eq!(
        text(&r.content),
        "completed #1:\n#1 [x] write docs\n#2 [ ] ship"
    );
    let r = call(json!({"action":"edit","id":2,"text":"ship it"})).await;
    assert!(text(&r.content).ends_with("#2 [ ] ship it"));
    let r = call(json!({"action":"remove","id":1})).await;
    assert_eq!(text(&r.content), "removed #1:\n#2 [ ] ship it");

    for bad in [
        json!({"action":"remove","id":99}),
        json!({"action":"add"}),
        json!({"action":"edit","id":"x","text":"y"}),
        json!({"action":"fly"}),
    ] {
        let r = call(bad.clone()).await;
        assert!(r.is_error, "{bad} should fail: {:?}", r.content);
    }
    let r = h
        .host
        .invoke_command("todo", "from the editor")
        .await
        .unwrap()
        .response;
    assert_eq!(r.display.as_deref(), Some("added #3: from the editor"));
    h.host.shutdown().await;

    // A new process reads what the old one saved.
    let h = Harness::start(std::slice::from_ref(&copy.dir)).await;
    let r = h
        .host
        .call_tool("todo_manage", json!({"action":"list"}))
        .await
        .unwrap();
    assert_eq!(
        text(&r.content),
        "todo list:\n#2 [ ] ship it\n#3 [ ] from the editor"
    );
    // Atomic writes leave no temp files behind.
    let leftovers: Vec<_> = std::fs::read_dir(&copy.dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.ends_with(".tmp").then_some(n)
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    h.host.shutdown().await;
}

#[tokio::test]
async fn a_corrupt_todos_json_is_moved_aside_and_reported() {
    let copy = copy_example("todo");
    std::fs::write(
        copy.dir.join("todos.json"),
        "{\"todos\": [ {\"id\": 1, \"text\": \"half a fi",
    )
    .unwrap();
    let mut h = Harness::start(std::slice::from_ref(&copy.dir)).await;

    let r = h
        .host
        .call_tool("todo_manage", json!({"action":"list"}))
        .await
        .unwrap();
    let t = text(&r.content);
    assert!(
        t.contains("todos.json could not be read") && t.contains("moved to todos.json.corrupt-"),
        "{t}"
    );
    let warn = h
        .ui(|e| {
            matches!(
                e,
                UiEvent::ExtNotify {
                    style: NoteLevel::Warn,
                    ..
                }
            )
        })
        .await;
    assert!(
        matches!(&warn, UiEvent::ExtNotify { message, .. } if message.contains("moved to todos.json.corrupt-")),
        "{warn:?}"
    );

    let aside: Vec<_> = std::fs::read_dir(&copy.dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("todos.json.corrupt-")
        })
        .collect();
    assert_eq!(aside.len(), 1, "exactly one file moved aside");
    assert_eq!(
        std::fs::read_to_string(&aside[0]).unwrap(),
        "{\"todos\": [ {\"id\": 1, \"text\": \"half a fi"
    );
    assert!(h.log("todo").contains("could not be read"));

    // Reported once; the list works from empty and saves a fresh file.
    let r = h
        .host
        .call_tool("todo_manage", json!({"action":"add","text":"again"}))
        .await
        .unwrap();
    assert_eq!(text(&r.content), "added #1:\n#1 [ ] again");
    assert_eq!(saved(&copy.dir)["todos"][0]["text"], "again");
    h.host.shutdown().await;
}
