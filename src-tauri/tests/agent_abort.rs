//! Every built-in tool is raced against abort, through the real binary in
//! RPC mode: whatever the tool is doing (bash sleeping while it ignores
//! SIGTERM, a read scanning a huge sparse file), `abort` ends the turn with
//! `turn_end{stop:"aborted"}` and `done`, the next prompt runs, and bash's
//! children are gone (checked in /proc).

use std::time::Duration;

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;
use zot_test_support::wait::until;

async fn start(s: &FakeLlm, home: &std::path::Path, cwd: &std::path::Path) -> Rpc {
    let args = ["--provider", "anthropic", "--no-ext", "--no-session"];
    Rpc::against(s, home, cwd, &args, &[]).await
}

/// Pids of live (not zombie) processes whose argv is exactly `argv`.
fn live_pids(argv: &[&str]) -> Vec<String> {
    let want: Vec<u8> = argv
        .iter()
        .flat_map(|a| [a.as_bytes(), b"\0"].concat())
        .collect();
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = e.file_name().to_string_lossy().into_owned();
        if !pid.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if std::fs::read(e.path().join("cmdline")).unwrap_or_default() != want {
            continue;
        }
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        if !stat.contains(") Z ") {
            out.push(pid);
        }
    }
    out
}

#[tokio::test]
async fn abort_ends_a_bash_that_ignores_sigterm_and_its_sleep_is_gone() {
    // A duration no other test uses, so /proc shows only this sleep.
    let secs = format!("{}.{}", 100 + std::process::id() % 800, 7);
    let command = format!("trap '' TERM INT HUP; sleep {secs}; echo never");
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "",
        "tu_1",
        "bash",
        &[&json!({ "command": command }).to_string()],
    ));
    s.push(anthropic_text(&["next"]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = start(&s, home.path(), cwd.path()).await;
    z.send(json!({"type":"prompt","message":"run"})).await;
    z.until(|v| v["type"] == "tool_call").await;
    until("the sleep starting", 30, || {
        !live_pids(&["sleep", &secs]).is_empty()
    })
    .await;

    let r = z.call(json!({"type":"abort"})).await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.until(|v| v["type"] == "done").await;
    let ends = of(&evs, "turn_end");
    assert_eq!(ends.last().unwrap()["stop"], "aborted", "{evs:#?}");
    let res = of(&evs, "tool_result");
    assert_eq!(res[0]["is_error"], true, "{evs:#?}");
    assert!(
        res[0]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("aborted"),
        "{evs:#?}"
    );
    until("the sleep dying", 30, || {
        live_pids(&["sleep", &secs]).is_empty()
    })
    .await;

    let evs = z.prompt("again").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "next");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn abort_ends_a_read_of_a_huge_sparse_file() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // 1 TiB of holes and not one newline: today's loader tried to allocate
    // it all; now the scan streams until the abort.
    let big = cwd.path().join("huge.txt");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    let s = FakeLlm::start().await;
    s.push(anthropic_tool(
        "",
        "tu_1",
        "read",
        &[&json!({"path": "huge.txt", "offset": 5}).to_string()],
    ));
    s.push(anthropic_text(&["next"]));
    let mut z = start(&s, home.path(), cwd.path()).await;
    z.send(json!({"type":"prompt","message":"read it"})).await;
    z.until(|v| v["type"] == "tool_call").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let r = z.call(json!({"type":"abort"})).await;
    assert_eq!(r["success"], true, "{r}");
    let evs = z.until(|v| v["type"] == "done").await;
    assert_eq!(
        of(&evs, "turn_end").last().unwrap()["stop"],
        "aborted",
        "{evs:#?}"
    );
    let evs = z.prompt("again").await;
    assert_eq!(of(&evs, "assistant_message")[0]["content"], "next");
    assert!(z.close().await.success());
}
