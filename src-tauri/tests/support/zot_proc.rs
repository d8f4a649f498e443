//! Drives the real `zot` binary over stdin/stdout (RPC, print and JSON
//! modes) with a temp `ZOT_HOME`, keeping every line it printed.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long any single expectation may wait (generous: the machine is noisy).
pub const WAIT: Duration = Duration::from_secs(30);

/// The binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_zot"))
}

/// A `zot` command with a clean environment for keys and a given home.
pub fn command(home: &Path, cwd: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(bin());
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
        .current_dir(cwd)
        .kill_on_drop(true);
    c
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
        let mut i = 0;
        loop {
            if let Some(v) = self.log[i..]
                .iter()
                .find(|v| v["type"] == "response" && v["id"] == id)
            {
                return v.clone();
            }
            i = self.log.len();
            if self.read().await.is_none() {
                panic!(
                    "zot closed stdout before answering {id}; log: {:#?}",
                    self.log
                );
            }
        }
    }

    /// Waits for the first line at or after `log[from]` that matches,
    /// without moving the cursor (for answers to lines that reuse an id).
    pub async fn find_from(&mut self, from: usize, pred: impl Fn(&Value) -> bool) -> Value {
        let mut i = from;
        loop {
            if let Some(v) = self.log[i..].iter().find(|v| pred(v)) {
                return v.clone();
            }
            i = self.log.len();
            if self.read().await.is_none() {
                panic!(
                    "zot closed stdout before the expected line; log: {:#?}",
                    self.log
                );
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

/// Every file under `dir`, recursively (none when it does not exist).
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}
