//! Unpacking a tree embedded in the binary (the SDKs into
//! `$ZOT_HOME/sdk/<version>-<hash>/`, the catalog into
//! `$ZOT_HOME/catalog/<version>-<hash>/`), atomically: the tree is written
//! into a temporary sibling directory and renamed into place, so a second
//! zot racing this one sees either no tree or a whole one, never half of it.

use std::io;
use std::path::{Path, PathBuf};

/// Written last into a finished tree; a directory without it is not ours.
const MARKER: &str = ".zot-sdk-complete";

/// An embedded tree could not be unpacked.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not unpack zot's {what} into {}: {source}; {consequence}; make the directory writable or point ZOT_HOME at a writable one",
    dir.display()
)]
pub struct UnpackError {
    /// What was being unpacked ("extension SDKs").
    pub what: &'static str,
    /// What the user loses meanwhile.
    pub consequence: &'static str,
    /// The directory that could not be written.
    pub dir: PathBuf,
    /// What the OS said.
    #[source]
    pub source: io::Error,
}

/// One embedded file: path under the tree, bytes, executable.
pub type File = (&'static str, &'static [u8], bool);

/// What is unpacked where, and what to say when it cannot be.
pub struct Tree<'a> {
    /// The directory holding every version (`$ZOT_HOME/sdk`).
    pub root: PathBuf,
    /// This build's directory name (`<version>-<hash>`).
    pub name: String,
    /// The files.
    pub files: &'a [File],
    /// For [`UnpackError::what`].
    pub what: &'static str,
    /// For [`UnpackError::consequence`].
    pub consequence: &'static str,
}

/// Returns `root/name`, unpacking it first when it is not there yet. Safe
/// to call from several processes at once: each unpacks into its own
/// temporary directory and the first rename wins.
pub fn ensure(tree: &Tree<'_>) -> Result<PathBuf, UnpackError> {
    let root = tree.root.clone();
    let dest = root.join(&tree.name);
    if dest.join(MARKER).is_file() {
        return Ok(dest);
    }
    let fail = |dir: &Path| {
        let dir = dir.to_path_buf();
        move |source| UnpackError {
            what: tree.what,
            consequence: tree.consequence,
            dir,
            source,
        }
    };
    std::fs::create_dir_all(&root).map_err(fail(&root))?;
    let tmp = root.join(format!(
        ".tmp-{}-{}-{}",
        tree.name,
        std::process::id(),
        unique()
    ));
    if let Err(source) = write_tree(&tmp, tree) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(fail(&root)(source));
    }
    let result = match std::fs::rename(&tmp, &dest) {
        Ok(()) => Ok(dest.clone()),
        // Another zot won the race: its tree is complete by construction.
        Err(_) if dest.join(MARKER).is_file() => Ok(dest.clone()),
        Err(_) => replace_broken(&tmp, &dest).map_err(fail(&dest)),
    };
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

/// `dest` exists but is not a finished tree (left by hand, or by a zot
/// from before the marker): move it aside, then rename ours in.
fn replace_broken(tmp: &Path, dest: &Path) -> io::Result<PathBuf> {
    let aside = dest.with_file_name(format!(".stale-{}-{}", std::process::id(), unique()));
    if dest.exists() {
        std::fs::rename(dest, &aside)?;
    }
    let _ = std::fs::remove_dir_all(&aside);
    match std::fs::rename(tmp, dest) {
        Ok(()) => Ok(dest.to_path_buf()),
        Err(_) if dest.join(MARKER).is_file() => Ok(dest.to_path_buf()),
        Err(e) => Err(e),
    }
}

/// Writes every file under `dir`, the marker last.
fn write_tree(dir: &Path, tree: &Tree<'_>) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir)?;
    for (rel, bytes, exec) in tree.files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
        if *exec {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    std::fs::write(dir.join(MARKER), &tree.name)
}

/// Distinguishes two unpacks in one process (threads, tests).
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    (u64::from(nanos) << 16) | (NEXT.fetch_add(1, Ordering::Relaxed) & 0xffff)
}
