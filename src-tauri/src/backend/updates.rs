//! `ext_update` and `ext_rollback` (docs/rpc.md "Extension updates and
//! bundles"): the host's update and rollback, run on a blocking thread,
//! followed by a reload so the new copy (or the old one) runs at once. A
//! widening is never accepted here: such an update is installed and stays
//! `failed` until the user accepts it (the manager's review card, or
//! `zot ext accept`). `daily` is the background check Settings turns on
//! (`update_check.rs` in the host keeps it to once a day).

use zot_ext_host::install::{Cancel, Hooks};
use zot_ext_host::{rollback, update, update_check};
use zot_ext_protocol::RpcError;
use zot_ext_protocol::{ExtRollbackResult, ExtUpdateResult};

use super::Backend;

/// `ext_update{name?, check?}`.
pub(super) async fn ext_update(
    b: &Backend,
    name: Option<String>,
    check: bool,
) -> Result<ExtUpdateResult, RpcError> {
    let zot_home = b.inner.opts.zot_home.clone();
    let all = name.is_none();
    let updates = tokio::task::spawn_blocking(move || {
        let names = match name {
            Some(n) => vec![n],
            None => update::updatable(&zot_home),
        };
        let mut out = Vec::new();
        let mut errors = Vec::new();
        for n in names {
            let r = if check {
                update::check(&zot_home, &n)
            } else {
                // Whatever the daily check remembered of it is stale now.
                update_check::forget(&zot_home, &n);
                let hooks = Hooks {
                    progress: &mut |_| {},
                    approve_more: &mut |_| false,
                };
                update::update(&zot_home, &n, &Cancel::new(), hooks).map(|o| o.map(|(i, _)| i))
            };
            match r {
                Ok(Some(info)) => out.push(info),
                Ok(None) => {}
                Err(e) => errors.push(e.to_string()),
            }
        }
        // One extension asked for: its error is the answer. All of them:
        // the others still update, and the errors are the answer only
        // when nothing could be done.
        if !errors.is_empty() && (!all || out.is_empty()) {
            return Err(errors.join("; "));
        }
        Ok(out)
    })
    .await
    .map_err(|e| format!("ext_update: {e}"))?
    .map_err(|e| format!("ext_update: {e}"))?;
    if !check && !updates.is_empty() {
        let _ = b.inner.host.reload().await;
    }
    Ok(ExtUpdateResult {
        updates,
        checked_at: None,
    })
}

/// `ext_update{daily}`: the background check, at most once a day and
/// only when Settings turned it on; between checks, what the last found.
/// A source that cannot be reached is skipped (a background check has
/// nobody to tell; the manager's own "Check for updates" says why).
pub(super) async fn daily_check(b: &Backend) -> Result<ExtUpdateResult, RpcError> {
    let zot_home = b.inner.opts.zot_home.clone();
    if !crate::config::update_check(&zot_home) {
        return Err(RpcError::denied(
            "ext_update: the daily update check is off; turn it on in Settings (`update_check` in config.json)",
        ));
    }
    let d = tokio::task::spawn_blocking(move || {
        update_check::daily(&zot_home, std::time::SystemTime::now(), || {
            update::updatable(&zot_home)
                .iter()
                .filter_map(|n| update::check(&zot_home, n).ok().flatten())
                .collect()
        })
    })
    .await
    .map_err(|e| format!("ext_update: {e}"))?;
    Ok(ExtUpdateResult {
        updates: d.updates,
        checked_at: Some(d.checked_at),
    })
}

/// `ext_rollback{name}`.
pub(super) async fn ext_rollback(b: &Backend, name: String) -> Result<ExtRollbackResult, RpcError> {
    let zot_home = b.inner.opts.zot_home.clone();
    let done = tokio::task::spawn_blocking(move || {
        update_check::forget(&zot_home, &name);
        rollback::rollback(&zot_home, &name)
    })
    .await
    .map_err(|e| format!("ext_rollback: {e}"))?
    .map_err(|e| format!("ext_rollback: {e}"))?;
    let _ = b.inner.host.reload().await;
    Ok(ExtRollbackResult {
        name: done.name,
        from: done.from,
        to: done.to,
    })
}
