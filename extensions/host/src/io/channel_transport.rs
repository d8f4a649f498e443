//! [`FrameSink`] / [`FrameSource`] over in-process channels, for the
//! transports that are not a child's pipes: a WebSocket (`ws_transport.rs`)
//! and an MCP server behind its translator (`mcp.rs`). A task on the other
//! side turns the channel into the real connection, so the supervisor,
//! the router and the pending table work on them unchanged.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::sync::mpsc;

use crate::io::codec::CodecError;
use crate::io::connection::{FrameSink, FrameSource, SendError, QUEUE_CAP_BYTES};

/// What the far side of a [`ChannelSource`] delivers: a line, or the reason
/// the connection broke (the end of the channel is a clean end).
pub(crate) type Incoming = Result<Vec<u8>, String>;

/// Frames in from a channel, one message per line.
pub(crate) struct ChannelSource {
    rx: mpsc::UnboundedReceiver<Incoming>,
    queue: VecDeque<Vec<u8>>,
    current: Vec<u8>,
}

impl ChannelSource {
    /// A source and the sender its far side writes lines into.
    pub fn new() -> (mpsc::UnboundedSender<Incoming>, Self) {
        let (tx, rx) = mpsc::unbounded_channel();
        (
            tx,
            ChannelSource {
                rx,
                queue: VecDeque::new(),
                current: Vec::new(),
            },
        )
    }
}

impl FrameSource for ChannelSource {
    fn poll_fill(&mut self, cx: &mut Context<'_>) -> Poll<Result<bool, CodecError>> {
        if !self.queue.is_empty() {
            return Poll::Ready(Ok(true));
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(Ok(line))) => {
                self.queue.push_back(line);
                // Take whatever else is already there in the same wake-up.
                while let Ok(Ok(more)) = self.rx.try_recv() {
                    self.queue.push_back(more);
                }
                Poll::Ready(Ok(true))
            }
            Poll::Ready(Some(Err(why))) => Poll::Ready(Err(CodecError::Transport(why))),
            Poll::Ready(None) => Poll::Ready(Ok(false)),
            Poll::Pending => Poll::Pending,
        }
    }

    fn take_line(&mut self) -> Option<&[u8]> {
        self.current = self.queue.pop_front()?;
        Some(&self.current)
    }
}

/// What a [`ChannelSink`]'s writer task receives.
pub(crate) enum Outgoing {
    /// One frame, without its newline.
    Frame(Vec<u8>),
    /// Write what is queued, then close the connection (`FrameSink::close`).
    Close,
}

/// Frames out into a channel a writer task drains; bounded by bytes like
/// the pipe sink's overflow queue, so a peer that stops reading costs at
/// most [`QUEUE_CAP_BYTES`].
pub(crate) struct ChannelSink {
    tx: mpsc::UnboundedSender<Outgoing>,
    queued: Arc<AtomicUsize>,
    closed: AtomicBool,
}

impl ChannelSink {
    /// A sink, the receiver its writer drains, and the byte counter the
    /// writer decrements as it writes.
    pub fn new() -> (
        Arc<Self>,
        mpsc::UnboundedReceiver<Outgoing>,
        Arc<AtomicUsize>,
    ) {
        let (tx, rx) = mpsc::unbounded_channel();
        let queued = Arc::new(AtomicUsize::new(0));
        (
            Arc::new(ChannelSink {
                tx,
                queued: queued.clone(),
                closed: AtomicBool::new(false),
            }),
            rx,
            queued,
        )
    }
}

impl FrameSink for ChannelSink {
    fn send(&self, line: &[u8]) -> Result<(), SendError> {
        if self.closed.load(Ordering::Acquire) {
            return Err(SendError::Closed);
        }
        let frame = line.strip_suffix(b"\n").unwrap_or(line).to_vec();
        let n = frame.len();
        if self.queued.load(Ordering::Acquire).saturating_add(n) > QUEUE_CAP_BYTES {
            return Err(SendError::Full);
        }
        self.queued.fetch_add(n, Ordering::AcqRel);
        self.tx
            .send(Outgoing::Frame(frame))
            .map_err(|_| SendError::Closed)
    }

    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        // The writer sees the end of the channel only when every sender is
        // gone; an explicit close tells it now.
        let _ = self.tx.send(Outgoing::Close);
    }

    /// No more frames, but the connection stays open until the peer closes
    /// it or [`FrameSink::close`]: a peer answering `shutdown` must still
    /// be able to send its `shutdown_ack` (closing at once made a
    /// WebSocket peer's ack fail).
    fn finish(&self) {
        self.closed.store(true, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::connection::fill;

    #[tokio::test]
    async fn lines_arrive_in_order_and_the_end_is_clean() {
        let (tx, mut src) = ChannelSource::new();
        tx.send(Ok(b"a".to_vec())).unwrap();
        tx.send(Ok(b"b".to_vec())).unwrap();
        drop(tx);
        assert!(fill(&mut src).await.unwrap());
        assert_eq!(src.take_line(), Some(&b"a"[..]));
        assert_eq!(src.take_line(), Some(&b"b"[..]));
        assert_eq!(src.take_line(), None);
        assert!(!fill(&mut src).await.unwrap());
    }

    #[tokio::test]
    async fn a_broken_connection_is_an_error_with_its_reason() {
        let (tx, mut src) = ChannelSource::new();
        tx.send(Err("HTTP 500".into())).unwrap();
        let e = fill(&mut src).await.unwrap_err();
        assert!(e.to_string().contains("HTTP 500"), "{e}");
    }

    #[tokio::test]
    async fn the_sink_strips_newlines_and_refuses_after_close() {
        let (sink, mut rx, _q) = ChannelSink::new();
        sink.send(b"{}\n").unwrap();
        match rx.recv().await {
            Some(Outgoing::Frame(f)) => assert_eq!(f, b"{}"),
            _ => panic!("expected a frame"),
        }
        sink.close();
        assert_eq!(sink.send(b"{}\n"), Err(SendError::Closed));
    }
}
