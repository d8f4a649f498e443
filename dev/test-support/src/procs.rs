//! Asking the OS about processes a test started (through zot, the host or
//! an extension), from `/proc`.

use std::path::Path;

/// The fields of `/proc/<pid>/stat` after the command name (which may hold
/// spaces and parentheses, hence the split at the last `)`): state, ppid,
/// pgrp, …; empty when the process is gone.
fn stat_fields(pid: i32) -> Vec<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    after.split_whitespace().map(str::to_owned).collect()
}

/// Whether a pid names a live process: a zombie (exited, waiting to be
/// reaped, perhaps by an init that never does) runs nothing and holds
/// nothing, so it counts as dead.
pub fn alive(pid: i32) -> bool {
    match stat_fields(pid).first().map(String::as_str) {
        Some(state) => !state.starts_with('Z') && !state.starts_with('X'),
        None => false,
    }
}

/// The process group of `pid`, -1 when it is gone.
pub fn pgrp(pid: i32) -> i32 {
    stat_fields(pid)
        .get(2)
        .and_then(|f| f.parse().ok())
        .unwrap_or(-1)
}

/// Whether `pid` is a zombie whose parent is this test process: a child
/// the code under test forgot to reap.
pub fn is_our_zombie(pid: i32) -> bool {
    let f = stat_fields(pid);
    let ppid: i32 = f.get(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    f.first().map(String::as_str) == Some("Z") && ppid == std::process::id() as i32
}

/// The pid an extension wrote to `dir/<file>`.
pub fn read_pid(dir: &Path, file: &str) -> i32 {
    pid_in(&dir.join(file)).unwrap_or_else(|| panic!("no pid in {}", dir.join(file).display()))
}

/// The pid written to `path`, or `None` while the file is missing or still
/// empty: a writer creates the file before its bytes land, so a test that
/// polls for a pid must wait for this, not for the file to exist.
pub fn pid_in(path: &Path) -> Option<i32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// Resident memory of this process in KiB.
pub fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}
