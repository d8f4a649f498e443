//! Starting one extension again: its current run (process, pipes, pending
//! requests, registrations, panels) ends and leaves the tables in one step,
//! and a fresh run begins from the same spec. Supervision (restart on
//! crash) and the seam's leak test call it; a reload still replaces the
//! whole set.

use std::sync::Arc;

use zot_ext_protocol::rpc::ExtState;

use crate::api::host::Host;
use crate::error::HostError;
use crate::records::extension::Ext;
use crate::run::shutdown::stop_all;
use crate::run::supervisor;

impl Host {
    /// Stops extension `name` if it is running (the usual `shutdown`,
    /// SIGTERM, SIGKILL sequence) and starts a fresh process for it; returns
    /// once the new run is ready, failed or exited. Runs one after the
    /// other with reloads and shutdown.
    pub async fn restart(&self, name: &str) -> Result<(), HostError> {
        let _serial = self.inner.lifecycle.lock().await;
        let ext: Arc<Ext> = self
            .inner
            .lock()
            .exts
            .iter()
            .find(|e| e.name == name)
            .cloned()
            .ok_or_else(|| HostError::UnknownExtension(name.to_owned()))?;
        if ext.target.is_none() {
            let reason = match ext.state() {
                _ if !ext.widened.is_empty() => format!(
                    "its manifest changed since you accepted it and reaches further; accept the change with `zot ext accept {name}` (or \"Review changes\" in the app), then reload"
                ),
                ExtState::Untrusted => format!(
                    "it waits for your trust; run it with `zot ext trust` or `zot ext accept {name}` (or the app's banner)"
                ),
                ExtState::Disabled => "it is disabled or shadowed".to_owned(),
                ExtState::Theme => "it only ships themes".to_owned(),
                _ => "its manifest is invalid; `zot ext doctor` says why".to_owned(),
            };
            return Err(HostError::NotStartable {
                extension: name.to_owned(),
                reason,
            });
        }
        stop_all(std::slice::from_ref(&ext)).await;
        // Asked for by the user (or a live reload): never a crash, and a
        // fresh restart budget (docs/rpc.md "Supervision").
        ext.lock().budget.reset();
        let run = supervisor::relaunch(&self.inner, &ext);
        let mut settled = run.settled.subscribe();
        let _ = settled.wait_for(|s| *s).await;
        Ok(())
    }
}
