//! What the user accepted each extension may do, remembered in
//! `$ZOT_HOME/permissions.json`, so an extension whose manifest reaches
//! further than that (an update, or a sandboxed extension that edited its
//! own manifest) is not started until the user accepts the change
//! (docs/security.md "Permissions").
//!
//! Each entry holds everything that decides what an extension may do: its
//! permissions and its reach (sandbox, program, arguments, environment,
//! kind, URL: [`Reach`]); [`crate::policy::widening`] says what counts as more.
//! Keyed by the extension's canonical directory (as `trust.json` keys
//! projects), so a symlink cannot borrow another extension's consent.
//! Written by an install (both front ends), by `zot ext accept` and the
//! manager's card, by trusting a project (its extensions as listed), and,
//! the first time a load meets an installed extension that has no entry
//! (one installed before this file existed, or copied by hand), with what
//! it asks for then: trust on first use. A project's extension is never
//! trusted on first use: one zot has not seen waits for the user like an
//! untrusted project's (docs/security.md "Project trust").
//!
//! Version 1 of the file recorded only permissions. Such an entry is
//! completed on the first load that meets it with the reach its manifest
//! declares then (the same trust on first use the file began with), and
//! rewritten as version 2. The file is rewritten through a temp file and a
//! rename (mode 0600). A file that cannot be read or parsed is left alone:
//! it checks nothing for installed extensions and accepts no project
//! extension until an accept rewrites it, so a damaged file never turns
//! into a silent "accept everything".

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zot_ext_protocol::rpc::Scope;
use zot_ext_protocol::{Manifest, Permission, PermissionGrant, Widening};

use crate::manage::ext_ops::{locate, OpsError, OpsResult, MANIFEST_FILE};
use crate::manifest;
use crate::policy::permission_words::{grant_words, permission_words};
use crate::policy::widening::{widenings, Reach};

/// The file under `$ZOT_HOME` that remembers accepted permissions.
pub const CONSENT_FILE: &str = "permissions.json";

/// The version this zot writes (1 held permissions only).
const VERSION: u32 = 2;

/// The file's shape.
#[derive(Debug, Default, Serialize, Deserialize)]
struct ConsentFile {
    #[serde(default = "version_one")]
    version: u32,
    /// Canonical extension directory → what was accepted for it.
    #[serde(default)]
    accepted: BTreeMap<PathBuf, Accepted>,
}

/// What the user accepted for one extension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Accepted {
    /// Its name when accepted (for a human reading the file).
    pub name: String,
    /// The list, or `"unrestricted"`.
    pub permissions: PermissionGrant,
    /// Its sandbox, program, arguments, environment, kind and URL; `None`
    /// in an entry of version 1, which recorded permissions only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reach: Option<Reach>,
}

impl Accepted {
    /// Everything `m` declares, as accepted for extension `name`.
    pub fn of(name: &str, m: &Manifest) -> Accepted {
        Accepted {
            name: name.to_owned(),
            permissions: m.grant(),
            reach: Some(Reach::of(m)),
        }
    }

    /// What `now` asks for beyond this, in words; a version-1 entry
    /// compares permissions only.
    pub fn widenings(&self, now: &Manifest) -> Vec<Widening> {
        let reach = self.reach.clone().unwrap_or_else(|| Reach::of(now));
        widenings(&self.permissions, &reach, now)
    }
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

/// Every accepted entry, read once per load. `None` when the file exists
/// but cannot be read or parsed.
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
pub fn accepted(zot_home: &Path, dir: &Path) -> Option<Accepted> {
    read(zot_home)?.get(&key(dir)).cloned()
}

/// What a load decided for one extension.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// Within what was accepted.
    Accepted,
    /// An installed extension never seen: accepted as it is now (recorded
    /// by [`Book::save`]).
    FirstSeen,
    /// A project's extension zot has never seen: it waits for the user.
    New,
    /// It reaches further than what was accepted; not started.
    Widened {
        /// Of that, the permissions (in the spec's order).
        more: Vec<Permission>,
        /// Everything, in words.
        widened: Vec<Widening>,
    },
}

/// The accepted entries during one load, with the first-seen ones to add.
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

    /// Checks the manifest `m` of the extension `name` in `dir`, found in
    /// `scope`, against what was accepted for it. `accept_new` accepts a
    /// project's extension never seen (the user trusted the folder as it
    /// is at this load: `--trust-project`).
    pub fn check(
        &mut self,
        dir: &Path,
        name: &str,
        scope: Scope,
        m: &Manifest,
        accept_new: bool,
    ) -> Verdict {
        let project = scope == Scope::Project;
        let Some(entries) = self.entries.as_mut() else {
            return if project && !accept_new {
                Verdict::New
            } else {
                Verdict::Accepted
            };
        };
        let k = key(dir);
        match entries.get_mut(&k) {
            Some(a) => {
                let widened = a.widenings(m);
                if !widened.is_empty() {
                    return Verdict::Widened {
                        more: m.grant().beyond(&a.permissions),
                        widened,
                    };
                }
                if a.reach.is_none() {
                    // A version-1 entry: completed with what it declares now.
                    a.reach = Some(Reach::of(m));
                    self.added = true;
                }
                Verdict::Accepted
            }
            None if project && !accept_new => Verdict::New,
            None => {
                entries.insert(k, Accepted::of(name, m));
                self.added = true;
                Verdict::FirstSeen
            }
        }
    }

    /// Writes the first-seen and completed entries, if any. A failure is
    /// returned for the caller to log; the extensions run either way.
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

/// Records everything `m` declares as accepted for the extension `name`
/// in `dir`. A file that could not be read is replaced by one holding just
/// this entry.
pub fn record(zot_home: &Path, dir: &Path, name: &str, m: &Manifest) -> Result<(), ConsentError> {
    record_all(zot_home, [(dir, name, m)])
}

/// Records several at once (trusting a project accepts its extensions as
/// listed), in one rewrite of the file.
pub fn record_all<'a>(
    zot_home: &Path,
    list: impl IntoIterator<Item = (&'a Path, &'a str, &'a Manifest)>,
) -> Result<(), ConsentError> {
    let mut entries = read(zot_home).unwrap_or_default();
    for (dir, name, m) in list {
        entries.insert(key(dir), Accepted::of(name, m));
    }
    write(zot_home, entries)
}

/// Puts back `had` (what was accepted for an earlier copy in `dir`) or,
/// with `None`, forgets the entry: a rollback restores the consent of the
/// copy it puts back (`rollback.rs`).
pub fn restore(zot_home: &Path, dir: &Path, had: Option<Accepted>) -> Result<(), ConsentError> {
    let mut entries = read(zot_home).unwrap_or_default();
    match had {
        Some(a) => entries.insert(key(dir), a),
        None => entries.remove(&key(dir)),
    };
    write(zot_home, entries)
}

/// What `zot ext accept` (and the manager's card) did.
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
    /// Everything that changed since the last accept, in words (empty for
    /// an extension accepted for the first time).
    pub widened: Vec<Widening>,
}

/// Accepts what the extension `name` declares now (project copy first, as
/// loading finds it). It starts after the next reload.
pub fn accept(zot_home: &Path, cwd: &Path, name: &str) -> OpsResult<AcceptOutcome> {
    let found = locate(zot_home, cwd, name)?;
    let m = read_manifest(&found.dir)?;
    let grant = m.grant();
    let had = accepted(zot_home, &found.dir);
    let (added, widened) = match &had {
        Some(had) => (grant.beyond(&had.permissions), had.widenings(&m)),
        None => (Vec::new(), Vec::new()),
    };
    record(zot_home, &found.dir, name, &m)?;
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
        widened,
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
        version: VERSION,
        accepted,
    })
    .map_err(|e| werr(e.to_string()))?;
    crate::io::private_file::write(&path, &body).map_err(|e| werr(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn manifest(v: serde_json::Value) -> Manifest {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_first_seen_manifest_is_recorded_and_more_is_refused_after() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("ext");
        std::fs::create_dir_all(&dir).unwrap();
        let small = manifest(json!({"name":"ext","exec":"./x","permissions":["commands"]}));
        let mut book = Book::open(home.path());
        assert_eq!(
            book.check(&dir, "ext", Scope::Global, &small, false),
            Verdict::FirstSeen
        );
        book.save().unwrap();
        let more = manifest(json!({"name":"ext","exec":"./x","permissions":["commands","submit"]}));
        let mut book = Book::open(home.path());
        let Verdict::Widened {
            more: perms,
            widened,
        } = book.check(&dir, "ext", Scope::Global, &more, false)
        else {
            panic!("not widened")
        };
        assert_eq!(perms, vec![Permission::Submit]);
        assert_eq!(widened.len(), 1);
        assert_eq!(
            book.check(&dir, "ext", Scope::Global, &small, false),
            Verdict::Accepted
        );
        record(home.path(), &dir, "ext", &more).unwrap();
        assert_eq!(
            Book::open(home.path()).check(&dir, "ext", Scope::Global, &more, false),
            Verdict::Accepted
        );
    }

    #[test]
    fn a_project_extension_never_seen_waits_unless_the_folder_was_just_trusted() {
        let home = tempfile::tempdir().unwrap();
        let m = manifest(json!({"name":"p","exec":"./x"}));
        let mut book = Book::open(home.path());
        assert_eq!(
            book.check(home.path(), "p", Scope::Project, &m, false),
            Verdict::New
        );
        assert_eq!(
            book.check(home.path(), "p", Scope::Project, &m, true),
            Verdict::FirstSeen
        );
        book.save().unwrap();
        assert_eq!(
            Book::open(home.path()).check(home.path(), "p", Scope::Project, &m, false),
            Verdict::Accepted
        );
    }

    #[test]
    fn a_version_one_entry_is_completed_with_what_it_declares_then() {
        let home = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(home.path()).unwrap();
        std::fs::write(
            consent_file(home.path()),
            json!({"version":1,"accepted":{dir.to_str().unwrap():{"name":"old","permissions":["commands"]}}})
                .to_string(),
        )
        .unwrap();
        let m = manifest(json!({"name":"old","exec":"./x","permissions":["commands"],
            "sandbox":{"read":["~/a"]}}));
        let mut book = Book::open(home.path());
        assert_eq!(
            book.check(&dir, "old", Scope::Global, &m, false),
            Verdict::Accepted
        );
        book.save().unwrap();
        let text = std::fs::read_to_string(consent_file(home.path())).unwrap();
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(file["version"], 2);
        assert_eq!(
            file["accepted"][dir.to_str().unwrap()]["reach"]["sandbox"]["read"],
            json!(["~/a"])
        );
        // From now on, dropping the sandbox is a change to accept.
        let bare = manifest(json!({"name":"old","exec":"./x","permissions":["commands"]}));
        assert!(matches!(
            Book::open(home.path()).check(&dir, "old", Scope::Global, &bare, false),
            Verdict::Widened { .. }
        ));
    }

    #[test]
    fn a_corrupt_file_checks_nothing_accepts_no_project_code_and_is_kept() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(consent_file(home.path()), "{").unwrap();
        let m = manifest(json!({"name":"x","exec":"./x"}));
        let mut book = Book::open(home.path());
        assert_eq!(
            book.check(home.path(), "x", Scope::Global, &m, false),
            Verdict::Accepted
        );
        assert_eq!(
            book.check(home.path(), "x", Scope::Project, &m, false),
            Verdict::New
        );
        book.save().unwrap();
        assert_eq!(
            std::fs::read_to_string(consent_file(home.path())).unwrap(),
            "{"
        );
    }
}
