//! Opening files for the built-in tools without ever blocking or flooding:
//! only regular files are read or written (a FIFO, a device, a socket or a
//! directory is refused after a `metadata` check, before any open), opens
//! use `O_NONBLOCK` so a file swapped for a FIFO in between cannot hang the
//! call, and the opened handle is checked again.

use std::fs::{File, Metadata};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The most `write` writes and `edit` reads or writes, in bytes: far above
/// any source file, far below what could exhaust memory.
pub const MAX_EDIT_BYTES: u64 = 16 * 1024 * 1024;

/// What a non-regular file is, for the error.
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Refuses anything but a regular file; `verb` is "read" or "write".
fn check_regular(path: &Path, meta: &Metadata, verb: &str) -> Result<(), String> {
    if meta.file_type().is_file() {
        return Ok(());
    }
    let hint = if meta.is_dir() {
        "; list it with bash (ls) instead"
    } else {
        ""
    };
    Err(format!(
        "cannot {verb} {}: it is {}, and the built-in tools only {verb} regular files{hint}",
        path.display(),
        kind(meta)
    ))
}

/// Opens a regular file for reading, refusing anything else without ever
/// blocking. Returns the handle and its size.
pub fn open_read(path: &Path) -> Result<(File, u64), String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    check_regular(path, &meta, "read")?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // The path may have been swapped between the check and the open.
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    check_regular(path, &meta, "read")?;
    Ok((file, meta.len()))
}

/// Checks that `path` is missing or a regular file, so a write never hangs
/// on a FIFO or scribbles on a device.
pub fn check_write_target(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) => check_regular(path, &meta, "write"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("cannot write {}: {e}", path.display())),
    }
}

/// Writes `content` to a regular (or new) file without blocking on a FIFO
/// that appeared after the check.
pub fn write_regular(path: &Path, content: &[u8]) -> Result<(), String> {
    use std::io::Write;
    check_write_target(path)?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o644)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    check_regular(path, &meta, "write")?;
    file.set_len(0)
        .and_then(|()| file.write_all(content))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
