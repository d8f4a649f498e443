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
        let size = serde_json::to_string(&ev).map_or(0, |s| s.len());
        pace.admit(size).await;
        emit(&app, &ev);
        super::notify::on_event(&app, &ev);
    }
}

/// Sends one event to the window; a closed window is not an error.
pub fn emit(app: &AppHandle, ev: &UiEvent) {
    if let Err(e) = app.emit(UI_EVENT, ev) {
        eprintln!("zot: could not deliver an event to the window: {e}");
    }
}
