//! Files dropped on the window (the native drop, which gives paths): glue
//! over [`crate::dropped`]. The page then opens the folder or attaches the
//! images.

use super::error::{IpcError, IpcResult};
use crate::dropped::{self, Dropped};

/// What the dropped `paths` ask for: a folder to open, or images read
/// with the prompt's rules.
#[tauri::command]
pub async fn dropped_paths(paths: Vec<String>) -> IpcResult<Dropped> {
    // Reading up to eight 5 MiB images is blocking file work.
    tauri::async_runtime::spawn_blocking(move || dropped::classify(&paths))
        .await
        .map_err(|e| IpcError::new("drop", e))?
        .map_err(|e| IpcError::new("drop", e))
}
