//! Activation on first use (docs/host.md "Activation on first use"): an
//! extension whose manifest says `"activation": "on_use"` is listed `idle`
//! with the commands and tools it declares in `contributes`, and the first
//! call of one of them spawns it here, waits for `ready` and lets the call
//! through. Concurrent first uses share one spawn (the gate below); a
//! failed spawn fails the call with the extension's error and log. Between
//! runs it rests idle (`ExtMut::rest`, applied by the supervisor after a
//! failure within its restart budget or an `idle_stop_after` stop).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use zot_ext_protocol::rpc::ExtState;

use crate::error::HostError;
use crate::owner::state::Shared;
use crate::records::extension::{Ext, ExtRuntime};
use crate::records::uses::InUse;
use crate::run::supervisor;

/// Makes sure `ext` runs before a call is delivered to it: an idle one is
/// spawned (once, however many callers arrive together) and awaited until
/// its start settles; one that `idle_stop_after` is stopping is awaited
/// until it is idle, then started again. Running extensions pass straight
/// through. The call counts as a use (`uses.rs`) from here until the
/// returned guard drops, so the idle timer never stops an extension
/// between its start and the call it was started for. An error says why
/// the call cannot be delivered.
pub(crate) async fn ensure_running<'a>(
    inner: &Arc<Shared>,
    ext: &'a Arc<Ext>,
) -> Result<InUse<'a>, HostError> {
    let in_use = ext.uses.begin();
    loop {
        let step = {
            // The gate makes "idle → loading" one step: the second caller
            // sees `loading` and waits on the run the first one started.
            let _gate = inner
                .activation_gate
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            match ext.state() {
                ExtState::Idle => Step::Settle(start(inner, ext)?),
                // Another first use is starting it: wait for that start.
                ExtState::Loading if ext.on_use() => Step::Settle(ext.run()),
                ExtState::Ready if ext.run().idle_stop.load(Ordering::Acquire) => {
                    Step::Stopping(ext.run())
                }
                _ => return Ok(in_use),
            }
        };
        match step {
            Step::Settle(run) => {
                let mut settled = run.settled.subscribe();
                let _ = settled.wait_for(|s| *s).await;
                settle(inner, ext)?;
                compare(inner, ext);
                return Ok(in_use);
            }
            Step::Stopping(run) => {
                let mut done = run.done.subscribe();
                let _ = done.wait_for(|d| *d).await;
            }
        }
    }
}

/// What a use waits for before it looks again.
enum Step {
    /// This start (its own or another caller's) to settle.
    Settle(Arc<ExtRuntime>),
    /// This run's idle stop to finish.
    Stopping(Arc<ExtRuntime>),
}

/// Starts an idle `ext` for a first use (the caller holds the gate).
fn start(inner: &Arc<Shared>, ext: &Arc<Ext>) -> Result<Arc<ExtRuntime>, HostError> {
    if inner.closing.load(Ordering::Acquire) {
        return Err(HostError::NotStartable {
            extension: ext.name.clone(),
            reason: "zot is shutting down, so it was not started for this call".into(),
        });
    }
    if ext.target.is_none() {
        return Err(HostError::NotStartable {
            extension: ext.name.clone(),
            reason: "it has no executable to start".into(),
        });
    }
    ext.log.line("first use: starting (activation on_use)");
    Ok(supervisor::relaunch(inner, ext))
}

/// After a first-use start settled: ready, or the call's error. A failed
/// start has already been put back to `idle` (or left down once its
/// budget is spent) by the supervisor, its error kept.
fn settle(inner: &Shared, ext: &Ext) -> Result<(), HostError> {
    let (state, error) = {
        let m = ext.lock();
        (m.state, m.error.clone())
    };
    if state != Some(ExtState::Ready) && inner.closing.load(Ordering::Acquire) {
        return Err(HostError::NotStartable {
            extension: ext.name.clone(),
            reason: "zot is shutting down; it was stopped while it started for this call".into(),
        });
    }
    if state != Some(ExtState::Ready) {
        let log = ext.log.path().display().to_string();
        return Err(HostError::NotStartable {
            extension: ext.name.clone(),
            reason: format!(
                "it was started for its first use and did not become ready: {}; see {log}",
                error.unwrap_or_else(|| "no error was recorded".into())
            ),
        });
    }
    Ok(())
}

/// What it really registered replaces what it declared; a difference is
/// an author's bug, reported in its log and in doctor.
fn compare(inner: &Shared, ext: &Ext) {
    let c = ext.declared();
    let mut diffs = Vec::new();
    {
        let m = ext.lock();
        let names = |v: Vec<&str>| {
            let mut v: Vec<String> = v.into_iter().map(str::to_owned).collect();
            v.sort();
            v
        };
        let want_c = names(c.commands.iter().map(|x| x.name.as_str()).collect());
        let got_c = names(m.commands.iter().map(|x| x.name.as_str()).collect());
        let want_t = names(c.tools.iter().map(|x| x.name.as_str()).collect());
        let got_t = names(m.tools.iter().map(|x| x.name.as_str()).collect());
        for (kind, want, got) in [("commands", want_c, got_c), ("tools", want_t, got_t)] {
            let missing: Vec<&String> = want.iter().filter(|n| !got.contains(n)).collect();
            let extra: Vec<&String> = got.iter().filter(|n| !want.contains(n)).collect();
            if !missing.is_empty() || !extra.is_empty() {
                diffs.push(format!(
                    "its registered {kind} differ from contributes.{kind} in extension.json (declared but not registered: {missing:?}; registered but not declared: {extra:?}); the registered ones are used: update contributes"
                ));
            }
        }
    }
    if diffs.is_empty() {
        return;
    }
    let _st = inner.lock();
    let mut m = ext.lock();
    // Once per difference, however many first uses waited on the start.
    for d in diffs {
        if !m.warnings.contains(&d) {
            ext.log.line(&d);
            m.warn(d);
        }
    }
}
