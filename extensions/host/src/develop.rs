//! Dev folders added while zot runs (the manager's "Develop a folder…"):
//! the same as starting with `zot --ext DIR --watch`, without a restart.
//! The folder joins the `--ext` paths for every later load, is watched by
//! [`crate::watch`] (the same debounced poller `--watch` uses) and the host
//! reloads once to start it. Only for this run: nothing is written to disk,
//! so a folder the author no longer works on never loads by surprise.

use std::path::{Path, PathBuf};

use crate::config::HostConfig;
use crate::host::{Host, Inner};
use crate::manifest::MANIFEST_FILE;
use crate::reload::ReloadReport;
use crate::watch;

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

/// The host's configuration with this run's dev folders after the `--ext`
/// paths; what each load discovers from.
pub(crate) fn config_with_dev(inner: &Inner) -> std::borrow::Cow<'_, HostConfig> {
    let dev = inner.dev.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if dev.is_empty() {
        return std::borrow::Cow::Borrowed(&inner.cfg);
    }
    let mut cfg = inner.cfg.clone();
    for d in dev {
        if !cfg.explicit.contains(&d) {
            cfg.explicit.push(d);
        }
    }
    std::borrow::Cow::Owned(cfg)
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
        let added = {
            let mut dev = self.inner.dev.lock().unwrap_or_else(|e| e.into_inner());
            let new = !dev.contains(&dir);
            if new {
                dev.push(dir.clone());
            }
            new
        };
        if added {
            watch::watch(self, vec![dir], watch::DEBOUNCE);
        }
        Ok(self.reload().await)
    }

    /// The folders [`Host::develop`] added in this run, in order.
    pub fn dev_folders(&self) -> Vec<PathBuf> {
        self.inner
            .dev
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}
