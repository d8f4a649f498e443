//! The worker: runs queued prompts one at a time, in order. Each prompt
//! runs in its own task, so a panic anywhere in the agent (a bug, or data
//! nobody foresaw) ends only that prompt: the client gets `error`,
//! `turn_end{stop:"error"}` and `done`, `busy` drops, and the next prompt
//! runs in a fresh task. A panic can never wedge the queue.

use std::any::Any;
use std::sync::Weak;

use tokio::sync::mpsc;
use zot_ext_protocol::rpc::UiEvent;

use super::prompt_queue::Queued;
use super::Inner;

/// Starts the worker; it ends when the backend is dropped.
pub(super) fn spawn(w: Weak<Inner>, mut queue: mpsc::UnboundedReceiver<Queued>) {
    tokio::spawn(async move {
        while let Some(q) = queue.recv().await {
            let Some(inner) = w.upgrade() else { break };
            // `None`: an abort came after it was queued; it never runs.
            let Some(token) = inner.prompts.start(&q) else {
                continue;
            };
            let agent = inner.agent.clone();
            // Dialogs raised from here to `done` belong to this prompt; an
            // abort cancels them (docs/rpc.md "Dialogs").
            inner.host.dialogs_turn(Some(inner.prompts.finished() + 1));
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
            inner.prompts.end();
            inner.agent.send(UiEvent::Done {});
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
