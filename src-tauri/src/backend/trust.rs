//! Project trust for both front ends: the `trust_project`,
//! `untrust_project` and `trust_status` commands, and what is announced
//! once after `ready` (a broken trust file, the `project_untrusted` event).
//! The decision and the file live in the host crate (`zot_ext_host::trust`).

use zot_ext_protocol::rpc::{TrustStatus, UiEvent};
use zot_ext_protocol::rpc_results::{TrustedResult, UntrustedResult};
use zot_ext_protocol::RpcError;

use super::Backend;

/// Says once, after the extensions are ready, that the trust file could not
/// be used and which project extensions wait for the user's trust.
pub(super) fn announce(b: &Backend) {
    let host = &b.inner.host;
    if let Some(message) = host.take_trust_problem() {
        let _ = b.inner.events.send(UiEvent::Error { message });
    }
    if let Some(ev) = host.project_untrusted() {
        let _ = b.inner.events.send(ev);
    }
}

/// `trust_project{remember?}`: answers `started:[name…]`.
pub(super) async fn trust(b: &Backend, remember: bool) -> Result<TrustedResult, RpcError> {
    let started = b
        .inner
        .host
        .trust_project(remember)
        .await
        .map_err(|e| format!("trust_project: {e}"))?;
    Ok(TrustedResult {
        started,
        remembered: remember,
    })
}

/// `untrust_project{dir?}`: answers `stopped:[name…]`.
pub(super) async fn untrust(b: &Backend, dir: Option<String>) -> Result<UntrustedResult, RpcError> {
    if dir.as_deref().is_some_and(|d| d.trim().is_empty()) {
        return Err("untrust_project: \"dir\" is empty; leave it out to untrust this project, or give a folder that trust_status lists".into());
    }
    let dir = dir.map(std::path::PathBuf::from);
    let stopped = b
        .inner
        .host
        .untrust_project(dir.as_deref())
        .await
        .map_err(|e| format!("untrust_project: {e}"))?;
    Ok(UntrustedResult { stopped })
}

/// `trust_status`: a `TrustStatus`.
pub(super) fn status(b: &Backend) -> TrustStatus {
    b.inner.host.trust_status()
}
