//! `ext_update` and `ext_rollback` (docs/rpc.md "Extension updates and
//! bundles"): the host's update and rollback, run on a blocking thread,
//! followed by a reload so the new copy (or the old one) runs at once. A
//! widening is never accepted here: such an update is installed and stays
//! `failed` until the user accepts it (the manager's review card, or
//! `zot ext accept`).

use zot_ext_host::install::{Cancel, Hooks};
use zot_ext_host::{rollback, update};
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
    Ok(ExtUpdateResult { updates })
}

/// `ext_rollback{name}`.
pub(super) async fn ext_rollback(b: &Backend, name: String) -> Result<ExtRollbackResult, RpcError> {
    let zot_home = b.inner.opts.zot_home.clone();
    let done = tokio::task::spawn_blocking(move || rollback::rollback(&zot_home, &name))
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
