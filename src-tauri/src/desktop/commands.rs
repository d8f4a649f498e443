//! The page's door to the backend: one command that forwards any rpc.md
//! command, and `ui_ready`, which releases events held since startup.

use tauri::{State, WebviewWindow};
use zot_ext_protocol::rpc::RpcCommand;

use super::error::{IpcError, IpcResult};
use super::panel_window::{allows, PanelWindows};
use super::Desktop;

/// Forwards one command to the backend; resolves with the response's data.
/// A panel's own window may send only its panel's input
/// (`panel_window::allows`).
#[tauri::command]
pub async fn rpc(
    window: WebviewWindow,
    state: State<'_, Desktop>,
    windows: State<'_, PanelWindows>,
    cmd: RpcCommand,
) -> IpcResult<serde_json::Value> {
    if window.label() != "main" {
        allows(&windows, window.label(), &cmd)
            .map_err(|e| IpcError::from(zot_ext_protocol::RpcError::denied(e)))?;
    }
    let backend = state.backend().await?;
    backend.handle(cmd).await.map_err(IpcError::from)
}

/// The page is listening: flush the held events and forward live ones.
#[tauri::command]
pub fn ui_ready(state: State<'_, Desktop>) {
    state.ui_ready.send_replace(true);
}

/// Accepts the waiting `url` dialog `request_id` (an MCP server's URL-mode
/// elicitation), then opens its address in the browser: only an address
/// zot showed in a dialog, and only once the user accepted it.
#[tauri::command]
pub async fn dialog_open_url(
    app: tauri::AppHandle,
    state: State<'_, Desktop>,
    request_id: String,
) -> IpcResult<()> {
    let backend = state.backend().await?;
    let host = backend.host();
    let url = host.dialog_url(&request_id).ok_or_else(|| {
        IpcError::new(
            "dialog",
            format!("no address dialog waits with request_id {request_id:?}"),
        )
    })?;
    host.ui_respond(&request_id, zot_ext_protocol::DialogAction::Accept, None)?;
    open_url(&app, &url)
}

/// Opens an address an MCP App asked for (`ui/open-link`), after the
/// user confirmed it in the app's card; http(s) only, so an app can never
/// have a file or a custom scheme opened.
#[tauri::command]
pub fn app_open_link(app: tauri::AppHandle, url: String) -> IpcResult<()> {
    let web = url.starts_with("https://") || url.starts_with("http://");
    if !web || url.chars().any(char::is_whitespace) {
        return Err(IpcError::new(
            "open",
            format!("an MCP App may open http(s) addresses only, not {url:?}"),
        ));
    }
    open_url(&app, &url)
}

#[allow(deprecated)] // `Shell::open` is the plugin's Rust-side opener; the page cannot reach it.
fn open_url(app: &tauri::AppHandle, url: &str) -> IpcResult<()> {
    use tauri_plugin_shell::ShellExt;
    app.shell()
        .open(url.to_owned(), None)
        .map_err(|e| IpcError::new("open", format!("cannot open {url}: {e}")))
}
