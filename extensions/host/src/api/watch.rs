//! `zot --ext DIR --watch`: reloads the extensions when a watched folder's
//! sources change, for authors editing a working copy. It polls (no
//! platform watcher to set up, and a handful of small folders cost
//! nothing), waits until the folder has been quiet for the debounce so an
//! editor's multi-file save reloads once. A change to code restarts only
//! the extension loaded from that folder ([`Host::restart`]: the others
//! keep running, their panels and state untouched); a change to a manifest
//! or a theme runs the same reload as `/reload-ext`, since only a fresh
//! discovery applies it. A broken save shows its error; the next good save
//! recovers.
//!
//! Only sources count: `extension.json`, `theme.json`, `themes/`, and files
//! ending in `.py .js .mjs .cjs .ts .mts .sh`, minus what an
//! extension writes at run time under common names (`node_modules`,
//! `target`, `__pycache__`, hidden entries). A data file the extension
//! rewrites (`todos.json`) would otherwise reload it in a loop, so JSON
//! files other than the manifest and themes are ignored.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::Host;

/// How often the folders are looked at.
pub const POLL: Duration = Duration::from_millis(100);
/// How long a folder must stay unchanged before a reload.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// A folder's state: every watched file with its length and mtime.
type Fingerprint = Vec<(PathBuf, u64, Option<SystemTime>)>;

/// Starts watching `dirs` on a task that ends when the host is dropped.
/// Must run inside a tokio runtime.
pub fn watch(host: &Host, dirs: Vec<PathBuf>, debounce: Duration) {
    let weak = Arc::downgrade(&host.inner);
    tokio::spawn(async move {
        let mut reloaded = fingerprint(&dirs);
        let mut seen = reloaded.clone();
        let mut quiet_since = tokio::time::Instant::now();
        loop {
            tokio::time::sleep(POLL).await;
            let Some(inner) = weak.upgrade() else { return };
            let now = fingerprint(&dirs);
            if now != seen {
                seen = now;
                quiet_since = tokio::time::Instant::now();
                continue;
            }
            if seen != reloaded && quiet_since.elapsed() >= debounce {
                let changed = changed_files(&reloaded, &seen);
                reloaded = seen.clone();
                let host = Host { inner };
                match code_only_changes(&host, &dirs, &changed) {
                    Some(names) => restart_each(&host, &names).await,
                    None => reload_all(&host).await,
                }
            }
        }
    });
}

/// Starts each changed extension again, alone: the others keep running.
async fn restart_each(host: &Host, names: &[String]) {
    for name in names {
        match host.reload_one(name).await {
            Ok(report) => say(&format!("{name} changed; restarted it"), &report),
            Err(e) => eprintln!("zot: {name} changed; {e}"),
        }
    }
}

/// One line on stderr with the outcome and every load error with its log.
fn say(what: &str, report: &crate::api::reload::ReloadReport) {
    eprintln!(
        "zot: {what}: {} ready of {}{}",
        report.ready,
        report.loaded,
        report
            .errors
            .iter()
            .map(|e| format!("; {}: {} (log: {})", e.extension, e.message, e.log_path))
            .collect::<String>()
    );
}

/// The same reload as `/reload-ext`, for a change only a fresh discovery
/// can apply (a manifest or a theme).
async fn reload_all(host: &Host) {
    say(
        "a watched extension changed; reloaded",
        &host.reload().await,
    );
}

/// Paths added, removed or rewritten between two fingerprints.
fn changed_files(before: &Fingerprint, after: &Fingerprint) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = before
        .iter()
        .filter(|e| !after.contains(e))
        .chain(after.iter().filter(|e| !before.contains(e)))
        .map(|(p, _, _)| p.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// When only code changed (no manifest, no theme), the extensions loaded
/// from the watched folders that changed: each can be restarted alone with
/// the spec it has. `None` when a full reload is needed: a manifest or a
/// theme changed, or a changed folder has no loaded extension to restart.
fn code_only_changes(host: &Host, dirs: &[PathBuf], changed: &[PathBuf]) -> Option<Vec<String>> {
    // Each loaded extension's folder, resolved once for all changed paths.
    let loaded: Vec<(PathBuf, String)> = host
        .list()
        .into_iter()
        .filter_map(|e| Some((Path::new(&e.dir).canonicalize().ok()?, e.name)))
        .collect();
    let mut names = Vec::new();
    for path in changed {
        let root = dirs.iter().find(|d| path.starts_with(d))?;
        if is_discovery_input(root, path, &path.file_name()?.to_string_lossy()) {
            return None;
        }
        let root = root.canonicalize().ok()?;
        let (_, name) = loaded.iter().find(|(dir, _)| *dir == root)?;
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    Some(names)
}

fn fingerprint(dirs: &[PathBuf]) -> Fingerprint {
    let mut out = Vec::new();
    for d in dirs {
        walk(d, d, &mut out);
    }
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Fingerprint) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.')
            || ["node_modules", "target", "__pycache__"].contains(&name.as_str())
        {
            continue;
        }
        let path = e.path();
        let Ok(meta) = e.metadata() else { continue };
        if meta.is_dir() {
            walk(root, &path, out);
        } else if is_source(root, &path, &name) {
            out.push((path, meta.len(), meta.modified().ok()));
        }
    }
}

/// A manifest or a theme: what discovery reads, so a change to it needs a
/// full reload rather than a restart.
fn is_discovery_input(root: &Path, path: &Path, name: &str) -> bool {
    name == "extension.json" || name == "theme.json" || path.starts_with(root.join("themes"))
}

fn is_source(root: &Path, path: &Path, name: &str) -> bool {
    if is_discovery_input(root, path, name) {
        return true;
    }
    let ext = Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    ["py", "js", "mjs", "cjs", "ts", "mts", "sh"].contains(&ext.as_str())
}
