//! Long tool calls (docs/protocol.md "Long tool calls"): a tool registered
//! with [`crate::Extension::tool_with_call`] gets a [`ToolCall`] to report
//! progress with and a [`CancelToken`] that zot's `tool_cancel` sets.
//! Tools registered with `tool` are called as before. Once a call is
//! cancelled the SDK sends nothing more for its id, whatever the handler
//! returns.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Condvar, LazyLock, Mutex};
use std::time::Duration;

use zot_ext_protocol::{ExtToHost, RequestId, ToolProgress};

use crate::context::Context;

/// Set when zot stops waiting for a call (Stop, a timeout, the turn
/// ended). Clone it into worker threads; wait on it instead of sleeping.
#[derive(Clone, Default)]
pub struct CancelToken(Arc<(Mutex<Option<String>>, Condvar)>);

impl CancelToken {
    /// Whether zot has cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.reason().is_some()
    }

    /// Why (`aborted`, `idle_timeout`, `timeout`, `shutdown`), once cancelled.
    pub fn reason(&self) -> Option<String> {
        self.0 .0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Sleeps up to `d`, waking at once on cancellation; returns whether
    /// the call is cancelled.
    pub fn wait_timeout(&self, d: Duration) -> bool {
        let (lock, cv) = &*self.0;
        let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = cv
            .wait_timeout_while(guard, d, |r| r.is_none())
            .unwrap_or_else(|e| e.into_inner());
        guard.is_some()
    }

    fn cancel(&self, reason: &str) {
        let (lock, cv) = &*self.0;
        lock.lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(|| reason.to_owned());
        cv.notify_all();
    }
}

/// One pending tool call: its id, a progress reporter and its token.
#[derive(Clone)]
pub struct ToolCall {
    id: RequestId,
    ctx: Context,
    token: CancelToken,
}

impl ToolCall {
    /// The `tool_call` id.
    pub fn id(&self) -> &str {
        self.id.as_str()
    }

    /// The call's cancellation token.
    pub fn token(&self) -> &CancelToken {
        &self.token
    }

    /// Whether zot has cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Sends `tool_progress` with `message`, `progress` of `total` (when
    /// known): restarts the call's idle timeout and shows in its card.
    pub fn progress(&self, message: &str, progress: f64, total: Option<f64>) {
        self.send(ToolProgress {
            message: Some(message.to_owned()),
            progress: Some(progress),
            total,
            ..Default::default()
        });
    }

    /// Sends output text new since the last report; zot appends it.
    pub fn output(&self, text: &str) {
        self.send(ToolProgress {
            partial: Some(text.to_owned()),
            ..Default::default()
        });
    }

    /// Sends any `tool_progress` (its `id` is filled in). Nothing is sent
    /// once the call is cancelled.
    pub fn send(&self, mut frame: ToolProgress) {
        if self.is_cancelled() {
            return;
        }
        frame.id = self.id.clone();
        self.ctx.send(ExtToHost::ToolProgress(frame));
    }
}

/// The calls in flight, by id: one extension per process.
static CALLS: LazyLock<Mutex<HashMap<String, CancelToken>>> = LazyLock::new(Default::default);

thread_local! {
    /// The call whose handler runs on this thread.
    static CURRENT: RefCell<Option<ToolCall>> = const { RefCell::new(None) };
}

fn calls() -> std::sync::MutexGuard<'static, HashMap<String, CancelToken>> {
    CALLS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs a tool handler as call `id`; returns its value and whether the
/// call was cancelled meanwhile (then nothing is to be sent for it).
pub(crate) fn run<T>(ctx: &Context, id: &RequestId, f: impl FnOnce() -> T) -> (T, bool) {
    let token = CancelToken::default();
    calls().insert(id.as_str().to_owned(), token.clone());
    let call = ToolCall {
        id: id.clone(),
        ctx: ctx.clone(),
        token: token.clone(),
    };
    let prev = CURRENT.with(|c| c.replace(Some(call)));
    let out = f();
    CURRENT.with(|c| *c.borrow_mut() = prev);
    calls().remove(id.as_str());
    (out, token.is_cancelled())
}

/// The call whose handler runs on this thread (inside [`run`]).
pub(crate) fn current() -> Option<ToolCall> {
    CURRENT.with(|c| c.borrow().clone())
}

/// `tool_cancel`: sets the call's token; false when it is not running.
pub(crate) fn cancel(id: &RequestId, reason: &str) -> bool {
    match calls().get(id.as_str()) {
        Some(t) => {
            t.cancel(reason);
            true
        }
        None => false,
    }
}
