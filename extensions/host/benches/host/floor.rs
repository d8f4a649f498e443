//! The floor: the same child programs driven by a raw blocking loop over
//! their pipes, with no host logic at all.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// A child spawned and handshaken by hand.
pub struct RawChild {
    pub child: Child,
    pub stdin: ChildStdin,
    pub stdout: BufReader<ChildStdout>,
    pub line: String,
}

/// Spawns without handshaking.
pub fn spawn(exec: &Path, args: &[String]) -> RawChild {
    let mut child = Command::new(exec)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn bench child");
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    RawChild {
        child,
        stdin,
        stdout,
        line: String::new(),
    }
}

impl RawChild {
    /// hello → hello_ack → lines until ready.
    pub fn handshake(&mut self) {
        self.read();
        assert!(self.line.contains("\"hello\""), "{}", self.line);
        self.stdin
            .write_all(b"{\"type\":\"hello_ack\",\"protocol_version\":1,\"zot_version\":\"b\",\"provider\":\"p\",\"model\":\"m\",\"cwd\":\"/\",\"extension_dir\":\"/\",\"data_dir\":\"/\"}\n")
            .unwrap();
        self.stdin.flush().unwrap();
        loop {
            self.read();
            if self.line.contains("\"ready\"") {
                return;
            }
        }
    }

    pub fn read(&mut self) -> &str {
        self.line.clear();
        self.stdout.read_line(&mut self.line).unwrap();
        &self.line
    }

    /// One request line out, one line back.
    pub fn round_trip(&mut self, frame: &[u8]) {
        self.stdin.write_all(frame).unwrap();
        self.read();
    }

    pub fn finish(mut self) {
        drop(self.stdin);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
