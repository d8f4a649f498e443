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
    // What will run there from the next start (accepted now, as listed:
    // one that appears later waits), and whose global copy each project
    // extension replaces.
    let cfg = zot_ext_host::HostConfig::new(&global.zot_home, &dir);
    let found = discover(&cfg);
    let mut accepted = Vec::new();
    for f in found.iter().filter(|f| f.scope == Scope::Project) {
        let what = match &f.kind {
            FoundKind::Spawn { exec } => exec.display().to_string(),
            FoundKind::Connect { url } => url.clone(),
            _ => continue,
        };
        let Some(m) = &f.manifest else { continue };
        // Trust accepts what it lists; a change to one accepted before
        // is accepted on its own (`zot ext accept`), after reading it.
        let changed = zot_ext_host::consent::accepted(&global.zot_home, &f.dir)
            .map(|a| a.widenings(m))
            .unwrap_or_default();
        if changed.is_empty() {
            accepted.push((f.dir.as_path(), f.name.as_str(), m));
            stdout(&format!("  will run {} ({what})\n", f.name));
        } else {
            let words: Vec<&str> = changed.iter().map(|w| w.words.as_str()).collect();
            eprintln!(
                "note: '{}' changed since you accepted it ({}); it does not run until you accept that with `zot ext accept {}`",
                f.name,
                words.join("; "),
                f.name
            );
        }
    }
    if !accepted.is_empty() {
        zot_ext_host::consent::record_all(&global.zot_home, accepted)?;
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
