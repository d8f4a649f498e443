//! The panel input commands of docs/rpc.md (`panel_mouse`, `panel_resize`)
//! and `placement`, end to end: the real binary with a real Python fixture
//! extension. Frames reach only an owner that declared the capability;
//! the others get `delivered:false` and nothing on their stdin.

use zot_test_support::fixtures;

use serde_json::{json, Value};
use zot_test_support::rpc::*;

use crate::one_ext::{env, start};

fn todo(extra: Value) -> Value {
    let mut plan = json!({"commands": {"todo": {"action": "open_panel",
        "open_panel": {"id": "p1", "title": "Todos", "lines": ["□ ship", "✓ docs"]}}}});
    if let (Some(p), Some(x)) = (plan.as_object_mut(), extra.as_object()) {
        p.extend(x.clone());
    }
    plan
}

async fn open(z: &mut Rpc) -> Value {
    let r = z.call(json!({"type":"command","name":"todo"})).await;
    assert_eq!(r["success"], true, "{r}");
    z.until(|v| v["type"] == "ext_panel_open")
        .await
        .last()
        .unwrap()
        .clone()
}

fn mouse_seen(dir: &std::path::Path) -> Vec<Value> {
    fixtures::seen(dir)
        .into_iter()
        .filter(|v| v["type"] == "panel_mouse" || v["type"] == "panel_resize")
        .collect()
}

#[tokio::test]
async fn a_declaring_owner_gets_mouse_and_resize_frames_and_renders_back() {
    let e = env(todo(
        json!({"capabilities": ["panel_mouse", "panel_resize"]}),
    ))
    .await;
    let mut z = start(&e).await;
    let open = open(&mut z).await;
    assert_eq!(
        open["capabilities"],
        json!(["panel_mouse", "panel_resize"]),
        "{open}"
    );
    // No placement asked: the default, spelled out.
    assert_eq!(open["panel"]["placement"], "bottom", "{open}");

    let r = z
        .call(json!({"type":"panel_mouse","panel_id":"p1","action":"click","row":0,"col":2}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"], json!({"delivered": true}));
    let evs = z.until(|v| v["type"] == "ext_panel_render").await;
    assert_eq!(evs.last().unwrap()["lines"], json!(["mouse click 0:2"]));
    assert_eq!(evs.last().unwrap()["placement"], "bottom");

    for (cmd, want) in [
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"double_click","row":1,"col":0}),
            "mouse double_click 1:0",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"context","row":1,"col":6}),
            "mouse context 1:6",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"wheel","delta":-3}),
            "mouse wheel -3",
        ),
        (
            json!({"type":"panel_resize","panel_id":"p1","cols":80,"rows":12}),
            "size 80x12",
        ),
    ] {
        let from = z.log.len();
        let r = z.call(cmd.clone()).await;
        assert_eq!(r["data"]["delivered"], true, "{cmd} → {r}");
        let ev = z.find_from(from, |v| v["type"] == "ext_panel_render").await;
        assert_eq!(ev["lines"], json!([want]), "{cmd}");
    }
    // The frames on the wire are the contract's: a wheel has no row/col.
    let seen = mouse_seen(&e.ext);
    assert_eq!(
        seen[3],
        json!({"type":"panel_mouse","panel_id":"p1","action":"wheel","delta":-3})
    );
    assert_eq!(
        seen[0],
        json!({"type":"panel_mouse","panel_id":"p1","action":"click","row":0,"col":2})
    );
    assert_eq!(
        seen[4],
        json!({"type":"panel_resize","panel_id":"p1","cols":80,"rows":12})
    );
}

#[tokio::test]
async fn an_owner_without_the_capabilities_gets_nothing_new_and_delivered_false() {
    let e = env(todo(json!({}))).await;
    let mut z = start(&e).await;
    let open = open(&mut z).await;
    assert!(open.get("capabilities").is_none(), "{open}");
    let r = z
        .call(json!({"type":"panel_mouse","panel_id":"p1","action":"click","row":0,"col":0}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"], json!({"delivered": false}));
    let r = z
        .call(json!({"type":"panel_resize","panel_id":"p1","cols":80,"rows":12}))
        .await;
    assert_eq!(r["data"], json!({"delivered": false}), "{r}");
    // A key after them is the first thing the extension sees since the open.
    z.call(json!({"type":"panel_key","panel_id":"p1","key":"down"}))
        .await;
    fixtures::wait_seen(&e.ext, |v| v["type"] == "panel_key").await;
    assert!(
        mouse_seen(&e.ext).is_empty(),
        "{:?}",
        fixtures::seen(&e.ext)
    );
}

#[tokio::test]
async fn bad_mouse_and_resize_commands_say_what_is_wrong() {
    let e = env(todo(
        json!({"capabilities": ["panel_mouse", "panel_resize"]}),
    ))
    .await;
    let mut z = start(&e).await;
    open(&mut z).await;
    for (cmd, says) in [
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"click","row":0}),
            "needs \"row\" and \"col\"",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"wheel","delta":0}),
            "non-zero \"delta\"",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"wheel","delta":2,"row":1,"col":1}),
            "no \"row\"/\"col\"",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"click","row":0,"col":0,"delta":1}),
            "only a wheel carries",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"hover","row":0,"col":0}),
            "bad panel_mouse command",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"p1","action":"click","row":-1,"col":0}),
            "bad panel_mouse command",
        ),
        (
            json!({"type":"panel_resize","panel_id":"p1","cols":0,"rows":12}),
            "at least 1",
        ),
        (
            json!({"type":"panel_mouse","panel_id":"nope","action":"click","row":0,"col":0}),
            "no open panel 'nope'",
        ),
        (
            json!({"type":"panel_resize","panel_id":"nope","cols":1,"rows":1}),
            "no open panel 'nope'",
        ),
    ] {
        let r = z.call(cmd.clone()).await;
        assert_eq!(r["success"], false, "{cmd} → {r}");
        let err = r["error"].as_str().unwrap_or_default();
        assert!(err.contains(says), "{cmd} → {err}");
    }
    assert!(mouse_seen(&e.ext).is_empty());
}

#[tokio::test]
async fn an_unknown_placement_is_shown_at_the_bottom_with_one_log_line() {
    let e = env(json!({"capabilities": [], "render_placement": "side",
        "commands": {"todo": {"action": "open_panel",
        "open_panel": {"id": "p1", "lines": ["a"], "placement": "floating"}},
        "side": {"action": "open_panel",
        "open_panel": {"id": "p2", "lines": ["b"], "placement": "side"}}}}))
    .await;
    let mut z = start(&e).await;
    let open = open(&mut z).await;
    assert_eq!(open["panel"]["placement"], "bottom", "{open}");
    z.call(json!({"type":"command","name":"todo"})).await;
    z.call(json!({"type":"command","name":"side"})).await;
    let evs = z
        .until(|v| v["type"] == "ext_panel_open" && v["panel"]["id"] == "p2")
        .await;
    assert_eq!(evs.last().unwrap()["panel"]["placement"], "side");
    // A render's placement travels too.
    z.call(json!({"type":"panel_key","panel_id":"p1","key":"up"}))
        .await;
    let evs = z.until(|v| v["type"] == "ext_panel_render").await;
    assert_eq!(evs.last().unwrap()["placement"], "side");

    let list = z.call(json!({"type":"ext_list"})).await;
    let log = list["data"]["extensions"][0]["log_path"]
        .as_str()
        .unwrap()
        .to_owned();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("placement 'floating'"))
        .collect();
    assert_eq!(
        lines.len(),
        1,
        "one line for the same name, twice sent: {text}"
    );
    assert!(lines[0].contains("shown at the bottom"), "{text}");
}

#[tokio::test]
async fn mouse_for_a_panel_closed_by_a_crash_is_dropped_with_one_status() {
    let e = env(todo(json!({"capabilities": ["panel_mouse"]}))).await;
    let mut z = start(&e).await;
    open(&mut z).await;
    // `delete` makes the fixture exit 3 after its render.
    z.call(json!({"type":"panel_key","panel_id":"p1","key":"delete"}))
        .await;
    z.until(|v| v["type"] == "ext_panel_close" && v["panel_id"] == "p1")
        .await;
    let mut delivered = Vec::new();
    for _ in 0..3 {
        let r = z
            .call(json!({"type":"panel_mouse","panel_id":"p1","action":"wheel","delta":1}))
            .await;
        assert_eq!(r["success"], true, "{r}");
        delivered.push(r["data"]["delivered"].clone());
    }
    assert_eq!(delivered, [json!(false), json!(false), json!(false)]);
    z.until(|v| v["type"] == "ext_status").await;
    z.call(json!({"type":"ping"})).await;
    let statuses: Vec<&Value> = z
        .log
        .iter()
        .filter(|v| {
            v["type"] == "ext_status" && v["text"].as_str().unwrap_or("").contains("crashed")
        })
        .collect();
    assert_eq!(statuses.len(), 1, "{:?}", z.log);
}
