//! The user's settings: provider, model and API key, the theme, which
//! OS notifications the window sends and the daily update check. The key
//! goes to `auth.json` (mode 0600, through `auth::save`) and is never handed
//! back in full; the provider/model choice and the theme go to
//! `$ZOT_HOME/config.json`, written to a 0600 temp file and renamed so a
//! crash never leaves half a file. UI-agnostic: the desktop commands are wrappers.

use std::path::Path;

use anyhow::Context;
use serde_json::{json, Value};
use zot_ext_protocol::rpc::RpcCommand;
use zot_ext_protocol::rpc_results::RpcResult;

use crate::backend::Backend;
use crate::config::{read as read_config, write as write_config};
use crate::providers::ProviderKind;

/// The providers a user can pick.
pub const PROVIDERS: [&str; 4] = ["anthropic", "openai", "ollama", "kimi"];

pub use zot_ext_protocol::desktop::{NotificationSettings, Settings, SettingsUpdate};

/// What this run started with, for the values the user has not changed.
#[derive(Debug, Clone)]
pub struct Startup<'a> {
    /// `$ZOT_HOME`.
    pub zot_home: &'a Path,
    /// Provider at start.
    pub provider: &'a str,
    /// Model at start.
    pub model: &'a str,
    /// `--api-key`, which wins over `auth.json`.
    pub api_key: Option<&'a str>,
}

/// The settings now: the live backend's state first, then `config.json`,
/// then what this run started with.
pub async fn current(start: &Startup<'_>, backend: Option<&Backend>) -> Settings {
    let config = read_config(start.zot_home);
    let live = match backend {
        Some(b) => b.call(RpcCommand::GetState {}).await.ok(),
        None => None,
    };
    let live = match live {
        Some(RpcResult::State(s)) => Some(s),
        _ => None,
    };
    let pick = |key: &str, fallback: &str| {
        live.as_ref()
            .and_then(|s| match key {
                "provider" => Some(s.provider.as_str()),
                "model" => Some(s.model.as_str()),
                _ => None,
            })
            .or_else(|| config[key].as_str())
            .unwrap_or(fallback)
            .to_string()
    };
    let provider = pick("provider", start.provider);
    let model = pick("model", start.model);
    let key_hint = parse_provider(&provider)
        .ok()
        .and_then(|kind| crate::secrets::auth::resolve(kind, start.api_key, start.zot_home))
        .map(|(key, _)| key_hint(&key));
    Settings {
        provider,
        model,
        key_hint,
        theme: theme_in(&config),
        providers: PROVIDERS.iter().map(|p| p.to_string()).collect(),
        approvals: match backend {
            Some(b) => b.agent().approvals().mode(),
            None => crate::backend::options::approval_mode(None, true, start.zot_home),
        },
        notifications: notifications_in(&config),
        checkpoints_bytes: crate::checkpoints::prune::disk_usage(start.zot_home),
        update_check: crate::config::update_check(start.zot_home),
    }
}

/// Saves what changed (`config.json`, the key in `auth.json`) and applies
/// it to the running backend: a new provider or key is used from the next
/// prompt on, so a user who had no key does not have to restart.
pub async fn save(
    start: &Startup<'_>,
    backend: &Backend,
    update: &SettingsUpdate,
) -> anyhow::Result<()> {
    let home = start.zot_home;
    let mut config = read_config(home);
    let provider = match &update.provider {
        Some(name) => {
            let kind = parse_provider(name)?;
            config["provider"] = json!(name);
            Some(kind)
        }
        None => None,
    };
    let model = update
        .model
        .as_ref()
        .map(|m| m.trim().to_owned())
        .filter(|m| !m.is_empty());
    if let Some(m) = &model {
        config["model"] = json!(m);
    }
    if let Some(theme) = &update.theme {
        config["theme"] = json!(theme);
    }
    if let Some(n) = &update.notifications {
        config["notifications"] = serde_json::to_value(n)?;
    }
    if let Some(on) = update.update_check {
        config["update_check"] = json!(on);
    }
    write_config(home, &config)?;
    if let Some(mode) = update.approvals {
        crate::agent::approval::rules::remember(
            home,
            &crate::agent::approval::rules::NewRule::Desktop(mode),
        )
        .map_err(anyhow::Error::msg)
        .context("cannot save the approval mode")?;
        backend.agent().approvals().set_mode(mode);
    }
    let key = update
        .api_key
        .as_ref()
        .map(|k| k.trim())
        .filter(|k| !k.is_empty());
    let current = backend.agent().provider().kind;
    if let Some(key) = key {
        crate::secrets::auth::save(home, provider.unwrap_or(current), key)?;
    }
    match provider {
        Some(kind) if kind != current || key.is_some() => backend.use_provider(kind, model),
        _ if key.is_some() => backend.use_provider(current, model),
        _ => {
            if let Some(m) = model {
                backend
                    .handle(RpcCommand::SetModel { model: m.clone() })
                    .await
                    .map_err(anyhow::Error::msg)
                    .with_context(|| format!("cannot switch to model {m}"))?;
            }
        }
    }
    Ok(())
}

/// The theme the user chose (`dark` when none is saved): read at start for
/// the window's first paint (desktop/first_theme.rs).
pub fn theme(home: &Path) -> String {
    theme_in(&read_config(home))
}

fn theme_in(config: &Value) -> String {
    config["theme"].as_str().unwrap_or("dark").to_string()
}

/// Which OS notifications the user turned on, read from `config.json` when
/// one may be due, so a change in Settings applies to the next event.
pub fn notifications(home: &Path) -> NotificationSettings {
    notifications_in(&read_config(home))
}

/// `notifications` in a config object; a missing or malformed value is
/// all off (the default), never an error.
fn notifications_in(config: &Value) -> NotificationSettings {
    serde_json::from_value(config["notifications"].clone()).unwrap_or_default()
}

/// Parses a provider name, saying which names exist when it is unknown.
pub fn parse_provider(name: &str) -> anyhow::Result<ProviderKind> {
    serde_json::from_value(json!(name)).map_err(|_| {
        anyhow::anyhow!(
            "unknown provider \"{name}\"; choose one of {}",
            PROVIDERS.join(", ")
        )
    })
}

/// `…abcd`: enough to recognise a key, never enough to use it.
pub fn key_hint(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 8 {
        return "…".to_string();
    }
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_hint_never_shows_more_than_four_characters() {
        assert_eq!(key_hint("sk-ant-0123456789abcd"), "…abcd");
        assert_eq!(key_hint("short"), "…");
    }

    #[test]
    fn notifications_are_off_until_turned_on_and_bad_values_read_as_off() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(notifications(dir.path()), NotificationSettings::default());
        write_config(
            dir.path(),
            &json!({"notifications": {"turn_end": true, "unknown": 1}}),
        )
        .unwrap();
        let n = notifications(dir.path());
        assert!(n.turn_end && !n.approval && !n.extension_crash, "{n:?}");
        write_config(dir.path(), &json!({"notifications": "yes"})).unwrap();
        assert_eq!(notifications(dir.path()), NotificationSettings::default());
    }

    #[test]
    fn unknown_providers_are_refused_with_the_choices() {
        let e = parse_provider("acme").unwrap_err().to_string();
        assert!(
            e.contains("acme") && e.contains("anthropic, openai, ollama, kimi"),
            "{e}"
        );
        assert!(parse_provider("kimi").is_ok());
    }
}
