//! The daily background check for updates (docs/extensions.md "Updates"):
//! when Settings turns it on, the app asks for it at start and then every
//! hour, and the check itself (`update::check`, which runs nothing of the
//! extensions) runs at most once a day. The time and result of the last
//! one are kept in `$ZOT_HOME/update-check.json`, so a restart within the
//! day shows the same Updates count without asking anyone again. The
//! clock is the caller's, so the rule is tested without waiting.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use zot_ext_protocol::UpdateInfo;

/// The file in `$ZOT_HOME` that remembers the last check.
pub const CHECK_FILE: &str = "update-check.json";

/// How long a check's result stands before the next one is due.
pub const INTERVAL: Duration = Duration::from_secs(24 * 60 * 60);

/// The last background check: when, and what it found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastCheck {
    /// Seconds since the Unix epoch.
    pub checked_at: u64,
    /// The updates it found (minus those installed or rolled back since).
    #[serde(default)]
    pub updates: Vec<UpdateInfo>,
}

/// The answer of [`daily`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Daily {
    /// The updates known now.
    pub updates: Vec<UpdateInfo>,
    /// When they were found (seconds since the Unix epoch).
    pub checked_at: u64,
    /// Whether this call ran the check (false: the last one still stands).
    pub ran: bool,
}

fn file(zot_home: &Path) -> PathBuf {
    zot_home.join(CHECK_FILE)
}

fn secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The last check, if one is remembered (an unreadable file counts as none).
pub fn last(zot_home: &Path) -> Option<LastCheck> {
    let text = std::fs::read(file(zot_home)).ok()?;
    serde_json::from_slice(&text).ok()
}

/// Whether a check is due at `now` after `last`: none yet, a day or more
/// ago, or a time after `now` (the clock was set back).
pub fn due(last: Option<&LastCheck>, now: SystemTime) -> bool {
    match last {
        None => true,
        Some(l) => {
            let now = secs(now);
            l.checked_at > now || now - l.checked_at >= INTERVAL.as_secs()
        }
    }
}

/// Runs `check` if one is due at `now` and remembers its result; otherwise
/// answers what the last one found. A result that cannot be saved is still
/// answered (the next call then checks again).
pub fn daily(zot_home: &Path, now: SystemTime, check: impl FnOnce() -> Vec<UpdateInfo>) -> Daily {
    let previous = last(zot_home);
    if let Some(l) = previous.filter(|l| !due(Some(l), now)) {
        return Daily {
            updates: l.updates,
            checked_at: l.checked_at,
            ran: false,
        };
    }
    let record = LastCheck {
        checked_at: secs(now),
        updates: check(),
    };
    let _ = crate::io::private_file::write_json(&file(zot_home), &record);
    Daily {
        updates: record.updates,
        checked_at: record.checked_at,
        ran: true,
    }
}

/// Forgets the remembered update of `name` (it was just updated or rolled
/// back), so the count does not offer it again until the next check.
pub fn forget(zot_home: &Path, name: &str) {
    if let Some(mut l) = last(zot_home) {
        let before = l.updates.len();
        l.updates.retain(|u| u.name != name);
        if l.updates.len() != before {
            let _ = crate::io::private_file::write_json(&file(zot_home), &l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn info(name: &str) -> UpdateInfo {
        UpdateInfo {
            name: name.into(),
            from: "1.0.0".into(),
            to: "1.1.0".into(),
            changes: Vec::new(),
            widened: Vec::new(),
            installed: false,
        }
    }

    const HOUR: Duration = Duration::from_secs(3600);

    #[test]
    fn the_check_runs_once_a_day_and_the_result_stands_in_between() {
        let home = tempfile::tempdir().unwrap();
        let ran = Cell::new(0);
        let check = || {
            ran.set(ran.get() + 1);
            vec![info("todo")]
        };
        let t0 = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let first = daily(home.path(), t0, check);
        assert!(first.ran);
        assert_eq!(first.updates, [info("todo")]);
        // Within the day, nothing runs and the remembered result answers,
        // also for a new process (it is read from the file).
        for later in [
            t0 + HOUR,
            t0 + 23 * HOUR,
            t0 + INTERVAL - Duration::from_secs(1),
        ] {
            let d = daily(home.path(), later, check);
            assert!(!d.ran);
            assert_eq!(d.updates, [info("todo")]);
            assert_eq!(d.checked_at, 1_800_000_000);
        }
        assert_eq!(ran.get(), 1);
        // A day later it runs again.
        assert!(daily(home.path(), t0 + INTERVAL, check).ran);
        assert_eq!(ran.get(), 2);
    }

    #[test]
    fn a_clock_set_back_or_a_broken_file_makes_it_due() {
        let home = tempfile::tempdir().unwrap();
        let t0 = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        daily(home.path(), t0, Vec::new);
        assert!(!due(last(home.path()).as_ref(), t0 + HOUR));
        assert!(due(last(home.path()).as_ref(), t0 - HOUR));
        std::fs::write(home.path().join(CHECK_FILE), "not json").unwrap();
        assert!(daily(home.path(), t0 + HOUR, Vec::new).ran);
    }

    #[test]
    fn an_installed_update_is_forgotten_until_the_next_check() {
        let home = tempfile::tempdir().unwrap();
        let t0 = UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        daily(home.path(), t0, || vec![info("todo"), info("dusk")]);
        forget(home.path(), "todo");
        let d = daily(home.path(), t0 + HOUR, || unreachable!("not due"));
        assert_eq!(d.updates, [info("dusk")]);
    }
}
