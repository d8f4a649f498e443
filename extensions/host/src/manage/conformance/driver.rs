//! The conformance kit's connection to one extension: the process (started
//! as zot starts it, `launch.rs`; stderr to a log), its stdout lines
//! through a reader thread, and frames written to its stdin.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One line the extension wrote, parsed when it is JSON.
pub(crate) struct Line {
    pub raw: String,
    pub json: Option<Value>,
}

/// A running extension under test.
pub(crate) struct Driver {
    pub child: Child,
    pub pgid: i32,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// Every line so far, for the report.
    pub seen: Vec<String>,
    /// Its stdout closed: the connection is over, whether or not the OS
    /// has reaped the process yet.
    closed: bool,
    /// The dialogs the scripted user answered (`scripted_user.rs`).
    pub dialogs: super::scripted_user::Seen,
}

/// What waiting for a frame ended with.
pub(crate) enum Wait {
    Frame(Value),
    /// A line that is not JSON.
    Garbage(String),
    Timeout,
    /// stdout closed.
    Closed,
}

impl Driver {
    /// Starts what `launch::prepare` built (and gives a networked sandbox
    /// its network), its stderr into `log`.
    pub fn start(prepared: crate::io::launch::Prepared, log: &Path) -> Result<Driver, String> {
        if let Some(parent) = log.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        let stderr = std::fs::File::create(log).map_err(|e| e.to_string())?;
        let crate::io::launch::Prepared {
            mut cmd,
            passed,
            net,
            ..
        } = prepared;
        let spawned = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn();
        drop(passed);
        let mut child = spawned.map_err(|e| e.to_string())?;
        if let Some(net) = net {
            if let Err(e) = net.finish() {
                crate::io::process::signal_group(
                    i32::try_from(child.id()).unwrap_or(0),
                    libc::SIGKILL,
                );
                let _ = child.wait();
                return Err(e);
            }
        }
        let pgid = i32::try_from(child.id()).unwrap_or(0);
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| "no stdout pipe".to_owned())?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for raw in BufReader::new(stdout).lines().map_while(Result::ok) {
                let json = serde_json::from_str(&raw).ok();
                if tx.send(Line { raw, json }).is_err() {
                    break;
                }
            }
        });
        Ok(Driver {
            stdin: child.stdin.take(),
            child,
            pgid,
            lines: rx,
            seen: Vec::new(),
            closed: false,
            dialogs: Default::default(),
        })
    }

    /// Writes one frame; `false` when the pipe is closed.
    pub fn send(&mut self, frame: &Value) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        writeln!(stdin, "{frame}")
            .and_then(|()| stdin.flush())
            .is_ok()
    }

    /// The next non-blank line, within `timeout`.
    pub fn next(&mut self, timeout: Duration) -> Wait {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.raw.trim().is_empty() => continue,
                Ok(line) => {
                    self.seen.push(line.raw.clone());
                    return match line.json {
                        Some(v) => Wait::Frame(v),
                        None => Wait::Garbage(line.raw),
                    };
                }
                Err(RecvTimeoutError::Timeout) => return Wait::Timeout,
                Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    return Wait::Closed;
                }
            }
        }
    }

    /// Waits for a frame matching `want`, skipping others (notes, renders);
    /// garbage and the end of stdout stop the wait.
    pub fn until(&mut self, timeout: Duration, want: impl Fn(&Value) -> bool) -> Wait {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left) {
                Wait::Frame(f) if want(&f) => return Wait::Frame(f),
                // An extension may ask while it handles a request: the
                // scripted user answers at once, so the request goes on.
                Wait::Frame(f) if f.get("type").and_then(Value::as_str) == Some("ui_request") => {
                    let answer = super::scripted_user::answer(&f, &mut self.dialogs);
                    self.send(&answer);
                }
                Wait::Frame(_) => continue,
                other => return other,
            }
        }
    }

    /// Whether it is still connected and running.
    pub fn alive(&mut self) -> bool {
        !self.closed && matches!(self.child.try_wait(), Ok(None))
    }

    /// Whether the process has not exited yet (stdout may be closed).
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Whether any process of its group is left.
    pub fn group_alive(&self) -> bool {
        crate::io::process::group_alive(self.pgid)
    }

    /// Closes stdin, kills the group and reaps the child.
    pub fn kill(&mut self) {
        self.stdin.take();
        crate::io::process::signal_group(self.pgid, libc::SIGKILL);
        let _ = self.child.wait();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.kill();
    }
}
