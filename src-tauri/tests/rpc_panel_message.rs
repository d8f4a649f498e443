//! HTML panels headless (docs/extensions.md "HTML panels", docs/rpc.md): `ext_panel_open`
//! carries the page, `panel_message` goes to the owner as if the page had
//! posted it, and what the owner sends its page comes out as
//! `ext_panel_message`. The real binary with a real Python fixture
//! extension; every bad input of the contract is refused with the limit or
//! the reason in its message.

use crate::one_ext::{env, start};
use zot_test_support::fixtures;
use zot_test_support::rpc::*;

use serde_json::{json, Value};

const PAGE: &str = "<!doctype html><title>chart</title><p>hi</p>";

/// A plan with `/chart` (an HTML panel "c1") and `/lines` (a line panel "l1").
fn plan(extra: Value) -> Value {
    let mut plan = json!({"commands": {
        "chart": {"action": "open_panel",
            "open_panel": {"id": "c1", "title": "Chart", "html": PAGE, "lines": ["ignored"]}},
        "lines": {"action": "open_panel", "open_panel": {"id": "l1", "lines": ["a"]}},
    }});
    if let (Some(p), Some(x)) = (plan.as_object_mut(), extra.as_object()) {
        p.extend(x.clone());
    }
    plan
}

async fn open(z: &mut Rpc, name: &str) -> Value {
    let from = z.log.len();
    let r = z.call(json!({"type":"command","name":name})).await;
    assert_eq!(r["success"], true, "{r}");
    z.find_from(from, |v| v["type"] == "ext_panel_open").await
}

#[tokio::test]
async fn an_html_panel_carries_its_page_and_messages_go_both_ways() {
    let e = env(plan(json!({}))).await;
    let mut z = start(&e).await;
    let open = open(&mut z, "chart").await;
    assert_eq!(open["panel"]["html"], PAGE, "{open}");
    assert_eq!(
        open["panel"]["lines"],
        json!([]),
        "the page is shown instead of lines: {open}"
    );
    assert!(
        open.get("net").is_none(),
        "no sandbox.net in the manifest, no network: {open}"
    );

    let from = z.log.len();
    let r = z
        .call(json!({"type":"panel_message","panel_id":"c1","data":{"clicked":[1,2]}}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["data"], json!({"delivered": true}));
    let back = z
        .find_from(from, |v| v["type"] == "ext_panel_message")
        .await;
    assert_eq!(
        back,
        json!({"type":"ext_panel_message","panel_id":"c1","extension":"fx",
            "data":{"echo":{"clicked":[1,2]}}})
    );
    // On the extension's wire: the contract's frame, exactly.
    let seen = fixtures::wait_seen(&e.ext, |v| v["type"] == "panel_message").await;
    assert_eq!(
        seen,
        json!({"type":"panel_message","panel_id":"c1","data":{"clicked":[1,2]}})
    );
    z.close().await;
}

#[tokio::test]
async fn messages_to_a_missing_or_line_panel_or_over_the_limit_are_refused_with_why() {
    let e = env(plan(json!({}))).await;
    let mut z = start(&e).await;
    let r = z
        .call(json!({"type":"panel_message","panel_id":"nope","data":1}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("no open panel 'nope'"),
        "{r}"
    );

    open(&mut z, "lines").await;
    let r = z
        .call(json!({"type":"panel_message","panel_id":"l1","data":1}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    assert!(r["error"].as_str().unwrap().contains("shows lines"), "{r}");

    open(&mut z, "chart").await;
    let big = "x".repeat(300 * 1024);
    let r = z
        .call(json!({"type":"panel_message","panel_id":"c1","data":big}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    let err = r["error"].as_str().unwrap();
    assert!(err.contains("262144 bytes (256 KiB)"), "{err}");
    // Nothing of those reached the extension.
    assert!(fixtures::seen(&e.ext)
        .iter()
        .all(|v| v["type"] != "panel_message"));
    z.close().await;
}

#[tokio::test]
async fn an_html_document_over_two_mib_is_refused_with_the_limit() {
    let huge = format!("<!doctype html><p>{}</p>", "y".repeat(2 * 1024 * 1024));
    let e = env(json!({"commands": {"chart": {"action": "open_panel",
        "open_panel": {"id": "c1", "html": huge}}}}))
    .await;
    let mut z = start(&e).await;
    let from = z.log.len();
    let r = z.call(json!({"type":"command","name":"chart"})).await;
    let err = r["data"]["error"].as_str().unwrap_or_default().to_owned();
    assert!(
        err.contains("over the limit of 2097152 bytes (2 MiB)"),
        "{r}"
    );
    assert_eq!(r["data"]["action"], "noop", "{r}");
    assert!(
        z.log[from..].iter().all(|v| v["type"] != "ext_panel_open"),
        "no panel opened"
    );
    // The panel was never open: a message to it is refused.
    let r = z
        .call(json!({"type":"panel_message","panel_id":"c1","data":1}))
        .await;
    assert_eq!(r["success"], false, "{r}");
    z.close().await;
}

#[tokio::test]
async fn an_extension_reaches_only_the_pages_of_its_own_html_panels() {
    // Right after opening, the fixture sends to a panel id nobody opened,
    // to its line panel's id, an oversize message, and then a good one.
    let e = env(plan(json!({"after_open": [
        {"panel_id": "ghost", "data": "to nobody"},
        {"panel_id": "l1", "data": "to a line panel"},
        {"panel_id": "c1", "data": "z".repeat(300 * 1024)},
        {"panel_id": "c1", "data": "fine"},
    ]})))
    .await;
    let mut z = start(&e).await;
    open(&mut z, "lines").await;
    let from = z.log.len();
    open(&mut z, "chart").await;
    let got = z
        .find_from(from, |v| {
            v["type"] == "ext_panel_message" && v["data"] == "fine"
        })
        .await;
    assert_eq!(got["panel_id"], "c1");
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(r["success"], true);
    let msgs: Vec<&Value> = z.log[from..]
        .iter()
        .filter(|v| v["type"] == "ext_panel_message")
        .collect();
    assert_eq!(msgs.len(), 1, "only the good one went out: {msgs:#?}");
    let log =
        std::fs::read_to_string(e.zot.home.path().join("logs/ext-fx.log")).unwrap_or_default();
    for why in [
        "panel_message for 'ghost', which is not an open panel of this extension",
        "panel_message for 'l1', which shows lines, not an HTML page",
        "over the limit of 262144 bytes (256 KiB)",
    ] {
        assert!(log.contains(why), "{why:?} not in the log:\n{log}");
    }
    z.close().await;
}

#[tokio::test]
async fn a_message_flood_from_an_extension_keeps_zot_answering() {
    let e = env(plan(json!({}))).await;
    let mut z = start(&e).await;
    open(&mut z, "chart").await;
    let from = z.log.len();
    let r = z
        .call(json!({"type":"panel_message","panel_id":"c1","data":{"flood":20000}}))
        .await;
    assert_eq!(r["data"]["delivered"], true, "{r}");
    // zot answers while the flood goes on, and what comes out is each
    // message at most once, in order.
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(r["success"], true, "{r}");
    // The fixture ends its flood with a clear_notes, which is never
    // dropped nor overtaken.
    z.find_from(from, |v| v["type"] == "ext_clear_notes").await;
    let ns: Vec<i64> = z.log[from..]
        .iter()
        .filter(|v| v["type"] == "ext_panel_message")
        .filter_map(|v| v["data"]["n"].as_i64())
        .collect();
    assert!(ns.windows(2).all(|w| w[0] < w[1]), "in order, none twice");
    assert!(!ns.is_empty() && ns.len() <= 20000);
    z.close().await;
}
