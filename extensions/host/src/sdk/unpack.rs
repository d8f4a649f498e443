//! Unpacking the embedded SDKs into `$ZOT_HOME/sdk/<version>-<hash>/`,
//! atomically: the tree is written into a temporary sibling directory and
//! renamed into place, so a second zot racing this one sees either no tree
//! or a whole one, never half of it.

use std::io;
use std::path::{Path, PathBuf};

/// Written last into a finished tree; a directory without it is not ours.
const MARKER: &str = ".zot-sdk-complete";

/// The SDKs could not be unpacked.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not unpack zot's extension SDKs into {}: {source}; extensions that need zot's SDK (`zot_ext`, `zot-ext`) will fail to import it, those that ship their own still run; make the directory writable or point ZOT_HOME at a writable one",
    dir.display()
)]
pub struct SdkError {
    /// The directory that could not be written.
    pub dir: PathBuf,
    /// What the OS said.
    #[source]
    pub source: io::Error,
}

/// Returns `$ZOT_HOME/sdk/<version>-<hash>`, unpacking it first when this
/// build's tree is not there yet. Safe to call from several processes at
/// once: each unpacks into its own temporary directory and the first
/// rename wins.
pub fn ensure(zot_home: &Path) -> Result<PathBuf, SdkError> {
    let root = zot_home.join("sdk");
    let dest = root.join(super::dir_name());
    if dest.join(MARKER).is_file() {
        return Ok(dest);
    }
    let fail = |dir: &Path| {
        let dir = dir.to_path_buf();
        move |source| SdkError { dir, source }
    };
    std::fs::create_dir_all(&root).map_err(fail(&root))?;
    let tmp = root.join(format!(
        ".tmp-{}-{}-{}",
        super::dir_name(),
        std::process::id(),
        unique()
    ));
    if let Err(source) = write_tree(&tmp) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(SdkError { dir: root, source });
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

/// Writes every embedded file under `dir`, the marker last.
fn write_tree(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (rel, bytes) in super::files() {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
    }
    std::fs::write(dir.join(MARKER), super::dir_name())
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
