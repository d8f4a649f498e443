//! An extension that floods while the client is not reading: its notes are
//! capped (with one warning saying how many were dropped), its panel's
//! renders coalesce to the newest, and the turn running beside it loses
//! nothing: every text delta, the panel's close and `done` arrive, in order.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

const N: usize = 20_000;

fn fixture(parent: &Path) -> PathBuf {
    let d = parent.join("flood");
    std::fs::create_dir_all(&d).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/flood_ext.py");
    std::fs::copy(&src, d.join("flood_ext.py")).unwrap();
    std::fs::write(d.join("n"), N.to_string()).unwrap();
    std::fs::write(
        d.join("extension.json"),
        r#"{"name":"flood","version":"0.1.0","exec":"./flood_ext.py","language":"python"}"#,
    )
    .unwrap();
    d
}

#[tokio::test]
async fn a_flood_is_bounded_and_the_turn_beside_it_loses_nothing() {
    let s = FakeLlm::start().await;
    let pieces: Vec<String> = (0..300).map(|i| format!("w{i} ")).collect();
    let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
    s.push(anthropic_text(&refs));
    let (home, cwd, exts) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let ext = fixture(exts.path());
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--ext", ext.to_str().unwrap(), "--no-session"],
        &[],
    )
    .await;
    // Send both and read nothing until the flood is out: zot's stdout
    // fills and its queue must hold the line.
    z.send(json!({"type":"prompt","message":"talk"})).await;
    let cmd = z
        .send(json!({"type":"command","name":"flood","args":""}))
        .await;
    let deadline = Instant::now() + WAIT;
    while !ext.join("sent").exists() {
        assert!(Instant::now() < deadline, "the flood was never sent");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Give zot a moment to take the frames in (not a timing assertion:
    // the checks below hold however far it got).
    tokio::time::sleep(Duration::from_millis(500)).await;
    // `done` and the panel's close, in whichever order they come.
    let mut need = vec!["done", "ext_panel_close"];
    while !need.is_empty() {
        let got = z
            .until(|v| v["type"] == "done" || v["type"] == "ext_panel_close")
            .await;
        let t = got.last().unwrap()["type"].as_str().unwrap().to_owned();
        need.retain(|n| *n != t);
    }
    z.response(&cmd).await;
    let log: Vec<Value> = z.log.clone();

    let text: String = log
        .iter()
        .filter(|v| v["type"] == "text_delta")
        .map(|v| v["delta"].as_str().unwrap())
        .collect();
    assert_eq!(text, pieces.concat(), "every text delta arrived, in order");

    let notes: Vec<&str> = log
        .iter()
        .filter(|v| v["type"] == "ext_notify" && v["extension"] == "flood")
        .map(|v| v["message"].as_str().unwrap())
        .collect();
    let warning = notes
        .iter()
        .find(|m| m.starts_with("zot dropped"))
        .unwrap_or_else(|| panic!("no drop warning among {} notes", notes.len()));
    let dropped: usize = warning
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap();
    let shown = notes.len() - 1;
    assert!(shown < N / 10, "{shown} of {N} notes reached the client");
    assert!(
        shown + dropped <= N,
        "{shown} shown + {dropped} dropped > {N}"
    );

    let renders: Vec<&Value> = log
        .iter()
        .filter(|v| v["type"] == "ext_panel_render")
        .collect();
    assert!(
        renders.len() < N / 10,
        "{} of {N} renders reached the client",
        renders.len()
    );
    assert_eq!(
        renders.last().unwrap()["lines"][0],
        format!("render {}", N - 1),
        "the newest render survives coalescing"
    );
    let close = log
        .iter()
        .position(|v| v["type"] == "ext_panel_close")
        .unwrap();
    let last_render = log
        .iter()
        .rposition(|v| v["type"] == "ext_panel_render")
        .unwrap();
    assert!(last_render < close, "renders stay before the close");
    assert!(z.close().await.success());
}
