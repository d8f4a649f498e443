//! Session-scoped extension state (docs/protocol.md "Session state"): a
//! `state_set` from an extension, checked against the limits and stored
//! in the host's table ([`crate::owner::state_table`]), then passed to the app
//! as [`HostEvent::StateSet`] to persist in the session file; or refused
//! with the reason in the extension's log and an `ext_status` warning.
//! Restoring the whole table is `state_ops.rs` (on [`crate::Host`]).

use std::sync::Arc;

use zot_ext_protocol::checkpoints::state_set_problem;
use zot_ext_protocol::rpc::UiEvent;
use zot_ext_protocol::{NoteLevel, StateSet};

use crate::owner::events::HostEvent;
use crate::owner::state::Shared;
use crate::records::extension::Ext;

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
