//! Seeded fuzzing of what an extension can send (no nightly needed): valid
//! frames with mutated fields, truncated JSON, wrong types, huge numbers,
//! unknown types, bad UTF-8, deep nesting and random bytes.
//!
//! - `decoder`: every input through the real line splitter and decoder.
//! - `router`: the same kind of stream written by a real extension process
//!   down a real pipe, decoded and routed by a running host while requests
//!   are in flight (so stray replies meet pending ids of every kind), then
//!   a normal call proves the extension is still served.
//!
//! Zero panics (a hook counts them, in every thread) and bounded memory.
//! `ZOT_FUZZ_INPUTS` sets the inputs per target (10⁴ by default, 10⁶ in
//! `make fuzz`), `ZOT_FUZZ_SEED` the seed. Results go to stderr.

#[path = "support/support.rs"]
mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use serde_json::json;
use support::*;
use zot_ext_host::codec::{decode, LineReader};
use zot_ext_host::connection::{fill, FrameSource};
use zot_ext_host::HostEvent;
use zot_ext_protocol::rpc::UiEvent;
use zot_test_support::rng::Rng;

static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            prev(info);
        }));
    });
}

fn inputs() -> usize {
    std::env::var("ZOT_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

fn seed() -> u64 {
    std::env::var("ZOT_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_2026)
}

/// One valid frame of every type an extension may send.
fn templates() -> Vec<serde_json::Value> {
    vec![
        json!({"type":"hello","name":"fz","version":"1.0.0","capabilities":["x"]}),
        json!({"type":"register_command","name":"cmd","description":"d"}),
        json!({"type":"register_tool","name":"tool","description":"d","schema":{"type":"object","properties":{"a":{"type":"string"}}},"deferred":false}),
        json!({"type":"ready"}),
        json!({"type":"tool_result","id":"1","content":[{"type":"text","text":"r"},{"type":"image","mime_type":"image/png","data":"AAAA"}],"is_error":false,"activate_tools":["tool"]}),
        json!({"type":"subscribe","events":["turn_start","tool_call"],"intercept":["tool_call","assistant_message"]}),
        json!({"type":"event_intercept_response","id":"2","block":true,"reason":"r","modified_args":{"a":1},"replace_text":"t"}),
        json!({"type":"command_response","id":"3","action":"open_panel","open_panel":{"id":"p","title":"T","lines":["l"],"footer":"f"},"prompt":"p","insert":"i","display":"d","error":"e"}),
        json!({"type":"submit","text":"hello"}),
        json!({"type":"notify","level":"warn","message":"m"}),
        json!({"type":"clear_notes"}),
        json!({"type":"panel_render","panel_id":"p","title":"T","lines":["a","b"],"footer":"f"}),
        json!({"type":"panel_close","panel_id":"p"}),
        json!({"type":"shutdown_ack"}),
    ]
}

/// A value of a random kind, often a hostile one.
fn weird_value(r: &mut Rng) -> serde_json::Value {
    match r.usize(0..14) {
        0 => json!(null),
        1 => json!(r.usize(0..2) == 1),
        2 => json!(r.next_u64()),
        3 => json!(-(r.next_u64() as i64).abs()),
        4 => json!(f64::MAX),
        5 => json!(r.usize(0..5000).to_string()),
        6 => json!(""),
        7 if r.usize(0..50) == 0 => json!("x".repeat(r.usize(0..70_000))),
        7 => json!("x".repeat(r.usize(0..300))),
        8 => json!([1, "two", null, {"three": 3}]),
        9 => json!({"nested": {"deeper": [r.next_u64()]}}),
        10 => json!("my tool/../\u{0}\u{202e}é"),
        11 => json!(["turn_start", "nope", 7]),
        12 => json!(r.usize(0..5000)),
        _ => json!({"type":"object","properties":{"x":{"type":"x".repeat(r.usize(0..100))}}}),
    }
}

/// One input line (without its newline; it may contain newlines itself).
fn gen(r: &mut Rng, t: &[serde_json::Value]) -> Vec<u8> {
    let mut frame = r.pick(t).clone();
    let keys: Vec<String> = frame.as_object().unwrap().keys().cloned().collect();
    // Pending request ids are small sequential numbers: aim replies at them.
    if frame.get("id").is_some() {
        frame["id"] = json!(r.usize(0..5000).to_string());
    }
    match r.usize(0..12) {
        // Valid as is.
        0 => {}
        // A field of the wrong type or a hostile value.
        1 | 2 => {
            let k = r.pick(&keys).clone();
            frame[k] = weird_value(r);
        }
        // A field removed.
        3 => {
            let k = r.pick(&keys).clone();
            frame.as_object_mut().unwrap().remove(&k);
        }
        // Unknown fields and types.
        4 => {
            frame["unknown_field"] = weird_value(r);
            if r.usize(0..2) == 0 {
                frame["type"] = json!(format!("no_such_{}", r.usize(0..100)));
            }
        }
        // Truncated anywhere.
        5 => {
            let s = frame.to_string().into_bytes();
            let cut = r.usize(0..s.len());
            return s[..cut].to_vec();
        }
        // Bad UTF-8 spliced in (inside a string or outside).
        6 => {
            let mut s = frame.to_string().into_bytes();
            let at = r.usize(0..s.len());
            let bad: &[&[u8]] = &[
                b"\xff",
                b"\xc0\x80",
                b"\xed\xa0\x80",
                b"\xf4\x90\x80\x80",
                b"\xe2\x82",
            ];
            let b = r.pick(bad);
            s.splice(at..at, b.iter().copied());
            return s;
        }
        // Huge or odd numbers as raw text.
        7 => {
            let nums = [
                "1e999999",
                "-0",
                "18446744073709551616",
                "123456789012345678901234567890",
                "NaN",
                "-1",
                "1.5e-400",
            ];
            let k = r.pick(&keys).clone();
            let mut s = frame.to_string();
            let needle = format!("\"{k}\":");
            if let Some(i) = s.find(&needle) {
                s.insert_str(i + needle.len(), &format!("{},\"_was\":", r.pick(&nums)));
            }
            return s.into_bytes();
        }
        // Deep nesting.
        8 => {
            let depth = 1 + r.usize(0..5000);
            let mut s = "[".repeat(depth);
            s.push_str(&"]".repeat(r.usize(0..depth + 1)));
            return s.into_bytes();
        }
        // Random bytes.
        9 => {
            let n = r.usize(0..300);
            return (0..n).map(|_| r.next_u64() as u8).collect();
        }
        // Duplicate keys and whitespace games.
        10 => {
            let s = frame.to_string();
            return format!(" \t{},\"type\":\"notify\"}}\r", &s[..s.len() - 1]).into_bytes();
        }
        // Bytes flipped inside a valid frame.
        _ => {
            let mut s = frame.to_string().into_bytes();
            for _ in 0..1 + r.usize(0..4) {
                let i = r.usize(0..s.len());
                s[i] ^= 1 << r.usize(0..8);
            }
            return s;
        }
    }
    frame.to_string().into_bytes()
}

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn fuzz_decoder() {
    count_panics();
    let n = inputs();
    let mut r = Rng::with_seed(seed());
    let t = templates();
    let started = Instant::now();
    let mut stream = Vec::new();
    let mut decoded = 0usize;
    let mut errors = 0usize;
    let mut lines = 0usize;
    for i in 0..n {
        let line = gen(&mut r, &t);
        match decode(&line) {
            Ok(_) => decoded += 1,
            Err(e) => {
                errors += 1;
                assert!(!e.to_string().is_empty());
            }
        }
        stream.extend_from_slice(&line);
        stream.push(b'\n');
        // The splitter, over what accumulated, in bounded batches.
        if stream.len() > 1 << 20 || i + 1 == n {
            let mut reader = LineReader::new(&stream[..], 16 * 1024 * 1024);
            while fill(&mut reader).await.unwrap() {
                while let Some(l) = FrameSource::take_line(&mut reader) {
                    let _ = decode(l);
                    lines += 1;
                }
            }
            stream.clear();
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "fuzz decoder: {n} inputs ({decoded} decoded, {errors} refused, {lines} split lines) in {secs:.1} s, peak RSS {} MiB, seed {}",
        peak_rss_kib() / 1024,
        seed()
    );
    assert!(lines >= n);
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "a panic occurred");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzz_router() {
    count_panics();
    let n = inputs();
    let env = Env::new();
    let mut r = Rng::with_seed(seed() ^ 0xa5a5);
    let t = templates();
    let file = env.loose.path().join("replay.bin");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        for _ in 0..n {
            f.write_all(&gen(&mut r, &t)).unwrap();
            f.write_all(b"\n").unwrap();
        }
    }
    let bytes = std::fs::metadata(&file).unwrap().len();
    let marker = format!("m{}", r.next_u64());
    env.global(
        "fz",
        json!({
            "register":[
                {"type":"register_tool","name":"fuzz_echo","schema":{"type":"object"}},
                {"type":"register_command","name":"fuzzcmd"},
            ],
            "replay": file, "marker": marker,
        }),
    );
    let mut cfg = env.config();
    cfg.tool_timeout = Duration::from_secs(1);
    cfg.command_timeout = Duration::from_secs(1);
    let started = Instant::now();
    let (host, mut rx) = Host::start(cfg);
    // Requests in flight during the replay, so stray replies meet pending
    // ids of both kinds.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let load = tokio::spawn({
        let host = host.clone();
        let stop = stop.clone();
        async move {
            let inflight = Arc::new(tokio::sync::Semaphore::new(256));
            let mut i = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let permit = inflight.clone().acquire_owned().await.unwrap();
                let host = host.clone();
                i += 1;
                tokio::spawn(async move {
                    if i.is_multiple_of(2) {
                        let _ = host.call_tool("fuzz_echo", json!({"i": i})).await;
                    } else {
                        let _ = host.invoke_command("fuzzcmd", "x").await;
                    }
                    drop(permit);
                });
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
    });
    let done = format!("replay done {marker}");
    tokio::time::timeout(Duration::from_secs(1800), async {
        loop {
            match rx.recv().await {
                Some(HostEvent::Ui(UiEvent::ExtNotify { message, .. })) if message == done => break,
                Some(_) => {}
                None => panic!("host event stream ended"),
            }
        }
    })
    .await
    .expect("the replay never finished");
    let routed_secs = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    load.await.unwrap();
    // Still served: a normal call succeeds once the backlog is answered.
    let mut ok = false;
    for _ in 0..30 {
        if let Ok(out) = host.call_tool("fuzz_echo", json!({"final": true})).await {
            ok = !out.is_error;
            break;
        }
    }
    assert!(
        ok,
        "the extension is no longer served after the fuzz stream"
    );
    let state = host.list()[0].state;
    host.shutdown().await;
    eprintln!(
        "fuzz router: {n} inputs ({} MiB) routed in {routed_secs:.1} s, peak RSS {} MiB, seed {}, final state {state:?}",
        bytes / (1024 * 1024),
        peak_rss_kib() / 1024,
        seed()
    );
    let log = std::fs::metadata(env.log_path("fz"))
        .map(|m| m.len())
        .unwrap_or(0);
    assert!(log <= 5 * 1024 * 1024, "log grew to {log}");
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "a panic occurred");
}

use zot_ext_host::Host;
