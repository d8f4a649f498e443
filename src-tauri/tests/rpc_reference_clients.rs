//! The reference zot's example RPC clients (Go, Python, Node, shell), as
//! they behave: the token from `ZOTCORE_RPC_TOKEN`, `--reasoning` on the
//! command line, one `hello` and one `prompt` written and stdin closed at
//! once, then every line read until `done`, printing
//! `cumulative.input/output/cost_usd` from `usage`. Every prompt must end
//! with exactly one `done`, run after run.

use std::process::Stdio;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

const RUNS: usize = 50;

/// One client run: all lines zot printed until it exited, and its status.
async fn one_run(url: &str, home: &std::path::Path, cwd: &std::path::Path) -> (Vec<Value>, i32) {
    let mut child = command(
        home,
        cwd,
        &[
            "rpc",
            "--reasoning",
            "high",
            "--no-session",
            "--no-ext",
            "--base-url",
            url,
            "--api-key",
            "k",
        ],
    )
    .env("ZOTCORE_RPC_TOKEN", "shared-secret")
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"{\"id\":\"0\",\"type\":\"hello\",\"token\":\"shared-secret\"}\n{\"id\":\"1\",\"type\":\"prompt\",\"message\":\"hi\"}\n")
        .await
        .unwrap();
    // As `echo … | zot rpc` and the clients' close(): end of input at once.
    drop(stdin);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    let read = async {
        while let Ok(Some(l)) = lines.next_line().await {
            seen.push(serde_json::from_str::<Value>(&l).unwrap());
        }
    };
    tokio::time::timeout(WAIT, read)
        .await
        .expect("zot never closed its stdout");
    let status = tokio::time::timeout(WAIT, child.wait())
        .await
        .unwrap()
        .unwrap();
    (seen, status.code().unwrap_or(-1))
}

#[tokio::test]
async fn a_prompt_piped_in_then_eof_ends_with_exactly_one_done_every_time() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut missing = 0;
    for run in 0..RUNS {
        s.push(anthropic_text(&["Hel", "lo."]));
        let (seen, code) = one_run(&s.url, home.path(), cwd.path()).await;
        assert_eq!(code, 0, "run {run}: {seen:?}");
        let hello = seen.iter().find(|v| v["id"] == "0").unwrap();
        assert_eq!(hello["success"], true, "run {run}: {hello}");
        let dones = seen.iter().filter(|v| v["type"] == "done").count();
        if dones != 1 {
            missing += 1;
            eprintln!("run {run}: {dones} done lines: {seen:?}");
            continue;
        }
        let text: String = seen
            .iter()
            .filter(|v| v["type"] == "text_delta")
            .filter_map(|v| v["delta"].as_str())
            .collect();
        assert_eq!(text, "Hello.", "run {run}");
        // What the Python and Node clients print.
        let usage = seen.iter().find(|v| v["type"] == "usage").unwrap();
        let cum = &usage["cumulative"];
        assert!(cum["input"].as_u64().is_some(), "{usage}");
        assert!(cum["output"].as_u64().is_some(), "{usage}");
        assert!(cum["cost_usd"].as_f64().is_some(), "{usage}");
    }
    assert_eq!(
        missing, 0,
        "{missing} of {RUNS} runs did not end with exactly one done"
    );
}

#[tokio::test]
async fn without_the_token_nothing_but_hello_is_served() {
    let s = FakeLlm::start().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-session", "--no-ext"],
        &[("ZOTCORE_RPC_TOKEN", "shared-secret")],
    )
    .await;
    let r = z.call(serde_json::json!({"type":"ping"})).await;
    assert_eq!(r["success"], false, "{r}");
    assert!(
        r["error"].as_str().unwrap().contains("ZOTCORE_RPC_TOKEN"),
        "{r}"
    );
    let r = z
        .call(serde_json::json!({"type":"hello","token":"shared-secret"}))
        .await;
    assert_eq!(r["success"], true, "{r}");
    let r = z.call(serde_json::json!({"type":"ping"})).await;
    assert_eq!(r["success"], true, "{r}");
    assert!(z.close().await.success());
}
