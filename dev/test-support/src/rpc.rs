//! Drives the real `zot` binary over stdin/stdout (RPC, print and JSON
//! modes) with a temp `ZOT_HOME`, keeping every line it printed; and the
//! set-up most of its tests start from ([`Setup`]: a fake model server, a
//! home and a project).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::fake_llm::FakeLlm;

/// How long any single expectation may wait (generous: the machine is noisy).
pub const WAIT: Duration = Duration::from_secs(30);

/// The binary under test: the `zot` cargo built beside the running test
/// executable (tests run from `target/<profile>/deps`, binaries sit in
/// `target/<profile>`). `CARGO_BIN_EXE_zot` would say the same, but only
/// to the app crate's own sources; cargo builds the binary before the app
/// crate's tests, the only ones that run it.
pub fn bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test executable's path");
        let profile = exe
            .parent()
            .and_then(Path::parent)
            .expect("a test executable inside target/<profile>/deps");
        let zot = profile.join("zot");
        assert!(
            zot.is_file(),
            "{} is missing: only the app crate's tests (`cargo test -p zot`) run the zot binary, and cargo builds it for them",
            zot.display()
        );
        zot
    })
    .clone()
}

/// A `zot` command with a clean environment for keys and a given home, for
/// running to completion (`cli`) or as a child driven over pipes
/// ([`command`]).
pub fn std_command(home: &Path, cwd: &Path, args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(bin());
    c.args(args)
        .env("ZOT_HOME", home)
        .env("ZOT_RETRY_BASE_MS", "1")
        // Keys and secrets stay in $ZOT_HOME files: a test must never write
        // into the keychain of the machine it runs on (the keychain itself
        // is tested under its own session bus, settings_keychain.rs).
        .env("ZOT_KEYCHAIN", "off")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("MOONSHOT_API_KEY")
        .env_remove("KIMI_API_KEY")
        .env_remove("ZOT_RPC_TOKEN")
        .current_dir(cwd);
    c
}

/// [`std_command`] as a tokio child that dies with its handle.
pub fn command(home: &Path, cwd: &Path, args: &[&str]) -> Command {
    let mut c = Command::from(std_command(home, cwd, args));
    c.kill_on_drop(true);
    c
}

/// The arguments that point zot at `llm` with a throwaway key.
pub fn model_args(llm: &FakeLlm) -> [&str; 4] {
    ["--base-url", &llm.url, "--api-key", "k"]
}

/// A fake model server, a temp `ZOT_HOME` and a temp project: what most
/// tests of the binary start from.
pub struct Setup {
    /// The model zot talks to.
    pub llm: FakeLlm,
    /// `$ZOT_HOME`.
    pub home: TempDir,
    /// The project zot runs in.
    pub cwd: TempDir,
}

impl Setup {
    /// A fresh server and fresh directories.
    pub async fn new() -> Setup {
        Setup {
            llm: FakeLlm::start().await,
            home: TempDir::new().unwrap(),
            cwd: TempDir::new().unwrap(),
        }
    }

    /// `zot --mode rpc` against the fake model with no extensions and no
    /// session, plus `extra`.
    pub async fn rpc(&self, extra: &[&str]) -> Rpc {
        let mut args = vec!["--no-ext", "--no-session"];
        args.extend_from_slice(extra);
        self.rpc_with(&args, &[]).await
    }

    /// `zot --mode rpc` against the fake model with exactly `args` and
    /// `envs` besides.
    pub async fn rpc_with(&self, args: &[&str], envs: &[(&str, &str)]) -> Rpc {
        Rpc::against(&self.llm, self.home.path(), self.cwd.path(), args, envs).await
    }
}

/// A running `zot --mode rpc`.
pub struct Rpc {
    /// The process.
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines<BufReader<ChildStdout>>,
    /// Every line read so far, parsed.
    pub log: Vec<Value>,
    /// Lines before this index have been consumed by `until`.
    cursor: usize,
    next_id: u64,
}

impl Rpc {
    /// Spawns `zot --mode rpc ARGS` and waits for its `ready` line.
    pub async fn start(home: &Path, cwd: &Path, args: &[&str], envs: &[(&str, &str)]) -> Rpc {
        let mut all = vec!["--mode", "rpc"];
        all.extend_from_slice(args);
        let mut c = command(home, cwd, &all);
        for (k, v) in envs {
            c.env(k, v);
        }
        let mut child = c
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut r = Rpc {
            child,
            stdin,
            lines,
            log: Vec::new(),
            cursor: 0,
            next_id: 0,
        };
        let first = r.read().await.expect("zot printed nothing");
        assert_eq!(
            first["type"], "ready",
            "the first line must be ready: {first}"
        );
        r.cursor = r.log.len();
        r
    }

    /// [`Rpc::start`] pointed at `llm` (with a throwaway key) before `args`.
    pub async fn against(
        llm: &FakeLlm,
        home: &Path,
        cwd: &Path,
        args: &[&str],
        envs: &[(&str, &str)],
    ) -> Rpc {
        let mut all = model_args(llm).to_vec();
        all.extend_from_slice(args);
        Rpc::start(home, cwd, &all, envs).await
    }

    async fn read(&mut self) -> Option<Value> {
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .unwrap_or_else(|_| panic!("no line from zot within {WAIT:?}; so far: {:#?}", self.log))
            .unwrap()?;
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
        self.log.push(v.clone());
        Some(v)
    }

    /// Writes one raw line.
    pub async fn send_raw(&mut self, line: &str) {
        let s = self.stdin.as_mut().expect("stdin open");
        s.write_all(line.as_bytes()).await.unwrap();
        s.write_all(b"\n").await.unwrap();
        s.flush().await.unwrap();
    }

    /// Writes raw bytes as they are (no newline added).
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        let s = self.stdin.as_mut().expect("stdin open");
        s.write_all(bytes).await.unwrap();
        s.flush().await.unwrap();
    }

    /// Sends a command with a fresh id and returns that id.
    pub async fn send(&mut self, mut cmd: Value) -> String {
        self.next_id += 1;
        let id = format!("r{}", self.next_id);
        cmd["id"] = json!(id);
        self.send_raw(&cmd.to_string()).await;
        id
    }

    /// Reads until a line matches; returns the lines from the cursor up to
    /// and including it, and moves the cursor past it.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Vec<Value> {
        loop {
            if let Some(i) = self.log[self.cursor..].iter().position(&pred) {
                let end = self.cursor + i + 1;
                let out = self.log[self.cursor..end].to_vec();
                self.cursor = end;
                return out;
            }
            if self.read().await.is_none() {
                panic!(
                    "zot closed stdout before the expected line; log: {:#?}",
                    self.log
                );
            }
        }
    }

    /// Waits for the response to `id` (other lines stay in the log).
    pub async fn response(&mut self, id: &str) -> Value {
        let what = format!("the answer to {id}");
        self.first_from(0, &what, |v| v["type"] == "response" && v["id"] == id)
            .await
    }

    /// Waits for the first line at or after `log[from]` that matches,
    /// without moving the cursor (for answers to lines that reuse an id).
    pub async fn find_from(&mut self, from: usize, pred: impl Fn(&Value) -> bool) -> Value {
        self.first_from(from, "the expected line", pred).await
    }

    /// The first line at or after `log[from]` matching `pred`, reading more
    /// as needed; panics naming `what` if zot closes stdout first.
    async fn first_from(
        &mut self,
        from: usize,
        what: &str,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let mut i = from;
        loop {
            if let Some(v) = self.log[i..].iter().find(|v| pred(v)) {
                return v.clone();
            }
            i = self.log.len();
            if self.read().await.is_none() {
                panic!("zot closed stdout before {what}; log: {:#?}", self.log);
            }
        }
    }

    /// Sends a command and waits for its response.
    pub async fn call(&mut self, cmd: Value) -> Value {
        let id = self.send(cmd).await;
        self.response(&id).await
    }

    /// Sends a prompt and returns every event up to its `done`.
    pub async fn prompt(&mut self, text: &str) -> Vec<Value> {
        self.send(json!({"type":"prompt","message":text})).await;
        self.until(|v| v["type"] == "done").await
    }

    /// Closes stdin and waits for the exit status.
    pub async fn close(mut self) -> std::process::ExitStatus {
        self.stdin.take();
        // Drain stdout so the process never blocks writing.
        while let Ok(Ok(Some(_))) = tokio::time::timeout(WAIT, self.lines.next_line()).await {}
        tokio::time::timeout(WAIT, self.child.wait())
            .await
            .expect("zot did not exit after stdin closed")
            .unwrap()
    }
}

/// The `type`s of some events, in order, leaving out the noisy ones.
pub fn types(evs: &[Value]) -> Vec<String> {
    evs.iter()
        .map(|v| v["type"].as_str().unwrap_or("?").to_owned())
        .filter(|t| t != "text_delta" && t != "ext_changed")
        .collect()
}

/// Every event of this type.
pub fn of<'a>(evs: &'a [Value], ty: &str) -> Vec<&'a Value> {
    evs.iter().filter(|v| v["type"] == ty).collect()
}
