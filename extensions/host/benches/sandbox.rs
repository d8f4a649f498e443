//! `make bench` for the extension sandbox (docs/security.md): spawn ->
//! ready of one Python extension that says `ready` itself, unsandboxed and
//! sandboxed (with and without `net`), interleaved in one run, plus the
//! floors that explain the difference: the interpreter's boot alone, the
//! same boot under bwrap, and bwrap running `true`. Results go to stdout
//! and into the "Extension sandbox" section of docs/performance.md.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use zot_ext_host::sandbox::{bwrap_args, Plan};
use zot_ext_host::{Host, HostConfig};
use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::Sandbox;

const RUNS: usize = 30;

/// The system interpreter: the same one inside and outside the sandbox
/// (a pyenv shim in the home is not visible inside, and is slower).
const PYTHON: &str = "/usr/bin/python3";

struct Setup {
    tmp: tempfile::TempDir,
}

impl Setup {
    fn home(&self) -> PathBuf {
        self.tmp.path().join("home")
    }

    /// `--ext` directory `name` running `ready.py` with `sandbox`.
    fn ext(&self, name: &str, sandbox: Option<Value>) -> PathBuf {
        let dir = self.tmp.path().join("exts").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/ready.py");
        std::fs::copy(src, dir.join("ready.py")).unwrap();
        let mut m = json!({"name": name, "exec": PYTHON, "args": ["./ready.py", name]});
        if let Some(s) = sandbox {
            m["sandbox"] = s;
        }
        std::fs::write(dir.join("extension.json"), m.to_string()).unwrap();
        dir
    }

    fn config(&self, dir: &Path) -> HostConfig {
        let mut cfg = HostConfig::new(self.home(), self.tmp.path());
        cfg.discover = false;
        cfg.explicit = vec![dir.to_path_buf()];
        cfg
    }
}

/// Host start -> the extension ready (its own `ready` frame).
async fn spawn_to_ready(setup: &Setup, dir: &Path) -> Duration {
    let t = Instant::now();
    let (host, _rx) = Host::start(setup.config(dir));
    host.wait_ready().await;
    let took = t.elapsed();
    let s = &host.list()[0];
    assert_eq!(s.state, ExtState::Ready, "{}: {:?}", s.name, s.error);
    host.shutdown().await;
    took
}

fn timed(cmd: &mut Command) -> Duration {
    let t = Instant::now();
    let st = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(st.success(), "{cmd:?}");
    t.elapsed()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Median and 90th percentile in ms.
fn summary(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let p = |q: f64| ms(v[((v.len() - 1) as f64 * q).round() as usize]);
    (p(0.5), p(0.9))
}

fn main() {
    assert!(Path::new(PYTHON).exists(), "{PYTHON} is needed");
    let bwrap = zot_ext_host::sandbox::default_bwrap();
    let setup = Setup {
        tmp: tempfile::TempDir::new().unwrap(),
    };
    let plain = setup.ext("plain", None);
    let boxed = setup.ext("boxed", Some(json!({"net": false})));
    let netted = setup.ext("netted", Some(json!({"net": true})));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    // The floors run with the very bwrap arguments the host builds for
    // `boxed` and `netted`.
    let args_for = |net: bool| {
        let spec = Sandbox {
            net,
            ..Sandbox::default()
        };
        let dir = setup.tmp.path().join("exts/boxed");
        let plan = Plan {
            spec: &spec,
            ext_dir: &dir,
            sdk: None,
            zot_home: &setup.home(),
            home: None,
            runtime_dirs: &[],
            env: &[],
            resolv_conf_fd: None,
            program: None,
        };
        // The view only: the host adds its seccomp filters and, with `net`,
        // slirp4netns, which the spawn -> ready rows include.
        let mut args = bwrap_args(&plan).unwrap().args;
        args.push("--".into());
        args
    };
    let (no_net, net) = (args_for(false), args_for(true));
    // Runs in a spawned task, as the app's starts do (see benches/host.rs);
    // every measurement of a round is taken back to back, so load from
    // other work on the machine hits them alike.
    let mut rows: Vec<Vec<Duration>> = vec![Vec::new(); 9];
    let (rows, _setup) = rt.block_on(async move {
        tokio::spawn(async move {
            // Warm-up: the SDK unpack, the page cache, the sandbox probe.
            for d in [&plain, &boxed, &netted] {
                spawn_to_ready(&setup, d).await;
            }
            for _ in 0..RUNS {
                rows[0].push(spawn_to_ready(&setup, &plain).await);
                rows[1].push(spawn_to_ready(&setup, &boxed).await);
                rows[2].push(spawn_to_ready(&setup, &netted).await);
                rows[3].push(timed(Command::new(PYTHON).args(["-c", "pass"])));
                rows[4].push(timed(
                    Command::new(&bwrap)
                        .args(&no_net)
                        .args([PYTHON, "-c", "pass"]),
                ));
                rows[5].push(timed(
                    Command::new(&bwrap).args(&net).args([PYTHON, "-c", "pass"]),
                ));
                rows[6].push(timed(Command::new(&bwrap).args(&no_net).arg("true")));
                rows[7].push(timed(Command::new(&bwrap).args(&net).arg("true")));
                rows[8].push(timed(Command::new(&bwrap).args([
                    "--ro-bind",
                    "/",
                    "/",
                    "true",
                ])));
            }
            (rows, setup)
        })
        .await
        .unwrap()
    });
    let mut rows = rows.into_iter();
    let mut next = || rows.next().unwrap_or_default();
    let (plain_t, boxed_t, netted_t) = (next(), next(), next());
    let (boot, boot_boxed, boot_netted, bw_true, bw_true_net, bw_min) =
        (next(), next(), next(), next(), next(), next());

    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Measured by `make bench` (`cargo bench -p zot-ext-host --bench sandbox`), {cores} vCPUs, {RUNS} runs of each, interleaved; {PYTHON}.\n"
    );
    let _ = writeln!(
        out,
        "| one Python extension, host start to `ready` | median (ms) | p90 (ms) | ratio of medians |"
    );
    let _ = writeln!(out, "|---|---|---|---|");
    let (p50, p90) = summary(plain_t);
    let _ = writeln!(out, "| unsandboxed | {p50:.1} | {p90:.1} | 1.00× |");
    for (label, v) in [
        ("sandboxed, `net: false`", boxed_t),
        ("sandboxed, `net: true`", netted_t),
    ] {
        let (m, q) = summary(v);
        let _ = writeln!(out, "| {label} | {m:.1} | {q:.1} | {:.2}× |", m / p50);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| floor: one process, spawn to exit | median (ms) | p90 (ms) |"
    );
    let _ = writeln!(out, "|---|---|---|");
    for (label, v) in [
        ("`python3 -c pass`", boot),
        ("the same under bwrap (`net: false`)", boot_boxed),
        ("the same under bwrap (`net: true`)", boot_netted),
        ("`bwrap … true` (`net: false`)", bw_true),
        ("`bwrap … true` (`net: true`)", bw_true_net),
        ("`bwrap --ro-bind / / true` (least bwrap does)", bw_min),
    ] {
        let (m, q) = summary(v);
        let _ = writeln!(out, "| {label} | {m:.1} | {q:.1} |");
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let _ = writeln!(
        out,
        "\nLoad average at the end (1/5/15 min): {}.\n",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" / ")
    );
    println!("{out}");
    write_docs(&out);
}

fn write_docs(section: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/performance.md");
    let start = "<!-- sandbox-bench:start -->";
    let end = "<!-- sandbox-bench:end -->";
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| "# Performance\n".into());
    let block = format!("{start}\n{section}{end}");
    let new = match (text.find(start), text.find(end)) {
        (Some(s), Some(e)) if e > s => format!("{}{block}{}", &text[..s], &text[e + end.len()..]),
        _ => format!("{text}\n## Extension sandbox\n\n{block}\n"),
    };
    std::fs::write(&path, new).unwrap();
    eprintln!("wrote {}", path.display());
}
