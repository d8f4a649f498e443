//! `make bench` for the SDKs: the tool round trip (host writes `tool_call`,
//! extension answers `tool_result`) through each SDK, against the same
//! language's hand-written loop from the spec's quick start, measured in the
//! same run. Rounds alternate raw and SDK so drift in the machine hits both.
//! Results go to stdout and, with `--write <file>`, into the SDK section of
//! docs/performance.md (between markers, leaving the rest of the file alone).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

const WARMUP: usize = 300;
const ROUNDS: usize = 16;
const PER_ROUND: usize = 250;
const START: &str = "<!-- sdk-bench:start -->";
const END: &str = "<!-- sdk-bench:end -->";

struct Ext {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
    n: u64,
}

impl Ext {
    fn spawn(argv: &[String], env: &[(&str, String)]) -> Ext {
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {argv:?}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut ext = Ext {
            child,
            stdin,
            stdout,
            line: String::new(),
            n: 0,
        };
        assert!(
            ext.read().contains("\"hello\""),
            "{argv:?} did not say hello"
        );
        ext.write(r#"{"type":"hello_ack","protocol_version":1,"zot_version":"bench","provider":"p","model":"m","cwd":"/","extension_dir":"/tmp","data_dir":"/tmp"}"#);
        while !ext.read().contains("\"ready\"") {}
        ext
    }

    fn write(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&mut self) -> &str {
        self.line.clear();
        self.stdout.read_line(&mut self.line).unwrap();
        assert!(!self.line.is_empty(), "extension closed stdout");
        &self.line
    }

    /// One tool call and its result, in nanoseconds.
    fn round_trip(&mut self) -> u64 {
        self.n += 1;
        let frame = format!(
            r#"{{"type":"tool_call","id":"b{}","name":"echo","args":{{"text":"hello"}}}}"#,
            self.n
        );
        let t = Instant::now();
        self.write(&frame);
        let got = self.read();
        let ns = t.elapsed().as_nanos() as u64;
        debug_assert!(got.contains("tool_result"));
        ns
    }

    fn stop(mut self) {
        self.write(r#"{"type":"shutdown"}"#);
        let _ = self.child.wait();
    }
}

fn pct(sorted: &[u64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

struct Row {
    lang: &'static str,
    mode: &'static str,
    raw: (f64, f64),
    sdk: (f64, f64),
}

fn measure(
    lang: &'static str,
    mode: &'static str,
    raw: &[String],
    sdk: &[String],
    env: &[(&str, String)],
) -> Row {
    let mut a = Ext::spawn(raw, env);
    let mut b = Ext::spawn(sdk, env);
    for _ in 0..WARMUP {
        a.round_trip();
        b.round_trip();
    }
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let run = |e: &mut Ext| (0..PER_ROUND).map(|_| e.round_trip()).collect::<Vec<u64>>();
        if round % 2 == 0 {
            ra.extend(run(&mut a));
            rb.extend(run(&mut b));
        } else {
            rb.extend(run(&mut b));
            ra.extend(run(&mut a));
        }
    }
    a.stop();
    b.stop();
    ra.sort_unstable();
    rb.sort_unstable();
    Row {
        lang,
        mode,
        raw: (pct(&ra, 0.5), pct(&ra, 0.9)),
        sdk: (pct(&rb, 0.5), pct(&rb, 0.9)),
    }
}

#[cfg(target_os = "linux")]
fn pin_to_cpu0() {
    // SAFETY: a zeroed cpu_set_t with one bit set, for this process only;
    // children inherit it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to_cpu0() {}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let write_to = args
        .iter()
        .position(|a| a == "--write")
        .map(|i| PathBuf::from(&args[i + 1]));
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bench = crate_dir.join("bench");
    let exe_dir = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    let py = s(zot_test_support::fixtures::python());
    let py_env = [("PYTHONPATH", s(crate_dir.join("../sdk-py")))];
    assert!(
        crate_dir.join("../sdk-ts/dist/index.js").exists(),
        "build the TypeScript SDK first (make deps)"
    );

    let mut rows = Vec::new();
    for mode in ["unpinned", "pinned to 1 core"] {
        if mode != "unpinned" {
            pin_to_cpu0();
        }
        rows.push(measure(
            "Rust",
            mode,
            &[s(exe_dir.join("bench_raw"))],
            &[s(exe_dir.join("bench_sdk"))],
            &[],
        ));
        rows.push(measure(
            "Python",
            mode,
            &[py.clone(), s(bench.join("raw.py"))],
            &[py.clone(), s(bench.join("sdk.py"))],
            &py_env,
        ));
        rows.push(measure(
            "TypeScript (Node)",
            mode,
            &["node".into(), s(bench.join("raw.mjs"))],
            &["node".into(), s(bench.join("sdk.mjs"))],
            &[],
        ));
    }

    let mut md = String::new();
    md.push_str(&format!(
        "Tool round trip (`tool_call` written → `tool_result` read), {} calls per side after {WARMUP} warm-up calls, \
         raw and SDK alternating in {ROUNDS} rounds. \"raw\" is the language's hand-written loop from the spec's quick start. \
         Goal: each SDK adds at most 10 % at p50.\n\n",
        ROUNDS * PER_ROUND
    ));
    md.push_str("| language | cpus | raw p50 µs | SDK p50 µs | raw p90 µs | SDK p90 µs | SDK overhead at p50 | goal |\n|---|---|---|---|---|---|---|---|\n");
    for r in &rows {
        let over = (r.sdk.0 / r.raw.0 - 1.0) * 100.0;
        md.push_str(&format!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:+.1} % | {} |\n",
            r.lang,
            r.mode,
            r.raw.0,
            r.sdk.0,
            r.raw.1,
            r.sdk.1,
            over,
            if over <= 10.0 { "met" } else { "missed" }
        ));
    }
    print!("{md}");
    if let Some(path) = write_to {
        let old = std::fs::read_to_string(&path).unwrap_or_else(|_| "# Performance\n".into());
        let section = format!("{START}\n{md}{END}");
        let new = match (old.find(START), old.find(END)) {
            (Some(a), Some(b)) if b > a => format!("{}{section}{}", &old[..a], &old[b + END.len()..]),
            _ => format!("{}\n## SDKs\n\nMeasured by `make bench` (`bench-sdk` in mk/sdk.mk) on this machine.\n\n{section}\n", old.trim_end()),
        };
        std::fs::write(&path, new).unwrap();
        eprintln!("wrote the SDK section of {}", path.display());
    }
}
