//! Finds extensions and fixes their load order: `--ext` paths in argv
//! order, then project-local, then global, each directory sorted by name.
//! That order decides every later tie (commands, tools, themes,
//! interception), so it is computed once, here, without touching processes.

use std::path::{Path, PathBuf};

use zot_ext_protocol::rpc::Scope;
use zot_ext_protocol::Manifest;

use crate::config::HostConfig;
use crate::home;
use crate::manage::theme;
use crate::manifest::{self, ManifestError, MANIFEST_FILE};

/// One directory that discovery looked at, in load order.
#[derive(Debug, Clone)]
pub struct Found {
    /// The manifest's name, or the directory's name when there is none.
    pub name: String,
    /// Where it was found.
    pub scope: Scope,
    /// The extension's directory (its cwd, `extension_dir` and `data_dir`).
    pub dir: PathBuf,
    /// `dir/extension.json`, present or not.
    pub manifest_path: PathBuf,
    /// The manifest, when it parsed.
    pub manifest: Option<Manifest>,
    /// What the host should do with it.
    pub kind: FoundKind,
}

/// What discovery decided for one directory.
#[derive(Debug, Clone)]
pub enum FoundKind {
    /// Spawn this resolved executable.
    Spawn {
        /// The resolved `exec`.
        exec: PathBuf,
    },
    /// `enabled: false`.
    Disabled,
    /// Theme files and no `exec`: listed, never spawned.
    Theme,
    /// The manifest is missing or wrong, or `exec` does not resolve.
    Invalid(ManifestError),
    /// A project-local extension in a project the user has not trusted:
    /// listed, never spawned ([`crate::policy::trust`]). It shadows nothing, so a
    /// global extension of the same name still runs.
    Untrusted {
        /// The resolved `exec` it would run.
        exec: PathBuf,
        /// The directory of a global extension of the same name, which it
        /// would replace once trusted.
        shadows: Option<PathBuf>,
    },
    /// Reach it at this URL instead of spawning anything: a zot extension
    /// over a WebSocket, or an MCP streamable-HTTP server.
    Connect {
        /// The manifest's URL.
        url: String,
    },
    /// An extension with the same name loads from a higher-precedence place.
    Shadowed {
        /// The winner's scope.
        by_scope: Scope,
        /// The winner's directory.
        by_dir: PathBuf,
    },
}

/// Looks at every candidate directory for `cfg` and returns them in load
/// order, shadowed and broken ones included so they can be reported.
pub fn discover(cfg: &HostConfig) -> Vec<Found> {
    let mut dirs: Vec<(PathBuf, Scope)> = Vec::new();
    for p in &cfg.explicit {
        // Relative like any argv path: to the process's working directory.
        let p = if p.is_relative() {
            std::env::current_dir()
                .map(|d| d.join(p))
                .unwrap_or_else(|_| p.clone())
        } else {
            p.clone()
        };
        // Accept the manifest file itself as well as its directory.
        let dir = if p.file_name().is_some_and(|n| n == MANIFEST_FILE) && p.is_file() {
            p.parent().map(Path::to_path_buf).unwrap_or(p)
        } else {
            p
        };
        dirs.push((dir, Scope::Explicit));
    }
    if cfg.discover {
        for (root, scope) in [
            (home::project_extensions_dir(&cfg.cwd), Scope::Project),
            (home::extensions_dir(&cfg.zot_home), Scope::Global),
        ] {
            dirs.extend(subdirs(&root).into_iter().map(|d| (d, scope)));
        }
    }
    let project_trusted = project_trusted(cfg);
    let mut found: Vec<Found> = Vec::new();
    for (dir, scope) in dirs {
        let mut f = inspect(&dir, scope);
        if scope == Scope::Project && !project_trusted {
            let would_run = match &f.kind {
                FoundKind::Spawn { exec } => Some(exec.clone()),
                // A project's URL entry sends its headers where the project
                // says: the same trust as running its code.
                FoundKind::Connect { url } => Some(PathBuf::from(url)),
                _ => None,
            };
            if let Some(exec) = would_run {
                f.kind = FoundKind::Untrusted {
                    exec,
                    shadows: None,
                };
            }
        }
        if !matches!(f.kind, FoundKind::Invalid(_)) {
            let winner = found.iter().find(|w| {
                w.name == f.name
                    && !matches!(w.kind, FoundKind::Invalid(_) | FoundKind::Shadowed { .. })
                    // Nothing of an untrusted project replaces (or, by a
                    // disabled copy, switches off) an extension of the user's.
                    && !(w.scope == Scope::Project && !project_trusted && f.scope != Scope::Project)
            });
            match winner {
                // Two in one scope: neither precedence nor the user decided
                // which one is meant, so the later (by directory order) is
                // refused, naming both.
                Some(w) if w.scope == f.scope => {
                    f.kind = FoundKind::Invalid(ManifestError {
                        path: f.manifest_path.clone(),
                        field: Some("name".into()),
                        message: format!(
                            "'{}' is also the name of {} in the same scope; two extensions in one scope cannot share a name, so {} was not loaded: rename one of them",
                            f.name,
                            w.dir.display(),
                            f.dir.display()
                        ),
                    });
                }
                Some(w) => {
                    f.kind = FoundKind::Shadowed {
                        by_scope: w.scope,
                        by_dir: w.dir.clone(),
                    };
                }
                None => {}
            }
        }
        if f.scope == Scope::Global {
            let global_dir = f.dir.clone();
            for w in found.iter_mut().filter(|w| w.name == f.name) {
                if let FoundKind::Untrusted { shadows, .. } = &mut w.kind {
                    shadows.get_or_insert_with(|| global_dir.clone());
                }
            }
        }
        found.push(f);
    }
    found
}

/// Whether the project's own extensions may run: project code runs only in
/// a trusted project; the trust file is read only when there is project
/// code to decide about.
pub(crate) fn project_trusted(cfg: &HostConfig) -> bool {
    !cfg.discover
        || !crate::policy::trust::has_project_extensions(&cfg.cwd)
        || crate::policy::trust::decide(cfg).trusted
}

/// Sub-directories of `root` sorted by name; hidden ones are skipped.
fn subdirs(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Reads one directory's manifest and decides what it is.
pub fn inspect(dir: &Path, scope: Scope) -> Found {
    let manifest_path = dir.join(MANIFEST_FILE);
    let dir_name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| dir.display().to_string());
    let has_themes = !theme::theme_files(dir).is_empty();
    let mut found = Found {
        name: dir_name,
        scope,
        dir: dir.to_path_buf(),
        manifest_path: manifest_path.clone(),
        manifest: None,
        kind: FoundKind::Theme,
    };
    if !manifest_path.exists() {
        if !has_themes {
            let msg = if dir.is_dir() {
                "missing: every extension directory needs an extension.json"
            } else {
                "missing: the extension directory does not exist"
            };
            found.kind = FoundKind::Invalid(ManifestError {
                path: manifest_path,
                field: None,
                message: msg.into(),
            });
        }
        return found;
    }
    let m = match manifest::load(&manifest_path) {
        Ok(m) => m,
        Err(e) => {
            found.kind = FoundKind::Invalid(e);
            return found;
        }
    };
    found.name = m.name.clone();
    found.kind = if !m.enabled {
        FoundKind::Disabled
    } else if let Some(kind) = remote_or_mcp(&manifest_path, &m) {
        kind
    } else {
        match m.exec.as_deref() {
            None if has_themes => FoundKind::Theme,
            None => FoundKind::Invalid(ManifestError {
                path: manifest_path.clone(),
                field: Some("exec".into()),
                message: "is required (only theme-only extensions with theme.json may omit it)"
                    .into(),
            }),
            Some(exec) => match manifest::resolve_exec(&manifest_path, exec) {
                Ok(exec) => FoundKind::Spawn { exec },
                Err(e) => FoundKind::Invalid(e),
            },
        }
    };
    found.manifest = Some(m);
    found
}

/// What an MCP entry or a WebSocket extension is, or `None` for a zot
/// extension spawned over stdio (decided by `exec` as before).
fn remote_or_mcp(manifest_path: &Path, m: &Manifest) -> Option<FoundKind> {
    use zot_ext_protocol::{ExtKind, Transport};
    let invalid = |field: &str, message: String| {
        FoundKind::Invalid(ManifestError {
            path: manifest_path.to_path_buf(),
            field: Some(field.into()),
            message,
        })
    };
    if m.kind == ExtKind::Mcp {
        return Some(match (m.command.as_deref(), m.url.as_deref()) {
            (Some(_), Some(_)) => invalid(
                "url",
                "an MCP entry has either command (stdio) or url (streamable HTTP), not both".into(),
            ),
            (None, None) => invalid(
                "command",
                "an MCP entry needs command (a stdio server) or url (a streamable-HTTP server)"
                    .into(),
            ),
            (Some(cmd), None) => match manifest::resolve_exec(manifest_path, cmd) {
                Ok(exec) => FoundKind::Spawn { exec },
                Err(mut e) => {
                    e.field = Some("command".into());
                    FoundKind::Invalid(e)
                }
            },
            (None, Some(url)) if url.starts_with("http://") || url.starts_with("https://") => {
                FoundKind::Connect {
                    url: url.to_owned(),
                }
            }
            (None, Some(url)) => {
                invalid("url", format!("'{url}' is not an http:// or https:// URL"))
            }
        });
    }
    match &m.transport {
        // Plain text only to this machine: settings travel in `hello_ack`.
        Some(Transport::Websocket { url })
            if url.starts_with("ws://") && crate::io::ws_auth::is_loopback(url) =>
        {
            Some(FoundKind::Connect { url: url.clone() })
        }
        Some(Transport::Websocket { url }) if url.starts_with("ws://") => Some(invalid(
            "transport",
            format!("'{url}' is plain ws:// to another machine, where anyone on the way could read and change what zot sends (your settings included); ws:// is only for this machine (localhost, 127.0.0.1, ::1), and wss:// is not supported yet"),
        )),
        Some(Transport::Websocket { url }) => Some(invalid(
            "transport",
            format!("'{url}' is not a ws:// URL (wss:// is not supported yet)"),
        )),
        _ => None,
    }
}
