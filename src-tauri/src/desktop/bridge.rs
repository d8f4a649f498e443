//! Forwards the backend's single `UiEvent` stream to the page as one Tauri
//! event. Nothing is read before the page has subscribed (it calls
//! `ui_ready`): until then events wait in the backend's bounded policy
//! queue (`backend::events`), so an extension that fails at startup still
//! shows, and one that floods at startup cannot grow an unbounded hold
//! here. After that, events go out within a per-frame budget (`pace`),
//! and the few that may call for an OS notification are handed to
//! `notify` (a turn ended while the user looked elsewhere).

use tauri::{AppHandle, Emitter};
use tokio::sync::{mpsc, watch};
use zot_ext_protocol::rpc::UiEvent;

use super::pace::Pace;

/// The event name the page listens on (`ui/src/lib/backend/tauri.ts`).
pub const UI_EVENT: &str = "zot://ui-event";

/// Runs until the backend drops its sender (or the window is gone before
/// it was ready).
pub async fn forward(
    app: AppHandle,
    mut events: mpsc::Receiver<UiEvent>,
    mut ready: watch::Receiver<bool>,
) {
    if ready.wait_for(|r| *r).await.is_err() {
        return;
    }
    let mut pace = Pace::default();
    while let Some(ev) = events.recv().await {
        // Serialised once: its size paces it, and the same text goes out
        // (`emit` would serialise it again).
        let json = match serde_json::to_string(&ev) {
            Ok(json) => json,
            Err(e) => {
                eprintln!("zot: could not write an event for the window: {e}");
                continue;
            }
        };
        pace.admit(json.len()).await;
        emit(&app, json);
        super::notify::on_event(&app, &ev);
    }
}

/// Sends one event, as its JSON, to the window; a closed window is not an
/// error.
fn emit(app: &AppHandle, json: String) {
    if let Err(e) = app.emit_str(UI_EVENT, json) {
        eprintln!("zot: could not deliver an event to the window: {e}");
    }
}
