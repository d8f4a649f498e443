//! The prompt queue: the one owner of what "busy" means. Prompts wait here
//! for the worker, in order; an abort drops the ones queued before it and
//! cancels the running one; a compaction counts as a running prompt while
//! it holds the transcript. Waiters (`idle`) are woken when the count of
//! queued and running work reaches zero, never by polling.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use crate::agent::PromptFrom;
use crate::providers::transcript::Block;

/// A prompt waiting for the worker.
pub(super) struct Queued {
    /// The user message.
    pub(super) content: Vec<Block>,
    /// The extension that sent it, when one did.
    pub(super) from: Option<PromptFrom>,
    /// The abort generation it was queued in; an abort drops older ones.
    epoch: u64,
}

/// The queue's counters and the running prompt's cancel token.
pub(super) struct PromptQueue {
    /// Prompts for the worker.
    tx: mpsc::UnboundedSender<Queued>,
    /// Bumped by each abort, so prompts queued before it are dropped.
    epoch: AtomicU64,
    /// Prompts queued or running, plus a running compaction; a watch so
    /// `idle` sleeps until it reaches zero.
    pending: watch::Sender<usize>,
    /// Prompts that ran and sent their `done` (RPC mode waits for the
    /// client to have seen that many before it exits at end of input).
    finished: AtomicU64,
    /// Fires to abort the running prompt (or compaction).
    cancel: Mutex<CancellationToken>,
}

impl PromptQueue {
    /// An empty queue, and the end the worker reads.
    pub(super) fn new() -> (PromptQueue, mpsc::UnboundedReceiver<Queued>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let queue = PromptQueue {
            tx,
            epoch: AtomicU64::new(0),
            pending: watch::Sender::new(0),
            finished: AtomicU64::new(0),
            cancel: Mutex::new(CancellationToken::new()),
        };
        (queue, rx)
    }

    /// Queues a prompt behind any running one.
    pub(super) fn push(&self, content: Vec<Block>, from: Option<PromptFrom>) {
        self.add(1);
        let epoch = self.epoch.load(Ordering::SeqCst);
        if self
            .tx
            .send(Queued {
                content,
                from,
                epoch,
            })
            .is_err()
        {
            // The worker is gone (the backend is shutting down).
            self.add(-1);
        }
    }

    /// Drops every queued prompt and cancels the running one; returns
    /// whether anything was queued or running.
    pub(super) fn abort(&self) -> bool {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.token().cancel();
        self.busy()
    }

    /// Whether a prompt is queued or running (or a compaction runs).
    pub(super) fn busy(&self) -> bool {
        *self.pending.borrow() > 0
    }

    /// Waits until nothing is queued or running.
    pub(super) async fn idle(&self) {
        let mut rx = self.pending.subscribe();
        // The sender lives as long as `self`, so this cannot fail.
        let _ = rx.wait_for(|n| *n == 0).await;
    }

    /// How many prompts have run to their `done` so far.
    pub(super) fn finished(&self) -> u64 {
        self.finished.load(Ordering::SeqCst)
    }

    /// The worker took `q`: its cancel token when it is still to run, or
    /// `None` (and it no longer counts) when an abort came after it was
    /// queued.
    pub(super) fn start(&self, q: &Queued) -> Option<CancellationToken> {
        if q.epoch == self.epoch.load(Ordering::SeqCst) {
            let token = CancellationToken::new();
            *self.cancel.lock().unwrap_or_else(|e| e.into_inner()) = token.clone();
            // An abort that raced the dequeue still wins.
            if q.epoch == self.epoch.load(Ordering::SeqCst) {
                return Some(token);
            }
        }
        self.add(-1);
        None
    }

    /// A started prompt ended. Counted as finished before it stops
    /// counting as busy, so whoever wakes from `idle` reads `finished`
    /// with it included; both before the caller sends `done`, so a
    /// `get_state` sent on seeing it says `busy: false`.
    pub(super) fn end(&self) {
        self.finished.fetch_add(1, Ordering::SeqCst);
        self.add(-1);
    }

    /// Counts a compaction as running work until the guard drops, with its
    /// own cancel token (which `abort` fires).
    pub(super) fn hold(&self) -> (Held<'_>, CancellationToken) {
        self.add(1);
        let token = CancellationToken::new();
        *self.cancel.lock().unwrap_or_else(|e| e.into_inner()) = token.clone();
        (Held(self), token)
    }

    fn token(&self) -> CancellationToken {
        self.cancel
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn add(&self, delta: isize) {
        self.pending
            .send_modify(|n| *n = n.saturating_add_signed(delta));
    }
}

/// Running work that is not a queued prompt; it stops counting when dropped.
pub(super) struct Held<'a>(&'a PromptQueue);

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.0.add(-1);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn text(t: &str) -> Vec<Block> {
        vec![Block::text(t)]
    }

    #[tokio::test]
    async fn prompts_run_in_order_and_idle_wakes_when_the_last_ends() {
        let (q, mut rx) = PromptQueue::new();
        let q = Arc::new(q);
        assert!(!q.busy());
        q.idle().await; // nothing queued: returns at once
        q.push(text("one"), None);
        q.push(text("two"), None);
        assert!(q.busy());
        let waiter = tokio::spawn({
            let q = q.clone();
            async move {
                q.idle().await;
                q.finished()
            }
        });
        let first = rx.recv().await.unwrap();
        assert_eq!(first.content, text("one"));
        assert!(q.start(&first).is_some());
        q.end();
        assert!(q.busy(), "the second prompt is still queued");
        let second = rx.recv().await.unwrap();
        assert_eq!(second.content, text("two"));
        assert!(q.start(&second).is_some());
        q.end();
        // Woken by the last end, with both prompts counted as finished.
        assert_eq!(waiter.await.unwrap(), 2);
        assert!(!q.busy());
    }

    #[tokio::test]
    async fn an_abort_cancels_the_running_prompt_and_drops_the_queued_ones() {
        let (q, mut rx) = PromptQueue::new();
        q.push(text("running"), None);
        q.push(text("queued"), None);
        let running = rx.recv().await.unwrap();
        let token = q.start(&running).unwrap();
        assert!(q.abort(), "something was running");
        assert!(token.is_cancelled());
        q.end();
        let queued = rx.recv().await.unwrap();
        assert!(q.start(&queued).is_none(), "queued before the abort");
        assert!(!q.busy());
        assert_eq!(q.finished(), 1);
        q.idle().await;
        assert!(!q.abort(), "nothing was running");
        // A prompt queued after the abort runs, with a fresh token.
        q.push(text("after"), None);
        let after = rx.recv().await.unwrap();
        assert!(q.start(&after).is_some_and(|t| !t.is_cancelled()));
    }

    #[tokio::test]
    async fn a_compaction_is_busy_until_it_ends_and_an_abort_cancels_it() {
        let (q, _rx) = PromptQueue::new();
        let (held, token) = q.hold();
        assert!(q.busy());
        assert!(q.abort());
        assert!(token.is_cancelled());
        drop(held);
        assert!(!q.busy());
        q.idle().await;
    }
}
