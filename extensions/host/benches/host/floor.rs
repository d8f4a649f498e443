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

    /// The same pipes driven through tokio (non-blocking, readiness from
    /// epoll) with no host logic: what the runtime alone costs per trip.
    pub fn into_async(self) -> AsyncChild {
        AsyncChild {
            tx: tokio::net::unix::pipe::Sender::from_owned_fd(self.stdin.into()).unwrap(),
            rx: tokio::net::unix::pipe::Receiver::from_owned_fd(self.stdout.into_inner().into())
                .unwrap(),
            child: self.child,
            buf: vec![0; 4096],
        }
    }

    pub fn finish(mut self) {
        drop(self.stdin);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A handshaken child whose pipes tokio drives.
pub struct AsyncChild {
    child: Child,
    tx: tokio::net::unix::pipe::Sender,
    rx: tokio::net::unix::pipe::Receiver,
    buf: Vec<u8>,
}

impl AsyncChild {
    /// One request line out, one line back (the replies fit one read).
    pub async fn round_trip(&mut self, frame: &[u8]) {
        let mut sent = 0;
        while sent < frame.len() {
            self.tx.writable().await.unwrap();
            match self.tx.try_write(&frame[sent..]) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("{e}"),
            }
        }
        loop {
            self.rx.readable().await.unwrap();
            match self.rx.try_read(&mut self.buf) {
                Ok(n) if self.buf[..n].ends_with(b"\n") => return,
                Ok(0) => panic!("bench child closed its stdout"),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("{e}"),
            }
        }
    }

    pub fn finish(mut self) {
        drop(self.tx);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
