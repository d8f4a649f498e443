//! The `Host` handle and its `impl Host` blocks: what the app calls.
pub mod develop;
pub mod doctor;
pub(crate) mod host;
pub(crate) mod intercept;
pub(crate) mod panel_input;
pub(crate) mod preview;
pub(crate) mod reload;
pub(crate) mod report;
pub(crate) mod restart;
pub(crate) mod settings_ops;
pub(crate) mod state_ops;
pub(crate) mod trust_ops;
pub mod watch;
