//! Anthropic prompt caching end to end: the real binary against the fake
//! server's cache (which bills requests the way the API documents). The
//! breakpoints sit on the last tool, the system prompt, the end of the
//! previous request's conversation and the end of this one; they move as
//! the conversation grows, and each request reads what the one before
//! wrote.

use serde_json::{json, Value};
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

/// Where a request's `cache_control` markers are: `tools[i]`, `system[i]`
/// and `messages[i][j]`.
fn marks(body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (k, list) in [("tools", &body["tools"]), ("system", &body["system"])] {
        for (i, t) in list.as_array().into_iter().flatten().enumerate() {
            if t.get("cache_control").is_some() {
                out.push(format!("{k}[{i}]"));
            }
        }
    }
    for (i, m) in body["messages"].as_array().unwrap().iter().enumerate() {
        for (j, b) in m["content"].as_array().into_iter().flatten().enumerate() {
            if b.get("cache_control").is_some() {
                out.push(format!("messages[{i}][{j}]"));
            }
        }
    }
    out
}

#[tokio::test]
async fn breakpoints_mark_the_stable_prefix_and_move_with_the_conversation() {
    let s = FakeLlm::start_caching().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(cwd.path().join("a.txt"), "hello\n".repeat(50)).unwrap();
    // A system prompt past the 1024-token minimum, so the cache works.
    let system = "You are a careful coding agent. ".repeat(200);
    s.push(anthropic_tool("", "t1", "read", &["{\"path\":\"a.txt\"}"]));
    s.push(anthropic_text(&["It says hello."]));
    s.push(anthropic_tool("", "t2", "read", &["{\"path\":\"a.txt\"}"]));
    s.push(anthropic_text(&["Still hello."]));
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &[
            "--no-session",
            "--no-ext",
            "--tools",
            "read,bash",
            "--system-prompt",
            &system,
        ],
        &[],
    )
    .await;
    z.prompt("read a.txt").await;
    z.prompt("and again").await;
    let reqs = s.requests();
    let all: Vec<Vec<String>> = reqs.iter().map(|r| marks(&r.body)).collect();
    assert_eq!(
        all,
        [
            vec!["tools[1]", "system[0]", "messages[0][0]"],
            vec!["tools[1]", "system[0]", "messages[0][0]", "messages[2][0]"],
            // A new prompt: the previous tail is again two messages back.
            vec!["tools[1]", "system[0]", "messages[2][0]", "messages[4][0]"],
            vec!["tools[1]", "system[0]", "messages[4][0]", "messages[6][0]"],
        ]
    );
    for m in &all {
        assert!(m.len() <= 4, "at most four breakpoints: {m:?}");
    }
    // Every request after the first reads all its predecessor wrote.
    let bills: Vec<CacheUsage> = reqs.iter().map(|r| r.cache.unwrap()).collect();
    assert_eq!(bills[0].cache_read, 0);
    assert!(bills[0].cache_write > 1024, "{bills:?}");
    for w in bills.windows(2) {
        assert_eq!(
            w[1].cache_read,
            w[0].cache_read + w[0].cache_write,
            "{bills:?}"
        );
    }
    // zot reports the cache's counts in its totals.
    let st = z.call(json!({"type":"get_state"})).await;
    let read: u64 = bills.iter().map(|b| b.cache_read).sum();
    assert_eq!(st["data"]["usage"]["cumulative"]["cache_read"], read);
    z.close().await;
}
