//! The restart seam: one extension stopped and started again many times
//! gets a fresh process each time, and nothing of the old runs stays behind
//! (file descriptors, tokio tasks, child processes, memory), as counted by
//! the OS. Alone in its test binary: fds and children are per process, and
//! other tests running beside it would move the counts.

#[path = "support/support.rs"]
mod support;

use serde_json::json;
use support::*;
use zot_ext_protocol::rpc::ExtState;

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// Children of this process, running or not yet reaped.
fn children() -> usize {
    let mut n = 0;
    for task in std::fs::read_dir("/proc/self/task").unwrap() {
        let path = task.unwrap().path().join("children");
        if let Ok(s) = std::fs::read_to_string(path) {
            n += s.split_whitespace().count();
        }
    }
    n
}

fn alive_tasks() -> usize {
    tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
}

const ROUNDS: usize = 40;

#[tokio::test]
async fn stopping_and_starting_one_extension_many_times_leaks_nothing() {
    let env = Env::new();
    let dir = env.global(
        "wx",
        json!({"register":[{"type":"register_tool","name":"weather","schema":{"type":"object"}}],
               "tools":{"weather":{"result":{"content":[{"type":"text","text":"sunny"}]}}}}),
    );
    let (host, mut rx) = start(env.config()).await;
    // The app drains its events; so does this test, in one task started
    // before anything is counted.
    tokio::spawn(async move { while rx.recv().await.is_some() {} });
    // Warm up: the first runs size buffers and the runtime's pools.
    for _ in 0..3 {
        host.restart("wx").await.unwrap();
    }
    let fds = open_fds();
    let tasks = alive_tasks();
    let rss = rss_kib();
    // The current run, and the host's reaper helper (reaper.rs).
    let kids = children();
    let mut pids = Vec::new();
    for round in 0..ROUNDS {
        let before = read_pid(&dir, "pid");
        host.restart("wx").await.unwrap();
        let pid = read_pid(&dir, "pid");
        assert_ne!(pid, before, "round {round}: a fresh process");
        assert!(!alive(before), "round {round}: the old run is gone");
        assert_eq!(host.list()[0].state, ExtState::Ready, "round {round}");
        // Its registrations are the new run's, listed once.
        assert_eq!(host.tools().len(), 1, "round {round}: {:?}", host.tools());
        let out = host.call_tool("weather", json!({})).await.unwrap();
        assert!(!out.is_error, "round {round}");
        pids.push(pid);
    }
    // The last run's stderr pump and the old runs' reaper may finish a
    // moment after the restart returned.
    eventually(|| open_fds() <= fds && alive_tasks() <= tasks).await;
    assert_eq!(children(), kids, "only the current run is a child of ours");
    let grew = rss_kib().saturating_sub(rss);
    assert!(
        grew < 4096,
        "{ROUNDS} restarts grew RSS by {grew} KiB (from {rss} KiB)"
    );
    for pid in &pids[..pids.len() - 1] {
        assert!(!alive(*pid) && !is_our_zombie(*pid));
    }
    host.shutdown().await;
    assert_eq!(children(), kids - 1, "the last run went with shutdown");
}
