//! Dev folders added while zot runs (the manager's "Develop a folder…"):
//! the same as starting with `zot --ext DIR --watch`, without a restart.
//! The folder joins the `--ext` paths for every later load, is watched by
//! [`crate::api::watch`] (the same debounced poller `--watch` uses) and the host
//! reloads once to start it. Only for this run: nothing is written to disk,
//! so a folder the author no longer works on never loads by surprise.

use std::path::{Path, PathBuf};

use crate::api::host::Host;
use crate::api::reload::ReloadReport;
use crate::api::watch;
use crate::manifest::MANIFEST_FILE;

/// Why a folder cannot be developed.
#[derive(Debug, thiserror::Error)]
pub enum DevelopError {
    /// The folder does not exist or cannot be resolved.
    #[error("cannot open {}: {source}; pick an existing extension folder", dir.display())]
    Missing {
        /// What was asked for.
        dir: PathBuf,
        /// Why it cannot be resolved.
        source: std::io::Error,
    },
    /// The folder has no manifest.
    #[error("{} has no {MANIFEST_FILE}: pick the folder that holds the extension's manifest, or create one with \"New extension…\"", dir.display())]
    NoManifest {
        /// The resolved folder.
        dir: PathBuf,
    },
}

impl Host {
    /// Loads `dir` as a dev extension for the rest of this run and reloads
    /// it whenever its sources change (debounced, like `--watch`). Returns
    /// the report of the reload that started it; a broken extension is in
    /// its `errors`, and the next good save recovers. Adding a folder that
    /// is already developed just reloads.
    pub async fn develop(&self, dir: &Path) -> Result<ReloadReport, DevelopError> {
        let dir = dir.canonicalize().map_err(|source| DevelopError::Missing {
            dir: dir.to_path_buf(),
            source,
        })?;
        if !dir.join(MANIFEST_FILE).is_file() {
            return Err(DevelopError::NoManifest { dir });
        }
        let added = self.inner.add_dev(&dir);
        if added {
            watch::watch(self, vec![dir], watch::DEBOUNCE);
        }
        Ok(self.reload().await)
    }

    /// The folders [`Host::develop`] added in this run, in order.
    pub fn dev_folders(&self) -> Vec<PathBuf> {
        self.inner.dev_folders()
    }
}
