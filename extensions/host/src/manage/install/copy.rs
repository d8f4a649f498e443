//! The recursive copy behind installing from a directory. Symlinks are
//! recreated as links and never followed, so a link pointing outside the
//! source can never pull a foreign tree into the install; sockets and FIFOs
//! are skipped because reading a FIFO would hang.

use std::path::Path;

use super::Cancel;
use crate::manage::ext_ops::{OpsError, OpsResult};

/// Copies the contents of `from` into the existing directory `to`.
pub(crate) fn copy_tree(from: &Path, to: &Path, cancel: &Cancel) -> OpsResult<()> {
    let entries = std::fs::read_dir(from).map_err(OpsError::io("read", from))?;
    for entry in entries {
        if cancel.is_cancelled() {
            return Err(OpsError::Cancelled);
        }
        let entry = entry.map_err(OpsError::io("read", from))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let kind = entry.file_type().map_err(OpsError::io("inspect", &src))?;
        if kind.is_symlink() {
            copy_link(&src, &dst)?;
        } else if kind.is_dir() {
            // The staging directory may sit inside the source (installing a
            // parent of $ZOT_HOME); copying it into itself would never end.
            if same_file(&src, to) {
                continue;
            }
            std::fs::create_dir(&dst).map_err(OpsError::io("create", &dst))?;
            copy_tree(&src, &dst, cancel)?;
        } else if kind.is_file() {
            std::fs::copy(&src, &dst).map_err(OpsError::io("copy", &src))?;
        }
    }
    Ok(())
}

fn copy_link(src: &Path, dst: &Path) -> OpsResult<()> {
    let target = std::fs::read_link(src).map_err(OpsError::io("read link", src))?;
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&target, dst).map_err(OpsError::io("create link", dst))
    }
    #[cfg(windows)]
    {
        let made = if src.is_dir() {
            std::os::windows::fs::symlink_dir(&target, dst)
        } else {
            std::os::windows::fs::symlink_file(&target, dst)
        };
        made.map_err(OpsError::io("create link", dst))
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
