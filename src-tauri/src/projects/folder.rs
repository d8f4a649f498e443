//! Which folders can be opened as a project. A refusal says what is wrong
//! with which path and what to do; the caller then changes nothing.

use std::path::{Path, PathBuf};

/// Checks `path` and returns it canonical (symlinks resolved), or a message
/// for the user: it must exist, be a directory, be readable, and not be `/`
/// (a project at the root would hand every file on the machine to its
/// extensions and put its `.zot/` at the top of the disk).
pub fn validate(path: &Path) -> Result<PathBuf, String> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return Err("no folder was given; choose a project folder".into());
    }
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            format!(
                "{shown} does not exist; choose another folder (the current project stays open)"
            )
        }
        _ => format!("cannot open {shown}: {e}; the current project stays open"),
    })?;
    if !meta.is_dir() {
        return Err(format!(
            "{shown} is a file, not a folder; choose the folder that holds your project"
        ));
    }
    let canonical = std::fs::canonicalize(path)
        .map_err(|e| format!("cannot resolve {shown}: {e}; the current project stays open"))?;
    if canonical.parent().is_none() {
        return Err(format!(
            "{shown} is the root of the file system; open the folder of one project instead"
        ));
    }
    std::fs::read_dir(&canonical).map_err(|e| {
        format!("cannot read {shown}: {e}; check its permissions (the current project stays open)")
    })?;
    Ok(canonical)
}

/// The name shown in the window title and header: the folder's last part.
pub fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}
