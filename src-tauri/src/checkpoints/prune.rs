//! Pruning (docs/desktop.md "Checkpoints"): a checkpoint is kept while a
//! session file of its project that was written in the last
//! [`KEEP_DAYS`] days mentions it (a user message's `checkpoint`, a
//! rewind's `undo`), or while it is younger than [`GRACE_HOURS`] (a run
//! with `--no-session`, a prompt whose session line is not written yet).
//! Everything else goes, and a project left with no checkpoint loses its
//! shadow repository. zot prunes by itself at most once a day when a
//! backend starts; `zot checkpoints prune` does it now.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::shadow::{is_object_id, Shadow};

/// Days a session keeps its checkpoints after it was last written.
pub const KEEP_DAYS: u64 = 30;
/// Hours every checkpoint is kept, mentioned or not.
pub const GRACE_HOURS: u64 = 24;
/// The automatic prune runs at most this often.
const AUTO_EVERY: Duration = Duration::from_secs(24 * 3600);

/// What a prune did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pruned {
    /// Projects looked at.
    pub projects: usize,
    /// Checkpoints removed.
    pub removed: usize,
    /// Checkpoints kept.
    pub kept: usize,
    /// Bytes under `$ZOT_HOME/checkpoints` before and after.
    pub bytes_before: u64,
    /// After.
    pub bytes_after: u64,
}

/// Prunes every project's checkpoints under `zot_home` (see the module
/// doc for the policy); `now` is the clock (tests move it).
pub fn prune(zot_home: &Path, now: SystemTime) -> anyhow::Result<Pruned> {
    let root = super::Checkpoints::root(zot_home);
    let mut report = Pruned {
        bytes_before: disk_usage(zot_home),
        ..Default::default()
    };
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Ok(report);
    };
    for e in entries.flatten() {
        let dir = e.path();
        let Ok(project) = std::fs::read_to_string(dir.join("project")) else {
            continue;
        };
        let cwd = PathBuf::from(project);
        report.projects += 1;
        let shadow = Shadow::open(zot_home, &cwd)?;
        let live = mentioned(zot_home, &cwd, now);
        let (removed, kept) = super::with_lock(&shadow, || {
            let mut removed = 0;
            let mut kept = 0;
            for id in shadow.ids() {
                let young = age(&shadow.git().git_dir.join(format!("refs/zot/cp/{id}")), now)
                    .is_some_and(|a| a < Duration::from_secs(GRACE_HOURS * 3600));
                if live.contains(&id) || young {
                    kept += 1;
                } else {
                    shadow.drop_ref(&id);
                    removed += 1;
                }
            }
            if removed > 0 {
                shadow.prune_objects()?;
            }
            Ok((removed, kept))
        })?;
        report.removed += removed;
        report.kept += kept;
        if kept == 0 {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    report.bytes_after = disk_usage(zot_home);
    Ok(report)
}

/// Prunes if the last prune (by anyone) was more than a day ago; for a
/// background task at start.
pub fn prune_if_due(zot_home: &Path) -> Option<anyhow::Result<Pruned>> {
    let stamp = super::Checkpoints::root(zot_home).join("last-prune");
    let now = SystemTime::now();
    if age(&stamp, now).is_some_and(|a| a < AUTO_EVERY) {
        return None;
    }
    if !super::Checkpoints::root(zot_home).is_dir() {
        return None;
    }
    let _ = std::fs::write(&stamp, b"");
    Some(prune(zot_home, now))
}

/// Bytes under `$ZOT_HOME/checkpoints` (what Settings shows).
pub fn disk_usage(zot_home: &Path) -> u64 {
    fn walk(d: &Path) -> u64 {
        let Ok(rd) = std::fs::read_dir(d) else {
            return 0;
        };
        rd.flatten()
            .map(|e| match e.file_type() {
                Ok(t) if t.is_dir() => walk(&e.path()),
                Ok(_) => e.metadata().map(|m| m.len()).unwrap_or(0),
                Err(_) => 0,
            })
            .sum()
    }
    walk(&super::Checkpoints::root(zot_home))
}

/// Checkpoint ids that the project's recent session files mention.
fn mentioned(zot_home: &Path, cwd: &Path, now: SystemTime) -> HashSet<String> {
    let mut live = HashSet::new();
    let dir = crate::agent::session::dir(zot_home, cwd);
    let Ok(rd) = std::fs::read_dir(dir) else {
        return live;
    };
    let keep = Duration::from_secs(KEEP_DAYS * 24 * 3600);
    for e in rd.flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "jsonl") || age(&p, now).is_none_or(|a| a > keep) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for key in ["\"checkpoint\":\"", "\"undo\":\""] {
            for (at, _) in text.match_indices(key) {
                let start = at + key.len();
                if let Some(id) = text.get(start..start + 40).filter(|id| is_object_id(id)) {
                    live.insert(id.to_owned());
                }
            }
        }
    }
    live
}

/// How long ago `p` was modified (zero if in the future).
fn age(p: &Path, now: SystemTime) -> Option<Duration> {
    let m = std::fs::metadata(p).ok()?.modified().ok()?;
    Some(now.duration_since(m).unwrap_or_default())
}
