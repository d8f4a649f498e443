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
            // The files as they are before anything of this prompt runs
            // (bash, extensions and edits alike): its checkpoint.
            let checkpoint = take_checkpoint(&inner).await;
            let cp = checkpoint.clone();
            let run =
                tokio::spawn(async move { agent.run_prompt(q.content, cp, q.from, token).await });
            if let Err(e) = run.await {
                let what = if e.is_panic() {
                    panic_text(e.into_panic().as_ref())
                } else {
                    "its task was cancelled".to_owned()
                };
                inner.agent.fail_after_panic(&what);
            }
            if let Some(id) = checkpoint {
                let cps = inner.checkpoints.clone();
                let _ = tokio::task::spawn_blocking(move || cps.after_prompt(&id)).await;
            }
            // No longer busy before the client can read `done`, so a
            // `get_state` sent on seeing it says `busy: false`.
            inner.host.dialogs_turn(None);
            inner.prompts.end();
            inner.agent.send(UiEvent::Done {});
        }
    });
}

/// Takes the checkpoint before a prompt off the async threads; a problem
/// (git missing, the project over the limit, unreadable files) is said as
/// an `error` event and the prompt runs regardless.
async fn take_checkpoint(inner: &Inner) -> Option<String> {
    let cps = inner.checkpoints.clone();
    let taken = tokio::task::spawn_blocking(move || cps.before_prompt())
        .await
        .unwrap_or_default();
    if let Some(message) = taken.problem {
        inner.agent.send(UiEvent::Error { message });
    }
    taken.id
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
