//! [`RunTrust`]: trust for this run only, a leaf so the configuration can
//! hold it without importing the trust file's logic (`trust.rs`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Trust for this run only (`--trust-project`, or `trust_project` without
/// `remember`), shared by every clone of a [`crate::HostConfig`] so a running
/// host sees a grant made after it started.
#[derive(Debug, Clone, Default)]
pub struct RunTrust(Arc<RunTrustInner>);

#[derive(Debug, Default)]
struct RunTrustInner {
    /// The cwd is trusted for this run.
    granted: AtomicBool,
    /// A broken trust file has been reported (it is reported once).
    reported: AtomicBool,
}

impl RunTrust {
    /// Trusts the project for this run.
    pub fn grant(&self) {
        self.0.granted.store(true, Ordering::SeqCst);
    }

    /// Takes this run's trust back.
    pub fn revoke(&self) {
        self.0.granted.store(false, Ordering::SeqCst);
    }

    /// Whether the project is trusted for this run.
    pub fn granted(&self) -> bool {
        self.0.granted.load(Ordering::SeqCst)
    }

    /// True the first time only: a broken file is reported once per run.
    pub(crate) fn first_report(&self) -> bool {
        !self.0.reported.swap(true, Ordering::SeqCst)
    }
}
