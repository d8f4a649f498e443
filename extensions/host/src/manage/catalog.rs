//! The catalog of extensions zot ships: the examples that need no compiler
//! and theme-only ones, listed in `examples/catalog.json`. The build embeds
//! the index and every source it lists (see `build.rs`); [`ensure`] unpacks
//! them once per build into `$ZOT_HOME/catalog/<version>-<hash>/`, and
//! installing an entry is an ordinary install from that directory, so the
//! CLI and the manager show the same summary as for any folder.
//!
//! `ZOT_CATALOG=/path/index.json` reads another index of the same shape
//! instead (sources relative to that file), for testing a catalog and, later,
//! for indexes fetched from elsewhere.
//!
//! Every entry's signature is checked against its folder as it is now
//! (`signature.rs`): zot's own are signed by zot's key, and an entry whose
//! signature does not match is unavailable, so it can be neither
//! installed nor updated from.

use std::path::{Path, PathBuf};

use zot_ext_protocol::{CatalogEntry, Manifest};

use crate::manage::unpack::{self, Tree, UnpackError};
use crate::policy::permission_words::manifest_words;
use crate::{home, manifest};

pub mod leftovers;
pub mod signature;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/catalog_files.rs"));
}

/// The catalog could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// The embedded catalog could not be unpacked.
    #[error(transparent)]
    Unpack(#[from] UnpackError),
    /// The index is unreadable or not the expected JSON.
    #[error("cannot read the extension catalog {}: {reason}; fix or remove it (ZOT_CATALOG points at it when set)", path.display())]
    Index {
        /// The index file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// No entry has this name.
    #[error("cannot install `{name}`: a bare name means zot's extension catalog, and it has no such entry (`zot ext catalog` lists them). To install a folder, give its path (`./{name}` or an absolute path); a git repository, its git URL (https://…, ssh://…, git@host:path or file://…)")]
    NotFound {
        /// The name asked for.
        name: String,
    },
    /// `zot ext catalog-sign` cannot sign an entry.
    #[error("cannot sign the catalog entry `{name}`: {reason}; nothing was signed")]
    Sign {
        /// The entry.
        name: String,
        /// Why.
        reason: String,
    },
    /// The entry exists but cannot be installed.
    #[error("catalog entry `{name}` cannot be installed: {reason}")]
    Unavailable {
        /// The entry.
        name: String,
        /// Why.
        reason: String,
    },
}

/// The index zot reads: `$ZOT_CATALOG` when set, else the embedded one
/// (unpacked first when needed).
pub fn index_path(zot_home: &Path) -> Result<PathBuf, CatalogError> {
    if let Some(custom) = std::env::var_os("ZOT_CATALOG").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(custom));
    }
    Ok(ensure(zot_home)?.join("catalog.json"))
}

/// Unpacks the embedded catalog into `$ZOT_HOME/catalog/<version>-<hash>`.
pub fn ensure(zot_home: &Path) -> Result<PathBuf, UnpackError> {
    unpack::ensure(&Tree {
        root: zot_home.join("catalog"),
        name: format!(
            "{}-{}",
            env!("CARGO_PKG_VERSION"),
            embedded::CONTENT_HASH
        ),
        files: embedded::FILES,
        what: "extension catalog",
        consequence: "the catalog cannot be listed or installed from; installing from a folder or git URL still works",
    })
}

/// Every entry of zot's catalog, each checked (available or why not, and
/// whether it is installed already).
pub fn list(zot_home: &Path) -> Result<Vec<CatalogEntry>, CatalogError> {
    load(&index_path(zot_home)?, zot_home)
}

/// Reads the index at `path` and checks each entry's source.
pub fn load(path: &Path, zot_home: &Path) -> Result<Vec<CatalogEntry>, CatalogError> {
    let bad = |reason: String| CatalogError::Index {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("not valid JSON: {e}")))?;
    let items = json
        .get("extensions")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| bad("no `extensions` array".into()))?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let mut entry: CatalogEntry = match serde_json::from_value(item.clone()) {
            Ok(e) => e,
            // One bad entry must not hide the others: show it as unavailable.
            Err(e) => CatalogEntry {
                name: item
                    .get("name")
                    .and_then(|n| n.as_str())
                    .map(str::to_owned)
                    .unwrap_or_else(|| format!("entry {}", i + 1)),
                version: None,
                description: String::new(),
                source: String::new(),
                language: None,
                registers: Default::default(),
                permissions: Vec::new(),
                requires_files: Vec::new(),
                available: false,
                unavailable_reason: Some(format!("its index entry is invalid: {e}")),
                installed: false,
                signer: None,
            },
        };
        // zot says who signed it, never the index.
        entry.signer = None;
        if entry.unavailable_reason.is_none() {
            let dir = source_dir(base, &entry.source);
            match check(base, &entry).and_then(|m| {
                signature::verify(zot_home, item, &dir)
                    .map(|signer| (m, signer))
                    .map_err(|reason| refusal(reason, path, zot_home))
            }) {
                Ok((manifest, signer)) => {
                    entry.available = true;
                    entry.signer = Some(signer.words());
                    // The install summary's and the card's words, so the
                    // three say the same thing.
                    entry.permissions = manifest_words(&manifest, &dir);
                }
                Err(reason) => {
                    entry.available = false;
                    entry.unavailable_reason = Some(reason);
                }
            }
        }
        entry.installed = manifest::validate_name(&entry.name).is_ok()
            && home::extensions_dir(zot_home)
                .join(&entry.name)
                .symlink_metadata()
                .is_ok();
        out.push(entry);
    }
    Ok(out)
}

/// A signature that does not match, with what to do: for zot's own
/// catalog, its unpacked copy was changed (zot unpacks it again once it is
/// gone); for another index, whoever changed it signs it again, or the
/// user gets it again.
fn refusal(reason: String, index: &Path, zot_home: &Path) -> String {
    let embedded = index.starts_with(zot_home.join("catalog"));
    let what = if embedded {
        format!(
            "zot's copy of its own catalog was changed on disk; delete {} and zot unpacks it again",
            index.parent().unwrap_or(index).display()
        )
    } else {
        format!(
            "get the catalog {} again from where it came from, or, if you changed it yourself, sign it again (`zot ext catalog-sign --key KEYFILE {}`)",
            index.display(),
            index.display()
        )
    };
    format!("{reason}, so zot refuses it; {what}")
}

/// An available catalog entry: where to install it from, and who signed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// Its source directory.
    pub dir: PathBuf,
    /// "signed by zot", "signed by NAME", "signed by an unknown key" or
    /// "unsigned".
    pub signer: String,
}

/// Where to install `name` from, when it is in the catalog and available
/// (its signature, if any, matched).
pub fn source_of(zot_home: &Path, name: &str) -> Result<Located, CatalogError> {
    let path = index_path(zot_home)?;
    let entry = load(&path, zot_home)?
        .into_iter()
        .find(|e| e.name == name)
        .ok_or_else(|| CatalogError::NotFound {
            name: name.to_owned(),
        })?;
    if let Some(reason) = entry.unavailable_reason {
        return Err(CatalogError::Unavailable {
            name: entry.name,
            reason,
        });
    }
    Ok(Located {
        dir: source_dir(path.parent().unwrap_or(Path::new(".")), &entry.source),
        signer: entry.signer.unwrap_or_else(|| "unsigned".to_owned()),
    })
}

pub(crate) fn source_dir(base: &Path, source: &str) -> PathBuf {
    base.join(source)
}

/// Why `entry` cannot be installed, if it cannot: its source must be a
/// relative directory under the index holding a manifest of the same
/// name whose `exec` resolves, plus every `requires_files` file. Answers
/// the manifest.
pub(crate) fn check(base: &Path, entry: &CatalogEntry) -> Result<Manifest, String> {
    let src = &entry.source;
    if src.is_empty() || src.starts_with('/') || src.split('/').any(|p| p == "..") {
        return Err(format!(
            "its source `{src}` must be a folder path relative to the catalog"
        ));
    }
    let dir = source_dir(base, src);
    if !dir.is_dir() {
        return Err(format!("its source folder {} is missing", dir.display()));
    }
    let file = dir.join(manifest::MANIFEST_FILE);
    let m = manifest::load(&file).map_err(|e| e.to_string())?;
    if m.name != entry.name {
        return Err(format!(
            "{} names it `{}`, but the catalog lists `{}`",
            file.display(),
            m.name,
            entry.name
        ));
    }
    if let Some(exec) = &m.exec {
        manifest::resolve_exec(&file, exec).map_err(|e| e.to_string())?;
    }
    for f in &entry.requires_files {
        if !dir.join(f).is_file() {
            return Err(format!(
                "{} is missing (a build output this zot was built without)",
                dir.join(f).display()
            ));
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The guard for whoever edits the catalog: zot's own entries must be
    /// signed by zot's key as they are embedded now.
    #[test]
    fn the_embedded_catalog_is_signed_by_zot() {
        let home = tempfile::tempdir().unwrap();
        let index = ensure(home.path()).unwrap().join("catalog.json");
        let entries = load(&index, home.path()).unwrap();
        assert!(!entries.is_empty());
        for e in &entries {
            let refused = e
                .unavailable_reason
                .as_deref()
                .is_some_and(|r| r.contains("signature"));
            assert!(
                !refused && (!e.available || e.signer.as_deref() == Some("signed by zot")),
                "examples/catalog.json's entry `{}` is not signed by zot's catalog key as it is now ({}): after changing an example the catalog lists or its entry, sign the catalog again with `make sign-catalog KEY=/path/to/zot-catalog.key` (docs/extensions.md \"The catalog's signatures\"; the key is kept outside the repository) and commit examples/catalog.json",
                e.name,
                e.unavailable_reason
                    .clone()
                    .or_else(|| e.signer.clone())
                    .unwrap_or_default()
            );
        }
    }
}
