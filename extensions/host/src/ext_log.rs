//! The host's own lines in an extension's log (`[zot] …`), beside the
//! extension's stderr, so everything about one extension is in one file.
//! Floods are throttled so a misbehaving extension cannot fill the disk.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Appends host lines to `$ZOT_HOME/logs/ext-<name>.log`.
#[derive(Debug)]
pub struct ExtLog {
    /// The log file.
    path: PathBuf,
    /// Opened on first use, in append mode (the child's stderr shares it).
    file: Mutex<Option<File>>,
}

impl ExtLog {
    /// A log at `path`; nothing is created until the first line.
    pub fn new(path: PathBuf) -> Self {
        ExtLog {
            path,
            file: Mutex::new(None),
        }
    }

    /// The log file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `[zot] msg`. Failing to log is not worth failing anything else.
    pub fn line(&self, msg: &str) {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if file.is_none() {
            if let Some(dir) = self.path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            *file = private_append(&self.path).ok();
        }
        if let Some(f) = file.as_mut() {
            let _ = f.write_all(format!("[zot] {msg}\n").as_bytes());
        }
    }
}

/// Opens a log for appending, creating it at mode 0600: logs quote
/// prompts and tool output, which are nobody else's business.
pub(crate) fn private_append(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path)
}

/// Counts repeated trouble and says when it is worth a log line: the first
/// time, then at every power of ten.
#[derive(Debug, Default)]
pub struct Throttle(AtomicU64);

impl Throttle {
    /// Counts one more; `Some(total)` when this one should be logged.
    pub fn hit(&self) -> Option<u64> {
        let n = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        let mut p = 1;
        while p < n {
            p *= 10;
        }
        (p == n).then_some(n)
    }

    /// Like [`Throttle::hit`], but the first `first` are all logged.
    pub fn hit_after(&self, first: u64) -> Option<u64> {
        let n = self.0.load(Ordering::Relaxed) + 1;
        if n <= first {
            self.0.fetch_add(1, Ordering::Relaxed);
            return Some(n);
        }
        self.hit()
    }
}

/// Shortens a line for a log message, on a character boundary.
pub fn excerpt(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]);
    if bytes.len() > 200 {
        format!("{text}… ({} bytes)", bytes.len())
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttle_logs_first_and_powers_of_ten() {
        let t = Throttle::default();
        let logged: Vec<u64> = (0..1000).filter_map(|_| t.hit()).collect();
        assert_eq!(logged, vec![1, 10, 100, 1000]);
    }
}
