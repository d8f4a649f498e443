//! Shared helpers for the host's integration tests: a temp `ZOT_HOME` and
//! project, extension directories that run `fixtures/scripted.py` with a
//! plan, and waiting for host events.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::sync::mpsc::Receiver;
use zot_ext_host::{Host, HostConfig, HostEvent};
use zot_ext_protocol::rpc::ExtensionSummary;

/// The real Python interpreter (not the pyenv shim, which is slow to start).
pub fn python() -> PathBuf {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| {
        let out = std::process::Command::new("python3")
            .args(["-c", "import sys;print(sys.executable)"])
            .output()
            .expect("python3 on PATH");
        PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
    })
    .clone()
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A temp `ZOT_HOME`, a temp project, and a place for `--ext` directories.
pub struct Env {
    pub home: TempDir,
    pub project: TempDir,
    pub loose: TempDir,
}

impl Env {
    pub fn new() -> Env {
        Env {
            home: TempDir::new().unwrap(),
            project: TempDir::new().unwrap(),
            loose: TempDir::new().unwrap(),
        }
    }

    /// A config for a trusted project (project trust has its own tests,
    /// `trust.rs`, which start from [`Env::untrusted_config`]).
    pub fn config(&self) -> HostConfig {
        let c = self.untrusted_config();
        c.run_trust.grant();
        c
    }

    /// A config as a fresh start sees it: the project is not trusted.
    pub fn untrusted_config(&self) -> HostConfig {
        let mut c = HostConfig::new(self.home.path(), self.project.path());
        c.provider = "anthropic".into();
        c.model = "test-model".into();
        c.zot_version = "9.9.9".into();
        c
    }

    pub fn global_dir(&self) -> PathBuf {
        self.home.path().join("extensions")
    }

    pub fn project_dir(&self) -> PathBuf {
        self.project.path().join(".zot/extensions")
    }

    /// A global extension running the scripted fixture with `plan`.
    pub fn global(&self, name: &str, plan: Value) -> PathBuf {
        scripted(&self.global_dir(), name, plan)
    }

    /// A project-local one.
    pub fn project_ext(&self, name: &str, plan: Value) -> PathBuf {
        scripted(&self.project_dir(), name, plan)
    }

    /// One for `--ext` (outside every discovery directory).
    pub fn loose(&self, name: &str, plan: Value) -> PathBuf {
        scripted(self.loose.path(), name, plan)
    }

    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.log_path(name)).unwrap_or_default()
    }

    pub fn log_path(&self, name: &str) -> PathBuf {
        self.home
            .path()
            .join("logs")
            .join(format!("ext-{name}.log"))
    }
}

/// Writes `root/name/extension.json` that runs the scripted fixture.
pub fn scripted(root: &Path, name: &str, plan: Value) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let manifest = json!({
        "name": name,
        "version": "1.0.0",
        "exec": python(),
        "args": [fixture("scripted.py"), plan.to_string()],
        "language": "python",
        "description": format!("test extension {name}"),
    });
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

/// Writes a raw manifest text into `root/dir_name`.
pub fn raw_manifest(root: &Path, dir_name: &str, text: &str) -> PathBuf {
    let dir = root.join(dir_name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("extension.json"), text).unwrap();
    dir
}

/// Starts a host and waits until its extensions are ready.
pub async fn start(cfg: HostConfig) -> (Host, Receiver<HostEvent>) {
    let (host, rx) = Host::start(cfg);
    host.wait_ready().await;
    (host, rx)
}

/// Starts the host and waits until every extension has settled, however
/// long that takes (a failing handshake takes its whole timeout). For
/// servers that start slowly on a loaded machine (an MCP server in Python
/// imports for about a second here), where [`start`]'s bounded wait could
/// return while one is still loading.
pub async fn start_settled(cfg: HostConfig) -> (Host, Receiver<HostEvent>) {
    let (host, rx) = Host::start(cfg);
    host.wait_settled().await;
    (host, rx)
}

/// The first event matching `pred` (others are skipped); panics after 20 s.
pub async fn wait_event(
    rx: &mut Receiver<HostEvent>,
    mut pred: impl FnMut(&HostEvent) -> bool,
) -> HostEvent {
    let fut = async {
        loop {
            let ev = rx.recv().await.expect("host event stream ended");
            if pred(&ev) {
                return ev;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), fut)
        .await
        .expect("the expected host event never came")
}

/// Waits (up to 20 s) until `cond` holds, polling.
pub async fn eventually(mut cond: impl FnMut() -> bool) {
    for _ in 0..2000 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("condition never held");
}

/// Whether a process exists and is not a zombie, asked of the OS.
pub fn process_alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence.
    if unsafe { libc::kill(pid, 0) } != 0 {
        return false;
    }
    // A zombie (reparented to an init that does not reap) is gone for our
    // purposes: it runs nothing and holds nothing.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .chars()
                .next();
            state != Some('Z')
        }
        Err(_) => false,
    }
}

/// The process group of `pid` (field 5 of `/proc/<pid>/stat`), -1 when
/// it is gone.
pub fn pgrp(pid: i32) -> i32 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    after
        .split_whitespace()
        .nth(2)
        .and_then(|f| f.parse().ok())
        .unwrap_or(-1)
}

/// The pid of the child a `scripted.py` extension started with plan
/// `escaped_child`, once it runs, checked to be really escaped: in a group
/// other than the extension's.
pub fn escaped_child(dir: &Path) -> i32 {
    let pid = read_pid(dir, "escaped.pid");
    let ext = read_pid(dir, "pid");
    assert!(process_alive(pid), "the escaped child {pid} is not running");
    assert_ne!(
        pgrp(pid),
        pgrp(ext),
        "the child did not leave the extension's group"
    );
    pid
}

/// The pid an extension wrote to `dir/<file>`.
pub fn read_pid(dir: &Path, file: &str) -> i32 {
    pid_in(&dir.join(file)).unwrap_or_else(|| panic!("no pid in {}", dir.join(file).display()))
}

/// The pid written to `path`, or `None` while the file is missing or still
/// empty: a writer creates the file before its bytes land, so a test that
/// polls for a pid must wait for this, not for the file to exist.
pub fn pid_in(path: &Path) -> Option<i32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Whether `pid` is a zombie whose parent is this test process: a child
/// the host forgot to reap.
pub fn is_our_zombie(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let mut rest = stat.rsplit(')').next().unwrap_or("").split_whitespace();
    let state = rest.next();
    let ppid: i32 = rest.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    state == Some("Z") && ppid == std::process::id() as i32
}

/// Resident memory of this process in KiB.
pub fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// How many times the scripted fixture in `dir` was started (it writes a
/// line to `./starts` per start).
pub fn starts(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("starts"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

/// Extension `name` as `ext_list` shows it; panics when it is not listed.
pub fn summary(host: &Host, name: &str) -> ExtensionSummary {
    host.list()
        .into_iter()
        .find(|s| s.name == name)
        .expect("listed")
}

/// Waits up to `secs` for `cond`, polling (a deadline, not a timing claim).
pub async fn within(secs: u64, mut cond: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while !cond() {
        assert!(Instant::now() < end, "condition never held in {secs} s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The `--exact` name of `test` in the file whose `module_path!()` is
/// `module`, for a test that re-runs one test of its own binary in a child
/// process: in tests/integration.rs each file is a module, so its tests are
/// named `file::test`; a file that is its own binary names them bare.
pub fn exact_name(module: &str, test: &str) -> String {
    match module.split_once("::") {
        Some((_, file)) => format!("{file}::{test}"),
        None => test.to_string(),
    }
}
