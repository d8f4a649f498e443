//! The size limit: a project too big to snapshot before every prompt is
//! skipped (one `error` event says why), the prompt runs regardless. The
//! limits come from `config.json` (`checkpoints.max_files`,
//! `checkpoints.max_bytes`) with the defaults below; what counts is what a
//! checkpoint would hold (ignored files do not).

use serde_json::Value;

use super::git::Git;

/// Default file count over which checkpoints are skipped.
pub const MAX_FILES: u64 = 100_000;
/// Default total size over which checkpoints are skipped (1 GiB).
pub const MAX_BYTES: u64 = 1 << 30;

/// The limits in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Files a checkpoint may hold.
    pub max_files: u64,
    /// Bytes a checkpoint may hold.
    pub max_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_files: MAX_FILES,
            max_bytes: MAX_BYTES,
        }
    }
}

impl Limits {
    /// The limits `config.json` sets, defaults for what it does not.
    pub fn from_config(config: &Value) -> Limits {
        let c = config.get("checkpoints");
        let n = |k: &str, d: u64| {
            c.and_then(|c| c.get(k))
                .and_then(Value::as_u64)
                .unwrap_or(d)
        };
        Limits {
            max_files: n("max_files", MAX_FILES),
            max_bytes: n("max_bytes", MAX_BYTES),
        }
    }
}

/// What a checkpoint of the project would hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Measured {
    /// Files.
    pub files: u64,
    /// Bytes, by `lstat`.
    pub bytes: u64,
}

/// Counts the files a checkpoint would hold, stopping early once a limit
/// is passed (a huge project is not walked to its end).
pub fn measure(git: &Git, limits: Limits) -> anyhow::Result<Measured> {
    let out = git.run([
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
    ])?;
    let mut m = Measured::default();
    for rel in out.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()) {
        use std::os::unix::ffi::OsStrExt;
        let path = git.work_tree.join(std::ffi::OsStr::from_bytes(rel));
        m.files += 1;
        m.bytes += std::fs::symlink_metadata(&path)
            .map(|md| md.len())
            .unwrap_or(0);
        if m.files > limits.max_files || m.bytes > limits.max_bytes {
            break;
        }
    }
    Ok(m)
}

/// Why a project of size `m` is over `limits`, if it is.
pub fn over(m: Measured, limits: Limits) -> Option<String> {
    if m.files > limits.max_files {
        return Some(format!(
            "more than {} files (not counting ignored ones)",
            limits.max_files
        ));
    }
    if m.bytes > limits.max_bytes {
        return Some(format!(
            "more than {} MiB (not counting ignored files)",
            limits.max_bytes >> 20
        ));
    }
    None
}
