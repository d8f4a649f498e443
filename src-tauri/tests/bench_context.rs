//! `make bench` for long sessions (ignored in normal test runs): what
//! Anthropic prompt caching saves over a scripted 200-turn session, billed
//! by the fake server's cache the way the API documents it, and how long
//! `compact` takes on a 10 000-message session beside a 10-message one (the
//! floor, measured in the same run). Written to docs/performance.md.

use std::io::Write as _;
use std::time::{Duration, Instant};

use serde_json::json;
use zot_test_support::fake_llm::*;
use zot_test_support::rpc::*;

const TURNS: usize = 200;

/// Anthropic's prices relative to plain input: cache writes 1.25×, reads
/// 0.1× (5-minute cache).
const WRITE: f64 = 1.25;
const READ: f64 = 0.1;

struct Billed {
    requests: usize,
    total: u64,
    input: u64,
    read: u64,
    write: u64,
}

/// 200 prompts, each a `read` of a 1 KiB file and a short answer, through
/// the real binary with zot's default system prompt and tools.
async fn cached_session() -> Billed {
    let s = FakeLlm::start_caching().await;
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(
        cwd.path().join("notes.txt"),
        "a line of a file the agent reads\n".repeat(32),
    )
    .unwrap();
    for i in 0..TURNS {
        s.push(anthropic_tool(
            "Reading it.",
            &format!("t{i}"),
            "read",
            &["{\"path\":\"notes.txt\"}"],
        ));
        s.push(anthropic_text(&["Done: the notes say what you expected."]));
    }
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--no-session"],
        &[],
    )
    .await;
    for i in 0..TURNS {
        z.prompt(&format!(
            "turn {i}: read notes.txt and tell me what it says"
        ))
        .await;
    }
    z.close().await;
    let bills: Vec<CacheUsage> = s.requests().iter().filter_map(|r| r.cache).collect();
    Billed {
        requests: bills.len(),
        total: bills.iter().map(CacheUsage::total).sum(),
        input: bills.iter().map(|b| b.input).sum(),
        read: bills.iter().map(|b| b.cache_read).sum(),
        write: bills.iter().map(|b| b.cache_write).sum(),
    }
}

/// A session file of `n` messages shaped like a real coding session.
fn write_session(path: &std::path::Path, n: usize) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(
        f,
        "{}",
        json!({"type":"session","version":1,"cwd":"/bench"})
    )
    .unwrap();
    for i in 0..n {
        let m = match i % 4 {
            0 => {
                json!({"role":"user","content":[{"type":"text","text":format!("please look at file {i} and fix the failing test in it")}]})
            }
            1 => {
                json!({"role":"assistant","content":[{"type":"text","text":"Reading it."},{"type":"tool_use","id":format!("t{i}"),"name":"read","input":{"path":format!("src/f{i}.rs")}}]})
            }
            2 => {
                json!({"role":"user","content":[{"type":"tool_result","tool_use_id":format!("t{}", i - 1),"content":[{"type":"text","text":"fn main() {\n    println!(\"hello\");\n}\n".repeat(4)}],"is_error":false}]})
            }
            _ => {
                json!({"role":"assistant","content":[{"type":"text","text":"Fixed: the assertion compared the wrong field; it passes now."}]})
            }
        };
        writeln!(f, "{}", json!({"type":"message","message":m})).unwrap();
    }
}

/// Time from sending `compact` to its answer, on an `n`-message session.
async fn time_compact(n: usize) -> (Duration, serde_json::Value) {
    let s = FakeLlm::start().await;
    s.push(anthropic_text(&[
        "The user fixed failing tests file by file.",
    ]));
    let (home, cwd) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let file = home.path().join("big.jsonl");
    write_session(&file, n);
    let mut z = Rpc::against(
        &s,
        home.path(),
        cwd.path(),
        &["--no-ext", "--session", file.to_str().unwrap()],
        &[],
    )
    .await;
    let t = Instant::now();
    let r = z.call(json!({"type":"compact"})).await;
    let d = t.elapsed();
    assert_eq!(r["success"], true, "{r}");
    z.close().await;
    (d, r["data"].clone())
}

fn write_report(section: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/performance.md");
    let old = std::fs::read_to_string(&path).unwrap_or_else(|_| "# Performance\n".into());
    let (b, e) = ("<!-- context-bench:start -->", "<!-- context-bench:end -->");
    let block = format!("{b}\n{section}{e}");
    let new = match (old.find(b), old.find(e)) {
        (Some(i), Some(j)) => format!("{}{}{}", &old[..i], block, &old[j + e.len()..]),
        _ => format!(
            "{}\n\n## Long sessions: prompt caching and compaction\n\n{block}\n",
            old.trim_end()
        ),
    };
    std::fs::write(&path, new).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "benchmark: run with `make bench`"]
async fn bench_context() {
    let b = cached_session().await;
    let weighted = b.input as f64 + WRITE * b.write as f64 + READ * b.read as f64;
    let saved = 1.0 - weighted / b.total as f64;
    let (floor, _) = time_compact(10).await;
    let (big, data) = time_compact(10_000).await;
    assert_eq!(data["summarized_messages"], 9996);
    let section = format!(
        "Measured by `make bench` (`src-tauri/tests/bench_context.rs`, {profile} build); load average {load} when it ran.\n\n\
         A scripted {turns}-turn session ({reqs} requests: each turn a `read` of a 1 KiB file and an answer, zot's default system prompt and tools) \
         against the fake Anthropic server, whose prompt cache bills each request the way the API documents (a prefix up to a breakpoint, or up to 20 blocks before one, \
         that matches a prefix written earlier is read from the cache; at least 1024 tokens; tokens estimated as JSON bytes / 4):\n\n\
         | input tokens | without caching | with caching |\n|---|---|---|\n\
         | billed as plain input | {total} | {input} |\n\
         | written to the cache (1.25×) | 0 | {write} |\n\
         | read from the cache (0.1×) | 0 | {read} |\n\
         | input-price equivalent | {total} | {weighted:.0} |\n\n\
         **Share of the input bill saved: {pct:.1} %** (target ≥ 80 %).\n\n\
         | what | time | floor | ratio |\n|---|---|---|---|\n\
         | `compact` of a 10 000-message session (9 996 summarised) to its answer | {big:.1} ms | {floor:.1} ms for a 10-message session | {ratio:.1}× |\n",
        profile = if cfg!(debug_assertions) { "debug" } else { "release" },
        load = std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .next()
            .unwrap_or("?")
            .to_owned(),
        turns = TURNS,
        reqs = b.requests,
        total = b.total,
        input = b.input,
        write = b.write,
        read = b.read,
        pct = saved * 100.0,
        big = big.as_secs_f64() * 1e3,
        floor = floor.as_secs_f64() * 1e3,
        ratio = big.as_secs_f64() / floor.as_secs_f64().max(1e-9),
    );
    println!("{section}");
    write_report(&section);
}
