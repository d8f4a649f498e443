//! The host's integration tests' own set-up: a temp `ZOT_HOME` and
//! project, extension directories that run the scripted fixture with a
//! plan, a host started and waited for, and its events. What every crate's
//! tests share (the fixture extensions, process probes, polling) comes
//! from `zot-test-support` and is re-exported here, so a test file's
//! `use support::*` brings both.
#![allow(dead_code)]

// A prelude: each test binary that includes this file uses its own part.
#[allow(unused_imports)]
pub use zot_test_support::{
    fixtures::{python, scripted},
    procs::*,
    wait::{eventually, within},
};

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;
use tokio::sync::mpsc::Receiver;
use zot_ext_host::{Host, HostConfig, HostEvent};
use zot_ext_protocol::rpc::ExtensionSummary;

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

/// The pid of the child a `scripted.py` extension started with plan
/// `escaped_child`, once it runs, checked to be really escaped: in a group
/// other than the extension's.
pub fn escaped_child(dir: &Path) -> i32 {
    let pid = read_pid(dir, "escaped.pid");
    let ext = read_pid(dir, "pid");
    assert!(alive(pid), "the escaped child {pid} is not running");
    assert_ne!(
        pgrp(pid),
        pgrp(ext),
        "the child did not leave the extension's group"
    );
    pid
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
