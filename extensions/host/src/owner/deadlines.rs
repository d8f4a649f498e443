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

/// Something holding requests with deadlines (an extension's pending
/// table). The sweeper knows only this, not who owns it.
pub(crate) trait Expiring: Send + Sync {
    /// Fails whatever is due by `now`; returns the earliest deadline left.
    fn expire(&self, now: Instant) -> Option<Instant>;
}

/// What the sweeper is waiting for, shared by the host and its extensions.
#[derive(Default)]
pub(crate) struct Deadlines {
    /// When the sweeper looks next; `None` while it has nothing to watch.
    /// Held while the sweeper scans, so a request either lands before the
    /// scan (and is seen) or compares itself with the new target.
    target: Mutex<Option<Instant>>,
    wake: Notify,
    closed: AtomicBool,
    /// The tables it sweeps; one that is dropped is forgotten on the next
    /// sweep, so a reload leaves nothing behind.
    tables: Mutex<Vec<Weak<dyn Expiring>>>,
}

impl Deadlines {
    /// Sweeps `table` from now on, for as long as it lives.
    pub fn track(&self, table: Weak<dyn Expiring>) {
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(table);
    }

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

    /// The live tables, forgetting dropped ones.
    fn live(&self) -> Vec<Arc<dyn Expiring>> {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let mut live = Vec::with_capacity(tables.len());
        tables.retain(|w| match w.upgrade() {
            Some(t) => {
                live.push(t);
                true
            }
            None => false,
        });
        live
    }
}

/// The sweeper task: runs until [`Deadlines::close`].
pub(crate) async fn sweep(deadlines: Arc<Deadlines>) {
    while !deadlines.closed.load(Ordering::SeqCst) {
        let next = {
            let tables = deadlines.live();
            let mut target = deadlines.target.lock().unwrap_or_else(|e| e.into_inner());
            let now = Instant::now();
            let next = tables.iter().filter_map(|t| t.expire(now)).min();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A table with one deadline, which it forgets once expired.
    struct One(Mutex<Option<Instant>>, AtomicBool);

    impl Expiring for One {
        fn expire(&self, now: Instant) -> Option<Instant> {
            let mut d = self.0.lock().unwrap();
            if d.is_some_and(|t| t <= now) {
                *d = None;
                self.1.store(true, Ordering::SeqCst);
            }
            *d
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_watched_deadline_fails_when_due_and_dropped_tables_are_forgotten() {
        let d = Arc::new(Deadlines::default());
        let task = tokio::spawn(sweep(d.clone()));
        let due = Instant::now() + Duration::from_secs(5);
        let one = Arc::new(One(Mutex::new(Some(due)), AtomicBool::new(false)));
        let w: Weak<dyn Expiring> = Arc::downgrade(&one) as Weak<dyn Expiring>;
        d.track(w);
        d.watch(due);
        tokio::time::sleep(Duration::from_secs(4)).await;
        assert!(!one.1.load(Ordering::SeqCst), "not due yet");
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(one.1.load(Ordering::SeqCst), "expired once due");
        drop(one);
        assert!(d.live().is_empty());
        d.close();
        task.await.unwrap();
    }
}
