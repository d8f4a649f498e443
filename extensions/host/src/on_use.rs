//! Activation on first use (docs/host.md "Activation on first use"): an
//! extension whose manifest says `"activation": "on_use"` is listed `idle`
//! with the commands and tools it declares in `contributes`, and the first
//! call of one of them spawns it here, waits for `ready` and lets the call
//! through. Concurrent first uses share one spawn (the gate below); a
//! failed spawn fails the call with the extension's error and log.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::Contributes;

use crate::error::HostError;
use crate::extension::{Ext, ExtMut};
use crate::state::Shared;
use crate::supervisor;

/// What `ext`'s manifest declares (empty when it declares nothing).
pub(crate) fn declared(ext: &Ext) -> Contributes {
    ext.manifest
        .as_ref()
        .and_then(|m| m.contributes.clone())
        .unwrap_or_default()
}

/// Puts an idle extension's declared names where the registry rebuild
/// reads them.
pub(crate) fn seed(ext: &Ext, m: &mut ExtMut) {
    let c = declared(ext);
    m.commands = c.commands;
    m.tools = c.tools;
}

/// Makes sure `ext` runs before a call is delivered to it: an idle one is
/// spawned (once, however many callers arrive together) and awaited until
/// its start settles. Running extensions pass straight through; an error
/// says why the call cannot be delivered.
pub(crate) async fn ensure_running(inner: &Arc<Shared>, ext: &Arc<Ext>) -> Result<(), HostError> {
    let run = {
        // The gate makes "idle → loading" one step: the second caller sees
        // `loading` and waits on the run the first one started.
        let _gate = inner
            .activation_gate
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match ext.state() {
            ExtState::Idle => {}
            // Another first use is starting it: wait for that start.
            ExtState::Loading if declared_on_use(ext) => {
                let run = ext.run();
                drop(_gate);
                let mut settled = run.settled.subscribe();
                let _ = settled.wait_for(|s| *s).await;
                return settle(inner, ext, &run);
            }
            _ => return Ok(()),
        }
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
        supervisor::relaunch(inner, ext)
    };
    let mut settled = run.settled.subscribe();
    let _ = settled.wait_for(|s| *s).await;
    settle(inner, ext, &run)
}

/// Whether `ext` is started on first use.
fn declared_on_use(ext: &Ext) -> bool {
    ext.manifest
        .as_ref()
        .is_some_and(|m| m.activation == zot_ext_protocol::Activation::OnUse)
}

/// After a first-use start settled: ready, or the call's error.
fn settle(
    inner: &Shared,
    ext: &Ext,
    run: &Arc<crate::extension::ExtRuntime>,
) -> Result<(), HostError> {
    let (state, error) = {
        let m = ext.lock();
        (m.state, m.error.clone())
    };
    if state != Some(ExtState::Ready) {
        back_to_idle(inner, ext, run);
        let log = ext.log.path().display().to_string();
        return Err(HostError::NotStartable {
            extension: ext.name.clone(),
            reason: format!(
                "it was started for its first use and did not become ready: {}; see {log}",
                error.unwrap_or_else(|| "no error was recorded".into())
            ),
        });
    }
    compare(inner, ext);
    Ok(())
}

/// A start for a first use failed: the extension is idle again (its error
/// kept for the list and doctor), so its names stay listed and the next
/// use tries again. Only if `run` is still its run: a later first use may
/// already have started another.
fn back_to_idle(inner: &Shared, ext: &Ext, run: &Arc<crate::extension::ExtRuntime>) {
    let _gate = inner
        .activation_gate
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if !Arc::ptr_eq(&ext.run(), run) || ext.state() != ExtState::Failed {
        return;
    }
    inner.update(ext, |m| {
        m.state = Some(ExtState::Idle);
        seed(ext, m);
    });
    inner.changed();
}

/// What it really registered replaces what it declared; a difference is
/// an author's bug, reported in its log and in doctor.
fn compare(inner: &Shared, ext: &Ext) {
    let c = declared(ext);
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
    for d in diffs {
        ext.log.line(&d);
        m.warn(d);
    }
}
