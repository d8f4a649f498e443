//! The page's door to the backend: one command that forwards any rpc.md
//! command, and `ui_ready`, which releases events held since startup.

use tauri::State;
use zot_ext_protocol::rpc::RpcCommand;

use super::error::{IpcError, IpcResult};
use super::Desktop;

/// Forwards one command to the backend; resolves with the response's data.
#[tauri::command]
pub async fn rpc(state: State<'_, Desktop>, cmd: RpcCommand) -> IpcResult<serde_json::Value> {
    let backend = state.backend().await?;
    backend
        .handle(cmd)
        .await
        .map_err(|e| IpcError::new("backend", e))
}

/// The page is listening: flush the held events and forward live ones.
#[tauri::command]
pub fn ui_ready(state: State<'_, Desktop>) {
    state.ui_ready.send_replace(true);
}
