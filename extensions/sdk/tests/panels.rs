//! Panels: keys reach the key callback, which renders or closes; a close
//! from zot reaches the close callback.
#[path = "support/child.rs"]
mod child;

use child::started;
#[allow(unused_imports)]
use serde_json::{json, Value};

#[test]
fn keys_render_and_close_the_panel() {
    let mut ext = started();
    ext.send(json!({"type":"panel_key","panel_id":"p1","key":"down"}));
    assert_eq!(
        ext.recv(),
        json!({"type":"panel_render","panel_id":"p1","title":"Sink","lines":["down"],"footer":"q closes"})
    );
    ext.send(json!({"type":"panel_key","panel_id":"p1","key":"rune","text":"x"}));
    assert_eq!(ext.recv()["lines"], json!(["rune x"]));
    ext.send(json!({"type":"panel_key","panel_id":"p1","key":"rune","text":"q"}));
    assert_eq!(ext.recv(), json!({"type":"panel_close","panel_id":"p1"}));
}

#[test]
fn a_close_from_zot_reaches_the_close_callback() {
    let mut ext = started();
    ext.send(json!({"type":"panel_close","panel_id":"p1"}));
    assert_eq!(
        ext.recv(),
        json!({"type":"notify","level":"info","message":"panel p1 closed"})
    );
}

#[test]
fn keys_are_handled_in_the_order_they_were_sent() {
    let mut ext = started();
    let keys = [
        "up", "down", "left", "right", "enter", "tab", "home", "end", "pageup", "pagedown",
    ];
    for _ in 0..5 {
        for k in keys {
            ext.send(json!({"type":"panel_key","panel_id":"p1","key":k}));
        }
    }
    for _ in 0..5 {
        for k in keys {
            assert_eq!(ext.recv()["lines"][0], k);
        }
    }
}

#[test]
fn mouse_and_resize_reach_their_typed_callbacks_in_order() {
    let mut ext = started();
    ext.send(json!({"type":"panel_mouse","panel_id":"p1","action":"click","row":2,"col":0}));
    ext.send(json!({"type":"panel_mouse","panel_id":"p1","action":"wheel","delta":-3}));
    ext.send(json!({"type":"panel_resize","panel_id":"p1","cols":80,"rows":12}));
    ext.send(json!({"type":"panel_mouse","panel_id":"p1","action":"double_click","row":2,"col":5}));
    assert_eq!(ext.recv()["lines"], json!(["click 2:0"]));
    assert_eq!(ext.recv()["lines"], json!(["wheel -3"]));
    assert_eq!(
        ext.recv(),
        json!({"type":"panel_render","panel_id":"p1","lines":["size 80x12"],"placement":"side"})
    );
    assert_eq!(ext.recv()["lines"], json!(["double_click 2:5"]));
}

#[test]
fn a_page_message_reaches_its_callback_and_post_message_answers_the_page() {
    let mut ext = started();
    ext.send(json!({"type":"panel_message","panel_id":"c1","data":{"clicked":3}}));
    assert_eq!(
        ext.recv(),
        json!({"type":"panel_message","panel_id":"c1","data":{"echo":{"clicked":3}}})
    );
}

#[test]
fn open_html_panel_answers_with_the_page_and_no_lines() {
    let frame = zot_ext::Response::open_html_panel("c1", "Chart", "<p>hi</p>")
        .into_frame(zot_ext_protocol::RequestId("r1".into()));
    assert_eq!(
        serde_json::to_value(frame).unwrap(),
        json!({
            "id":"r1","action":"open_panel",
            "open_panel":{"id":"c1","title":"Chart","lines":[],"html":"<p>hi</p>"}
        })
    );
}
