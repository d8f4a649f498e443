//! Where secrets live: the OS keychain through the `keyring` crate (the
//! Secret Service on Linux, the Keychain on macOS, the Credential Manager
//! on Windows), or, when none is reachable, one 0600 file under
//! `$ZOT_HOME`. Extension settings marked `sensitive` and zot's own
//! provider keys both go through here, so there is one place that decides
//! and one note that says when the fallback is in use.
//!
//! Every call blocks (a D-Bus round trip on Linux): call it from a
//! blocking thread in async code.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The fallback file for secrets when no keychain is reachable.
pub const FALLBACK_FILE: &str = "secrets.json";

/// Set to `off` to keep secrets in the fallback file even when a keychain
/// is reachable (tests that must not write into a developer's keychain).
pub const KEYCHAIN_ENV: &str = "ZOT_KEYCHAIN";

/// Which store is in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The OS keychain.
    Keychain,
    /// `$ZOT_HOME/secrets.json`, mode 0600.
    File,
}

impl Backend {
    /// `"keychain"` or `"file"`, as `ext_config_get.secret_store` says.
    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Keychain => "keychain",
            Backend::File => "file",
        }
    }
}

/// A secret could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} secret '{account}' in the {store}: {reason}")]
pub struct SecretError {
    /// "read", "store" or "delete".
    pub action: &'static str,
    /// Which secret (never its value).
    pub account: String,
    /// "OS keychain" or the fallback file's path.
    pub store: String,
    /// What went wrong.
    pub reason: String,
}

/// The secret store of one `$ZOT_HOME`.
#[derive(Debug, Clone)]
pub struct SecretStore {
    /// Which backend answered the probe.
    backend: Backend,
    /// The keychain's service name; includes `$ZOT_HOME` so two homes (or a
    /// test's temp home) never share entries.
    service: String,
    /// The fallback file.
    file: PathBuf,
    /// Why the keychain was not used, for the one-time note.
    why_not: Option<String>,
}

impl SecretStore {
    /// Opens the store for `zot_home`: the keychain when it answers, else
    /// the fallback file.
    pub fn open(zot_home: &Path) -> Self {
        let service = format!("zot {}", zot_home.display());
        let file = zot_home.join(FALLBACK_FILE);
        let (backend, why_not) = if std::env::var(KEYCHAIN_ENV).is_ok_and(|v| v == "off") {
            (Backend::File, Some(format!("{KEYCHAIN_ENV}=off")))
        } else {
            match keychain::probe(&service) {
                Ok(()) => (Backend::Keychain, None),
                Err(e) => (Backend::File, Some(e)),
            }
        };
        SecretStore {
            backend,
            service,
            file,
            why_not,
        }
    }

    /// Which backend is in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The note shown (once, in the doctor and in the settings form) when
    /// secrets fall back to a file.
    pub fn fallback_note(&self) -> Option<String> {
        let why = self.why_not.as_deref()?;
        Some(format!(
            "no OS keychain is reachable ({why}); secrets are kept in {} (mode 0600) instead. On Linux, run a Secret Service such as gnome-keyring or KeePassXC to use the keychain",
            self.file.display()
        ))
    }

    /// Reads secret `account`; `None` when it is not set.
    pub fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        match self.backend {
            Backend::Keychain => keychain::get(&self.service, account)
                .map_err(|reason| self.error("read", account, reason)),
            Backend::File => Ok(self.read_file()?.get(account).cloned()),
        }
    }

    /// Stores secret `account`, replacing any old value.
    pub fn set(&self, account: &str, value: &str) -> Result<(), SecretError> {
        match self.backend {
            Backend::Keychain => keychain::set(&self.service, account, value)
                .map_err(|reason| self.error("store", account, reason)),
            Backend::File => {
                let mut all = self.read_file()?;
                all.insert(account.to_owned(), value.to_owned());
                self.write_file(&all, account)
            }
        }
    }

    /// Deletes secret `account`; deleting what is not there is fine.
    pub fn delete(&self, account: &str) -> Result<(), SecretError> {
        match self.backend {
            Backend::Keychain => keychain::delete(&self.service, account)
                .map_err(|reason| self.error("delete", account, reason)),
            Backend::File => {
                let mut all = self.read_file()?;
                if all.remove(account).is_some() {
                    self.write_file(&all, account)?;
                }
                Ok(())
            }
        }
    }

    fn error(&self, action: &'static str, account: &str, reason: String) -> SecretError {
        SecretError {
            action,
            account: account.to_owned(),
            store: match self.backend {
                Backend::Keychain => "OS keychain".to_owned(),
                Backend::File => self.file.display().to_string(),
            },
            reason,
        }
    }

    fn read_file(&self) -> Result<BTreeMap<String, String>, SecretError> {
        match std::fs::read_to_string(&self.file) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| {
                self.error(
                    "read",
                    "*",
                    format!("the file is not a JSON object of strings ({e}); fix or delete it"),
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
            Err(e) => Err(self.error("read", "*", e.to_string())),
        }
    }

    fn write_file(&self, all: &BTreeMap<String, String>, account: &str) -> Result<(), SecretError> {
        let text = serde_json::to_string_pretty(all)
            .map_err(|e| self.error("store", account, e.to_string()))?;
        crate::io::private_file::write(&self.file, text.as_bytes())
            .map_err(|e| self.error("store", account, e.to_string()))
    }
}

#[cfg(any(target_os = "linux", target_os = "macos", windows))]
mod keychain {
    //! The `keyring` crate, with its errors turned into words.

    use keyring::{Entry, Error};

    fn entry(service: &str, account: &str) -> Result<Entry, String> {
        Entry::new(service, account).map_err(|e| e.to_string())
    }

    /// Whether the keychain answers: reading an entry that does not exist
    /// must say "no entry", not fail.
    pub fn probe(service: &str) -> Result<(), String> {
        match entry(service, "zot-probe")?.get_password() {
            Ok(_) | Err(Error::NoEntry) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }

    pub fn get(service: &str, account: &str) -> Result<Option<String>, String> {
        match entry(service, account)?.get_password() {
            Ok(v) => Ok(Some(v)),
            Err(Error::NoEntry) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    pub fn set(service: &str, account: &str, value: &str) -> Result<(), String> {
        entry(service, account)?
            .set_password(value)
            .map_err(|e| e.to_string())
    }

    pub fn delete(service: &str, account: &str) -> Result<(), String> {
        match entry(service, account)?.delete_credential() {
            Ok(()) | Err(Error::NoEntry) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
mod keychain {
    //! No keychain backend for this platform: always the fallback file.

    const NONE: &str = "zot has no keychain backend for this platform";

    pub fn probe(_: &str) -> Result<(), String> {
        Err(NONE.into())
    }
    pub fn get(_: &str, _: &str) -> Result<Option<String>, String> {
        Err(NONE.into())
    }
    pub fn set(_: &str, _: &str, _: &str) -> Result<(), String> {
        Err(NONE.into())
    }
    pub fn delete(_: &str, _: &str) -> Result<(), String> {
        Err(NONE.into())
    }
}
