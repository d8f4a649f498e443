//! Asking the user from a handler (docs/protocol.md "Dialogs"): each
//! `ui_request` waits, on its own handler's thread, for the one
//! `ui_response` zot sends back. The reader that reads the answer hands it
//! over here; the runtime's watchdog has already given the reader role to
//! another thread while the handler waits, so asking never stalls the
//! extension.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;

use serde_json::Value;
use zot_ext_protocol::{DialogAction, RequestId, UiResponse};

/// The one answer to a dialog.
#[derive(Debug, Clone, PartialEq)]
pub enum DialogAnswer {
    /// The user answered: `true` (confirm), the choice (select), the text
    /// (input) or the object zot checked against the schema (form).
    Accepted(Value),
    /// The user said no.
    Declined,
    /// Nobody answered; the reason says why (`timeout`, `too many`, `no
    /// user`, a refused field, `zot went away`, …).
    Cancelled(String),
}

impl DialogAnswer {
    /// The accepted value, if the user answered.
    pub fn accepted(&self) -> Option<&Value> {
        match self {
            DialogAnswer::Accepted(v) => Some(v),
            _ => None,
        }
    }
}

/// The requests that wait for their answer.
#[derive(Default)]
pub(crate) struct Dialogs {
    next: AtomicU64,
    waiting: Mutex<HashMap<String, mpsc::Sender<DialogAnswer>>>,
}

impl Dialogs {
    /// A fresh id and the receiver its answer arrives on.
    pub(crate) fn open(&self) -> (RequestId, mpsc::Receiver<DialogAnswer>) {
        let id = format!("dlg-{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        let (tx, rx) = mpsc::channel();
        self.lock().insert(id.clone(), tx);
        (RequestId(id), rx)
    }

    /// Hands `r` to whoever waits for it; `false` when nobody does.
    pub(crate) fn answer(&self, r: UiResponse) -> bool {
        let Some(tx) = self.lock().remove(&r.id.0) else {
            return false;
        };
        let a = match r.action {
            DialogAction::Accept => DialogAnswer::Accepted(r.value.unwrap_or(Value::Bool(true))),
            DialogAction::Decline => DialogAnswer::Declined,
            DialogAction::Cancel => DialogAnswer::Cancelled(r.reason.unwrap_or_default()),
        };
        let _ = tx.send(a);
        true
    }

    /// zot went away: every wait ends (its sender is dropped).
    pub(crate) fn close(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<DialogAnswer>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }
}
