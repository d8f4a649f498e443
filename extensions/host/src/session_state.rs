//! Session-scoped extension state (docs/protocol.md "Session state"): the
//! values each extension stored with `state_set` in the current session.
//! This table is the live copy the host answers from (`hello_ack.state`,
//! the limits of a `state_set`); the app persists each accepted change in
//! the session file (it arrives as [`HostEvent::StateSet`]) and hands the
//! whole table back with [`Host::restore_state`] whenever the session
//! changes under the extensions (clear, open, rewind, fork), which sends
//! each running extension `state_restored`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use zot_ext_protocol::checkpoints::state_set_problem;
use zot_ext_protocol::rpc::{ExtState, UiEvent};
use zot_ext_protocol::{ExtSessionState, HostToExt, NoteLevel, StateRestored, StateSet};

use crate::codec::encode;
use crate::events::HostEvent;
use crate::extension::Ext;
use crate::host::Host;
use crate::state::Shared;

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

/// A `state_set` from `ext`: stored and passed to the app, or refused
/// with the reason in its log and an `ext_status` warning.
pub(crate) fn set(inner: &Arc<Shared>, ext: &Arc<Ext>, s: StateSet) {
    let refused = {
        let mut all = inner.session_state.lock();
        let mine = all.entry(ext.name.clone()).or_default();
        match state_set_problem(mine, &s.key, &s.value) {
            Some(why) => Some(why),
            None => {
                if s.value.is_null() {
                    mine.remove(&s.key);
                } else {
                    mine.insert(s.key.clone(), s.value.clone());
                }
                if mine.is_empty() {
                    all.remove(&ext.name);
                }
                None
            }
        }
    };
    if let Some(why) = refused {
        let text = format!(
            "state_set refused: {why}; the session keeps the previous value (docs/protocol.md \"Session state\")"
        );
        ext.log.line(&text);
        inner.post(
            HostEvent::Ui(UiEvent::ExtStatus {
                extension: ext.name.clone(),
                level: NoteLevel::Warn,
                text,
            }),
            Some(ext),
        );
        return;
    }
    inner.post(
        HostEvent::StateSet {
            extension: ext.name.clone(),
            key: s.key,
            value: s.value,
        },
        Some(ext),
    );
}

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
