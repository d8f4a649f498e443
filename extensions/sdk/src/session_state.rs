//! Session-scoped state (docs/protocol.md "Session state"): values that
//! belong to the conversation, not to the project. zot keeps them in the
//! session file, so they come back on resume and follow the conversation
//! through clear, fork and rewind. [`State`] is the extension's copy:
//! filled from `hello_ack.state`, replaced by each `state_restored`, and
//! written through with `state_set`.

use std::sync::{Arc, RwLock};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use zot_ext_protocol::checkpoints::state_set_problem;
use zot_ext_protocol::{ExtSessionState, ExtToHost, StateSet};

use crate::wire::{self, Writer};

/// Why a [`State::set`] was not sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// The value does not serialize to JSON.
    #[error("state value for {key:?} is not JSON: {message}")]
    NotJson {
        /// The key.
        key: String,
        /// serde's message.
        message: String,
    },
    /// Over a limit zot enforces (64 KiB a value, 1 MiB in all, keys of
    /// 1 to 256 bytes); zot would refuse it too.
    #[error("state {key:?} refused: {message}")]
    OverLimit {
        /// The key.
        key: String,
        /// Which limit.
        message: String,
    },
}

/// The extension's state in the current session; cheap to clone.
#[derive(Clone)]
pub struct State {
    /// The extension's name, for log lines.
    name: Arc<str>,
    /// The values as zot last said or as set since.
    values: Arc<RwLock<ExtSessionState>>,
    /// The frame pipe.
    out: Arc<Writer>,
}

impl State {
    pub(crate) fn new(name: Arc<str>, values: ExtSessionState, out: Arc<Writer>) -> Self {
        State {
            name,
            values: Arc::new(RwLock::new(values)),
            out,
        }
    }

    /// The value under `key` as a `T`; `None` when absent or of another
    /// shape.
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let v = self.read().get(key).cloned()?;
        serde_json::from_value(v).ok()
    }

    /// Every key and value.
    pub fn all(&self) -> ExtSessionState {
        self.read().clone()
    }

    /// Stores `value` under `key` in this session (sends `state_set`).
    /// Checked against zot's limits first, so an over-limit value is an
    /// error here rather than a refusal in zot's log.
    pub fn set<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> Result<(), StateError> {
        let v = serde_json::to_value(value).map_err(|e| StateError::NotJson {
            key: key.to_owned(),
            message: e.to_string(),
        })?;
        self.put(key, v)
    }

    /// Removes `key` (sends `state_set` with `null`).
    pub fn remove(&self, key: &str) -> Result<(), StateError> {
        self.put(key, Value::Null)
    }

    fn put(&self, key: &str, v: Value) -> Result<(), StateError> {
        {
            let mut values = self.values.write().unwrap_or_else(|e| e.into_inner());
            if let Some(message) = state_set_problem(&values, key, &v) {
                return Err(StateError::OverLimit {
                    key: key.to_owned(),
                    message,
                });
            }
            if v.is_null() {
                values.remove(key);
            } else {
                values.insert(key.to_owned(), v.clone());
            }
        }
        let frame = ExtToHost::StateSet(StateSet {
            key: key.to_owned(),
            value: v,
        });
        if let Err(e) = self.out.send(&frame) {
            wire::log(&self.name, format!("could not send state_set: {e}"));
        }
        Ok(())
    }

    pub(crate) fn replace(&self, values: ExtSessionState) {
        *self.values.write().unwrap_or_else(|e| e.into_inner()) = values;
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, ExtSessionState> {
        self.values.read().unwrap_or_else(|e| e.into_inner())
    }
}
