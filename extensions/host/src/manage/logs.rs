//! `zot ext logs <name> [-f]`: read an extension's stderr log, or follow it
//! as it grows. Following survives the log being truncated or deleted and
//! re-created (rotation, a manual `> file`), without shelling out to `tail`,
//! and hands data to a callback so the desktop log viewer reuses it.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::home;
use crate::manage::ext_ops::{check_name, installed_names, OpsError, OpsResult};

/// How often a followed log is checked for growth, truncation and
/// re-creation. Polling works the same on every platform and filesystem.
pub const POLL_INTERVAL: Duration = Duration::from_millis(200);

/// Something that happened to a followed log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogEvent {
    /// New bytes, in order.
    Data(Vec<u8>),
    /// The file shrank; reading starts again from its beginning.
    Truncated,
    /// The path now names a new file; reading starts at its beginning.
    Recreated,
}

/// The log path for extension `name`, after checking the name. When there
/// is no log yet, says whether the extension exists at all: an unknown name
/// lists the installed ones, a known one explains when the log appears.
pub fn log_file(zot_home: &Path, cwd: &Path, name: &str) -> OpsResult<PathBuf> {
    check_name(name)?;
    let path = home::log_path(zot_home, name);
    if path.is_file() {
        return Ok(path);
    }
    let installed = installed_names(zot_home, cwd);
    if installed.iter().any(|n| n == name) {
        Err(OpsError::NoLog {
            name: name.to_string(),
            path,
        })
    } else {
        Err(OpsError::NotFound {
            name: name.to_string(),
            installed,
        })
    }
}

/// Follows the log at `path` from byte `from`, calling `on_event` with
/// everything that happens, until it returns `Break` (or the future is
/// dropped). A log that does not exist yet is waited for.
pub async fn follow(
    path: &Path,
    from: u64,
    mut on_event: impl FnMut(LogEvent) -> ControlFlow<()>,
) -> OpsResult<()> {
    let mut pos = from;
    let mut open: Option<(File, FileId)> = None;
    loop {
        if open.is_none() {
            if let Ok(file) = File::open(path) {
                let id = file
                    .metadata()
                    .map(|m| FileId::of(&m))
                    .map_err(OpsError::io("inspect", path))?;
                open = Some((file, id));
            }
        }
        if let Some((file, id)) = &mut open {
            let len = file
                .metadata()
                .map_err(OpsError::io("inspect", path))?
                .len();
            if len < pos {
                pos = 0;
                if on_event(LogEvent::Truncated).is_break() {
                    return Ok(());
                }
            }
            let data = read_from(file, pos).map_err(OpsError::io("read", path))?;
            if !data.is_empty() {
                pos += data.len() as u64;
                if on_event(LogEvent::Data(data)).is_break() {
                    return Ok(());
                }
            }
            // A new file under the same name: the old one has been read to
            // its end above, so switch without losing anything.
            if let Ok(now) = std::fs::metadata(path) {
                if FileId::of(&now) != *id {
                    open = None;
                    pos = 0;
                    if on_event(LogEvent::Recreated).is_break() {
                        return Ok(());
                    }
                    continue;
                }
            }
        }
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

/// Reads up to `max` bytes of `path` from `offset`, for a viewer that polls
/// instead of following (the desktop log viewer). A file that shrank below
/// `offset` (truncated or re-created) is read from its start again. Returns
/// the text (invalid UTF-8 replaced) and the offset to ask for next.
pub fn read_chunk(path: &Path, offset: u64, max: u64) -> std::io::Result<(String, u64)> {
    let mut f = File::open(path)?;
    let len = f.metadata()?.len();
    let from = if offset > len { 0 } else { offset };
    f.seek(SeekFrom::Start(from))?;
    let mut buf = Vec::new();
    f.take(max).read_to_end(&mut buf)?;
    Ok((
        String::from_utf8_lossy(&buf).into_owned(),
        from + buf.len() as u64,
    ))
}

/// The last `n` non-blank lines of the log at `path` (reading at most its
/// last 16 KiB), for showing why an extension failed; empty if unreadable.
pub fn tail_lines(path: &Path, n: usize) -> Vec<String> {
    const WINDOW: u64 = 16 * 1024;
    let Ok(mut file) = File::open(path) else {
        return Vec::new();
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let Ok(bytes) = read_from(&mut file, len.saturating_sub(WINDOW)) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<String> = text
        .lines()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .map(str::to_owned)
        .collect();
    lines.reverse();
    lines
}

fn read_from(file: &mut File, pos: u64) -> std::io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(pos))?;
    let mut data = Vec::new();
    file.read_to_end(&mut data)?;
    Ok(data)
}

/// Which file a path names; a change means it was replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

impl FileId {
    #[cfg(unix)]
    fn of(meta: &std::fs::Metadata) -> FileId {
        use std::os::unix::fs::MetadataExt;
        FileId(meta.dev(), meta.ino())
    }

    // Without inode numbers only truncation is detected.
    #[cfg(not(unix))]
    fn of(_meta: &std::fs::Metadata) -> FileId {
        FileId(0, 0)
    }
}
