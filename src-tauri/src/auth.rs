//! Credentials: `--api-key`, then the provider's environment variables,
//! then `$ZOT_HOME/auth.json` (kept at mode 0600 and written atomically).

use std::path::Path;

use anyhow::Context;
use serde_json::{json, Value};

use crate::providers::ProviderKind;

/// Where a key came from (for messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// `--api-key`.
    Flag,
    /// An environment variable.
    Env(String),
    /// `$ZOT_HOME/auth.json`.
    File,
}

/// Finds the key for a provider, first source wins.
pub fn resolve(
    kind: ProviderKind,
    flag: Option<&str>,
    zot_home: &Path,
) -> Option<(String, KeySource)> {
    if let Some(k) = flag.filter(|k| !k.is_empty()) {
        return Some((k.to_owned(), KeySource::Flag));
    }
    for var in kind.env_vars() {
        if let Ok(k) = std::env::var(var) {
            if !k.is_empty() {
                return Some((k, KeySource::Env((*var).to_owned())));
            }
        }
    }
    let text = std::fs::read_to_string(zot_home.join("auth.json")).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    let entry = &v[kind.as_str()];
    entry["api_key"]
        .as_str()
        .or(entry.as_str())
        .filter(|k| !k.is_empty())
        .map(|k| (k.to_owned(), KeySource::File))
}

/// The message for a missing key: every way to set one.
pub fn missing_key_message(kind: ProviderKind, zot_home: &Path) -> String {
    let env = kind.env_vars().join(" or ");
    format!(
        "no API key for {p}: pass --api-key KEY, or set {env} in the environment, or put {{\"{p}\": {{\"api_key\": \"KEY\"}}}} in {} (mode 0600)",
        zot_home.join("auth.json").display(),
        p = kind.as_str(),
    )
}

/// Stores a key in `auth.json`, keeping other providers' keys, via a 0600
/// temp file renamed into place (in a 0700 `$ZOT_HOME`) so a crash never
/// leaves half a file and the key is never readable by others.
pub fn save(zot_home: &Path, kind: ProviderKind, key: &str) -> anyhow::Result<()> {
    // Read-modify-write: two saves in one process (the settings screen
    // saving two providers) must not lose one another's key.
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let path = zot_home.join("auth.json");
    let mut v: Value = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    v[kind.as_str()] = json!({ "api_key": key });
    crate::state_dir::write_private(&path, serde_json::to_string_pretty(&v)?.as_bytes())
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_saves_keep_every_providers_key() {
        let home = tempfile::tempdir().unwrap();
        let kinds = [
            ProviderKind::Anthropic,
            ProviderKind::Openai,
            ProviderKind::Kimi,
            ProviderKind::Ollama,
        ];
        std::thread::scope(|s| {
            for (i, k) in kinds.iter().enumerate() {
                let h = home.path();
                s.spawn(move || save(h, *k, &format!("key{i}")).unwrap());
            }
        });
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(home.path().join("auth.json")).unwrap())
                .unwrap();
        for (i, k) in kinds.iter().enumerate() {
            assert_eq!(v[k.as_str()]["api_key"], format!("key{i}"));
        }
    }

    #[test]
    fn flag_wins_and_auth_json_is_the_last_resort() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(resolve(ProviderKind::Ollama, None, home.path()), None);
        save(home.path(), ProviderKind::Ollama, "from-file").unwrap();
        assert_eq!(
            resolve(ProviderKind::Ollama, None, home.path()),
            Some(("from-file".into(), KeySource::File))
        );
        assert_eq!(
            resolve(ProviderKind::Ollama, Some("f"), home.path()),
            Some(("f".into(), KeySource::Flag))
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(home.path().join("auth.json"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
