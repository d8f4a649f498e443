//! `/reload-ext`: stop everything, read the manifests again (the
//! remembered `--ext` paths included) and start the new set, then say what
//! happened per extension. Live reload of a code change restarts one
//! extension and reports it the same way.

use zot_ext_protocol::rpc::{ExtState, ReloadError, UiEvent};

use std::sync::Arc;

use crate::api::host::Host;
use crate::error::HostError;
use crate::owner::events::HostEvent;
use crate::records::extension::Ext;
use crate::run::load::load;
use crate::run::shutdown::stop_all;

/// What a reload did.
#[derive(Debug, Clone, PartialEq)]
pub struct ReloadReport {
    /// Extensions that were running and were stopped.
    pub stopped: u32,
    /// Extensions spawned again.
    pub loaded: u32,
    /// Of those, how many became ready.
    pub ready: u32,
    /// Every load error, one per extension.
    pub errors: Vec<ReloadError>,
}

impl Host {
    /// Tears every extension down, re-reads the manifests and respawns the
    /// set; returns once the new set is ready or its grace has passed.
    /// Overlapping calls run one after the other.
    pub async fn reload(&self) -> ReloadReport {
        let _serial = self.inner.lifecycle.lock().await;
        let old = self.inner.lock().exts.clone();
        let stopped = old
            .iter()
            .filter(|e| matches!(e.state(), ExtState::Loading | ExtState::Ready))
            .count();
        stop_all(&old).await;
        let loaded = load(&self.inner);
        self.wait_ready().await;
        let exts = self.inner.lock().exts.clone();
        let ready = exts.iter().filter(|e| e.state() == ExtState::Ready).count();
        let report = self.reload_report(count(stopped), count(loaded), count(ready), &exts);
        // A trusted project's new extension (a pull, or a file the model
        // wrote) waits for the user: the banner hears of it now, not only at
        // the next start.
        if let Some(UiEvent::ProjectUntrusted {
            dir,
            extensions,
            details,
        }) = self.project_untrusted()
        {
            if details.iter().any(|d| d.new) {
                let ev = UiEvent::ProjectUntrusted {
                    dir,
                    extensions,
                    details,
                };
                self.inner.post(HostEvent::Ui(ev), None);
            }
        }
        report
    }

    /// Starts extension `name` again alone, from the spec it has (live
    /// reload of a code change: the others keep running, their panels and
    /// state untouched), and reports it like a reload, `ext_reload`
    /// included, so a client shows the outcome the same way.
    pub async fn reload_one(&self, name: &str) -> Result<ReloadReport, HostError> {
        self.restart(name).await?;
        let exts: Vec<_> = self
            .inner
            .lock()
            .exts
            .iter()
            .filter(|e| e.name == name)
            .cloned()
            .collect();
        let ready = exts.iter().filter(|e| e.state() == ExtState::Ready).count();
        Ok(self.reload_report(1, 1, count(ready), &exts))
    }

    /// The report of a reload of `exts`, also posted as `ext_reload`.
    fn reload_report(
        &self,
        stopped: u32,
        loaded: u32,
        ready: u32,
        exts: &[Arc<Ext>],
    ) -> ReloadReport {
        let errors = exts
            .iter()
            .filter_map(|e| {
                let m = e.lock();
                let failed = matches!(m.state, Some(ExtState::Failed | ExtState::Exited));
                match (&m.error, failed) {
                    (Some(err), true) => Some(ReloadError {
                        extension: e.name.clone(),
                        message: err.clone(),
                        log_path: e.log.path().display().to_string(),
                    }),
                    _ => None,
                }
            })
            .collect::<Vec<_>>();
        let report = ReloadReport {
            stopped,
            loaded,
            ready,
            errors,
        };
        self.inner.post(
            HostEvent::Ui(UiEvent::ExtReload {
                stopped,
                loaded,
                ready,
                errors: report.errors.clone(),
            }),
            None,
        );
        report
    }
}

/// A count for the report; more than `u32::MAX` extensions cannot load.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
