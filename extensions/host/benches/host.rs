//! `make bench` for the extension host. Every number is a ratio against a
//! floor measured in the same run (the same child programs over a raw
//! blocking pipe loop), first unpinned, then with the process and its
//! children pinned to CPU 0 (like `taskset -c 0`). Results go to stdout
//! and into the "Extension host" section of docs/performance.md.

#[path = "host/floor.rs"]
mod floor;
#[path = "host/stats.rs"]
mod stats;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use stats::{rss_kib, summarize};
use zot_ext_host::{Host, HostConfig};
use zot_ext_protocol::rpc::ExtState;

const ROUND_TRIPS: usize = 5000;
const WARMUP: usize = 300;
/// Round trips alternate between floor, tokio and host in this many blocks.
const BLOCKS: usize = 10;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Python,
    Rust,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Python => "Python child",
            Kind::Rust => "Rust SDK child",
        }
    }
}

struct Bench {
    tmp: tempfile::TempDir,
    python: PathBuf,
    rust_child: PathBuf,
    out: String,
}

impl Bench {
    fn exec(&self, kind: Kind, name: &str, intercept: bool) -> (PathBuf, Vec<String>) {
        let mut args = vec![name.to_owned()];
        if intercept {
            args.push("intercept".into());
        }
        match kind {
            Kind::Python => {
                let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/echo.py");
                args.insert(0, script.display().to_string());
                (self.python.clone(), args)
            }
            Kind::Rust => (self.rust_child.clone(), args),
        }
    }

    /// An `--ext` directory for one bench child.
    fn ext_dir(&self, kind: Kind, name: &str, intercept: bool) -> PathBuf {
        let (exec, args) = self.exec(kind, name, intercept);
        let dir = self.tmp.path().join("exts").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let m = json!({"name": name, "exec": exec, "args": args});
        std::fs::write(dir.join("extension.json"), m.to_string()).unwrap();
        dir
    }

    /// [`Bench::ext_dir`] made `"activation": "on_use"`, declaring the two
    /// tools it registers (so the first use logs no difference).
    fn on_use_dir(&self, kind: Kind, name: &str) -> PathBuf {
        let dir = self.ext_dir(kind, name, false);
        let file = dir.join("extension.json");
        let mut m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        m["activation"] = json!("on_use");
        m["contributes"] = json!({"tools": [
            {"name": format!("echo_{name}"), "schema": {"type": "object"}},
            {"name": format!("crash_{name}"), "schema": {"type": "object"}}
        ]});
        std::fs::write(&file, m.to_string()).unwrap();
        dir
    }

    fn config(&self, explicit: Vec<PathBuf>) -> HostConfig {
        let mut cfg = HostConfig::new(self.tmp.path().join("home"), self.tmp.path());
        cfg.discover = false;
        cfg.explicit = explicit;
        cfg
    }
}

fn main() {
    let python = PathBuf::from(
        String::from_utf8(
            std::process::Command::new("python3")
                .args(["-c", "import sys;print(sys.executable)"])
                .output()
                .expect("python3")
                .stdout,
        )
        .unwrap()
        .trim(),
    );
    let exe = std::env::current_exe().unwrap();
    let rust_child = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples/bench_echo");
    assert!(
        rust_child.exists(),
        "build it first: cargo build --release -p zot-ext-host --example bench_echo ({})",
        rust_child.display()
    );
    let mut b = Bench {
        tmp: tempfile::TempDir::new().unwrap(),
        python,
        rust_child,
        out: String::new(),
    };
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let _ = writeln!(
        b.out,
        "Measured by `make bench` (`cargo bench -p zot-ext-host --bench host`), {cores} vCPUs, tokio multi-thread runtime.\n"
    );
    for pinned in [false, true] {
        if pinned {
            stats::pin_to_cpu0();
        }
        // HOST_BENCH_RT=current compares a current-thread runtime.
        let rt = if std::env::var("HOST_BENCH_RT").as_deref() == Ok("current") {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
        } else {
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
        }
        .unwrap();
        let side = if pinned { "pinned (CPU 0)" } else { "unpinned" };
        let _ = writeln!(b.out, "### {side}\n");
        // Scenarios run in a spawned task, as the agent's calls do, not in
        // `block_on` (whose thread is not a worker, so every wake-up would
        // be a cross-thread hop that the app never pays).
        b = rt.block_on(async move {
            tokio::spawn(async move {
                // HOST_BENCH_ONLY=a,b runs a subset while tuning.
                let only = std::env::var("HOST_BENCH_ONLY").ok();
                let on = |n: &str| only.as_deref().is_none_or(|o| o.split(',').any(|x| x == n));
                if on("roundtrip") {
                    round_trips(&mut b).await;
                }
                if on("intercept") {
                    interception(&mut b).await;
                }
                if on("perms") {
                    permission_check(&mut b).await;
                }
                if on("spawn") {
                    spawn_to_ready(&mut b).await;
                }
                if on("restart") {
                    crash_to_ready(&mut b).await;
                }
                if on("firstuse") {
                    first_use(&mut b).await;
                }
                if pinned && on("notify") {
                    notify_parsing(&mut b).await;
                }
                if pinned && on("memory") {
                    idle_memory(&mut b).await;
                }
                b
            })
            .await
            .unwrap()
        });
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let _ = writeln!(
        b.out,
        "Load average at the end (1/5/15 min): {}. Other builds share these 2 vCPUs, so the floors move too; compare ratios within one run.\n",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" / ")
    );
    println!("{}", b.out);
    if std::env::var_os("HOST_BENCH_ONLY").is_none() {
        write_docs(&b.out);
    }
}

async fn round_trips(b: &mut Bench) {
    let _ = writeln!(
        b.out,
        "| tool_call round trip | floor p50 / p99 (µs) | host p50 / p99 (µs) | ratio p50 / p99 | tokio alone p50 (µs) |"
    );
    let _ = writeln!(b.out, "|---|---|---|---|---|");
    for kind in [Kind::Rust, Kind::Python] {
        let name = if kind == Kind::Rust {
            "rt_rust"
        } else {
            "rt_py"
        };
        // Three copies of the same program: driven raw and blocking (the
        // floor), through tokio with no host logic, and through the host.
        // They take turns in blocks, so a burst of load from elsewhere on
        // this shared machine lands on all three alike.
        let (exec, args) = b.exec(kind, name, false);
        let mut raw = floor::spawn(&exec, &args);
        raw.handshake();
        let mut tokio_alone = floor::spawn(&exec, &args);
        tokio_alone.handshake();
        let mut tokio_alone = tokio_alone.into_async();
        let dir = b.ext_dir(kind, name, false);
        let (host, _rx) = Host::start(b.config(vec![dir]));
        host.wait_ready().await;
        let tool = format!("echo_{name}");
        let frame = format!("{{\"type\":\"tool_call\",\"id\":\"1\",\"name\":\"echo_{name}\",\"args\":{{\"x\":1}}}}\n");
        let (mut fl, mut rt, mut hs) = (Vec::new(), Vec::new(), Vec::new());
        for block in 0..=BLOCKS {
            // Block 0 warms all three up and is not counted.
            let n = if block == 0 {
                WARMUP
            } else {
                ROUND_TRIPS / BLOCKS
            };
            let keep = block > 0;
            for _ in 0..n {
                let t = Instant::now();
                raw.round_trip(frame.as_bytes());
                if keep {
                    fl.push(t.elapsed());
                }
            }
            for _ in 0..n {
                let t = Instant::now();
                tokio_alone.round_trip(frame.as_bytes()).await;
                if keep {
                    rt.push(t.elapsed());
                }
            }
            for _ in 0..n {
                let args = json!({"x":1});
                let t = Instant::now();
                host.call_tool(&tool, args).await.unwrap();
                if keep {
                    hs.push(t.elapsed());
                }
            }
        }
        raw.finish();
        tokio_alone.finish();
        host.shutdown().await;
        let (fl, rt, samples) = (summarize(fl), summarize(rt), hs);
        let h = summarize(samples);
        let _ = writeln!(
            b.out,
            "| {} | {:.1} / {:.1} | {:.1} / {:.1} | {:.2}× / {:.2}× | {:.1} ({:.2}×) |",
            kind.label(),
            fl.p50,
            fl.p99,
            h.p50,
            h.p99,
            h.p50 / fl.p50,
            h.p99 / fl.p99,
            rt.p50,
            rt.p50 / fl.p50
        );
    }
    let _ = writeln!(b.out);
}

/// The router's permission check: the same Rust child twice in one
/// host, once with a `permissions` list (every frame checked against it)
/// and once unrestricted, taking turns in blocks; the ratio should be
/// within noise of 1.
async fn permission_check(b: &mut Bench) {
    let _ = writeln!(
        b.out,
        "| tool_call round trip, Rust SDK child | unrestricted p50 / p99 (µs) | `permissions: [tools]` p50 / p99 (µs) | ratio p50 / p99 |"
    );
    let _ = writeln!(b.out, "|---|---|---|---|");
    let open = b.ext_dir(Kind::Rust, "perm_open", false);
    let scoped = b.ext_dir(Kind::Rust, "perm_scoped", false);
    let file = scoped.join("extension.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    m.as_object_mut()
        .unwrap()
        .insert("permissions".into(), json!(["tools"]));
    std::fs::write(&file, m.to_string()).unwrap();
    let (host, _rx) = Host::start(b.config(vec![open, scoped]));
    host.wait_ready().await;
    let (mut un, mut re) = (Vec::new(), Vec::new());
    for block in 0..=BLOCKS {
        let n = if block == 0 {
            WARMUP
        } else {
            ROUND_TRIPS / BLOCKS
        };
        for (tool, into) in [("echo_perm_open", &mut un), ("echo_perm_scoped", &mut re)] {
            for _ in 0..n {
                let t = Instant::now();
                host.call_tool(tool, json!({"x":1})).await.unwrap();
                if block > 0 {
                    into.push(t.elapsed());
                }
            }
        }
    }
    host.shutdown().await;
    let (u, r) = (summarize(un), summarize(re));
    let _ = writeln!(
        b.out,
        "| same host, same child | {:.1} / {:.1} | {:.1} / {:.1} | {:.2}× / {:.2}× |\n",
        u.p50,
        u.p99,
        r.p50,
        r.p99,
        r.p50 / u.p50,
        r.p99 / u.p99
    );
}

async fn interception(b: &mut Bench) {
    let _ = writeln!(
        b.out,
        "| interception chain (Python) | floor p50 (µs) | host p50 (µs) | ratio p50 |"
    );
    let _ = writeln!(b.out, "|---|---|---|---|");
    for n in [1usize, 5, 20] {
        let names: Vec<String> = (0..n).map(|i| format!("ic{n}_{i:02}")).collect();
        let mut raws: Vec<_> = names
            .iter()
            .map(|name| {
                let (exec, args) = b.exec(Kind::Python, name, true);
                floor::spawn(&exec, &args)
            })
            .collect();
        for r in &mut raws {
            r.handshake();
        }
        let frame = b"{\"type\":\"event_intercept\",\"id\":\"1\",\"event\":\"tool_call\",\"tool_id\":\"t\",\"tool_name\":\"bash\",\"tool_args\":{\"command\":\"ls\"}}\n";
        let iters = 20_000 / n.max(1);
        let mut samples = Vec::new();
        for i in 0..WARMUP + iters {
            let t = Instant::now();
            for r in &mut raws {
                r.round_trip(frame);
            }
            if i >= WARMUP {
                samples.push(t.elapsed());
            }
        }
        raws.into_iter().for_each(floor::RawChild::finish);
        let fl = summarize(samples);
        let dirs = names
            .iter()
            .map(|name| b.ext_dir(Kind::Python, name, true))
            .collect();
        let (host, _rx) = Host::start(b.config(dirs));
        host.wait_ready().await;
        let mut samples = Vec::new();
        for i in 0..WARMUP + iters {
            let t = Instant::now();
            let v = host
                .intercept_tool_call("t", "bash", json!({"command":"ls"}))
                .await;
            assert!(matches!(v, zot_ext_host::ToolCallVerdict::Allow { .. }));
            if i >= WARMUP {
                samples.push(t.elapsed());
            }
        }
        host.shutdown().await;
        let h = summarize(samples);
        let _ = writeln!(
            b.out,
            "| {n} interceptor(s) | {:.1} | {:.1} | {:.2}× |",
            fl.p50,
            h.p50,
            h.p50 / fl.p50
        );
    }
    let _ = writeln!(b.out);
}

async fn spawn_to_ready(b: &mut Bench) {
    let _ = writeln!(
        b.out,
        "| 50 extensions, spawn to all ready | floor (ms) | host (ms) | ratio |"
    );
    let _ = writeln!(b.out, "|---|---|---|---|");
    for kind in [Kind::Rust, Kind::Python] {
        let tag = if kind == Kind::Rust { "sr" } else { "sp" };
        let names: Vec<String> = (0..50).map(|i| format!("{tag}{i:02}")).collect();
        let dirs: Vec<PathBuf> = names.iter().map(|n| b.ext_dir(kind, n, false)).collect();
        let mut floors = Vec::new();
        let mut hosts = Vec::new();
        for _ in 0..5 {
            // Floor: Rust children spawned and handshaken raw; Python is
            // measured as interpreter boot alone (`python -c pass`).
            let t = Instant::now();
            match kind {
                Kind::Rust => {
                    let mut raws: Vec<_> = names
                        .iter()
                        .map(|n| {
                            let (exec, args) = b.exec(kind, n, false);
                            floor::spawn(&exec, &args)
                        })
                        .collect();
                    for r in &mut raws {
                        r.handshake();
                    }
                    floors.push(t.elapsed());
                    raws.into_iter().for_each(floor::RawChild::finish);
                }
                Kind::Python => {
                    let mut kids: Vec<_> = (0..50)
                        .map(|_| {
                            std::process::Command::new(&b.python)
                                .args(["-c", "pass"])
                                .spawn()
                                .unwrap()
                        })
                        .collect();
                    for k in &mut kids {
                        k.wait().unwrap();
                    }
                    floors.push(t.elapsed());
                }
            }
            let t = Instant::now();
            let (host, _rx) = Host::start(b.config(dirs.clone()));
            // Every one of them ready, however long: `wait_ready` stops
            // waiting for one that has not said hello within 5 s, which 50
            // Python boots on 2 loaded vCPUs can exceed (the bench then
            // failed with half of them still loading).
            host.wait_settled().await;
            hosts.push(t.elapsed());
            let bad: Vec<_> = host
                .list()
                .into_iter()
                .filter(|s| s.state != ExtState::Ready)
                .map(|s| (s.name, s.state, s.error))
                .collect();
            assert!(bad.is_empty(), "not ready: {bad:?}");
            host.shutdown().await;
        }
        floors.sort();
        hosts.sort();
        let (f, h) = (floors[2].as_secs_f64() * 1e3, hosts[2].as_secs_f64() * 1e3);
        let _ = writeln!(
            b.out,
            "| {} (median of 5) | {f:.1} | {h:.1} | {:.2}× |",
            kind.label(),
            h / f
        );
    }
    let _ = writeln!(b.out);
}

/// The supervisor's price for a crash: from the crash being seen (the call
/// that killed it failed) to the extension ready again, less the first
/// backoff, against the same extension's cold spawn→ready in the same host.
/// Each sample is a fresh host, so the restart budget never runs out.
async fn crash_to_ready(b: &mut Bench) {
    const SAMPLES: usize = 7;
    let backoff = Duration::from_millis(500);
    // What the measurement itself adds: a 500 ms tokio sleep observed
    // through the same 1 ms polling loop (timer rounding plus poll step).
    let mut floors = Vec::new();
    for _ in 0..SAMPLES {
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = done.clone();
        let t = Instant::now();
        tokio::spawn(async move {
            tokio::time::sleep(backoff).await;
            flag.store(true, std::sync::atomic::Ordering::Release);
        });
        while !done.load(std::sync::atomic::Ordering::Acquire) {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        floors.push(t.elapsed().saturating_sub(backoff));
    }
    floors.sort();
    let floor = floors[SAMPLES / 2];
    let _ = writeln!(
        b.out,
        "| one extension | cold spawn→ready (ms) | crash→ready less the {} ms backoff (ms) | ratio | less the timer+poll floor of {:.1} ms: ratio |",
        backoff.as_millis(),
        floor.as_secs_f64() * 1e3
    );
    let _ = writeln!(b.out, "|---|---|---|---|---|");
    for kind in [Kind::Rust, Kind::Python] {
        let name = if kind == Kind::Rust { "rr" } else { "rp" };
        let dir = b.ext_dir(kind, name, false);
        let (mut colds, mut restarts) = (Vec::new(), Vec::new());
        for _ in 0..SAMPLES {
            let t = Instant::now();
            let (host, _rx) = Host::start(b.config(vec![dir.clone()]));
            host.wait_ready().await;
            colds.push(t.elapsed());
            let crash = host.call_tool(&format!("crash_{name}"), json!({})).await;
            assert!(crash.is_err(), "the crash tool answered: {crash:?}");
            let t = Instant::now();
            loop {
                let s = &host.list()[0];
                if s.state == ExtState::Ready && s.restarts == 1 {
                    break;
                }
                assert!(t.elapsed() < Duration::from_secs(30), "no restart: {s:?}");
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            restarts.push(t.elapsed().saturating_sub(backoff));
            host.shutdown().await;
        }
        colds.sort();
        restarts.sort();
        let (c, r) = (
            colds[SAMPLES / 2].as_secs_f64() * 1e3,
            restarts[SAMPLES / 2].as_secs_f64() * 1e3,
        );
        let net = (r - floor.as_secs_f64() * 1e3).max(0.0);
        let _ = writeln!(
            b.out,
            "| {} (median of {SAMPLES}) | {c:.1} | {r:.1} | {:.2}× | {:.2}× |",
            kind.label(),
            r / c,
            net / c
        );
    }
    let _ = writeln!(
        b.out,
        "\nGoal: crash→ready within 1.1× of a cold start plus the backoff (docs/host.md \"Restart policy\"); the host's cold number includes discovery and its own start.\n"
    );
}

/// What the first use of an `on_use` tool costs the caller: one
/// `call_tool` that spawns the extension, waits for its handshake and
/// registration, then makes the call, against the two things it is made
/// of, measured on the same extension: a cold spawn→ready (`Host::restart`
/// of the idle extension in a started host, so neither side includes
/// discovery) and a warm call (median of 50 on the running extension).
/// The first call a fresh process answers is timed too (after the cold
/// start), since a first use pays it whatever the host does.
/// Every sample is a fresh host, taking turns with the cold start, so a
/// burst of load from elsewhere lands on both alike.
async fn first_use(b: &mut Bench) {
    const SAMPLES: usize = 21;
    const WARM: usize = 50;
    let _ = writeln!(
        b.out,
        "| first use of an on_use tool | cold spawn→ready (ms) | warm call (ms) | a fresh process's first call (ms) | first use: spawn + handshake + call (ms) | ratio to cold + warm | ratio to cold + first call | host CPU: first use / cold + first call (ms) |"
    );
    let _ = writeln!(b.out, "|---|---|---|---|---|---|---|---|");
    for kind in [Kind::Rust, Kind::Python] {
        let name = if kind == Kind::Rust { "fur" } else { "fup" };
        let dir = b.on_use_dir(kind, name);
        let tool = format!("echo_{name}");
        let (mut colds, mut warms, mut firsts) = (Vec::new(), Vec::new(), Vec::new());
        let mut first_calls = Vec::new();
        // The host's own CPU time (all its threads, not the child's): what
        // the load on this shared machine cannot inflate.
        let (mut first_cpu, mut cold_cpu) = (Vec::new(), Vec::new());
        for i in 0..SAMPLES {
            // Which goes first alternates, so neither always follows the
            // other's shutdown.
            for first_use_now in [i % 2 == 0, i % 2 != 0] {
                let (host, _rx) = Host::start(b.config(vec![dir.clone()]));
                host.wait_ready().await;
                assert_eq!(host.list()[0].state, ExtState::Idle);
                if first_use_now {
                    let (t, cpu) = (Instant::now(), stats::cpu_time());
                    host.call_tool(&tool, json!({"x":1})).await.unwrap();
                    firsts.push(t.elapsed());
                    first_cpu.push(stats::cpu_time().saturating_sub(cpu));
                    let mut w = Vec::with_capacity(WARM);
                    for _ in 0..WARM {
                        let t = Instant::now();
                        host.call_tool(&tool, json!({"x":1})).await.unwrap();
                        w.push(t.elapsed());
                    }
                    w.sort();
                    warms.push(w[WARM / 2]);
                } else {
                    let (t, cpu) = (Instant::now(), stats::cpu_time());
                    host.restart(name).await.unwrap();
                    colds.push(t.elapsed());
                    assert_eq!(host.list()[0].state, ExtState::Ready);
                    // The first call a fresh process answers is slower than
                    // a warm one (its code is paged in, its caches cold):
                    // part of any first use, not the host's.
                    let t = Instant::now();
                    host.call_tool(&tool, json!({"x":1})).await.unwrap();
                    first_calls.push(t.elapsed());
                    cold_cpu.push(stats::cpu_time().saturating_sub(cpu));
                }
                host.shutdown().await;
            }
        }
        let ms = |mut v: Vec<Duration>| {
            v.sort();
            v[v.len() / 2].as_secs_f64() * 1e3
        };
        let (c, w, f, fc) = (ms(colds), ms(warms), ms(firsts), ms(first_calls));
        let (fcpu, ccpu) = (ms(first_cpu), ms(cold_cpu));
        let _ = writeln!(
            b.out,
            "| {} (median of {SAMPLES}) | {c:.2} | {w:.3} | {fc:.3} | {f:.2} | {:.2}× | {:.2}× | {fcpu:.2} / {ccpu:.2} |",
            kind.label(),
            f / (c + w),
            f / (c + fc)
        );
    }
    let _ = writeln!(
        b.out,
        "\nGoal: a first use within 1.1× of the cold spawn→ready plus a warm call (#20).\n"
    );
}

async fn notify_parsing(b: &mut Bench) {
    const FRAMES: usize = 1_000_000;
    let dir = b.tmp.path().join("exts/flood");
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::from("{\"type\":\"hello\",\"name\":\"flood\"}\n{\"type\":\"ready\"}\n");
    for i in 0..FRAMES {
        let _ = writeln!(
            text,
            "{{\"type\":\"notify\",\"level\":\"info\",\"message\":\"note {i}\"}}"
        );
    }
    std::fs::write(dir.join("frames.jsonl"), &text).unwrap();
    std::fs::write(
        dir.join("extension.json"),
        json!({"name":"flood","exec":"cat","args":["frames.jsonl"]}).to_string(),
    )
    .unwrap();
    let before = rss_kib();
    let cpu0 = stats::cpu_time();
    let t = Instant::now();
    let (host, mut rx) = Host::start(b.config(vec![dir]));
    let drain = tokio::spawn(async move {
        let mut n = 0u64;
        while rx.recv().await.is_some() {
            n += 1;
        }
        n
    });
    while host.list()[0].state != ExtState::Exited {
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
    let secs = t.elapsed().as_secs_f64();
    let cpu = (stats::cpu_time() - cpu0).as_secs_f64();
    let grown = rss_kib().saturating_sub(before);
    host.shutdown().await;
    drop(host);
    drain.abort();
    let _ = writeln!(
        b.out,
        "child→host `notify` parsing (one core, `cat` as the child): {:.2} M frames/s of wall time, {:.2} M frames per second of host CPU time; RSS grew {} KiB over {FRAMES} frames.\n",
        FRAMES as f64 / secs / 1e6,
        FRAMES as f64 / cpu / 1e6,
        grown
    );
}

async fn idle_memory(b: &mut Bench) {
    let dirs: Vec<PathBuf> = (0..50)
        .map(|i| b.ext_dir(Kind::Rust, &format!("idle{i:02}"), false))
        .collect();
    // Warm the runtime and allocator first so the delta is the extensions'.
    let (host, _rx) = Host::start(b.config(dirs.clone()));
    host.wait_ready().await;
    host.shutdown().await;
    let before = rss_kib();
    let (host, _rx) = Host::start(b.config(dirs));
    host.wait_ready().await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let per = rss_kib().saturating_sub(before) as f64 / 50.0;
    host.shutdown().await;
    let _ = writeln!(
        b.out,
        "Host memory per idle extension (RSS delta over 50 ready Rust extensions): {per:.0} KiB (a Rust extension process itself uses about 2 MiB).\n"
    );
}

fn write_docs(section: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/performance.md");
    let start = "<!-- host-bench:start -->";
    let end = "<!-- host-bench:end -->";
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| "# Performance\n".into());
    let block = format!("{start}\n{section}{end}");
    let new = match (text.find(start), text.find(end)) {
        (Some(s), Some(e)) if e > s => format!("{}{block}{}", &text[..s], &text[e + end.len()..]),
        _ => format!("{text}\n## Extension host\n\n{block}\n"),
    };
    std::fs::write(&path, new).unwrap();
    eprintln!("wrote {}", path.display());
}
