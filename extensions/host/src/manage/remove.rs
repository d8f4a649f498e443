//! `zot ext remove <name>`: delete an installed extension's directory. Only
//! what `install` put under `$ZOT_HOME/extensions` is removed; project-local
//! extensions belong to the project's repository. The directory is renamed
//! to a hidden sibling before it is deleted, so an interrupted removal never
//! leaves a half-deleted extension that discovery would try to load. Asking
//! the user for confirmation is the front end's job.

use std::path::{Path, PathBuf};

use crate::home;
use crate::manage::ext_ops::{check_name, installed_names, OpsError, OpsResult};
use crate::manage::install::staging;

/// The directory `remove` would delete for `name`, after checking that the
/// name is safe and installed globally.
pub fn removal_target(zot_home: &Path, cwd: &Path, name: &str) -> OpsResult<PathBuf> {
    check_name(name)?;
    let dir = home::extensions_dir(zot_home).join(name);
    if dir.symlink_metadata().is_ok() {
        return Ok(dir);
    }
    let project = home::project_extensions_dir(cwd).join(name);
    if project.is_dir() {
        return Err(OpsError::ProjectLocal {
            name: name.to_string(),
            dir: project,
        });
    }
    Err(OpsError::NotFound {
        name: name.to_string(),
        installed: installed_names(zot_home, cwd),
    })
}

/// Deletes `$ZOT_HOME/extensions/<name>` and returns the path it had. A
/// symlinked install loses the link only, never what it points to. Its
/// settings and secrets go too (`settings_store::forget`); they are its
/// own (keyed by its folder), so a project's copy of the same name keeps
/// its own.
pub fn remove(zot_home: &Path, cwd: &Path, name: &str) -> OpsResult<PathBuf> {
    let dir = removal_target(zot_home, cwd, name)?;
    // Who it is, while its folder still resolves.
    let owner = crate::settings::settings_store::Owner::of(name, &dir);
    staging::discard(&dir).map_err(OpsError::io("delete", &dir))?;
    // Best effort: the extension is gone either way.
    let _ = crate::settings::settings_store::forget(zot_home, &owner);
    Ok(dir)
}
