//! `idle_stop_after` (docs/host.md "Activation on first use"): an `on_use`
//! extension with no open panel and no call in flight for that many
//! seconds is stopped the normal way (`shutdown`, SIGTERM, SIGKILL) and
//! rests `idle` again, so its next use starts it as a first use.
//!
//! One timer task per run, started when the run becomes ready. It counts
//! from the last moment the extension fell quiet ([`Uses::touch`]: its
//! last call finished, a panel of it closed); when the count runs out
//! while it is busy, it waits for the next quiet moment and counts again.
//!
//! [`Uses::touch`]: crate::records::uses::Uses::touch

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::{sleep_until, Instant};
use zot_ext_protocol::rpc::ExtState;

use crate::owner::state::Shared;
use crate::records::extension::{Ext, ExtRuntime};

/// Starts the idle timer of `ext`'s current run, if it is an `on_use`
/// extension with `idle_stop_after`.
pub(crate) fn watch(inner: &Arc<Shared>, ext: &Arc<Ext>) {
    let Some(after) = idle_stop_after(ext) else {
        return;
    };
    let (inner, ext, run) = (inner.clone(), ext.clone(), ext.run());
    tokio::spawn(async move { idle_timer(&inner, &ext, &run, after).await });
}

/// Its `idle_stop_after`, when it is started on first use (an eager
/// extension has nothing to return to: `activation_check.rs` refuses the
/// pair).
fn idle_stop_after(ext: &Ext) -> Option<Duration> {
    if !ext.on_use() {
        return None;
    }
    ext.manifest
        .as_ref()?
        .idle_stop_after
        .map(Duration::from_secs)
}

/// When a count of `after` from `now` runs out; `None` when that is past
/// what the clock can hold (a huge `idle_stop_after` means "never").
fn deadline(now: Instant, after: Duration) -> Option<Instant> {
    now.checked_add(after)
}

/// What [`try_stop`] found.
enum Found {
    /// A call is in flight or a panel is open: count again once it is quiet.
    Busy,
    /// Stopped now, or there is nothing left to stop (this run ended, is
    /// stopping, or is no longer current).
    Done,
}

async fn idle_timer(inner: &Arc<Shared>, ext: &Arc<Ext>, run: &Arc<ExtRuntime>, after: Duration) {
    let mut quiet = ext.uses.subscribe();
    let mut stop = run.stop.subscribe();
    let mut done = run.done.subscribe();
    loop {
        let end = deadline(Instant::now(), after);
        let count = async {
            match end {
                Some(end) => sleep_until(end).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = count => {}
            r = quiet.changed() => {
                if r.is_err() {
                    return;
                }
                continue;
            }
            _ = stop.wait_for(|s| *s) => return,
            _ = done.wait_for(|d| *d) => return,
        }
        match try_stop(inner, ext, run, after) {
            Found::Done => return,
            Found::Busy => tokio::select! {
                r = quiet.changed() => if r.is_err() { return },
                _ = stop.wait_for(|s| *s) => return,
                _ = done.wait_for(|d| *d) => return,
            },
        }
    }
}

/// Stops `run` of `ext` unless it is in use. Under the activation gate, so
/// a first use either counts as a call before this looks (and keeps it
/// running) or finds the run marked as stopping (and waits for the stop,
/// then starts it again: `on_use::ensure_running`).
fn try_stop(inner: &Shared, ext: &Ext, run: &Arc<ExtRuntime>, after: Duration) -> Found {
    let _gate = inner
        .activation_gate
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if !Arc::ptr_eq(&ext.run(), run) || ext.state() != ExtState::Ready || *run.stop.borrow() {
        return Found::Done;
    }
    if ext.uses.busy() || inner.lock().panels.has_any_of(ext.id) {
        return Found::Busy;
    }
    run.idle_stop.store(true, Ordering::Release);
    ext.log.line(&format!(
        "unused for {} s (idle_stop_after): stopping; its next use starts it again",
        after.as_secs()
    ));
    run.stop.send_replace(true);
    Found::Done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_idle_stop_after_never_runs_out_rather_than_overflowing() {
        let now = Instant::now();
        assert_eq!(deadline(now, Duration::from_secs(u64::MAX)), None);
        assert_eq!(
            deadline(now, Duration::from_secs(30)),
            Some(now + Duration::from_secs(30))
        );
    }
}
