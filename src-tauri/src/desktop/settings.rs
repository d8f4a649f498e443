//! Settings commands: thin wrappers over `crate::settings`, and the themes
//! the host loaded from extensions.

use tauri::State;
use zot_ext_protocol::desktop::PanelPlacementChoice;
use zot_ext_protocol::ThemeFile;

use super::error::{IpcError, IpcResult};
use super::Desktop;
use crate::dock_sizes::DockSizes;
use crate::settings::{self, Settings, SettingsUpdate, Startup};

fn startup(state: &Desktop) -> Startup<'_> {
    Startup {
        zot_home: &state.ctx.zot_home,
        provider: &state.ctx.provider,
        model: &state.ctx.model,
        api_key: state.ctx.api_key.as_deref(),
    }
}

/// The current settings.
#[tauri::command]
pub async fn settings_get(state: State<'_, Desktop>) -> IpcResult<Settings> {
    let backend = state.backend().await.ok();
    Ok(settings::current(&startup(&state), backend.as_ref()).await)
}

/// Saves what changed and returns the new settings.
#[tauri::command]
pub async fn settings_save(
    state: State<'_, Desktop>,
    update: SettingsUpdate,
) -> IpcResult<Settings> {
    let backend = state.backend().await?;
    settings::save(&startup(&state), &backend, &update)
        .await
        .map_err(|e| IpcError::new("settings", format!("{e:#}")))?;
    Ok(settings::current(&startup(&state), Some(&backend)).await)
}

/// Themes shipped by extensions, as the host loaded and validated them.
#[tauri::command]
pub async fn themes_list(state: State<'_, Desktop>) -> IpcResult<Vec<ThemeFile>> {
    let backend = state.backend().await?;
    Ok(backend
        .host()
        .themes()
        .into_iter()
        .map(|t| t.theme)
        .collect())
}

/// Where the user put each panel (`panel_placements.rs`).
#[tauri::command]
pub fn panel_placements(state: State<'_, Desktop>) -> Vec<PanelPlacementChoice> {
    crate::panel_placements::load(&state.ctx.zot_home)
}

/// Remembers where the user put one panel.
#[tauri::command]
pub fn panel_placement_set(
    state: State<'_, Desktop>,
    choice: PanelPlacementChoice,
) -> IpcResult<()> {
    crate::panel_placements::save(&state.ctx.zot_home, &choice)
        .map_err(|e| IpcError::new("settings", format!("{e:#}")))
}

/// How big the user made the docks (`dock_sizes.rs`).
#[tauri::command]
pub fn dock_sizes(state: State<'_, Desktop>) -> DockSizes {
    crate::dock_sizes::load(&state.ctx.zot_home)
}

/// Remembers a dock's new size (the other one is kept).
#[tauri::command]
pub fn dock_sizes_set(state: State<'_, Desktop>, sizes: DockSizes) -> IpcResult<DockSizes> {
    crate::dock_sizes::save(&state.ctx.zot_home, sizes)
        .map_err(|e| IpcError::new("settings", format!("{e:#}")))
}
