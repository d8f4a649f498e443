//! The two filesystem moves an install, an update and a rollback share:
//! swapping two folders in one step, and removing a tree (never following
//! a link). A leaf module, so `install` and `rollback` both use it without
//! depending on each other.

use std::io;
use std::path::Path;

/// Removes a file, a symlink (never what it points to) or a directory tree.
/// Retries a few times because a killed git's helpers may still be writing
/// for a moment after the kill.
pub(crate) fn remove_any(path: &Path) -> io::Result<()> {
    let mut last = Ok(());
    for _ in 0..5 {
        last = match path.symlink_metadata() {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => Err(e),
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
            Ok(_) => std::fs::remove_file(path),
        };
        match &last {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
    last
}

/// Swaps two paths atomically (Linux `renameat2(RENAME_EXCHANGE)`).
#[cfg(target_os = "linux")]
pub(crate) fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes()).map_err(io::Error::other)?;
    let cb = CString::new(b.as_os_str().as_bytes()).map_err(io::Error::other)?;
    // SAFETY: two valid NUL-terminated paths relative to the cwd; the call
    // only renames.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Without an atomic swap the caller falls back to two renames.
#[cfg(not(target_os = "linux"))]
pub(crate) fn exchange(_a: &Path, _b: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}
