//! Seeded fuzzing of what an RPC client can send (no nightly needed):
//! valid commands with mutated bytes, wrong types in every field, deep
//! nesting, huge numbers, bad UTF-8, over-long lines and random noise, all
//! through the path `zot --mode rpc` uses: the bounded line reader
//! (`modes::rpc::input`) over a byte stream, then `modes::rpc::request`,
//! then the response or the command's wire name and serialisation.
//!
//! Zero panics (a hook counts them) and bounded memory (peak RSS growth).
//! `ZOT_FUZZ_INPUTS` sets the number of inputs (10⁴ by default, 10⁶ in
//! `make fuzz`), `ZOT_FUZZ_SEED` the seed. Results go to stderr.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;
use std::time::Instant;

use serde_json::{json, Value};
use zot_lib::modes::rpc::input::{Line, LineReader};
use zot_lib::modes::rpc::request;
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
        .unwrap_or(0x2026_0c0d)
}

/// Peak resident memory of this process, in KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// One valid command of every type, the seeds of mutation.
fn templates() -> Vec<Value> {
    vec![
        json!({"type":"hello","token":"t","id":"1"}),
        json!({"type":"prompt","message":"hi there","images":[{"mime_type":"image/png","data":"aGk="}],"id":2}),
        json!({"type":"command","name":"reload-ext","args":"a b","id":"c"}),
        json!({"type":"abort"}),
        json!({"type":"panel_key","panel_id":"p","key":"up","text":"x"}),
        json!({"type":"panel_close","panel_id":"p"}),
        json!({"type":"panel_mouse","panel_id":"p","action":"click","row":0,"col":2}),
        json!({"type":"panel_mouse","panel_id":"p","action":"wheel","delta":-3}),
        json!({"type":"panel_resize","panel_id":"p","cols":80,"rows":12}),
        json!({"type":"ext_list"}),
        json!({"type":"get_state","id":"s"}),
        json!({"type":"get_messages"}),
        json!({"type":"clear"}),
        json!({"type":"set_model","model":"m-1"}),
        json!({"type":"get_models"}),
        json!({"type":"ping","id":7}),
    ]
}

/// A JSON value of any type, some of them extreme.
fn any_value(r: &mut Rng, depth: u32) -> Value {
    match r.u8(0..12) {
        0 => Value::Null,
        1 => json!(r.bool()),
        2 => json!(r.i64()),
        3 => json!(r.f64() * 1e308),
        4 => json!(u64::MAX),
        5 => json!(-0.0),
        6 => json!("x".repeat(r.usize(0..64))),
        7 => json!(""),
        8 if depth < 4 => Value::Array(
            (0..r.usize(0..4))
                .map(|_| any_value(r, depth + 1))
                .collect(),
        ),
        9 if depth < 4 => {
            let mut o = serde_json::Map::new();
            for _ in 0..r.usize(0..4) {
                o.insert(format!("k{}", r.u8(..)), any_value(r, depth + 1));
            }
            Value::Object(o)
        }
        10 => json!("\u{0}\u{feff}\u{10ffff}\"\\"),
        _ => json!(r.u32(..)),
    }
}

/// Bytes that are hard on a JSON parser.
fn nasty(r: &mut Rng) -> Vec<u8> {
    match r.u8(0..9) {
        // Deep nesting, past serde_json's recursion limit.
        0 => {
            let d = r.usize(100..20_000);
            let mut s = "[".repeat(d);
            s.push_str(&"]".repeat(r.usize(0..=d)));
            s.into_bytes()
        }
        1 => {
            let d = r.usize(100..5_000);
            format!(
                "{{\"type\":\"prompt\",\"message\":{}1{}}}",
                "{\"a\":".repeat(d),
                "}".repeat(d)
            )
            .into_bytes()
        }
        // Numbers no type can hold.
        2 => format!(
            "{{\"type\":\"ping\",\"id\":{}{}}}",
            "9".repeat(r.usize(20..2_000)),
            if r.bool() { "e999999" } else { "" }
        )
        .into_bytes(),
        3 => b"{\"type\":\"ping\",\"id\":-1e-99999999999}".to_vec(),
        // Invalid UTF-8 inside and around JSON.
        4 => {
            let mut v = b"{\"type\":\"prompt\",\"message\":\"".to_vec();
            v.extend((0..r.usize(1..20)).map(|_| r.u8(0x80..=0xff)));
            v.extend_from_slice(b"\"}");
            v
        }
        // Escapes: lone surrogates, bad escapes.
        5 => b"{\"type\":\"prompt\",\"message\":\"\\ud800\\udfff\\ud800 \\x41\"}".to_vec(),
        // Duplicate keys and a type that is not a string.
        6 => b"{\"type\":\"ping\",\"type\":\"abort\",\"id\":{}}".to_vec(),
        7 => b"{\"type\":[\"ping\"]}".to_vec(),
        // Noise.
        _ => (0..r.usize(0..256)).map(|_| r.u8(..)).collect(),
    }
}

/// Byte-level mutations of a serialised command.
fn mutate(r: &mut Rng, mut b: Vec<u8>) -> Vec<u8> {
    for _ in 0..r.usize(1..6) {
        if b.is_empty() {
            b.push(r.u8(..));
            continue;
        }
        let i = r.usize(0..b.len());
        match r.u8(0..6) {
            0 => b[i] = r.u8(..),
            1 => b.insert(i, *b"{}[]\",:\\0e-".get(r.usize(0..12)).unwrap_or(&b'x')),
            2 => {
                b.remove(i);
            }
            3 => b.truncate(i),
            4 => {
                let j = r.usize(i..b.len());
                let piece = b[i..j].to_vec();
                b.splice(i..i, piece);
            }
            _ => b[i] ^= 1 << r.u8(0..8),
        }
    }
    b
}

/// One generated line (without its newline; a stray `\n` inside simply
/// splits it in two, as it would on the wire).
fn generate(r: &mut Rng, t: &[Value]) -> Vec<u8> {
    let base = &t[r.usize(0..t.len())];
    match r.u8(0..10) {
        // Valid as is.
        0 => base.to_string().into_bytes(),
        // A field of the wrong type (or a new one).
        1..=3 => {
            let mut v = base.clone();
            if let Some(o) = v.as_object_mut() {
                let keys: Vec<String> = o.keys().cloned().collect();
                let k = if r.bool() && !keys.is_empty() {
                    keys[r.usize(0..keys.len())].clone()
                } else {
                    [
                        "id", "message", "images", "token", "name", "args", "model", "key",
                    ][r.usize(0..8)]
                    .to_owned()
                };
                o.insert(k, any_value(r, 0));
            }
            v.to_string().into_bytes()
        }
        4..=6 => mutate(r, base.to_string().into_bytes()),
        _ => nasty(r),
    }
}

/// Feeds a stream through the reader and the parser; returns lines seen.
async fn run_stream(bytes: &[u8], max: usize, chunk: usize) -> usize {
    let mut reader = LineReader::new(tokio::io::BufReader::with_capacity(chunk, bytes), max);
    let mut n = 0;
    while let Some(line) = reader.next_line().await.expect("reading from memory") {
        n += 1;
        if let Line::TooLong { len } = line {
            assert!(len > max as u64, "TooLong {len} <= {max}");
        }
        match request(&line) {
            None => {}
            Some(Ok(req)) => {
                let name = req.command.name();
                assert!(!name.is_empty());
                serde_json::to_string(&req).expect("a parsed request serialises");
            }
            Some(Err(resp)) => {
                assert!(!resp.success);
                assert!(resp.error.as_deref().is_some_and(|e| !e.is_empty()));
                serde_json::to_string(&resp).expect("an error response serialises");
            }
        }
    }
    n
}

#[tokio::test]
async fn rpc_parser_survives_generated_input_with_bounded_memory() {
    count_panics();
    let (total, seed) = (inputs(), seed());
    let mut r = Rng::with_seed(seed);
    let t = templates();
    let started = Instant::now();
    let rss0 = peak_rss_kib();
    let (mut done, mut lines, mut batches) = (0usize, 0usize, 0usize);
    while done < total {
        // A batch of lines as one stream; sometimes with a small line limit
        // so over-long lines are cut and skipped mid-stream.
        let mut stream = Vec::new();
        let n = r.usize(1..64).min(total - done);
        for _ in 0..n {
            stream.extend(generate(&mut r, &t));
            stream.extend_from_slice(if r.u8(0..8) == 0 { b"\r\n" } else { b"\n" });
        }
        let max = if r.u8(0..4) == 0 {
            r.usize(1..512)
        } else {
            zot_lib::modes::rpc::input::MAX_LINE
        };
        let chunk = [1, 7, 64, 8192][r.usize(0..4)];
        let fut = std::panic::AssertUnwindSafe(run_stream(&stream, max, chunk));
        match futures::FutureExt::catch_unwind(fut).await {
            Ok(k) => lines += k,
            Err(_) => panic!(
                "panic on seed {seed}, batch {batches}: {:?}",
                String::from_utf8_lossy(&stream)
            ),
        }
        done += n;
        batches += 1;
    }
    let grew = peak_rss_kib().saturating_sub(rss0);
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "fuzz rpc: {done} inputs ({lines} lines, {batches} streams), seed {seed}, {secs:.1} s, {:.0} inputs/s, peak RSS +{grew} KiB, panics {}",
        done as f64 / secs.max(1e-9),
        PANICS.load(Ordering::SeqCst)
    );
    assert_eq!(PANICS.load(Ordering::SeqCst), 0);
    assert!(grew < 128 * 1024, "peak memory grew by {grew} KiB");
}
