//! "Open folder…" and the recent-projects list: glue over
//! [`crate::projects`]. A switch starts the new project's backend, forwards
//! its events once the reloaded page says it is ready, sets the window
//! title, and tells the page to reload everything (`PROJECT_EVENT`).

use std::path::{Path, PathBuf};

use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager, State};

use crate::projects::{folder, recent};

use super::error::{IpcError, IpcResult};
use super::{bridge, Desktop};

/// Sent to the page after a switch; it then reloads settings, extensions,
/// transcript and trust from the new backend.
pub const PROJECT_EVENT: &str = "zot://project-changed";

/// The project as the page shows it (header, title).
#[derive(Debug, Clone, Serialize)]
pub struct ProjectInfo {
    /// The folder.
    pub path: String,
    /// Its last path component.
    pub name: String,
}

fn info(path: &Path) -> ProjectInfo {
    ProjectInfo {
        path: path.display().to_string(),
        name: folder::display_name(path),
    }
}

/// Sets the window title to "<project> — zot".
pub fn set_title(app: &AppHandle, cwd: &Path) {
    if let Some(w) = app.get_webview_window("main") {
        if let Err(e) = w.set_title(&format!("{} — zot", folder::display_name(cwd))) {
            eprintln!("zot: cannot set the window title: {e}");
        }
    }
}

/// The current project.
#[tauri::command]
pub fn project_current(state: State<'_, Desktop>) -> ProjectInfo {
    info(&state.cwd())
}

/// The recent projects, newest first; missing folders are marked.
#[tauri::command]
pub fn projects_recent(state: State<'_, Desktop>) -> Vec<recent::RecentProject> {
    recent::list(state.projects.zot_home())
}

/// Removes a folder from the recent list.
#[tauri::command]
pub fn project_forget(state: State<'_, Desktop>, path: String) -> IpcResult<()> {
    recent::forget(state.projects.zot_home(), Path::new(&path))
        .map_err(|e| IpcError::new("projects", e))
}

/// Opens `path` (or, without one, the folder the user picks) as the
/// project. `None` when the picker was cancelled; an error (and no change)
/// for a folder that cannot be a project.
#[tauri::command]
pub async fn project_open(
    app: AppHandle,
    state: State<'_, Desktop>,
    path: Option<String>,
) -> IpcResult<Option<ProjectInfo>> {
    let dir = match path {
        Some(p) => PathBuf::from(p),
        None => match super::manager::pick_folder(app.clone()).await? {
            Some(p) => PathBuf::from(p),
            None => return Ok(None),
        },
    };
    let switched = state
        .projects
        .switch(&dir)
        .await
        .map_err(|e| IpcError::new("projects", e))?;
    // The old project's panels are gone, and their own windows with them.
    super::panel_window::close_all(&app);
    // The page reloads; hold the new backend's events until it says ready.
    state.ui_ready.send_replace(false);
    let ready = state.ui_ready.subscribe();
    let handle = app.clone();
    tauri::async_runtime::spawn(bridge::forward(handle, switched.events, ready));
    set_title(&app, &switched.cwd);
    let shown = info(&switched.cwd);
    if let Err(e) = app.emit(PROJECT_EVENT, &shown) {
        eprintln!("zot: could not tell the window about the new project: {e}");
    }
    Ok(Some(shown))
}
