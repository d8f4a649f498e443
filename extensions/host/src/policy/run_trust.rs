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
    /// The next load accepts the project's extensions it finds, never
    /// seen or not: the user trusted the folder as it is now.
    accept_new: AtomicBool,
}

impl RunTrust {
    /// Trusts the project for this run, as it is now (`--trust-project`):
    /// the extensions the next load finds in it are accepted; one that
    /// appears later waits for the user (docs/security.md "Project trust").
    pub fn grant(&self) {
        self.0.granted.store(true, Ordering::SeqCst);
        self.0.accept_new.store(true, Ordering::SeqCst);
    }

    /// Trusts the project for this run without accepting anything in it:
    /// `trust_project` records consent for the extensions it listed itself.
    pub(crate) fn grant_trust_only(&self) {
        self.0.granted.store(true, Ordering::SeqCst);
    }

    /// Whether this load accepts the project's extensions it finds (true
    /// once after [`RunTrust::grant`]).
    pub(crate) fn take_accept_new(&self) -> bool {
        self.0.accept_new.swap(false, Ordering::SeqCst)
    }

    /// Takes this run's trust back.
    pub fn revoke(&self) {
        self.0.granted.store(false, Ordering::SeqCst);
        self.0.accept_new.store(false, Ordering::SeqCst);
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
