//! The recent-projects list, `$ZOT_HOME/recent.json`: most recent first,
//! at most [`CAP`] entries, written whole or not at all. A folder that has
//! gone missing stays listed (marked `missing`) until the user removes it,
//! so a project on an unmounted disk is not forgotten silently.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// How many projects the list keeps.
pub const CAP: usize = 12;

/// The file under `$ZOT_HOME`.
pub const FILE: &str = "recent.json";

/// One entry as the UI sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecentProject {
    /// The folder (canonical when it was opened).
    pub path: PathBuf,
    /// Its last path component, for display.
    pub name: String,
    /// The folder is gone (or no longer a folder); shown greyed.
    #[serde(default)]
    pub missing: bool,
}

/// What is stored: only the paths, newest first.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    #[serde(default)]
    projects: Vec<PathBuf>,
}

fn file(home: &Path) -> PathBuf {
    home.join(FILE)
}

fn read(home: &Path) -> Vec<PathBuf> {
    // A damaged file is an empty list, not an error: the next open rewrites
    // it, and losing a convenience list must not block opening a project.
    std::fs::read(file(home))
        .ok()
        .and_then(|b| serde_json::from_slice::<Stored>(&b).ok())
        .map(|s| s.projects)
        .unwrap_or_default()
}

fn write(home: &Path, projects: Vec<PathBuf>) -> Result<(), String> {
    let bytes = serde_json::to_vec_pretty(&Stored { projects })
        .map_err(|e| format!("cannot encode the recent-projects list: {e}"))?;
    let path = file(home);
    crate::state_dir::write_private(&path, &bytes).map_err(|e| {
        format!(
            "cannot write {}: {e}; check that ZOT_HOME is writable",
            path.display()
        )
    })
}

/// The list, newest first, each marked when its folder is missing.
pub fn list(home: &Path) -> Vec<RecentProject> {
    read(home)
        .into_iter()
        .map(|path| RecentProject {
            name: super::folder::display_name(&path),
            missing: !path.is_dir(),
            path,
        })
        .collect()
}

/// Puts `path` first (moving it if listed), dropping the oldest past [`CAP`].
pub fn touch(home: &Path, path: &Path) -> Result<(), String> {
    let mut projects = read(home);
    projects.retain(|p| p != path);
    projects.insert(0, path.to_path_buf());
    projects.truncate(CAP);
    write(home, projects)
}

/// Removes `path` from the list (nothing happens when it is not listed).
pub fn forget(home: &Path, path: &Path) -> Result<(), String> {
    let mut projects = read(home);
    let before = projects.len();
    projects.retain(|p| p != path);
    if projects.len() == before {
        return Ok(());
    }
    write(home, projects)
}
