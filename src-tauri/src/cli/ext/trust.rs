//! `zot ext trust [DIR]`, `zot ext untrust [DIR]`, `zot ext trusted`:
//! which project folders may run their own extensions (`.zot/extensions`).
//! The file and the canonical-path keys live in `zot_ext_host::trust`; this
//! module only resolves the folder, calls it and prints.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use zot_ext_host::discovery::{discover, FoundKind};
use zot_ext_host::trust;
use zot_ext_protocol::rpc::Scope;

use super::output::stdout;
use super::ExtGlobals;

/// The folder named on the command line (relative to the current
/// directory, like any argv path), or the project (`--cwd`).
fn folder(global: &ExtGlobals, dir: Option<&Path>) -> Result<PathBuf> {
    Ok(match dir {
        None => global.cwd.clone(),
        Some(d) if d.is_absolute() => d.to_path_buf(),
        Some(d) => std::env::current_dir()
            .context("cannot read the current directory")?
            .join(d),
    })
}

/// Says on stderr that the file was broken before this command.
fn warn_broken(global: &ExtGlobals) {
    if let Err(e) = trust::trusted_dirs(&global.zot_home) {
        eprintln!("zot ext: {e}");
    }
}

/// `zot ext trust [DIR]`.
pub(super) fn trust(global: &ExtGlobals, dir: Option<&Path>) -> Result<i32> {
    let dir = folder(global, dir)?;
    warn_broken(global);
    let dir = trust::remember(&global.zot_home, &dir)?;
    stdout(&format!("trusted {}\n", dir.display()));
    // What will run there from the next start, and whose global copy each
    // project extension replaces.
    let cfg = zot_ext_host::HostConfig::new(&global.zot_home, &dir);
    let found = discover(&cfg);
    for f in found.iter().filter(|f| f.scope == Scope::Project) {
        if let FoundKind::Spawn { exec } = &f.kind {
            stdout(&format!("  will run {} ({})\n", f.name, exec.display()));
        }
    }
    for f in found.iter().filter(|f| f.scope == Scope::Global) {
        if let FoundKind::Shadowed { by_dir, .. } = &f.kind {
            eprintln!(
                "note: this project's '{}' ({}) shadows your global extension '{}' ({}); yours will not run in this project",
                f.name,
                by_dir.display(),
                f.name,
                f.dir.display()
            );
        }
    }
    Ok(0)
}

/// `zot ext untrust [DIR]`.
pub(super) fn untrust(global: &ExtGlobals, dir: Option<&Path>) -> Result<i32> {
    let dir = folder(global, dir)?;
    let key = trust::canonical(&dir).unwrap_or(dir);
    if trust::forget(&global.zot_home, &key)? {
        stdout(&format!("no longer trusted: {}\n", key.display()));
    } else {
        eprintln!(
            "{} was not trusted; `zot ext trusted` lists the trusted folders",
            key.display()
        );
    }
    Ok(0)
}

/// `zot ext trusted [--json]`.
pub(super) fn list(global: &ExtGlobals, json: bool) -> Result<i32> {
    let dirs = match trust::trusted_dirs(&global.zot_home) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("zot ext: {e}");
            Default::default()
        }
    };
    if json {
        stdout(&format!("{}\n", serde_json::to_string_pretty(&dirs)?));
    } else if dirs.is_empty() {
        eprintln!("no trusted project folders; trust one with `zot ext trust [DIR]`");
    } else {
        for d in &dirs {
            stdout(&format!("{}\n", d.display()));
        }
    }
    Ok(0)
}
