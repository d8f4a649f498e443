//! Serves HTML panels' pages on the `zotpanel:` scheme, so each frame gets
//! its own Content-Security-Policy (`panel_page.rs`) instead of inheriting
//! the app's, as a `srcdoc` or `blob:` frame would. The page hands a
//! document over with a fresh random token (`panel_frame_open`), points
//! its sandboxed iframe at `zotpanel://localhost/<token>`, and drops it
//! when the panel closes (`panel_frame_close`). Glue: the policy and the
//! document are `crate::panel_page`'s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tauri::http::{header, Request, Response, StatusCode};
use tauri::{Manager, Runtime, State, UriSchemeContext};
use zot_ext_protocol::desktop::PanelFrameOpen;
use zot_ext_protocol::MAX_PANEL_HTML;

use super::error::{IpcError, IpcResult};
use crate::panel_page::{self, Reach};

/// The URI scheme the frames load from.
pub const SCHEME: &str = "zotpanel";
/// Pages held at once: far more panels than a window shows.
const MAX_FRAMES: usize = 64;

/// The pages being shown, by token.
#[derive(Default)]
pub struct PanelFrames {
    /// Token → the document to serve and what it may reach.
    docs: Mutex<HashMap<String, (Arc<String>, Reach)>>,
}

impl PanelFrames {
    fn docs(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Arc<String>, Reach)>> {
        self.docs.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Holds a panel's page under its token until the panel closes.
#[tauri::command]
pub fn panel_frame_open(state: State<'_, PanelFrames>, frame: PanelFrameOpen) -> IpcResult<()> {
    if frame.html.len() > MAX_PANEL_HTML {
        return Err(IpcError::new(
            "panel_frame",
            format!(
                "the panel's HTML is {} bytes, over the limit of {MAX_PANEL_HTML} bytes (2 MiB)",
                frame.html.len()
            ),
        ));
    }
    let valid = (16..=64).contains(&frame.token.len())
        && frame
            .token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !valid {
        return Err(IpcError::new(
            "panel_frame",
            "a panel frame token is 16 to 64 letters, digits or '-'",
        ));
    }
    let mut docs = state.docs();
    if docs.len() >= MAX_FRAMES && !docs.contains_key(&frame.token) {
        return Err(IpcError::new(
            "panel_frame",
            format!("{MAX_FRAMES} HTML panels are open already; close one first"),
        ));
    }
    let doc = panel_page::document(&frame.html, &frame.theme, frame.esc_leaves);
    // An MCP App's frame reaches what its resource declared; a panel's,
    // what its manifest grants.
    let reach = match frame.app {
        Some(app) => Reach::App(app),
        None => Reach::Panel { net: frame.net },
    };
    docs.insert(frame.token, (Arc::new(doc), reach));
    Ok(())
}

/// Forgets a closed panel's page.
#[tauri::command]
pub fn panel_frame_close(state: State<'_, PanelFrames>, token: String) {
    state.docs().remove(&token);
}

/// Answers a frame's request for `zotpanel://localhost/<token>`; anything
/// else is a 404 under the strictest policy.
pub fn serve<R: Runtime>(ctx: UriSchemeContext<'_, R>, req: Request<Vec<u8>>) -> Response<Vec<u8>> {
    let token = req.uri().path().trim_start_matches('/');
    let found = ctx
        .app_handle()
        .state::<PanelFrames>()
        .docs()
        .get(token)
        .cloned();
    let (status, body, reach) = match found {
        Some((doc, reach)) => (StatusCode::OK, doc.as_bytes().to_vec(), reach),
        None => (
            StatusCode::NOT_FOUND,
            b"no such panel page".to_vec(),
            Reach::Panel { net: false },
        ),
    };
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        .header(panel_page::CSP_HEADER, reach.csp())
        .header(header::CACHE_CONTROL, "no-store")
        .header("X-Content-Type-Options", "nosniff")
        .body(body)
        .unwrap_or_else(|_| Response::new(Vec::new()))
}
