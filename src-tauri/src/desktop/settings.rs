//! Settings: provider, model and API key, and the theme. The key goes to
//! `auth.json` (mode 0600, through the agent's own `auth::save`) and is never
//! sent back in full; the theme and the provider/model choice go to
//! `$ZOT_HOME/config.json`, written to a temp file and renamed.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tauri::State;
use zot_ext_host::{theme, toggle};
use zot_ext_protocol::rpc::{ExtensionSummary, RpcCommand};
use zot_ext_protocol::ThemeFile;

use super::error::{IpcError, IpcResult};
use super::Desktop;
use crate::providers::ProviderKind;

/// What the settings view shows.
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    provider: String,
    model: String,
    /// The key's last four characters, or `None` when no key is set.
    key_hint: Option<String>,
    theme: String,
    providers: Vec<String>,
}

/// A change from the settings view; absent fields stay as they are.
#[derive(Debug, Clone, Deserialize)]
pub struct SettingsUpdate {
    provider: Option<String>,
    model: Option<String>,
    api_key: Option<String>,
    theme: Option<String>,
}

const PROVIDERS: [&str; 4] = ["anthropic", "openai", "ollama", "kimi"];

/// The current settings.
#[tauri::command]
pub async fn settings_get(state: State<'_, Desktop>) -> IpcResult<Settings> {
    current(&state).await
}

/// Saves what changed and returns the new settings.
#[tauri::command]
pub async fn settings_save(
    state: State<'_, Desktop>,
    update: SettingsUpdate,
) -> IpcResult<Settings> {
    let home = &state.ctx.zot_home;
    let mut config = read_config(home);
    if let Some(provider) = &update.provider {
        parse_provider(provider)?;
        config["provider"] = json!(provider);
    }
    if let Some(model) = update.model.as_ref().filter(|m| !m.trim().is_empty()) {
        config["model"] = json!(model);
        let backend = state.backend().await?;
        backend
            .handle(RpcCommand::SetModel {
                model: model.clone(),
            })
            .await
            .map_err(|e| IpcError::new("settings", e))?;
    }
    if let Some(theme) = &update.theme {
        config["theme"] = json!(theme);
    }
    write_config(home, &config)?;
    if let Some(key) = update.api_key.as_ref().filter(|k| !k.trim().is_empty()) {
        let provider = update
            .provider
            .clone()
            .unwrap_or_else(|| state.ctx.provider.clone());
        crate::auth::save(home, parse_provider(&provider)?, key.trim())
            .map_err(|e| IpcError::new("settings", format!("{e:#}")))?;
    }
    current(&state).await
}

/// Themes shipped by theme-only (and other) extensions, validated by the host.
#[tauri::command]
pub async fn themes_list(state: State<'_, Desktop>) -> IpcResult<Vec<ThemeFile>> {
    let backend = state.backend().await?;
    let data = backend
        .handle(RpcCommand::ExtList {})
        .await
        .map_err(|e| IpcError::new("themes", e))?;
    let exts: Vec<ExtensionSummary> =
        serde_json::from_value(data["extensions"].clone()).unwrap_or_default();
    let mut out: Vec<ThemeFile> = Vec::new();
    for ext in exts {
        for file in theme::theme_files(Path::new(&ext.dir)) {
            if let Ok(loaded) = theme::load_file(&file, &ext.name) {
                if !out.iter().any(|t| t.name == loaded.theme.name) {
                    out.push(loaded.theme);
                }
            }
        }
    }
    Ok(out)
}

async fn current(state: &Desktop) -> IpcResult<Settings> {
    let home = &state.ctx.zot_home;
    let config = read_config(home);
    let live = match state.backend().await {
        Ok(b) => b.handle(RpcCommand::GetState {}).await.ok(),
        Err(_) => None,
    };
    let pick = |key: &str, fallback: &str| {
        live.as_ref()
            .and_then(|v| v[key].as_str())
            .or_else(|| config[key].as_str())
            .unwrap_or(fallback)
            .to_string()
    };
    let provider = pick("provider", &state.ctx.provider);
    let model = pick("model", &state.ctx.model);
    let key_hint = parse_provider(&provider)
        .ok()
        .and_then(|kind| crate::auth::resolve(kind, state.ctx.api_key.as_deref(), home))
        .map(|(key, _)| hint(&key));
    Ok(Settings {
        provider,
        model,
        key_hint,
        theme: config["theme"].as_str().unwrap_or("dark").to_string(),
        providers: PROVIDERS.iter().map(|p| p.to_string()).collect(),
    })
}

fn parse_provider(name: &str) -> IpcResult<ProviderKind> {
    serde_json::from_value(json!(name)).map_err(|_| {
        IpcError::new(
            "settings",
            format!(
                "unknown provider \"{name}\"; choose one of {}",
                PROVIDERS.join(", ")
            ),
        )
    })
}

/// `…abcd`: enough to recognise a key, never enough to use it.
fn hint(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 8 {
        return "…".to_string();
    }
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("…{tail}")
}

fn read_config(home: &Path) -> Value {
    std::fs::read_to_string(home.join("config.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}))
}

fn write_config(home: &Path, config: &Value) -> IpcResult<()> {
    std::fs::create_dir_all(home)
        .map_err(|e| IpcError::new("settings", format!("cannot create {}: {e}", home.display())))?;
    let path = home.join("config.json");
    let bytes = serde_json::to_vec_pretty(config).map_err(|e| IpcError::new("settings", e))?;
    toggle::write_atomically(&path, &bytes).map_err(|e| IpcError::new("settings", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_never_shows_more_than_four_characters() {
        assert_eq!(hint("sk-ant-0123456789abcd"), "…abcd");
        assert_eq!(hint("short"), "…");
    }

    #[test]
    fn config_round_trips_and_keeps_other_keys() {
        let dir = tempfile::tempdir().unwrap();
        write_config(dir.path(), &json!({"theme": "light", "other": 1})).unwrap();
        let mut c = read_config(dir.path());
        c["theme"] = json!("dark");
        write_config(dir.path(), &c).unwrap();
        assert_eq!(
            read_config(dir.path()),
            json!({"theme": "dark", "other": 1})
        );
    }
}
