//! The host's table of the extensions' session state (docs/protocol.md
//! "Session state"): what `hello_ack.state` carries and what a
//! `state_set` is checked against. Owned by the host's shared state;
//! written by `session_state.rs` (one `state_set`) and `state_ops.rs`
//! (the whole table, when the session changes).

use std::collections::BTreeMap;
use std::sync::Mutex;

use zot_ext_protocol::ExtSessionState;

/// Every extension's state in the current session, by extension name.
pub type SessionState = BTreeMap<String, ExtSessionState>;

/// The table, owned by the host's shared state.
#[derive(Default)]
pub(crate) struct StateTable {
    /// By extension name.
    values: Mutex<SessionState>,
}

impl StateTable {
    /// Extension `name`'s state (for `hello_ack.state`).
    pub(crate) fn of(&self, name: &str) -> ExtSessionState {
        self.lock().get(name).cloned().unwrap_or_default()
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, SessionState> {
        self.values.lock().unwrap_or_else(|e| e.into_inner())
    }
}
