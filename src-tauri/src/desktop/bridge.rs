//! Forwards the backend's single `UiEvent` stream to the page as one Tauri
//! event. Events that arrive before the page has subscribed (an extension
//! that fails at startup, say) are held and flushed when the page calls
//! `ui_ready`, so nothing is lost to the race between window and backend.

use tauri::{AppHandle, Emitter};
use tokio::sync::{mpsc, watch};
use zot_ext_protocol::rpc::UiEvent;

/// The event name the page listens on (`ui/src/lib/backend/tauri.ts`).
pub const UI_EVENT: &str = "zot://ui-event";

/// Runs until the backend drops its sender.
pub async fn forward(
    app: AppHandle,
    mut events: mpsc::Receiver<UiEvent>,
    mut ready: watch::Receiver<bool>,
) {
    let mut held = Vec::new();
    while !*ready.borrow() {
        tokio::select! {
            ev = events.recv() => match ev {
                Some(ev) => held.push(ev),
                None => break,
            },
            changed = ready.changed() => if changed.is_err() { return },
        }
    }
    // If the backend ended before the page was ready, still wait for it.
    if !*ready.borrow() && ready.wait_for(|r| *r).await.is_err() {
        return;
    }
    for ev in held {
        emit(&app, &ev);
    }
    while let Some(ev) = events.recv().await {
        emit(&app, &ev);
    }
}

/// Sends one event to the window; a closed window is not an error.
pub fn emit(app: &AppHandle, ev: &UiEvent) {
    if let Err(e) = app.emit(UI_EVENT, ev) {
        eprintln!("zot: could not deliver an event to the window: {e}");
    }
}
