//! No key zot was given shows up anywhere zot writes: a run with a canary
//! `ANTHROPIC_API_KEY` and a canary `--api-key`, an extension that dumps
//! its environment (stderr, a notify, a tool result) and a model that runs
//! `bash env`, then every log file, every RPC line, the session file and
//! `zot ext doctor --json` are searched for both canaries. A provider error
//! that echoes the key does not carry it into an event either.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::fixtures::files_under;
use zot_test_support::rpc::*;

const ENV_CANARY: &str = "sk-ant-CANARY-ENV-7f3a9c1e5b2d";
const FLAG_CANARY: &str = "sk-ant-CANARY-FLAG-4e8b0d6a2c9f";

/// The env-dumping fixture extension, copied to `parent/envleak`.
fn fixture(parent: &Path) -> PathBuf {
    let d = parent.join("envleak");
    std::fs::create_dir_all(&d).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/env_ext.py");
    std::fs::copy(&src, d.join("env_ext.py")).unwrap();
    std::fs::write(
        d.join("extension.json"),
        r#"{"name":"envleak","version":"0.1.0","exec":"./env_ext.py","language":"python"}"#,
    )
    .unwrap();
    d
}

/// Every file under `dir`, recursively, with its text (lossy).
fn texts_under(dir: &Path) -> Vec<(PathBuf, String)> {
    files_under(dir)
        .into_iter()
        .filter_map(|p| {
            let b = std::fs::read(&p).ok()?;
            Some((p, String::from_utf8_lossy(&b).into_owned()))
        })
        .collect()
}

/// Where a canary appears in `text`, named by `what`.
fn leaks(what: &str, text: &str) -> Vec<String> {
    [ENV_CANARY, FLAG_CANARY]
        .iter()
        .filter(|c| text.contains(*c))
        .map(|c| format!("{what} contains {c}"))
        .collect()
}

#[tokio::test]
async fn no_canary_key_reaches_logs_events_sessions_or_doctor() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool("", "t1", "envdump", &["{}"]));
    s.push(anthropic_tool("", "t2", "bash", &["{\"command\":\"env\"}"]));
    s.push(anthropic_text(&["all done"]));
    let (home, cwd, exts) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let ext = fixture(exts.path());
    let ext_arg = ext.to_str().unwrap().to_owned();
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &[
            "--ext",
            &ext_arg,
            "--base-url",
            &s.url,
            "--api-key",
            FLAG_CANARY,
        ],
        &[("ANTHROPIC_API_KEY", ENV_CANARY)],
    )
    .await;
    let evs = z.prompt("show me your environment").await;
    // The model really saw both tool results (the leak paths were exercised).
    let results: Vec<&Value> = evs.iter().filter(|v| v["type"] == "tool_result").collect();
    assert_eq!(results.len(), 2, "{evs:#?}");
    for cmd in ["get_messages", "get_state", "ext_list"] {
        let r = z.call(json!({"type": cmd})).await;
        assert_eq!(r["success"], true, "{r}");
    }
    let log = z.log.clone();
    assert!(z.close().await.success());

    let mut found = Vec::new();
    for (i, line) in log.iter().enumerate() {
        found.extend(leaks(
            &format!("RPC line {i} ({})", line["type"]),
            &line.to_string(),
        ));
    }
    let written = texts_under(home.path());
    assert!(
        written
            .iter()
            .any(|(p, _)| p.starts_with(home.path().join("sessions"))),
        "no session file was written: {:?}",
        written.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    assert!(
        written
            .iter()
            .any(|(p, _)| p.starts_with(home.path().join("logs"))),
        "no log file was written"
    );
    for (p, text) in &written {
        found.extend(leaks(&p.display().to_string(), text));
    }
    for (i, r) in s.requests().iter().enumerate() {
        found.extend(leaks(
            &format!("model request {i} body"),
            &r.body.to_string(),
        ));
    }
    let doctor = command(
        home.path(),
        cwd.path(),
        &[
            "ext",
            "doctor",
            "--json",
            "--ext",
            &ext_arg,
            "--api-key",
            FLAG_CANARY,
        ],
    )
    .env("ANTHROPIC_API_KEY", ENV_CANARY)
    .output()
    .await
    .unwrap();
    let doctor_out = String::from_utf8_lossy(&doctor.stdout);
    assert!(doctor_out.contains("envleak"), "{doctor_out}");
    found.extend(leaks("zot ext doctor --json stdout", &doctor_out));
    found.extend(leaks(
        "zot ext doctor --json stderr",
        &String::from_utf8_lossy(&doctor.stderr),
    ));
    assert!(found.is_empty(), "the keys leaked:\n{}", found.join("\n"));
}

#[tokio::test]
async fn a_provider_error_that_echoes_the_key_does_not_carry_it_into_events() {
    let s = FakeLlm::start().await;
    for code in [401, 400] {
        s.push(error_status(
            code,
            &format!("invalid x-api-key: {FLAG_CANARY} (also tried {ENV_CANARY})"),
            None,
        ));
    }
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::start(
        home.path(),
        cwd.path(),
        &["--no-ext", "--base-url", &s.url, "--api-key", FLAG_CANARY],
        &[("ANTHROPIC_API_KEY", ENV_CANARY)],
    )
    .await;
    for _ in 0..2 {
        let evs = z.prompt("hi").await;
        let errs: Vec<&Value> = evs
            .iter()
            .filter(|v| v["type"] == "error" || v["type"] == "turn_end")
            .collect();
        assert!(
            errs.iter().any(|v| v.to_string().contains("HTTP 40")),
            "the error still says what happened: {evs:#?}"
        );
    }
    let r = z.call(json!({"type":"get_messages"})).await;
    assert_eq!(r["success"], true);
    let log = z.log.clone();
    assert!(z.close().await.success());
    let mut found = Vec::new();
    for (i, line) in log.iter().enumerate() {
        found.extend(leaks(
            &format!("RPC line {i} ({})", line["type"]),
            &line.to_string(),
        ));
    }
    for (p, text) in texts_under(home.path()) {
        found.extend(leaks(&p.display().to_string(), &text));
    }
    assert!(found.is_empty(), "the keys leaked:\n{}", found.join("\n"));
}
