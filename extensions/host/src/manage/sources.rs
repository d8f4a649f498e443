//! Where each installed extension came from, remembered in
//! `$ZOT_HOME/sources.json` so `ext_list` can show it and `zot ext update`
//! knows where to look (docs/extensions.md "Updates"). Keyed by the
//! install's canonical directory, as `permissions.json` is. Written by an
//! install, an update and a rollback; an install made before this file
//! existed has no entry and cannot be updated until it is installed again.
//! A file that cannot be read is treated as empty and rewritten whole by
//! the next install.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zot_ext_protocol::ExtSource;

use crate::manage::ext_ops::{OpsError, OpsResult};

/// The file under `$ZOT_HOME`.
pub const SOURCES_FILE: &str = "sources.json";

#[derive(Debug, Default, Serialize, Deserialize)]
struct SourcesFile {
    /// Always 1 for now.
    #[serde(default)]
    version: u32,
    /// Canonical install directory → where it came from.
    #[serde(default)]
    sources: BTreeMap<PathBuf, ExtSource>,
}

fn key(dir: &Path) -> PathBuf {
    std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// Every recorded source, by canonical directory; empty when the file is
/// missing or unreadable.
pub fn read(zot_home: &Path) -> BTreeMap<PathBuf, ExtSource> {
    std::fs::read(zot_home.join(SOURCES_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice::<SourcesFile>(&b).ok())
        .map(|f| f.sources)
        .unwrap_or_default()
}

/// The source recorded for the install in `dir`.
pub fn get(zot_home: &Path, dir: &Path) -> Option<ExtSource> {
    read(zot_home).remove(&key(dir))
}

/// The recorded source for `dir` in an already-read map.
pub fn lookup<'a>(all: &'a BTreeMap<PathBuf, ExtSource>, dir: &Path) -> Option<&'a ExtSource> {
    all.get(&key(dir))
}

/// Records (or, with `None`, forgets) where the install in `dir` came from.
pub fn set(zot_home: &Path, dir: &Path, source: Option<ExtSource>) -> OpsResult<()> {
    let mut all = read(zot_home);
    match source {
        Some(s) => all.insert(key(dir), s),
        None => all.remove(&key(dir)),
    };
    let file = SourcesFile {
        version: 1,
        sources: all,
    };
    let path = zot_home.join(SOURCES_FILE);
    crate::io::private_file::write_json(&path, &file)
        .map_err(|message| OpsError::ConsentWrite { path, message })
}

/// A sha256 over a folder's files (relative paths, link targets and
/// contents, in sorted order), skipping `.git`: what tells a folder or
/// catalog source that changed from one that did not. Hex.
pub fn tree_digest(dir: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    walk(dir, Path::new(""), &mut files)?;
    files.sort();
    let mut h = Sha256::new();
    for rel in files {
        let path = dir.join(&rel);
        h.update(rel.to_string_lossy().as_bytes());
        h.update([0]);
        let meta = path.symlink_metadata()?;
        if meta.file_type().is_symlink() {
            h.update(b"link:");
            h.update(std::fs::read_link(&path)?.to_string_lossy().as_bytes());
        } else {
            let mut f = std::fs::File::open(&path)?;
            let mut buf = [0u8; 64 * 1024];
            loop {
                let n = f.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                h.update(buf.get(..n).unwrap_or_default());
            }
        }
        h.update([0]);
    }
    Ok(hex(&h.finalize()))
}

fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(root.join(rel))? {
        let entry = entry?;
        let name = entry.file_name();
        if rel.as_os_str().is_empty() && name == ".git" {
            continue;
        }
        let kind = entry.file_type()?;
        let child = rel.join(&name);
        if kind.is_dir() {
            walk(root, &child, out)?;
        } else if kind.is_file() || kind.is_symlink() {
            out.push(child);
        }
    }
    Ok(())
}

pub use crate::manage::bundle::hex;

/// The commit checked out in `dir`, if it is a git work tree.
pub fn git_head(dir: &Path) -> Option<String> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "HEAD"])
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let head = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (out.status.success() && !head.is_empty()).then_some(head)
}

/// The first 12 characters of a commit or digest, for `OLD → NEW`.
pub fn short(rev: &str) -> String {
    rev.chars().take(12).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zot_ext_protocol::SourceKind;

    #[test]
    fn a_record_round_trips_and_can_be_forgotten() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("extensions/x");
        std::fs::create_dir_all(&dir).unwrap();
        let s = ExtSource {
            kind: SourceKind::Git,
            location: "file:///r".into(),
            revision: Some("abc".into()),
            version: Some("1.0.0".into()),
        };
        set(home.path(), &dir, Some(s.clone())).unwrap();
        assert_eq!(get(home.path(), &dir), Some(s));
        set(home.path(), &dir, None).unwrap();
        assert_eq!(get(home.path(), &dir), None);
    }

    #[test]
    fn the_tree_digest_changes_with_one_byte_and_ignores_git() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("a"), "one").unwrap();
        let one = tree_digest(d.path()).unwrap();
        std::fs::create_dir(d.path().join(".git")).unwrap();
        std::fs::write(d.path().join(".git/HEAD"), "x").unwrap();
        assert_eq!(tree_digest(d.path()).unwrap(), one);
        std::fs::write(d.path().join("a"), "onf").unwrap();
        assert_ne!(tree_digest(d.path()).unwrap(), one);
    }
}
