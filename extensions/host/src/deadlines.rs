//! Request timeouts without a timer per request.
//!
//! Every pending request carries its deadline. One sweeper task per host
//! sleeps until the earliest deadline it knows of and fails whatever is
//! overdue by then. A new request wakes the sweeper only when its deadline
//! comes before the one the sweeper is sleeping towards, which in a steady
//! stream of calls with the same timeout is never: registering and dropping
//! a tokio timer per request was about a tenth of the host's CPU time per
//! `tool_call` round trip.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::Notify;
use tokio::time::Instant;

use crate::error::HostError;
use crate::extension::Ext;
use crate::host::Inner;

/// What the sweeper is waiting for, shared by the host and its extensions.
#[derive(Default)]
pub(crate) struct Deadlines {
    /// When the sweeper looks next; `None` while it has nothing to watch.
    /// Held while the sweeper scans, so a request either lands before the
    /// scan (and is seen) or compares itself with the new target.
    target: Mutex<Option<Instant>>,
    wake: Notify,
    closed: AtomicBool,
}

impl Deadlines {
    /// Call once a request with `deadline` is in a pending map.
    pub fn watch(&self, deadline: Instant) {
        let target = self.target.lock().unwrap_or_else(|e| e.into_inner());
        if target.is_none_or(|t| deadline < t) {
            drop(target);
            self.wake.notify_one();
        }
    }

    /// Ends the sweeper (the host is gone).
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.wake.notify_one();
    }
}

/// The sweeper task: runs until [`Deadlines::close`] or the host is dropped.
pub(crate) async fn sweep(deadlines: Arc<Deadlines>, inner: Weak<Inner>) {
    while !deadlines.closed.load(Ordering::SeqCst) {
        let next = {
            let Some(inner) = inner.upgrade() else { return };
            let exts = inner.lock().exts.clone();
            let mut target = deadlines.target.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            let next = exts.iter().filter_map(|e| expire(e, now)).min();
            *target = next;
            next
        };
        match next {
            Some(at) => {
                tokio::select! {
                    _ = tokio::time::sleep_until(at) => {}
                    _ = deadlines.wake.notified() => {}
                }
            }
            None => deadlines.wake.notified().await,
        }
    }
}

/// Fails `ext`'s requests that are due by `now`; returns the earliest
/// deadline left.
fn expire(ext: &Ext, now: Instant) -> Option<Instant> {
    let (due, next) = {
        let mut p = ext.pending.lock().unwrap_or_else(|e| e.into_inner());
        let due: Vec<_> = p
            .map
            .extract_if(.., |_, r| r.deadline <= now)
            .map(|(_, r)| r)
            .collect();
        (due, p.map.values().map(|r| r.deadline).min())
    };
    for r in due {
        let secs = r.timeout.as_secs_f32();
        ext.log
            .line(&format!("{} timed out after {secs} s", r.during));
        let _ = r.tx.send(Err(HostError::Timeout {
            extension: ext.name.clone(),
            during: r.during.to_string(),
            secs: r.timeout.as_secs().max(1),
            log: ext.log_path(),
        }));
    }
    next
}
