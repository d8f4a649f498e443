//! Drives an SDK extension over its real pipes: a spawned process, frames
//! written to its stdin, every stdout line parsed as a frame (a line that is
//! not JSON fails the test: stdout must carry frames only).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

/// A running extension process.
pub struct Ext {
    pub child: Child,
    stdin: ChildStdin,
    frames: Receiver<Result<Value, String>>,
}

/// The path of a cargo example of this crate (built by `cargo test`).
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let path = dir.join("examples").join(name);
    assert!(
        path.exists(),
        "{} is missing: run `cargo test -p zot-ext` so cargo builds the examples",
        path.display()
    );
    path
}

/// The kitchen-sink example, spawned and past its handshake (cwd `/proj`).
#[allow(dead_code)]
pub fn started() -> Ext {
    let (mut ext, _log) = Ext::spawn(example("kitchen_sink"));
    ext.handshake("/proj");
    ext
}

impl Ext {
    /// Spawns `program` with stdin/stdout piped and stderr captured to a file.
    pub fn spawn(program: PathBuf) -> (Ext, PathBuf) {
        let log = std::env::temp_dir().join(format!(
            "zot-ext-test-{}-{}.log",
            std::process::id(),
            rand_suffix()
        ));
        let child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("spawn extension");
        Self::from_child(child, log)
    }

    pub fn from_child(mut child: Child, log: PathBuf) -> (Ext, PathBuf) {
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, frames) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let parsed = serde_json::from_str::<Value>(&line).map_err(|_| line.clone());
                if tx.send(parsed).is_err() {
                    break;
                }
            }
        });
        (
            Ext {
                child,
                stdin,
                frames,
            },
            log,
        )
    }

    /// Writes one raw line.
    pub fn send_raw(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Writes one frame.
    pub fn send(&mut self, frame: Value) {
        self.send_raw(&frame.to_string());
    }

    /// The next frame; panics after 20 s or on a non-JSON stdout line.
    pub fn recv(&mut self) -> Value {
        match self.frames.recv_timeout(Duration::from_secs(20)) {
            Ok(Ok(v)) => v,
            Ok(Err(line)) => panic!("extension wrote a non-frame line to stdout: {line:?}"),
            Err(e) => panic!("no frame from the extension: {e}"),
        }
    }

    /// Whether stdout closed (the process ended) within 10 s.
    pub fn closed(&mut self) -> bool {
        loop {
            match self.frames.recv_timeout(Duration::from_secs(10)) {
                Ok(_) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return true,
                Err(_) => return false,
            }
        }
    }

    /// hello → hello_ack → registrations until ready; returns (hello, registrations).
    pub fn handshake(&mut self, cwd: &str) -> (Value, Vec<Value>) {
        self.handshake_with(cwd, json!({}))
    }

    /// [`Ext::handshake`] with `hello_ack.config`.
    pub fn handshake_with(&mut self, cwd: &str, config: Value) -> (Value, Vec<Value>) {
        self.handshake_full(cwd, config, Value::Null)
    }

    /// [`Ext::handshake`] with `hello_ack.config` and `hello_ack.state`
    /// (none when `null`, as an older zot sends it).
    pub fn handshake_full(
        &mut self,
        cwd: &str,
        config: Value,
        state: Value,
    ) -> (Value, Vec<Value>) {
        let hello = self.recv();
        assert_eq!(hello["type"], "hello", "first frame must be hello");
        let mut ack = json!({"type":"hello_ack","protocol_version":1,"zot_version":"0.1.0",
            "provider":"test","model":"m","cwd":cwd,"extension_dir":"/tmp","data_dir":"/tmp",
            "config":config});
        if !state.is_null() {
            ack["state"] = state;
        }
        self.send(ack);
        let mut regs = Vec::new();
        loop {
            let f = self.recv();
            if f["type"] == "ready" {
                return (hello, regs);
            }
            regs.push(f);
        }
    }
}

impl Drop for Ext {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}
