//! Shared helpers for driving the example extensions through the real
//! extension host: a temp `ZOT_HOME` and project, the example loaded as an
//! `--ext` path, and waiting for the host's UI events. The Rust examples'
//! own tests use it too (as a dev-dependency), so every example is tested
//! the same way.
#![deny(missing_docs)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use tempfile::TempDir;
use tokio::sync::mpsc::Receiver;
use zot_ext_host::{Host, HostConfig, HostEvent};
use zot_ext_protocol::rpc::{ExtState, UiEvent};

/// `examples/extensions/<name>` in this checkout.
pub fn example_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../extensions")
        .join(name)
        .canonicalize()
        .unwrap_or_else(|e| panic!("example {name} is missing: {e}"))
}

/// A scratch copy of an example, for examples that keep state in their own
/// directory (the spec's `data_dir`), so tests never write into the
/// checkout. The copy sits alone in a temp directory: like an installed
/// copy, it gets its SDK from zot (`$ZOT_HOME/sdk/…`), never from this
/// repository.
pub struct Copy {
    /// Keeps the copy alive.
    pub tmp: TempDir,
    /// The copied extension directory.
    pub dir: PathBuf,
}

/// Copies `examples/extensions/<name>` (without its state files).
pub fn copy_example(name: &str) -> Copy {
    let tmp = TempDir::new().unwrap();
    let src = example_dir(name);
    let dir = tmp.path().join("examples/extensions").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(&src).unwrap() {
        let entry = entry.unwrap();
        let file = entry.file_name();
        let f = file.to_string_lossy();
        if entry.file_type().unwrap().is_file()
            && !f.starts_with("todos.json")
            && !f.starts_with("scratchpad.md")
        {
            std::fs::copy(entry.path(), dir.join(&file)).unwrap();
        }
    }
    Copy { tmp, dir }
}

/// A scratch copy of a Rust example with its built `binary` next to
/// `extension.json`, the way an installed copy ships it. The examples run
/// in their sandbox, which shows them their own directory but not this
/// workspace's `target/`, where `launch.sh` would otherwise look.
pub fn copy_with_binary(name: &str, binary: &Path) -> Copy {
    let copy = copy_example(name);
    let file = binary.file_name().expect("a binary path");
    std::fs::copy(binary, copy.dir.join(file)).unwrap();
    copy
}

/// A host running one or more examples, with its temp dirs.
pub struct Harness {
    /// The real host.
    pub host: Host,
    /// Its event stream.
    pub rx: Receiver<HostEvent>,
    /// `$ZOT_HOME` (logs land in `logs/ext-<name>.log`).
    pub home: TempDir,
    /// The project directory sent as `hello_ack.cwd`.
    pub project: TempDir,
}

impl Harness {
    /// Starts the host with `dirs` as `--ext` paths and nothing discovered,
    /// and waits until they are ready; panics if one did not get there.
    pub async fn start(dirs: &[PathBuf]) -> Harness {
        Harness::start_in(TempDir::new().unwrap(), dirs).await
    }

    /// [`Harness::start`] with a `$ZOT_HOME` prepared beforehand (e.g. with
    /// stored settings).
    pub async fn start_in(home: TempDir, dirs: &[PathBuf]) -> Harness {
        let project = TempDir::new().unwrap();
        let mut cfg = HostConfig::new(home.path(), project.path());
        cfg.explicit = dirs.to_vec();
        cfg.discover = false;
        cfg.provider = "anthropic".into();
        cfg.model = "test-model".into();
        let (host, rx) = Host::start(cfg);
        host.wait_ready().await;
        let h = Harness {
            host,
            rx,
            home,
            project,
        };
        // An `on_use` example is idle until its first use starts it.
        for s in h.host.list() {
            assert!(
                matches!(s.state, ExtState::Ready | ExtState::Idle),
                "{} did not become ready: {:?}\nlog:\n{}",
                s.name,
                s.error,
                h.log(&s.name)
            );
        }
        h
    }

    /// The extension's stderr log so far.
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(
            self.home
                .path()
                .join("logs")
                .join(format!("ext-{name}.log")),
        )
        .unwrap_or_default()
    }

    /// The next UI event matching `want`, skipping others; panics after 10 s.
    pub async fn ui(&mut self, want: impl Fn(&UiEvent) -> bool) -> UiEvent {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let ev = tokio::time::timeout_at(deadline, self.rx.recv())
                .await
                .expect("no matching host event within 10 s")
                .expect("host event stream closed");
            if let HostEvent::Ui(ui) = ev {
                if want(&ui) {
                    return ui;
                }
            }
        }
    }
}
