//! Replacing the extensions' session state when the session changes
//! under them (clear, open, rewind, fork): the table is swapped and each
//! running extension gets `state_restored` with its part.

use std::sync::Arc;

use zot_ext_protocol::rpc::ExtState;
use zot_ext_protocol::{HostToExt, StateRestored};

use crate::api::host::Host;
use crate::io::codec::encode;
use crate::owner::state_table::SessionState;
use crate::records::extension::Ext;

impl Host {
    /// Replaces every extension's session state with `state` (the session
    /// changed) and sends each running extension its part in
    /// `state_restored` (`{}` when it has none).
    pub fn restore_state(&self, state: SessionState) {
        *self.inner.session_state.lock() = state.clone();
        let exts: Vec<Arc<Ext>> = self.inner.lock().exts.clone();
        for ext in exts {
            if ext.lock().state != Some(ExtState::Ready) {
                continue;
            }
            let mine = state.get(&ext.name).cloned().unwrap_or_default();
            ext.send_one_way(&encode(&HostToExt::StateRestored(StateRestored {
                state: mine,
            })));
        }
    }

    /// Every extension's session state now.
    pub fn session_state(&self) -> SessionState {
        self.inner.session_state.lock().clone()
    }
}
