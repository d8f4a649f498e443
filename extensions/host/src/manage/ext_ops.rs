//! What the management operations (`install`, `remove`, `enable`/`disable`,
//! `logs`) share: one error type whose messages name the extension or file
//! and say what to do next, and finding an extension by name on disk, so the
//! CLI and the desktop manager report the same things the same way.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use zot_ext_protocol::rpc::Scope;

use crate::home;

/// Why a management operation failed. The `Display` text is meant to be
/// shown to the user as is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpsError {
    /// An argument starts with `-` and could be taken for an option.
    #[error("refusing {what} `{arg}`: it starts with `-` and could be read as an option; use `./{arg}` for a path")]
    DashArgument {
        /// What the argument was meant to be ("source", "name").
        what: &'static str,
        /// The argument as given.
        arg: String,
    },
    /// The source is neither a directory nor something that looks like a git URL.
    #[error("cannot install from `{0}`: it is not a directory and does not look like a git URL (use https://…, ssh://…, git@host:path or file://…)")]
    UnknownSource(String),
    /// An extension name that would escape the extensions directory or is empty.
    #[error("invalid extension name `{name}`: {reason}; use a name as `zot ext list` shows it")]
    BadName {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The source has no `extension.json`.
    #[error("no extension.json in {dir}: every extension directory needs one, with at least a `name` (and an `exec` unless it only ships themes)")]
    NoManifest {
        /// The directory that lacks it.
        dir: PathBuf,
    },
    /// `extension.json` exists but cannot be used.
    #[error("invalid manifest {file}: {reason}")]
    BadManifest {
        /// The manifest file.
        file: PathBuf,
        /// What is wrong, naming the field.
        reason: String,
    },
    /// The destination exists and `--force` was not given.
    #[error("extension `{name}` is already installed at {dir}; pass --force to replace it")]
    AlreadyInstalled {
        /// The extension.
        name: String,
        /// Where it is.
        dir: PathBuf,
    },
    /// No extension of that name.
    #[error("{}", not_found_message(name, installed))]
    NotFound {
        /// The name asked for.
        name: String,
        /// Every name that is installed, sorted.
        installed: Vec<String>,
    },
    /// The extension exists but only in the project, which `remove` leaves alone.
    #[error("extension `{name}` is project-local at {dir}; zot only removes what it installed under $ZOT_HOME/extensions, so delete that directory yourself")]
    ProjectLocal {
        /// The extension.
        name: String,
        /// Its directory.
        dir: PathBuf,
    },
    /// `git` could not be started.
    #[error("cannot run `git` to clone {url}: {source}; install git or copy the extension from a local directory")]
    GitMissing {
        /// The URL.
        url: String,
        /// Why spawning failed.
        source: io::Error,
    },
    /// `git clone` exited with an error.
    #[error(
        "git clone of {url} failed ({status}){}; nothing was installed",
        git_reason(detail)
    )]
    CloneFailed {
        /// The URL.
        url: String,
        /// Exit status or signal.
        status: String,
        /// What git printed on stderr.
        detail: String,
    },
    /// The operation was interrupted; everything it made was removed.
    #[error("interrupted; nothing was installed")]
    Cancelled,
    /// There is no log yet.
    #[error(
        "no log for `{name}` yet at {path}: it is created the first time the extension starts"
    )]
    NoLog {
        /// The extension.
        name: String,
        /// Where the log will be.
        path: PathBuf,
    },
    /// An update asks for permissions the user did not accept; nothing
    /// on disk was changed.
    #[error("not updating `{name}`: the new version asks for more than you accepted: {}; the installed copy is unchanged. To accept, run the install again on a terminal and answer yes, or pass --yes", asks.join("; "))]
    PermissionsNotAccepted {
        /// The extension.
        name: String,
        /// What it newly asks for, in plain words.
        asks: Vec<String>,
    },
    /// A bundle was refused or could not be read.
    #[error(transparent)]
    Bundle(#[from] crate::manage::bundle::BundleError),
    /// An update could not be made; nothing was changed.
    #[error("not updating `{name}`: {reason}; the installed copy is unchanged")]
    UpdateFailed {
        /// The extension.
        name: String,
        /// Why.
        reason: String,
    },
    /// Nothing to update from or roll back to.
    #[error("{0}")]
    Nothing(String),
    /// A catalog name that could not be resolved.
    #[error(transparent)]
    Catalog(#[from] crate::manage::catalog::CatalogError),
    /// `$ZOT_HOME/permissions.json` could not be written.
    #[error("cannot write {path}: {message}; check that the directory is writable")]
    ConsentWrite {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        message: String,
    },
    /// A filesystem error, with the path and what was being done.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done ("copy", "read", …).
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

fn not_found_message(name: &str, installed: &[String]) -> String {
    if installed.is_empty() {
        format!("no extension named `{name}`; none are installed (install one with `zot ext install <path|git-url>`)")
    } else {
        format!(
            "no extension named `{name}`; installed: {}",
            installed.join(", ")
        )
    }
}

/// git's own reason: its `fatal:` line when there is one (the lines after it
/// are advice such as "and the repository exists."), else its last line.
fn git_reason(detail: &str) -> String {
    let mut lines = detail.lines().map(str::trim).filter(|l| !l.is_empty());
    let fatal = lines.clone().find(|l| l.starts_with("fatal:"));
    match fatal.or_else(|| lines.next_back()) {
        Some(line) => format!(": {line}"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::git_reason;

    #[test]
    fn a_clone_failure_names_gits_fatal_line_not_its_advice() {
        let stderr = "Cloning into 'x'...\nfatal: '/no/repo' does not appear to be a git repository\nPlease make sure you have the correct access rights\nand the repository exists.\n";
        assert_eq!(
            git_reason(stderr),
            ": fatal: '/no/repo' does not appear to be a git repository"
        );
        assert_eq!(git_reason("error: one\nlast words\n"), ": last words");
        assert_eq!(git_reason(""), "");
    }
}

impl OpsError {
    /// Wraps an I/O error with what was being done to which path.
    pub fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(io::Error) -> OpsError {
        let path = path.into();
        move |source| OpsError::Io {
            action,
            path,
            source,
        }
    }
}

/// Result of a management operation.
pub type OpsResult<T> = Result<T, OpsError>;

/// An extension found on disk by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The name asked for.
    pub name: String,
    /// Project-local or global.
    pub scope: Scope,
    /// Its directory.
    pub dir: PathBuf,
}

impl Located {
    /// Its `extension.json`.
    pub fn manifest_path(&self) -> PathBuf {
        self.dir.join(MANIFEST_FILE)
    }
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scope = match self.scope {
            Scope::Explicit => "explicit",
            Scope::Project => "project",
            Scope::Global => "global",
        };
        write!(f, "`{}` ({scope}, {})", self.name, self.dir.display())
    }
}

pub use crate::manifest::MANIFEST_FILE;

/// Names of the extension directories in one extensions directory, sorted;
/// hidden entries (install/remove leftovers in flight) are skipped.
pub fn names_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().join(MANIFEST_FILE).is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// Every installed name, project-local and global, sorted and deduplicated,
/// for "did you mean" lists.
pub fn installed_names(zot_home: &Path, cwd: &Path) -> Vec<String> {
    let mut names = names_in(&home::extensions_dir(zot_home));
    names.extend(names_in(&home::project_extensions_dir(cwd)));
    names.sort();
    names.dedup();
    names
}

/// Finds extension `name` the way discovery ranks it: project-local first,
/// then global. The name is validated first, so `../..` never reaches the
/// filesystem.
pub fn locate(zot_home: &Path, cwd: &Path, name: &str) -> OpsResult<Located> {
    check_name(name)?;
    let candidates = [
        (Scope::Project, home::project_extensions_dir(cwd)),
        (Scope::Global, home::extensions_dir(zot_home)),
    ];
    for (scope, base) in candidates {
        let dir = base.join(name);
        if dir.join(MANIFEST_FILE).is_file() {
            return Ok(Located {
                name: name.to_string(),
                scope,
                dir,
            });
        }
    }
    Err(OpsError::NotFound {
        name: name.to_string(),
        installed: installed_names(zot_home, cwd),
    })
}

/// Refuses a name that is empty or could escape the extensions directory,
/// with the reason in words.
pub fn check_name(name: &str) -> OpsResult<()> {
    crate::manifest::validate_name(name).map_err(|e| OpsError::BadName {
        name: name.to_string(),
        reason: e.reason.to_string(),
    })
}
