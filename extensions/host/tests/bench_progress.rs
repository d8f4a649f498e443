//! `make bench` for long tool calls (#35; ignored in normal test runs): a
//! tool that sends 10 000 `tool_progress` frames, against the same number
//! of `notify` frames from the same extension, in one run. What is
//! measured is the host process's CPU time (user + system, `getrusage`)
//! per frame; the extension is a child and not counted. Progress goes
//! through the pending table, the idle-timeout reset and the merging feed
//! to an `on_progress` callback, as the agent receives it; `notify` goes
//! to the event stream (drained). Goal: progress ≤ 1.2× notify per frame.
//!
//! Writes its section of docs/performance.md.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use zot_ext_host::{Host, HostConfig};

const FRAMES: usize = 10_000;
const ROUNDS: usize = 7;

/// The process's CPU time so far.
fn cpu() -> Duration {
    // SAFETY: getrusage writes into the zeroed struct we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// CPU µs per frame of one flood of `kind`.
async fn flood(host: &Host, kind: &str, updates: &AtomicUsize) -> f64 {
    let before = cpu();
    let on_progress = |_u: zot_ext_host::tool_progress::ProgressUpdate| {
        updates.fetch_add(1, Ordering::Relaxed);
    };
    let r = host
        .call_tool_with("flood", json!({"kind": kind, "n": FRAMES}), &on_progress)
        .await
        .unwrap();
    assert!(!r.is_error);
    (cpu() - before).as_secs_f64() * 1e6 / FRAMES as f64
}

fn write_report(section: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/performance.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let (b, e) = (
        "<!-- progress-bench:start -->",
        "<!-- progress-bench:end -->",
    );
    let body = format!("{b}\n{section}{e}");
    let doc = match (doc.find(b), doc.find(e)) {
        (Some(i), Some(j)) if i < j => format!("{}{body}{}", &doc[..i], &doc[j + e.len()..]),
        _ => format!("{}\n\n## Long tool calls\n\n{body}\n", doc.trim_end()),
    };
    std::fs::write(&path, doc).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: make bench-progress"]
async fn bench_progress() {
    let home = tempfile::TempDir::new().unwrap();
    let cwd = tempfile::TempDir::new().unwrap();
    let dir = home.path().join("extensions/flood");
    std::fs::create_dir_all(&dir).unwrap();
    let py = std::process::Command::new("python3")
        .args(["-c", "import sys;print(sys.executable)"])
        .output()
        .unwrap();
    let py = String::from_utf8(py.stdout).unwrap().trim().to_owned();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/flood.py");
    std::fs::write(
        dir.join("extension.json"),
        json!({"name":"flood","exec": py,"args":[script],"language":"python"}).to_string(),
    )
    .unwrap();
    let cfg = HostConfig::new(home.path(), cwd.path());
    let (host, mut rx) = Host::start(cfg);
    let events = std::sync::Arc::new(AtomicUsize::new(0));
    let seen = events.clone();
    let drained = tokio::spawn(async move {
        while rx.recv().await.is_some() {
            seen.fetch_add(1, Ordering::Relaxed);
        }
    });
    host.wait_settled().await;
    let updates = AtomicUsize::new(0);
    // One of each to warm up, then alternating rounds.
    flood(&host, "progress", &updates).await;
    flood(&host, "notify", &updates).await;
    flood(&host, "notify_sized", &updates).await;
    let (mut progress, mut notify, mut sized) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        progress.push(flood(&host, "progress", &updates).await);
        notify.push(flood(&host, "notify", &updates).await);
        sized.push(flood(&host, "notify_sized", &updates).await);
    }
    let updates = updates.load(Ordering::Relaxed) / (ROUNDS + 1);
    // Per notify call (both kinds), as the event stream saw it.
    let events = events.load(Ordering::Relaxed) / (2 * (ROUNDS + 1));
    host.shutdown().await;
    drop(host);
    let _ = tokio::time::timeout(Duration::from_secs(5), drained).await;
    let (p, n, s) = (
        median(progress.clone()),
        median(notify.clone()),
        median(sized.clone()),
    );
    let range = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        format!("{lo:.2}–{hi:.2}")
    };
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into());
    let s = format!(
        "Measured by `make bench` (its `bench-progress` target: `extensions/host/tests/bench_progress.rs`, release build): one Python extension writes {FRAMES} frames in one burst per call, {ROUNDS} rounds of each kind alternating after one warm-up each, all in one run; host CPU (user + system) per frame, median of the rounds; load average {load} when it ran (2 shared vCPUs).\n\n| frames | CPU per frame (median) | rounds' range | what the caller saw |\n|---|---|---|---|\n| `tool_progress` of a pending call | {p:.2} µs | {} µs | about {updates} merged updates per call |\n| `notify`, the same text | {n:.2} µs | {} µs | about {events} events on the host's stream per call |\n| `notify`, padded to the same bytes (the floor) | {s:.2} µs | {} µs | as above |\n\n| ratio | value | goal |\n|---|---|---|\n| `tool_progress` / `notify` of the same bytes, host CPU per frame | {:.2}× | ≤ 1.2× |\n| `tool_progress` / `notify` of the same text (for reference) | {:.2}× | |\n\n",
        range(&progress),
        range(&notify),
        range(&sized),
        p / s,
        p / n
    );
    println!("{s}");
    if std::env::var_os("PROGRESS_BENCH_NO_WRITE").is_none() {
        write_report(&s);
    }
}
