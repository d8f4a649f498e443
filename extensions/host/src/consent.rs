//! What the user accepted each extension may do, remembered in
//! `$ZOT_HOME/permissions.json`, so an update that asks for more is not
//! started until the user accepts the new list (docs/security.md).
//!
//! Keyed by the extension's canonical directory (as `trust.json` keys
//! projects), so a symlink cannot borrow another extension's consent.
//! Written by an install (both front ends), by `zot ext accept` and the
//! manager's dialog, and, the first time a load meets an extension that has
//! no entry (one installed before this file existed, or copied by hand),
//! with the grant it has then: trust on first use. The file is rewritten
//! through a temp file and a rename (mode 0600). A file that cannot be read
//! or parsed is left alone and checks nothing until an accept rewrites it,
//! so a damaged file never turns into a silent "accept everything".

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zot_ext_protocol::{Manifest, Permission, PermissionGrant};

use crate::ext_ops::{locate, OpsError, OpsResult, MANIFEST_FILE};
use crate::manifest;
use crate::permission_words::{grant_words, permission_words};

/// The file under `$ZOT_HOME` that remembers accepted permissions.
pub const CONSENT_FILE: &str = "permissions.json";

/// The file's shape.
#[derive(Debug, Default, Serialize, Deserialize)]
struct ConsentFile {
    #[serde(default = "version_one")]
    version: u32,
    /// Canonical extension directory → what was accepted for it.
    #[serde(default)]
    accepted: BTreeMap<PathBuf, Accepted>,
}

/// One extension's accepted grant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Accepted {
    /// Its name when accepted (for a human reading the file).
    pub name: String,
    /// The list, or `"unrestricted"`.
    pub permissions: PermissionGrant,
}

fn version_one() -> u32 {
    1
}

/// `$ZOT_HOME/permissions.json`.
pub fn consent_file(zot_home: &Path) -> PathBuf {
    zot_home.join(CONSENT_FILE)
}

/// The key of `dir`: canonical when it exists, as given otherwise.
fn key(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// Every accepted grant, read once per load. `None` when the file exists
/// but cannot be read or parsed (then nothing is checked or recorded).
pub(crate) fn read(zot_home: &Path) -> Option<BTreeMap<PathBuf, Accepted>> {
    let path = consent_file(zot_home);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice::<ConsentFile>(&bytes)
            .ok()
            .map(|f| f.accepted),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(BTreeMap::new()),
        Err(_) => None,
    }
}

/// What was accepted for the extension in `dir`, if anything.
pub fn accepted(zot_home: &Path, dir: &Path) -> Option<PermissionGrant> {
    read(zot_home)?
        .get(&key(dir))
        .map(|a| a.permissions.clone())
}

/// What a load decided for one extension.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// Within what was accepted.
    Accepted,
    /// Never seen: accepted as it is now (recorded by [`Book::save`]).
    FirstSeen,
    /// It asks for these beyond what was accepted; not started.
    AsksMore {
        more: Vec<Permission>,
        had: PermissionGrant,
    },
}

/// The accepted grants during one load, with the first-seen ones to add.
pub(crate) struct Book {
    zot_home: PathBuf,
    entries: Option<BTreeMap<PathBuf, Accepted>>,
    added: bool,
}

impl Book {
    /// Reads `$ZOT_HOME/permissions.json` once.
    pub fn open(zot_home: &Path) -> Book {
        Book {
            zot_home: zot_home.to_path_buf(),
            entries: read(zot_home),
            added: false,
        }
    }

    /// Checks `grant` of the extension `name` in `dir` against what was
    /// accepted for it.
    pub fn check(&mut self, dir: &Path, name: &str, grant: &PermissionGrant) -> Verdict {
        let Some(entries) = self.entries.as_mut() else {
            return Verdict::Accepted;
        };
        let k = key(dir);
        match entries.get(&k) {
            Some(a) => {
                let more = grant.beyond(&a.permissions);
                if more.is_empty() {
                    Verdict::Accepted
                } else {
                    Verdict::AsksMore {
                        more,
                        had: a.permissions.clone(),
                    }
                }
            }
            None => {
                entries.insert(
                    k,
                    Accepted {
                        name: name.to_owned(),
                        permissions: grant.clone(),
                    },
                );
                self.added = true;
                Verdict::FirstSeen
            }
        }
    }

    /// Writes the first-seen grants, if any. A failure is returned for the
    /// caller to log; the extensions run either way (they were first seen).
    pub fn save(self) -> Result<(), ConsentError> {
        match self.entries {
            Some(entries) if self.added => write(&self.zot_home, entries),
            _ => Ok(()),
        }
    }
}

/// Writing `permissions.json` failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write {path}: {message}; check that the directory is writable")]
pub struct ConsentError {
    /// The file.
    pub path: PathBuf,
    /// The OS's reason.
    pub message: String,
}

impl From<ConsentError> for OpsError {
    fn from(e: ConsentError) -> Self {
        OpsError::ConsentWrite {
            path: e.path,
            message: e.message,
        }
    }
}

/// Records `grant` as accepted for the extension `name` in `dir`. A file
/// that could not be read is replaced by one holding just this entry.
pub fn record(
    zot_home: &Path,
    dir: &Path,
    name: &str,
    grant: &PermissionGrant,
) -> Result<(), ConsentError> {
    let mut entries = read(zot_home).unwrap_or_default();
    entries.insert(
        key(dir),
        Accepted {
            name: name.to_owned(),
            permissions: grant.clone(),
        },
    );
    write(zot_home, entries)
}

/// What `zot ext accept` (and the manager's dialog) did.
#[derive(Debug, Clone, PartialEq)]
pub struct AcceptOutcome {
    /// The extension.
    pub name: String,
    /// Its directory.
    pub dir: PathBuf,
    /// What is accepted now.
    pub grant: PermissionGrant,
    /// Of those, what was not accepted before.
    pub added: Vec<Permission>,
    /// [`grant_words`] of the grant.
    pub words: Vec<String>,
    /// [`permission_words`] of `added`.
    pub added_words: Vec<String>,
}

/// Accepts what the installed extension `name` asks for now (project
/// copy first, as loading finds it). It starts after the next reload.
pub fn accept(zot_home: &Path, cwd: &Path, name: &str) -> OpsResult<AcceptOutcome> {
    let found = locate(zot_home, cwd, name)?;
    let m = read_manifest(&found.dir)?;
    let grant = m.grant();
    let had = accepted(zot_home, &found.dir);
    let added = match &had {
        Some(had) => grant.beyond(had),
        None => Vec::new(),
    };
    record(zot_home, &found.dir, name, &grant)?;
    Ok(AcceptOutcome {
        name: name.to_owned(),
        dir: found.dir,
        words: grant_words(&grant),
        added_words: added
            .iter()
            .map(|p| permission_words(*p).to_owned())
            .collect(),
        added,
        grant,
    })
}

fn read_manifest(dir: &Path) -> OpsResult<Manifest> {
    let file = dir.join(MANIFEST_FILE);
    manifest::load(&file).map_err(|e| OpsError::BadManifest {
        file,
        reason: match e.field {
            Some(field) => format!("field `{field}`: {}", e.message),
            None => e.message,
        },
    })
}

/// Writes the book atomically with mode 0600 (`private_file`).
fn write(zot_home: &Path, accepted: BTreeMap<PathBuf, Accepted>) -> Result<(), ConsentError> {
    let path = consent_file(zot_home);
    let werr = |message: String| ConsentError {
        path: path.clone(),
        message,
    };
    let body = serde_json::to_vec_pretty(&ConsentFile {
        version: 1,
        accepted,
    })
    .map_err(|e| werr(e.to_string()))?;
    crate::private_file::write(&path, &body).map_err(|e| werr(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_seen_grant_is_recorded_and_more_is_refused_after() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("ext");
        std::fs::create_dir_all(&dir).unwrap();
        let small = PermissionGrant::List(vec![Permission::Commands]);
        let mut book = Book::open(home.path());
        assert_eq!(book.check(&dir, "ext", &small), Verdict::FirstSeen);
        book.save().unwrap();
        let more = PermissionGrant::List(vec![Permission::Commands, Permission::Submit]);
        let mut book = Book::open(home.path());
        assert_eq!(
            book.check(&dir, "ext", &more),
            Verdict::AsksMore {
                more: vec![Permission::Submit],
                had: small.clone()
            }
        );
        assert_eq!(book.check(&dir, "ext", &small), Verdict::Accepted);
        record(home.path(), &dir, "ext", &more).unwrap();
        assert_eq!(
            Book::open(home.path()).check(&dir, "ext", &more),
            Verdict::Accepted
        );
    }

    #[test]
    fn a_corrupt_file_checks_nothing_and_is_not_overwritten_by_a_load() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(consent_file(home.path()), "{").unwrap();
        let mut book = Book::open(home.path());
        assert_eq!(
            book.check(home.path(), "x", &PermissionGrant::unrestricted()),
            Verdict::Accepted
        );
        book.save().unwrap();
        assert_eq!(
            std::fs::read_to_string(consent_file(home.path())).unwrap(),
            "{"
        );
    }
}
