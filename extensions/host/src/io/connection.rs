//! The transport under an extension: lines in, lines out, close. Kept apart
//! from process supervision so another transport (a WebSocket, an MCP
//! server) can stand behind the same two traits.
//!
//! The pipe sink writes straight from the caller's task when the pipe has
//! room, so a request costs no hop to a writer thread; only when the pipe
//! is full do bytes wait in a bounded queue that a small writer task drains.
//! A write therefore never blocks the caller.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::unix::AsyncFd;
use tokio::io::AsyncRead;
use tokio::sync::Notify;

use crate::io::codec::{CodecError, LineReader};

/// Bytes that may wait for a slow reader beyond what the pipe holds.
pub const QUEUE_CAP_BYTES: usize = 8 * 1024 * 1024;

/// Why a frame was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SendError {
    /// The extension is not reading and its queue is full.
    #[error("queue full")]
    Full,
    /// The connection is closed.
    #[error("connection closed")]
    Closed,
}

/// Frames out: one complete line (with its newline) at a time, never
/// blocking.
pub trait FrameSink: Send + Sync + 'static {
    /// Sends or queues `line`; fails at once when it cannot.
    fn send(&self, line: &[u8]) -> Result<(), SendError>;
    /// Stops sending at once, dropping whatever is still queued.
    fn close(&self);
    /// Stops sending once what is queued has been written, so the peer reads
    /// every frame and then the end of its input (as after `shutdown`).
    fn finish(&self) {
        self.close();
    }
    /// The host no longer waits for request `id` (the agent aborted it).
    /// Only transports whose far side can cancel act on it (MCP's
    /// `notifications/cancelled`); the zot protocol has no such frame.
    fn cancel(&self, _id: &str) {}
}

/// Frames in: whole lines, bounded in length.
pub trait FrameSource: Send {
    /// Ready with `Ok(true)` once a whole line is buffered, `Ok(false)` at
    /// the end; keeps no state outside `self`, so waiting is cancel-safe.
    fn poll_fill(&mut self, cx: &mut Context<'_>) -> Poll<Result<bool, CodecError>>;
    /// The next buffered line, if any.
    fn take_line(&mut self) -> Option<&[u8]>;
}

impl<R: AsyncRead + Unpin + Send> FrameSource for LineReader<R> {
    fn poll_fill(&mut self, cx: &mut Context<'_>) -> Poll<Result<bool, CodecError>> {
        LineReader::poll_fill(self, cx)
    }
    fn take_line(&mut self) -> Option<&[u8]> {
        LineReader::take_line(self)
    }
}

/// Waits for the next line (or the end) of any source.
pub async fn fill(source: &mut dyn FrameSource) -> Result<bool, CodecError> {
    std::future::poll_fn(|cx| source.poll_fill(cx)).await
}

/// A non-blocking pipe (a child's stdin) with a bounded overflow queue.
pub struct PipeSink {
    /// The queue and the fd, under one lock so bytes never interleave.
    out: Mutex<Out>,
    /// Wakes the writer task when bytes are queued or the sink closes.
    wake: Notify,
}

struct Out {
    /// `None` once closed.
    fd: Option<Arc<AsyncFd<OwnedFd>>>,
    /// Bytes waiting for room in the pipe, from `off`.
    queue: Vec<u8>,
    /// How much of `queue` has been written.
    off: usize,
    /// `finish` was called: close once the queue is written.
    closing: bool,
}

impl Out {
    fn pending(&self) -> usize {
        self.queue.len() - self.off
    }

    /// Writes from the queue until it is empty or the pipe is full.
    fn drain(&mut self) -> io::Result<()> {
        let Some(fd) = self.fd.clone() else {
            return Err(io::ErrorKind::BrokenPipe.into());
        };
        while self.off < self.queue.len() {
            let n = write_some(fd.get_ref(), self.queue.get(self.off..).unwrap_or_default())?;
            self.off += n;
        }
        self.queue.clear();
        self.off = 0;
        Ok(())
    }
}

fn write_some(fd: &OwnedFd, bytes: &[u8]) -> io::Result<usize> {
    loop {
        // SAFETY: the fd is open for the lifetime of `fd`, and `bytes` is a
        // valid buffer of `bytes.len()` bytes.
        let n = unsafe { libc::write(fd.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
        if n >= 0 {
            return Ok(n.unsigned_abs());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

impl PipeSink {
    /// Wraps a pipe's write end and starts its writer task (call inside a
    /// tokio runtime).
    pub fn new(fd: OwnedFd) -> io::Result<Arc<Self>> {
        set_nonblocking(&fd)?;
        // SAFETY: `OwnedFd` keeps the descriptor open and unchanged for as
        // long as the `AsyncFd` owns it.
        let fd = unsafe { AsyncFd::register_with_interest(fd, tokio::io::Interest::WRITABLE) }
            .map_err(io::Error::other)?;
        let fd = Arc::new(fd);
        let sink = Arc::new(PipeSink {
            out: Mutex::new(Out {
                fd: Some(fd),
                queue: Vec::new(),
                off: 0,
                closing: false,
            }),
            wake: Notify::new(),
        });
        tokio::spawn(writer(sink.clone()));
        Ok(sink)
    }

    fn mark_closed(out: &mut Out) {
        out.fd = None;
        out.queue = Vec::new();
        out.off = 0;
    }
}

impl FrameSink for PipeSink {
    fn send(&self, line: &[u8]) -> Result<(), SendError> {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let Some(fd) = out.fd.clone().filter(|_| !out.closing) else {
            return Err(SendError::Closed);
        };
        if out.pending() > 0 {
            if out.pending() + line.len() > QUEUE_CAP_BYTES {
                return Err(SendError::Full);
            }
            out.queue.extend_from_slice(line);
            return Ok(());
        }
        let mut done = 0;
        while done < line.len() {
            match write_some(fd.get_ref(), line.get(done..).unwrap_or_default()) {
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    PipeSink::mark_closed(&mut out);
                    return Err(SendError::Closed);
                }
            }
        }
        if done < line.len() {
            out.queue
                .extend_from_slice(line.get(done..).unwrap_or_default());
            drop(out);
            self.wake.notify_one();
        }
        Ok(())
    }

    fn close(&self) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        PipeSink::mark_closed(&mut out);
        drop(out);
        self.wake.notify_one();
    }

    fn finish(&self) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        out.closing = true;
        if out.pending() == 0 {
            PipeSink::mark_closed(&mut out);
        }
        drop(out);
        // The writer closes it once the queue is written.
        self.wake.notify_one();
    }
}

/// Drains the overflow queue whenever the pipe has room again.
async fn writer(sink: Arc<PipeSink>) {
    loop {
        sink.wake.notified().await;
        loop {
            let fd = {
                let out = sink.out.lock().unwrap_or_else(|e| e.into_inner());
                match &out.fd {
                    None => return,
                    Some(_) if out.pending() == 0 && out.closing => {
                        drop(out);
                        sink.close();
                        return;
                    }
                    Some(_) if out.pending() == 0 => break,
                    Some(fd) => fd.clone(),
                }
            };
            let Ok(mut ready) = fd.writable().await else {
                sink.close();
                return;
            };
            let result = ready.try_io(|_| {
                let mut out = sink.out.lock().unwrap_or_else(|e| e.into_inner());
                out.drain()
            });
            match result {
                Ok(Ok(())) => {}
                Ok(Err(_)) => {
                    sink.close();
                    return;
                }
                // Would block: readiness was cleared, wait again.
                Err(_) => {}
            }
        }
    }
}

fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    // SAFETY: plain fcntl calls on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
