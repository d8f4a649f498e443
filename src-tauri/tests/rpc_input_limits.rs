//! RPC stdin that is not what a client should send: a line that is not
//! UTF-8 and a line over 16 MiB each get one `success:false` answer, the
//! over-long one without ever being held whole in memory, and the process
//! keeps serving.

use serde_json::json;
use zot_test_support::rpc::*;

/// The peak resident memory of a process, from the kernel, in KiB.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status")
}

#[tokio::test]
async fn a_line_that_is_not_utf8_gets_success_false_and_the_process_keeps_serving() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::start(home.path(), cwd.path(), &["--no-ext", "--no-session"], &[]).await;
    z.send_bytes(b"{\"type\":\"ping\",\"id\":\"x\xff\"}\n")
        .await;
    let r = z.until(|v| v["type"] == "response").await.pop().unwrap();
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["command"], "unknown", "{r}");
    assert!(r["error"].as_str().unwrap().contains("not UTF-8"), "{r}");
    // A torn multi-byte character at the end of a line, then a good line.
    z.send_bytes(b"\xe2\x82\n").await;
    let r = z.until(|v| v["type"] == "response").await.pop().unwrap();
    assert!(r["error"].as_str().unwrap().contains("not UTF-8"), "{r}");
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(r["data"]["pong"], true, "{r}");
    assert!(z.close().await.success());
}

#[tokio::test]
async fn a_line_over_16_mib_is_refused_without_being_buffered_whole() {
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut z = Rpc::start(home.path(), cwd.path(), &["--no-ext", "--no-session"], &[]).await;
    let pid = z.child.id().unwrap();
    let before = peak_rss_kib(pid);
    // 256 MiB in one line: a reader that buffers lines would hold all of it.
    let block = vec![b'a'; 1024 * 1024];
    let head = b"{\"type\":\"prompt\",\"message\":\"";
    z.send_bytes(head).await;
    for _ in 0..256 {
        z.send_bytes(&block).await;
    }
    z.send_bytes(b"\"}\n").await;
    let r = z.until(|v| v["type"] == "response").await.pop().unwrap();
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["command"], "unknown", "{r}");
    let e = r["error"].as_str().unwrap();
    assert!(e.contains("over the limit of 16 MiB"), "{e}");
    assert!(
        e.contains(&(256 * 1024 * 1024 + head.len() + 2).to_string()),
        "{e}"
    );
    let grew = peak_rss_kib(pid).saturating_sub(before);
    assert!(
        grew < 64 * 1024,
        "zot's peak memory grew by {grew} KiB while reading a 256 MiB line"
    );
    // Just under the limit is still a command.
    let mut ok = b"{\"type\":\"ping\",\"id\":\"big\",\"pad\":\"".to_vec();
    ok.extend(vec![b'p'; 16 * 1024 * 1024 - ok.len() - 2]);
    ok.extend_from_slice(b"\"}\n");
    z.send_bytes(&ok).await;
    let r = z.response("big").await;
    assert_eq!(r["data"]["pong"], true, "{r}");
    let r = z.call(json!({"type":"ping"})).await;
    assert_eq!(r["data"]["pong"], true, "{r}");
    assert!(z.close().await.success());
}
