//! `zot -p` prints only the final text; `zot --mode json` prints every event
//! as NDJSON ending in `done`; neither needs a display, and a missing key
//! exits 1 with a message that says how to set one.

use serde_json::Value;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

#[tokio::test]
async fn print_mode_prints_the_final_text_only() {
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "Let me write.",
        "t1",
        "write",
        &["{\"path\":\"p.txt\",\"content\":\"z\"}"],
    ));
    s.push(anthropic_text(&["All ", "done."]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let out = command(
        home.path(),
        cwd.path(),
        &[
            "-p",
            "write p",
            "--base-url",
            &s.url,
            "--api-key",
            "k",
            "--no-ext",
        ],
    )
    .env_remove("DISPLAY")
    .env_remove("WAYLAND_DISPLAY")
    .output()
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "All done.\n");
    assert!(cwd.path().join("p.txt").exists());
}

#[tokio::test]
async fn print_mode_reads_the_prompt_from_stdin() {
    let s = FakeLlm::start().await;
    s.push(openai_text(&["piped"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let url = format!("{}/v1", s.url);
    let mut c = command(
        home.path(),
        cwd.path(),
        &[
            "--mode",
            "print",
            "--provider",
            "ollama",
            "--base-url",
            &url,
            "--no-ext",
        ],
    );
    c.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    use tokio::io::AsyncWriteExt;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"from stdin")
        .await
        .unwrap();
    let out = child.wait_with_output().await.unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "piped\n");
    assert_eq!(s.requests()[0].body["messages"][1]["content"], "from stdin");
    // Ollama needs no key.
    assert!(s.requests()[0].header("authorization").is_none());
}

#[tokio::test]
async fn json_mode_prints_every_event_as_ndjson() {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&["Hi"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let out = command(
        home.path(),
        cwd.path(),
        &[
            "--mode",
            "json",
            "hello",
            "--base-url",
            &s.url,
            "--api-key",
            "k",
            "--no-ext",
        ],
    )
    .output()
    .await
    .unwrap();
    assert!(out.status.success());
    let evs: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(evs.first().unwrap()["type"], "ready");
    assert_eq!(evs.last().unwrap()["type"], "done");
    assert!(evs
        .iter()
        .any(|e| e["type"] == "text_delta" && e["delta"] == "Hi"));
    assert!(evs
        .iter()
        .any(|e| e["type"] == "turn_end" && e["stop"] == "end_turn"));
}

#[tokio::test]
async fn print_mode_without_a_key_exits_1_and_says_how_to_set_one() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let out = command(
        home.path(),
        cwd.path(),
        &["-p", "hi", "--provider", "kimi", "--no-ext"],
    )
    .output()
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--api-key") && err.contains("MOONSHOT_API_KEY") && err.contains("auth.json"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
