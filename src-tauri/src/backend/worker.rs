//! The worker: runs queued prompts one at a time, in order. Each prompt
//! runs in its own task, so a panic anywhere in the agent (a bug, or data
//! nobody foresaw) ends only that prompt: the client gets `error`,
//! `turn_end{stop:"error"}` and `done`, `busy` drops, and the next prompt
//! runs in a fresh task. A panic can never wedge the queue.

use std::any::Any;
use std::sync::atomic::Ordering;
use std::sync::Weak;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use zot_ext_protocol::rpc::UiEvent;

use super::{Inner, Queued};

/// Starts the worker; it ends when the backend is dropped.
pub(super) fn spawn(w: Weak<Inner>, mut queue: mpsc::UnboundedReceiver<Queued>) {
    tokio::spawn(async move {
        while let Some(q) = queue.recv().await {
            let Some(inner) = w.upgrade() else { break };
            if q.epoch == inner.epoch.load(Ordering::SeqCst) {
                let token = CancellationToken::new();
                *inner.cancel.lock().unwrap_or_else(|e| e.into_inner()) = token.clone();
                // An abort that raced the dequeue still wins.
                if q.epoch == inner.epoch.load(Ordering::SeqCst) {
                    let agent = inner.agent.clone();
                    // Dialogs raised from here to `done` belong to this
                    // prompt; an abort cancels them (docs/rpc.md "Dialogs").
                    let turn = inner.finished.load(Ordering::SeqCst) + 1;
                    inner.host.dialogs_turn(Some(turn));
                    let run = tokio::spawn(async move { agent.run_prompt(q.content, token).await });
                    if let Err(e) = run.await {
                        let what = if e.is_panic() {
                            panic_text(e.into_panic().as_ref())
                        } else {
                            "its task was cancelled".to_owned()
                        };
                        inner.agent.fail_after_panic(&what);
                    }
                    // No longer busy before the client can read `done`, so a
                    // `get_state` sent on seeing it says `busy: false`.
                    inner.host.dialogs_turn(None);
                    inner.pending.fetch_sub(1, Ordering::SeqCst);
                    inner.finished.fetch_add(1, Ordering::SeqCst);
                    inner.agent.send(UiEvent::Done {});
                    continue;
                }
            }
            inner.pending.fetch_sub(1, Ordering::SeqCst);
        }
    });
}

/// The message a panic carried, if it was text.
fn panic_text(p: &(dyn Any + Send)) -> String {
    let msg = p
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned());
    format!("panic: {msg}")
}
