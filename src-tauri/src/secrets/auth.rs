//! Credentials: `--api-key`, then the provider's environment variables,
//! then the OS keychain, then `$ZOT_HOME/auth.json` (mode 0600, written
//! atomically), which is only used when no keychain is reachable. Keys found
//! in `auth.json` while a keychain is reachable move into it once, and the
//! file loses them (or goes, when nothing else is in it).

use std::path::Path;

use anyhow::Context;
use serde_json::{json, Value};

use zot_ext_host::secret_store::{Backend, SecretStore};

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
    /// The OS keychain.
    Keychain,
}

/// The keychain account of a provider's key.
fn account(kind: ProviderKind) -> String {
    format!("provider/{}", kind.as_str())
}

/// The providers whose keys may be stored.
const KINDS: [ProviderKind; 4] = [
    ProviderKind::Anthropic,
    ProviderKind::Openai,
    ProviderKind::Ollama,
    ProviderKind::Kimi,
];

fn read_auth(zot_home: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(zot_home.join("auth.json")).ok()?;
    serde_json::from_str::<Value>(&text)
        .ok()
        .filter(Value::is_object)
}

fn key_in(auth: &Value, kind: ProviderKind) -> Option<String> {
    let entry = auth.get(kind.as_str())?;
    entry
        .get("api_key")
        .and_then(Value::as_str)
        .or(entry.as_str())
        .filter(|k| !k.is_empty())
        .map(str::to_owned)
}

/// Moves every key in `auth.json` into the keychain (each read back before
/// it leaves the file), then rewrites the file without them, or removes it
/// when nothing else is left. Runs whenever keys are looked up with a
/// keychain reachable, so it happens once and needs no marker.
pub fn migrate(zot_home: &Path, store: &SecretStore) -> anyhow::Result<()> {
    if store.backend() != Backend::Keychain {
        return Ok(());
    }
    let Some(mut auth) = read_auth(zot_home) else {
        return Ok(());
    };
    let mut moved = false;
    for kind in KINDS {
        let Some(key) = key_in(&auth, kind) else {
            continue;
        };
        store.set(&account(kind), &key)?;
        if store.get(&account(kind))?.as_deref() != Some(key.as_str()) {
            anyhow::bail!(
                "the keychain did not keep the {} key; it stays in {}",
                kind.as_str(),
                zot_home.join("auth.json").display()
            );
        }
        if let Some(obj) = auth.as_object_mut() {
            obj.remove(kind.as_str());
        }
        moved = true;
    }
    if moved {
        let path = zot_home.join("auth.json");
        if auth.as_object().is_some_and(serde_json::Map::is_empty) {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        } else {
            crate::state_dir::write_private(&path, serde_json::to_string_pretty(&auth)?.as_bytes())
                .with_context(|| format!("cannot replace {}", path.display()))?;
        }
    }
    Ok(())
}

/// Every stored provider key (keychain and `auth.json`), for the redactor.
pub fn stored_keys(zot_home: &Path) -> Vec<String> {
    let store = SecretStore::open(zot_home);
    let mut out = Vec::new();
    if store.backend() == Backend::Keychain {
        out.extend(
            KINDS
                .iter()
                .filter_map(|k| store.get(&account(*k)).ok().flatten()),
        );
    }
    if let Some(auth) = read_auth(zot_home) {
        out.extend(KINDS.iter().filter_map(|k| key_in(&auth, *k)));
    }
    out
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
        // Taken at start (`secrets/startup.rs`): no longer in the
        // environment itself.
        if let Some(k) = super::startup::var(var) {
            if !k.is_empty() {
                return Some((k, KeySource::Env((*var).to_owned())));
            }
        }
    }
    let store = SecretStore::open(zot_home);
    if store.backend() == Backend::Keychain {
        if let Err(e) = migrate(zot_home, &store) {
            tracing_note(&format!("moving API keys into the keychain failed: {e:#}"));
        }
        if let Ok(Some(k)) = store.get(&account(kind)) {
            if !k.is_empty() {
                return Some((k, KeySource::Keychain));
            }
        }
    }
    read_auth(zot_home)
        .and_then(|v| key_in(&v, kind))
        .map(|k| (k, KeySource::File))
}

/// Said on stderr (never stdout, which may carry RPC frames).
fn tracing_note(msg: &str) {
    eprintln!("zot: {msg}");
}

/// The message for a missing key: every way to set one.
pub fn missing_key_message(kind: ProviderKind, zot_home: &Path) -> String {
    let env = kind.env_vars().join(" or ");
    format!(
        "no API key for {p}: pass --api-key KEY, or set {env} in the environment, or save one in the app's settings (kept in the OS keychain), or put {{\"{p}\": {{\"api_key\": \"KEY\"}}}} in {} (mode 0600)",
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
    let store = SecretStore::open(zot_home);
    if store.backend() == Backend::Keychain {
        store.set(&account(kind), key)?;
        // Anything still in the file (this key's old value included) moves.
        return migrate(zot_home, &store);
    }
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
