//! The copy an update replaced, kept one level deep in
//! `$ZOT_HOME/previous/<name>/` with what it had beside it
//! (`previous/<name>.json`: its version, whether it was enabled, the
//! permissions accepted for it, its source), and `zot ext rollback`,
//! which swaps it back in. The copy rolled back from becomes the kept one,
//! so a second rollback undoes the first.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use zot_ext_protocol::ExtSource;

use crate::manage::ext_ops::{OpsError, OpsResult, MANIFEST_FILE};
use crate::policy::consent::{self, Accepted};
use crate::{home, manage::sources, manifest};

/// Where kept copies live: beside `extensions/`, where discovery never looks.
pub fn kept_base(zot_home: &Path) -> PathBuf {
    zot_home.join("previous")
}

/// What a kept copy had when it was replaced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    /// Its manifest's version.
    #[serde(default)]
    pub version: Option<String>,
    /// Whether it was enabled.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// What the user had accepted for it.
    #[serde(default)]
    pub accepted: Option<Accepted>,
    /// Where it came from.
    #[serde(default)]
    pub source: Option<ExtSource>,
}

fn yes() -> bool {
    true
}

impl Kept {
    /// What the install in `dir` has now; `None` when it has no readable
    /// manifest.
    pub(crate) fn of(zot_home: &Path, dir: &Path) -> Option<Kept> {
        let m = manifest::load(&dir.join(MANIFEST_FILE)).ok()?;
        Some(Kept {
            version: m.version.clone(),
            enabled: m.enabled,
            accepted: consent::accepted(zot_home, dir),
            source: sources::get(zot_home, dir),
        })
    }

    /// Writes `previous/<name>.json`.
    pub(crate) fn save(&self, zot_home: &Path, name: &str) -> OpsResult<()> {
        let path = meta_path(zot_home, name);
        crate::io::private_file::write_json(&path, self)
            .map_err(|message| OpsError::ConsentWrite { path, message })
    }
}

fn meta_path(zot_home: &Path, name: &str) -> PathBuf {
    kept_base(zot_home).join(format!("{name}.json"))
}

/// The kept copy of `name`, if there is one.
pub fn kept(zot_home: &Path, name: &str) -> Option<Kept> {
    if !kept_base(zot_home).join(name).join(MANIFEST_FILE).is_file() {
        return None;
    }
    let bytes = std::fs::read(meta_path(zot_home, name)).ok();
    Some(
        bytes
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or(Kept {
                version: None,
                enabled: true,
                accepted: None,
                source: None,
            }),
    )
}

/// What a rollback did.
#[derive(Debug, Clone, PartialEq)]
pub struct RolledBack {
    /// The extension.
    pub name: String,
    /// Its install directory.
    pub dir: PathBuf,
    /// The version rolled back from.
    pub from: Option<String>,
    /// The version now installed.
    pub to: Option<String>,
}

/// Puts the kept copy of `name` back, with the permissions accepted for
/// it and its source; the copy it replaces is kept in its turn.
pub fn rollback(zot_home: &Path, name: &str) -> OpsResult<RolledBack> {
    manifest::validate_name(name).map_err(|e| OpsError::BadName {
        name: name.to_owned(),
        reason: e.to_string(),
    })?;
    let Some(kept) = kept(zot_home, name) else {
        return Err(OpsError::Nothing(format!(
            "no earlier copy of `{name}` is kept in {}: only an update keeps one (one level), so there is nothing to roll back to",
            kept_base(zot_home).join(name).display()
        )));
    };
    let dest = home::extensions_dir(zot_home).join(name);
    let kept_dir = kept_base(zot_home).join(name);
    let current = Kept::of(zot_home, &dest);
    if dest.symlink_metadata().is_ok() {
        if crate::io::fs_swap::exchange(&kept_dir, &dest).is_err() {
            let aside = kept_base(zot_home).join(format!(".{name}.swap"));
            let _ = crate::io::fs_swap::remove_any(&aside);
            std::fs::rename(&dest, &aside).map_err(OpsError::io("move aside", &dest))?;
            if let Err(e) = std::fs::rename(&kept_dir, &dest) {
                let _ = std::fs::rename(&aside, &dest);
                return Err(OpsError::io("move into place", &dest)(e));
            }
            std::fs::rename(&aside, &kept_dir).map_err(OpsError::io("keep", &aside))?;
        }
    } else {
        std::fs::rename(&kept_dir, &dest).map_err(OpsError::io("move into place", &dest))?;
    }
    consent::restore(zot_home, &dest, kept.accepted.clone())?;
    sources::set(zot_home, &dest, kept.source.clone())?;
    match &current {
        Some(c) => c.save(zot_home, name)?,
        None => {
            let _ = std::fs::remove_file(meta_path(zot_home, name));
        }
    }
    Ok(RolledBack {
        name: name.to_owned(),
        dir: dest,
        from: current.and_then(|c| c.version),
        to: kept.version,
    })
}
