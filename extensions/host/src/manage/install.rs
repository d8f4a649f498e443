//! `zot ext install <path|git-url>`: copy a directory or shallow-clone a git
//! repository into `$ZOT_HOME/extensions/<manifest name>`.
//!
//! Everything is built in a hidden temporary sibling of the destination and
//! renamed into place only once its manifest is valid, so a failed, refused
//! or interrupted install leaves nothing that discovery could pick up. The
//! CLI and the desktop manager both call [`install_and_describe`], the one
//! install policy (source names, permissions, notes; docs/extensions.md);
//! progress goes through a callback so each can show it its own way.

mod clone;
mod copy;
mod policy;
pub(crate) mod staging;

pub(crate) use policy::{install_resolved, Origin};

pub use policy::{
    install_and_describe, resolve_source, Consent, Hooks, InstallOptions, InstallOutcome, MoreAsked,
};

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use zot_ext_protocol::Manifest;

use crate::manage::ext_ops::{OpsError, OpsResult, MANIFEST_FILE};
use crate::{home, manifest};
use staging::Staging;

/// Where an extension is installed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A local directory, copied recursively.
    Dir(PathBuf),
    /// A git URL, shallow-cloned with the `git` CLI.
    Git(String),
    /// A `.zotx` bundle, read and checked in memory (`bundle.rs`).
    Bundle(Box<crate::manage::bundle::Opened>),
}

impl Source {
    /// Reads a command-line argument: a path to an existing directory
    /// (`./todo`, `../x`, `/abs/x`) is a [`Source::Dir`]; otherwise it must
    /// look like a git URL. A bare name (`todo`) is neither, even when a
    /// folder of that name exists here: it names a catalog entry
    /// ([`resolve_source`]), so a folder in the cwd can never stand in for
    /// the catalog's extension of the same name. Anything starting with `-`
    /// is refused so it can never reach git as an option.
    pub fn parse(arg: &str) -> OpsResult<Source> {
        if arg.starts_with('-') {
            return Err(OpsError::DashArgument {
                what: "source",
                arg: arg.to_string(),
            });
        }
        if crate::manage::bundle::is_bundle(arg) {
            // Bundles are read (and checked) by `resolve`, which knows
            // `$ZOT_HOME` for the trusted keys.
            return Err(OpsError::UnknownSource(arg.to_string()));
        }
        if is_bare_name(arg) {
            return Err(OpsError::UnknownSource(arg.to_string()));
        }
        let path = Path::new(arg);
        if path.is_dir() {
            return Ok(Source::Dir(path.to_path_buf()));
        }
        if looks_like_git_url(arg) {
            return Ok(Source::Git(arg.to_string()));
        }
        Err(OpsError::UnknownSource(arg.to_string()))
    }
}

/// A name alone (`todo`): no path separator, not `.`/`..`/`~…`, not a git
/// URL. zot reads it as a catalog name, never as a folder.
pub fn is_bare_name(arg: &str) -> bool {
    !arg.is_empty()
        && !matches!(arg, "." | "..")
        && !arg.starts_with('~')
        && !arg.contains(['/', '\\'])
        && !looks_like_git_url(arg)
}

/// `scheme://…` or scp-like `[user@]host:path` (no `/` before the colon).
fn looks_like_git_url(arg: &str) -> bool {
    if let Some((scheme, rest)) = arg.split_once("://") {
        return !scheme.is_empty()
            && !rest.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    }
    match arg.split_once(':') {
        Some((host, path)) => {
            !host.is_empty() && !path.is_empty() && !host.contains('/') && !host.contains('\\')
        }
        None => false,
    }
}

/// What an install is doing, for a progress display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Copying from a directory.
    Copying {
        /// The source directory.
        from: PathBuf,
    },
    /// `git clone` started.
    Cloning {
        /// The URL.
        url: String,
    },
    /// Unpacking a bundle (already checked).
    Unpacking {
        /// Its file or URL.
        from: String,
    },
    /// One progress line from git (`Receiving objects:  42% …`).
    Git(String),
    /// Checking the manifest.
    Validating,
}

/// A cooperative cancel flag: set it (from a Ctrl-C handler or a GUI
/// button) and the install stops, removes what it made and returns
/// [`OpsError::Cancelled`].
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the operation to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// What was installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The manifest's name.
    pub name: String,
    /// The manifest's version.
    pub version: Option<String>,
    /// `$ZOT_HOME/extensions/<name>`.
    pub dir: PathBuf,
    /// Whether an existing install was replaced (`--force`).
    pub replaced: bool,
}

/// Installs `source` into `$ZOT_HOME/extensions/<manifest name>`.
///
/// Blocking (copying and git run on this thread); the GUI calls it from a
/// blocking task. An existing destination is refused unless `force`.
pub fn install(
    zot_home: &Path,
    source: &Source,
    force: bool,
    cancel: &Cancel,
    progress: &mut dyn FnMut(Progress),
) -> OpsResult<Installed> {
    install_reviewed(
        zot_home,
        source,
        force,
        cancel,
        progress,
        &mut |_, _| Ok(()),
    )
}

/// [`install`], with `review` called on the new manifest and the
/// destination once the copy is checked and before anything replaces what
/// is installed: an error from it leaves the old install as it was.
pub fn install_reviewed(
    zot_home: &Path,
    source: &Source,
    force: bool,
    cancel: &Cancel,
    progress: &mut dyn FnMut(Progress),
    review: &mut dyn FnMut(&Manifest, &Path) -> OpsResult<()>,
) -> OpsResult<Installed> {
    install_staged(zot_home, source, force, None, cancel, progress, review)
}

/// [`install_reviewed`], moving a replaced copy to `keep_in/<name>`
/// (for a rollback) instead of deleting it.
pub(crate) fn install_staged(
    zot_home: &Path,
    source: &Source,
    force: bool,
    keep_in: Option<&Path>,
    cancel: &Cancel,
    progress: &mut dyn FnMut(Progress),
    review: &mut dyn FnMut(&Manifest, &Path) -> OpsResult<()>,
) -> OpsResult<Installed> {
    let base = home::extensions_dir(zot_home);
    // Fail before copying anything when the directory is plainly wrong.
    match source {
        Source::Dir(dir) => {
            let manifest = read_manifest(dir)?;
            refuse_existing(&base, &manifest.name, force)?;
        }
        Source::Bundle(b) => {
            refuse_existing(&base, &b.manifest.name, force)?;
        }
        Source::Git(_) => {}
    }
    std::fs::create_dir_all(&base).map_err(OpsError::io("create", &base))?;
    let staging = Staging::new(&base)?;
    match source {
        Source::Dir(dir) => {
            progress(Progress::Copying { from: dir.clone() });
            copy::copy_tree(dir, staging.path(), cancel)?;
        }
        Source::Git(url) => {
            progress(Progress::Cloning { url: url.clone() });
            clone::shallow_clone(url, staging.path(), cancel, progress)?;
        }
        Source::Bundle(b) => {
            progress(Progress::Unpacking {
                from: b.origin.clone(),
            });
            crate::manage::bundle::extract(b, staging.path())
                .map_err(OpsError::io("unpack the bundle into", staging.path()))?;
        }
    }
    if cancel.is_cancelled() {
        return Err(OpsError::Cancelled);
    }
    progress(Progress::Validating);
    let manifest = read_manifest(staging.path())?;
    let dest = base.join(&manifest.name);
    let replaced = refuse_existing(&base, &manifest.name, force)?;
    review(&manifest, &dest)?;
    let keep = keep_in.map(|k| k.join(&manifest.name));
    staging.commit(&dest, replaced, keep.as_deref())?;
    Ok(Installed {
        name: manifest.name,
        version: manifest.version,
        dir: dest,
        replaced,
    })
}

/// Errors when `base/name` exists and `force` is off; otherwise says
/// whether it exists.
fn refuse_existing(base: &Path, name: &str, force: bool) -> OpsResult<bool> {
    let dest = base.join(name);
    let exists = dest.symlink_metadata().is_ok();
    if exists && !force {
        return Err(OpsError::AlreadyInstalled {
            name: name.to_string(),
            dir: dest,
        });
    }
    Ok(exists)
}

/// Reads and checks `dir/extension.json` with the host's own manifest
/// rules: it must parse and carry a name that is safe as a directory name.
pub fn read_manifest(dir: &Path) -> OpsResult<Manifest> {
    let file = dir.join(MANIFEST_FILE);
    if !file.is_file() {
        return Err(OpsError::NoManifest {
            dir: dir.to_path_buf(),
        });
    }
    manifest::load(&file).map_err(|e| OpsError::BadManifest {
        file,
        reason: match e.field {
            Some(field) => format!("field `{field}`: {}", e.message),
            None => e.message,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_scp_forms_are_git_and_plain_words_are_not() {
        for url in [
            "https://example.com/a/b.git",
            "file:///tmp/repo",
            "ssh://git@host/x",
            "git@github.com:me/ext.git",
        ] {
            assert!(looks_like_git_url(url), "{url}");
        }
        for not in ["./some/dir", "nosuchdir", "://x", "a/b:c", ""] {
            assert!(!looks_like_git_url(not), "{not}");
        }
    }

    #[test]
    fn dash_sources_are_refused_before_anything_else() {
        let err = Source::parse("--upload-pack=touch /tmp/x").unwrap_err();
        assert!(matches!(err, OpsError::DashArgument { .. }), "{err}");
    }
}
