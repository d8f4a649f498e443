//! Project trust: opening a repository must not run its code. Extensions
//! under `<cwd>/.zot/extensions` run only in a project the user trusted,
//! either remembered in `$ZOT_HOME/trust.json` or for one run
//! (`--trust-project`, or `trust_project` without `remember`).
//!
//! Trust is keyed by the canonical directory, so a symlink or a `..` path
//! resolves to the one directory it names and can never borrow the trust
//! of another. The file is rewritten through a temp file and a rename
//! (mode 0600), so a crash never leaves half of it; a file that cannot be
//! read or parsed counts as "nothing trusted" and is replaced on the next
//! trust.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::HostConfig;
use crate::home;

/// The file under `$ZOT_HOME` that remembers trusted folders.
pub const TRUST_FILE: &str = "trust.json";

/// What went wrong with trust: the file, or the folder to trust.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    /// `trust.json` exists but could not be read.
    #[error("cannot read the trust file {path}: {message}; zot treats every project as untrusted until you trust one again, which rewrites the file")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        message: String,
    },
    /// `trust.json` is not what zot writes.
    #[error("the trust file {path} is corrupt ({message}); zot treats every project as untrusted until you trust one again, which rewrites the file")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The parser's reason.
        message: String,
    },
    /// Writing `trust.json` failed; nothing was changed.
    #[error("cannot write the trust file {path}: {message}; check that the directory is writable")]
    Write {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        message: String,
    },
    /// Recording the consent for the project's extensions failed; the
    /// folder's trust may be remembered, but nothing new runs.
    #[error(transparent)]
    Consent(#[from] crate::policy::consent::ConsentError),
    /// The folder to trust does not resolve to a directory.
    #[error("{dir} is not a directory zot can open ({message}); give an existing project folder")]
    BadDir {
        /// As given.
        dir: PathBuf,
        /// The OS's reason.
        message: String,
    },
}

/// The file's shape: `{"version":1,"trusted":["/canonical/dir", …]}`.
#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustFile {
    /// Bumped if the shape ever changes.
    #[serde(default = "version_one")]
    version: u32,
    /// Canonical directories, sorted.
    trusted: BTreeSet<PathBuf>,
}

fn version_one() -> u32 {
    1
}

/// `$ZOT_HOME/trust.json`.
pub fn trust_file(zot_home: &Path) -> PathBuf {
    zot_home.join(TRUST_FILE)
}

/// The key trust is stored under: the directory with every symlink and
/// `..` resolved.
pub fn canonical(dir: &Path) -> Result<PathBuf, TrustError> {
    let bad = |e: std::io::Error| TrustError::BadDir {
        dir: dir.to_path_buf(),
        message: e.to_string(),
    };
    let c = std::fs::canonicalize(dir).map_err(bad)?;
    if !c.is_dir() {
        return Err(TrustError::BadDir {
            dir: dir.to_path_buf(),
            message: "not a directory".into(),
        });
    }
    Ok(c)
}

/// Every remembered folder. A missing file is an empty set; an unreadable
/// or corrupt one is an error (callers treat it as "nothing trusted").
pub fn trusted_dirs(zot_home: &Path) -> Result<BTreeSet<PathBuf>, TrustError> {
    let path = trust_file(zot_home);
    let text = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(e) => {
            return Err(TrustError::Unreadable {
                path,
                message: e.to_string(),
            })
        }
    };
    let text = String::from_utf8(text).map_err(|_| TrustError::Unreadable {
        path: path.clone(),
        message: "it is not UTF-8 text".into(),
    })?;
    let file: TrustFile = serde_json::from_str(&text).map_err(|e| TrustError::Corrupt {
        path: path.clone(),
        message: e.to_string(),
    })?;
    // Only absolute paths can be keys; anything else was not written by zot.
    Ok(file
        .trusted
        .into_iter()
        .filter(|p| p.is_absolute())
        .collect())
}

/// Whether `dir` (resolved) is remembered as trusted. Errors of the file
/// count as "not trusted".
pub fn is_remembered(zot_home: &Path, dir: &Path) -> bool {
    match (canonical(dir), trusted_dirs(zot_home)) {
        (Ok(c), Ok(set)) => set.contains(&c),
        _ => false,
    }
}

/// Remembers `dir` as trusted; returns its canonical path. A corrupt or
/// unreadable file is replaced by one holding just this folder.
pub fn remember(zot_home: &Path, dir: &Path) -> Result<PathBuf, TrustError> {
    let dir = canonical(dir)?;
    let mut set = trusted_dirs(zot_home).unwrap_or_default();
    set.insert(dir.clone());
    write_atomic(&trust_file(zot_home), set)?;
    Ok(dir)
}

/// Forgets `dir`; returns whether it was remembered. A folder that no
/// longer exists is matched as given (made absolute), so a deleted project
/// can still be revoked.
pub fn forget(zot_home: &Path, dir: &Path) -> Result<bool, TrustError> {
    let key = match canonical(dir) {
        Ok(c) => c,
        Err(_) if dir.is_absolute() => dir.to_path_buf(),
        Err(e) => return Err(e),
    };
    let mut set = match trusted_dirs(zot_home) {
        Ok(set) => set,
        // Nothing can be remembered in a broken file: nothing to forget.
        Err(_) => return Ok(false),
    };
    if !set.remove(&key) {
        return Ok(false);
    }
    write_atomic(&trust_file(zot_home), set)?;
    Ok(true)
}

/// Writes the set atomically with mode 0600 (`private_file`), so readers
/// see the old file or the new one.
fn write_atomic(path: &Path, trusted: BTreeSet<PathBuf>) -> Result<(), TrustError> {
    let werr = |message: String| TrustError::Write {
        path: path.to_path_buf(),
        message,
    };
    let mut body = serde_json::to_vec_pretty(&TrustFile {
        version: 1,
        trusted,
    })
    .map_err(|e| werr(e.to_string()))?;
    body.push(b'\n');
    crate::io::private_file::write(path, &body).map_err(|e| werr(e.to_string()))
}

pub use crate::policy::run_trust::RunTrust;

/// Whether a project's extensions may run, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// They may run.
    pub trusted: bool,
    /// The trust is remembered in `trust.json`.
    pub remembered: bool,
    /// The trust file could not be used (treated as nothing trusted).
    pub problem: Option<TrustError>,
}

/// Decides for `cfg.cwd`: trusted when this run grants it or `trust.json`
/// remembers its canonical path.
pub fn decide(cfg: &HostConfig) -> Decision {
    let (remembered, problem) = match trusted_dirs(&cfg.zot_home) {
        Ok(set) => (canonical(&cfg.cwd).is_ok_and(|c| set.contains(&c)), None),
        Err(e) => (false, Some(e)),
    };
    Decision {
        trusted: remembered || cfg.run_trust.granted(),
        remembered,
        problem,
    }
}

/// Whether `cwd/.zot/extensions` has anything in it, i.e. whether
/// discovery needs a trust decision at all (the file is not read otherwise).
pub(crate) fn has_project_extensions(cwd: &Path) -> bool {
    std::fs::read_dir(home::project_extensions_dir(cwd))
        .map(|mut d| d.next().is_some())
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_trusts_nothing_and_remember_creates_it_private() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        assert!(trusted_dirs(home.path()).unwrap().is_empty());
        let c = remember(home.path(), proj.path()).unwrap();
        assert_eq!(c, std::fs::canonicalize(proj.path()).unwrap());
        assert!(is_remembered(home.path(), proj.path()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(trust_file(home.path()))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(forget(home.path(), proj.path()).unwrap());
        assert!(!is_remembered(home.path(), proj.path()));
        assert!(!forget(home.path(), proj.path()).unwrap());
    }

    #[test]
    fn relative_entries_in_the_file_are_ignored() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            trust_file(home.path()),
            r#"{"version":1,"trusted":["relative/dir","/abs"]}"#,
        )
        .unwrap();
        let set = trusted_dirs(home.path()).unwrap();
        assert_eq!(
            set.into_iter().collect::<Vec<_>>(),
            vec![PathBuf::from("/abs")]
        );
    }

    #[test]
    fn a_deleted_folder_can_still_be_forgotten() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        let c = remember(home.path(), proj.path()).unwrap();
        drop(proj);
        assert!(forget(home.path(), &c).unwrap());
    }
}
