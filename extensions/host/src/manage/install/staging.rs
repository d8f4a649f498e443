//! The hidden temporary directory an install is built in, and the swap that
//! puts it into place. Dropping an uncommitted [`Staging`] deletes it, so an
//! error or a cancel anywhere leaves nothing behind.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) use crate::io::fs_swap::{exchange, remove_any};
use crate::manage::ext_ops::{OpsError, OpsResult};

/// Prefix of in-flight directories; a leading `.` keeps discovery and name
/// listings from ever seeing them.
const HIDDEN_PREFIX: &str = ".zot-";

/// A hidden sibling directory under construction.
pub(crate) struct Staging {
    /// The directory; `None` once committed.
    path: Option<PathBuf>,
}

impl Staging {
    /// Creates a fresh hidden directory in `base`.
    pub(crate) fn new(base: &Path) -> OpsResult<Staging> {
        sweep_stale(base);
        let path = unique_dir(base, "install")?;
        Ok(Staging { path: Some(path) })
    }

    /// Its path.
    #[allow(clippy::expect_used)] // `commit` consumes `self`: no path() after it
    pub(crate) fn path(&self) -> &Path {
        self.path.as_deref().expect("staging used after commit")
    }

    /// Renames the staged tree to `dest`. With `replace`, the two are
    /// swapped in one step where the OS can (Linux's `RENAME_EXCHANGE`), so
    /// a process killed at any moment leaves either the old copy or the new
    /// one in place, never neither; elsewhere the old `dest` is first moved
    /// aside and put back if the rename fails. The replaced copy is then
    /// moved to `keep` (for a rollback), or deleted.
    #[allow(clippy::expect_used)] // `path` is `Some` until this consuming call
    pub(crate) fn commit(
        mut self,
        dest: &Path,
        replace: bool,
        keep: Option<&Path>,
    ) -> OpsResult<()> {
        let staged = self.path.take().expect("staging committed twice");
        let base = dest.parent().unwrap_or(Path::new("."));
        let old = if !replace {
            if let Err(e) = std::fs::rename(&staged, dest) {
                let _ = remove_any(&staged);
                return Err(OpsError::io("move into place", dest)(e));
            }
            None
        } else if exchange(&staged, dest).is_ok() {
            // `staged` now holds the old copy.
            Some(staged)
        } else {
            let aside = unique_name(base, "replaced");
            std::fs::rename(dest, &aside).map_err(OpsError::io("move aside", dest))?;
            if let Err(e) = std::fs::rename(&staged, dest) {
                let _ = std::fs::rename(&aside, dest);
                let _ = remove_any(&staged);
                return Err(OpsError::io("move into place", dest)(e));
            }
            Some(aside)
        };
        let Some(old) = old else {
            return Ok(());
        };
        if let Some(keep) = keep {
            if let Some(parent) = keep.parent() {
                std::fs::create_dir_all(parent).map_err(OpsError::io("create", parent))?;
            }
            remove_any(keep).map_err(OpsError::io("delete the older kept copy", keep))?;
            if std::fs::rename(&old, keep).is_ok() {
                return Ok(());
            }
        }
        remove_any(&old).map_err(OpsError::io("delete the replaced copy", &old))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            let _ = remove_any(&path);
        }
    }
}

/// Deletes `path` so that no half-deleted extension is ever visible: it is
/// renamed to a hidden sibling first, then removed.
pub(crate) fn discard(path: &Path) -> io::Result<()> {
    let base = path.parent().unwrap_or(Path::new("."));
    let aside = unique_name(base, "removing");
    std::fs::rename(path, &aside)?;
    remove_any(&aside)
}

/// Deletes in-flight directories left by a zot that was killed outright
/// (SIGKILL, power loss), recognised by a pid that no longer runs. Those
/// of live processes (a concurrent install) are left alone.
pub(crate) fn sweep_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = leftover_pid(&name) else {
            continue;
        };
        if !process_alive(pid) {
            let _ = remove_any(&entry.path());
        }
    }
}

/// The pid in `.zot-<what>-<pid>-<n>`.
fn leftover_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(HIDDEN_PREFIX)?;
    let mut parts = rest.rsplitn(3, '-');
    let _n: u64 = parts.next()?.parse().ok()?;
    parts.next()?.parse().ok()
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks existence; EPERM still means alive.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

// Without a cheap liveness check nothing is swept.
#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}

fn unique_name(base: &Path, what: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    base.join(format!("{HIDDEN_PREFIX}{what}-{}-{n}", std::process::id()))
}

fn unique_dir(base: &Path, what: &str) -> OpsResult<PathBuf> {
    loop {
        let path = unique_name(base, what);
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            // A leftover from an earlier process with the same pid: try the next.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(OpsError::io("create", &path)(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftover_names_carry_the_pid_of_their_maker() {
        assert_eq!(leftover_pid(".zot-install-1234-0"), Some(1234));
        assert_eq!(leftover_pid(".zot-replaced-77-12"), Some(77));
        assert_eq!(leftover_pid(".zot-install-x-0"), None);
        assert_eq!(leftover_pid("hello"), None);
        assert_eq!(leftover_pid(".git"), None);
    }
}
