//! Where an extension's settings are kept and how they are put together:
//! plain values in `$ZOT_HOME/config/<key>.json` (0600, written
//! atomically), secrets in the [`SecretStore`], defaults from the
//! manifest's schema. Both are keyed by the extension's folder
//! ([`Owner`]), so a same-name copy elsewhere gets none of them. The host calls [`resolve`] before each start (for
//! `hello_ack.config`), and the RPC commands and `zot ext config` call
//! [`resolve`] and [`apply`]. Nothing here ever puts a secret's value into
//! an error or a warning.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use zot_ext_protocol::{SettingValues, SettingsSchema};

use crate::settings::secret_store::{Backend, SecretError, SecretStore};
pub use crate::settings::settings_owner::Owner;
use crate::settings::settings_schema::{check_value, is_mask, SettingError};

/// The settings of one extension, as the extension receives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// Every setting that has a value (stored or default), secrets included.
    pub values: SettingValues,
    /// Required settings without a value, in schema order.
    pub missing: Vec<String>,
    /// What the user should know (a corrupt file moved aside, a stored
    /// value that no longer fits the schema, the keychain fallback).
    pub warnings: Vec<String>,
    /// Where secrets are kept.
    pub backend: Backend,
}

/// Why settings could not be read or stored.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SettingsError {
    /// A value broke its setting's rule; nothing was stored.
    #[error("{0}; nothing was stored")]
    Invalid(SettingError),
    /// The keychain (or the fallback file) failed.
    #[error(transparent)]
    Secret(#[from] SecretError),
    /// The settings file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// `config/<name>.json`.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

/// `$ZOT_HOME/config/<stem>.json`; the stem is an [`Owner::key`] (or, in a
/// home written before settings were keyed by folder, a name).
pub fn config_path(zot_home: &Path, stem: &str) -> PathBuf {
    zot_home.join("config").join(format!("{stem}.json"))
}

/// The keychain account of one secret setting of the file `stem`.
fn account(stem: &str, key: &str) -> String {
    format!("ext/{stem}/{key}")
}

/// The file's shape: the plain values, and which secrets have been set
/// (names only, so the doctor and the redactor find them without
/// searching the keychain).
#[derive(Debug, Default)]
struct Stored {
    values: Map<String, Value>,
    secrets: Vec<String>,
}

fn read_stored(zot_home: &Path, stem: &str, warnings: &mut Vec<String>) -> Stored {
    let path = config_path(zot_home, stem);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Stored::default();
    };
    let parsed: Option<Map<String, Value>> = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| v.as_object().cloned());
    let Some(obj) = parsed else {
        warnings.push(corrupt(&path));
        return Stored::default();
    };
    Stored {
        values: obj
            .get("values")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        secrets: obj
            .get("secrets")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// Moves a corrupt settings file aside (keeping it for the user to look
/// at) and says so; the defaults are used meanwhile.
fn corrupt(path: &Path) -> String {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let aside = path.with_extension(format!("json.corrupt-{stamp}"));
    match std::fs::rename(path, &aside) {
        Ok(()) => format!(
            "settings file {} was not valid JSON; moved it to {} and used the defaults: set the values again",
            path.display(),
            aside.display()
        ),
        Err(e) => format!(
            "settings file {} is not valid JSON and could not be moved aside ({e}); the defaults are used: delete it",
            path.display()
        ),
    }
}

fn write_stored(zot_home: &Path, owner: &Owner, stored: &Stored) -> Result<(), SettingsError> {
    let path = config_path(zot_home, owner.key());
    let mut obj = Map::new();
    // For a person reading the folder: whose file this is.
    obj.insert("extension".into(), Value::String(owner.name().to_owned()));
    obj.insert(
        "dir".into(),
        Value::String(owner.dir().display().to_string()),
    );
    obj.insert("values".into(), Value::Object(stored.values.clone()));
    obj.insert(
        "secrets".into(),
        Value::Array(stored.secrets.iter().cloned().map(Value::String).collect()),
    );
    let text = serde_json::to_string_pretty(&Value::Object(obj)).unwrap_or_default();
    crate::io::private_file::write(&path, text.as_bytes())
        .map_err(|source| SettingsError::Io { path, source })
}

/// Puts together the settings of the extension `owner`: stored values,
/// the secrets, and the schema's defaults; lists the required ones missing.
pub fn resolve(
    zot_home: &Path,
    owner: &Owner,
    schema: &SettingsSchema,
) -> Result<Resolved, SettingsError> {
    let store = SecretStore::open(zot_home);
    let mut warnings = adopt_legacy(&store, zot_home, owner);
    let mut r = resolve_with(&store, zot_home, owner, schema)?;
    warnings.append(&mut r.warnings);
    r.warnings = warnings;
    Ok(r)
}

/// Moves settings keyed by name (an older zot's) to the installed copy's
/// key, the first time it reads them; see `settings_owner.rs`. What could
/// not be moved is said in a warning and left where it was.
fn adopt_legacy(store: &SecretStore, zot_home: &Path, owner: &Owner) -> Vec<String> {
    let Some(old) = owner.legacy_key(zot_home) else {
        return Vec::new();
    };
    let (from, to) = (
        config_path(zot_home, &old),
        config_path(zot_home, owner.key()),
    );
    if to.exists() || !from.is_file() {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    let stored = read_stored(zot_home, &old, &mut warnings);
    for key in &stored.secrets {
        let moved = store.get(&account(&old, key)).and_then(|v| match v {
            Some(v) => store.set(&account(owner.key(), key), &v),
            None => Ok(()),
        });
        if let Err(e) = moved {
            warnings.push(format!(
                "could not move the secret '{key}' of '{}' to its new place: {e}; set it again",
                owner.name()
            ));
        }
    }
    if let Err(e) = write_stored(zot_home, owner, &stored) {
        warnings.push(e.to_string());
        return warnings;
    }
    for key in &stored.secrets {
        let _ = store.delete(&account(&old, key));
    }
    let _ = std::fs::remove_file(&from);
    warnings
}

fn resolve_with(
    store: &SecretStore,
    zot_home: &Path,
    owner: &Owner,
    schema: &SettingsSchema,
) -> Result<Resolved, SettingsError> {
    let mut warnings = Vec::new();
    let stored = read_stored(zot_home, owner.key(), &mut warnings);
    let mut values = SettingValues::new();
    let mut missing = Vec::new();
    for (key, spec) in schema {
        let value = if spec.sensitive {
            if stored.secrets.iter().any(|s| s == key) {
                store.get(&account(owner.key(), key))?.map(Value::String)
            } else {
                None
            }
        } else {
            match stored.values.get(key) {
                Some(v) => match check_value(key, spec, v) {
                    Ok(()) => Some(v.clone()),
                    Err(e) => {
                        warnings.push(format!(
                            "the stored value of {e} (the manifest changed?); the default is used"
                        ));
                        spec.default.clone()
                    }
                },
                None => spec.default.clone(),
            }
        };
        match value {
            Some(v) => {
                values.insert(key.clone(), v);
            }
            None if spec.required => missing.push(key.clone()),
            None => {}
        }
    }
    if schema.values().any(|s| s.sensitive) {
        warnings.extend(store.fallback_note());
    }
    Ok(Resolved {
        values,
        missing,
        warnings,
        backend: store.backend(),
    })
}

/// Validates `changes` against the schema and stores them: every value is
/// checked before anything is written, so a bad one leaves everything as
/// it was. `null` clears a setting; a masked secret (as `ext_config_get`
/// shows it) leaves the stored one alone.
pub fn apply(
    zot_home: &Path,
    owner: &Owner,
    schema: &SettingsSchema,
    changes: &SettingValues,
) -> Result<Resolved, SettingsError> {
    let name = owner.name();
    for (key, value) in changes {
        let Some(spec) = schema.get(key) else {
            let known: Vec<&str> = schema.keys().map(String::as_str).collect();
            return Err(SettingsError::Invalid(SettingError {
                key: key.clone(),
                rule: if known.is_empty() {
                    format!("'{name}' declares no settings")
                } else {
                    format!(
                        "'{name}' has no such setting; its settings are {}",
                        known.join(", ")
                    )
                },
            }));
        };
        if value.is_null() || (spec.sensitive && is_mask(value)) {
            continue;
        }
        check_value(key, spec, value).map_err(|mut e| {
            if spec.sensitive {
                // The rule may quote the value; a secret's must not be.
                e.rule = "is not a valid value for this secret setting".into();
            }
            SettingsError::Invalid(e)
        })?;
    }
    let store = SecretStore::open(zot_home);
    let mut warnings = adopt_legacy(&store, zot_home, owner);
    let mut stored = read_stored(zot_home, owner.key(), &mut warnings);
    for (key, value) in changes {
        let Some(spec) = schema.get(key) else {
            continue;
        };
        if spec.sensitive {
            if is_mask(value) {
                continue;
            }
            let acct = account(owner.key(), key);
            match value.as_str() {
                Some(secret) => {
                    store.set(&acct, secret)?;
                    if !stored.secrets.contains(key) {
                        stored.secrets.push(key.clone());
                    }
                }
                None => {
                    store.delete(&acct)?;
                    stored.secrets.retain(|s| s != key);
                }
            }
        } else if value.is_null() {
            stored.values.remove(key);
        } else {
            stored.values.insert(key.clone(), value.clone());
        }
    }
    write_stored(zot_home, owner, &stored)?;
    let mut out = resolve_with(&store, zot_home, owner, schema)?;
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}

/// Every secret stored for any extension of this `$ZOT_HOME`, for the
/// redactor that masks them in everything a front end sees.
pub fn stored_secrets(zot_home: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(zot_home.join("config")) else {
        return Vec::new();
    };
    let store = SecretStore::open(zot_home);
    let mut out = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let file = entry.file_name();
        let Some(name) = file.to_str().and_then(|f| f.strip_suffix(".json")) else {
            continue;
        };
        let mut ignored = Vec::new();
        // Read-only here: a corrupt file is moved aside by `resolve`, not
        // by the redactor.
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        if serde_json::from_str::<Value>(&text).is_err() {
            continue;
        }
        for key in read_stored(zot_home, name, &mut ignored).secrets {
            if let Ok(Some(v)) = store.get(&account(name, &key)) {
                out.push(v);
            }
        }
    }
    out
}

/// Deletes everything stored for the extension `owner` (call it before its
/// folder goes, while the folder still resolves): its secrets (keychain or
/// fallback file) and its settings file, and, for the installed copy,
/// those still keyed by its name. Used when it is removed, so no secret of
/// an extension that is gone stays behind. Best effort: what could not be
/// deleted is returned in words (never a value).
pub fn forget(zot_home: &Path, owner: &Owner) -> Vec<String> {
    let mut problems = Vec::new();
    let stems = std::iter::once(owner.key().to_owned()).chain(owner.legacy_key(zot_home));
    for stem in stems {
        let path = config_path(zot_home, &stem);
        if !path.exists() {
            continue;
        }
        let stored = read_stored(zot_home, &stem, &mut problems);
        if !stored.secrets.is_empty() {
            let store = SecretStore::open(zot_home);
            for key in &stored.secrets {
                if let Err(e) = store.delete(&account(&stem, key)) {
                    problems.push(e.to_string());
                }
            }
        }
        if let Err(e) = std::fs::remove_file(&path) {
            if e.kind() != std::io::ErrorKind::NotFound {
                problems.push(format!("cannot delete {}: {e}", path.display()));
            }
        }
    }
    problems
}

/// What every "required setting missing" error contains, so the host
/// knows such an extension may start once its settings are complete.
pub const MISSING_MARK: &str = "needs the required setting";

/// The message for an extension that cannot start because required
/// settings have no value: which, and how to set them.
pub fn missing_message(name: &str, schema: &SettingsSchema, missing: &[String]) -> String {
    let list: Vec<String> = missing
        .iter()
        .map(|k| match schema.get(k) {
            Some(s) => format!("'{k}' ({})", s.title),
            None => format!("'{k}'"),
        })
        .collect();
    let first = missing.first().map(String::as_str).unwrap_or("KEY");
    // A secret is typed at the prompt, never given on the command line.
    let value = if schema.get(first).is_some_and(|s| s.sensitive) {
        ""
    } else {
        " VALUE"
    };
    format!(
        "{MISSING_MARK}{} {}: set {} with `zot ext config {name} {first}{value}` or with Configure… in the extension manager",
        if missing.len() == 1 { "" } else { "s" },
        list.join(", "),
        if missing.len() == 1 { "it" } else { "them" },
    )
}
