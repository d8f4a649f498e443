//! Loading: discovery → one record per extension → a supervisor per
//! extension to spawn. [`crate::Host::start`] and reload share it; it
//! replaces the tables of the previous load in one step.

use std::path::Path;
use std::sync::Arc;

use zot_ext_protocol::rpc::{ExtState, Scope, ShadowKind, Shadowing, UiEvent};
use zot_ext_protocol::{Permission, PermissionGrant};

use crate::consent;
use crate::discovery::{self, FoundKind};
use crate::events::HostEvent;
use crate::extension::{Ext, ExtSpec};
use crate::home;
use crate::permission_words::permission_words;
use crate::permissions::PermSet;
use crate::registry::Registry;
use crate::state::{scope_word, Shared};
use crate::supervisor;
use crate::target::Target;
use crate::theme::{self, LoadedTheme, BUILTIN_THEMES};

/// Runs discovery and starts every enabled extension; returns how many were
/// spawned. Used by [`Host::start`] and by reload.
pub(crate) fn load(inner: &Arc<Shared>) -> usize {
    let found = discovery::discover(&inner.discovery_config());
    let mut exts = Vec::new();
    let mut to_launch = Vec::new();
    let mut manifest_errors = Vec::new();
    let mut themes: Vec<LoadedTheme> = Vec::new();
    let mut book = consent::Book::open(&inner.cfg.zot_home);
    for f in found {
        let log_path = home::log_path(&inner.cfg.zot_home, &f.name);
        let unaccepted = unaccepted(&mut book, &f);
        let state = match &f.kind {
            _ if unaccepted.is_some() => ExtState::Failed,
            FoundKind::Spawn { .. } if on_use(&f) => ExtState::Idle,
            FoundKind::Spawn { .. } | FoundKind::Connect { .. } => ExtState::Loading,
            FoundKind::Disabled | FoundKind::Shadowed { .. } => ExtState::Disabled,
            FoundKind::Theme => ExtState::Theme,
            FoundKind::Invalid(_) => ExtState::Failed,
            FoundKind::Untrusted { .. } => ExtState::Untrusted,
        };
        let target = match unaccepted {
            Some(_) => None,
            None => target_of(&f.kind, f.manifest.as_ref()),
        };
        let spec = ExtSpec {
            name: f.name.clone(),
            scope: f.scope,
            dir: f.dir.clone(),
            manifest_path: f.manifest_path.clone(),
            grant: PermSet::of(f.manifest.as_ref()),
            manifest: f.manifest.clone(),
            target,
            unaccepted: unaccepted.as_ref().map(|u| u.0.clone()).unwrap_or_default(),
        };
        let ext = Ext::new(
            inner.new_ext_id(),
            spec,
            log_path,
            state,
            inner.next_id.clone(),
            inner.deadlines.clone(),
        );
        match f.kind {
            FoundKind::Spawn { .. } | FoundKind::Connect { .. } if unaccepted.is_some() => {
                ext.lock().error = unaccepted.map(|u| u.1);
            }
            // Not spawned now: its declared names are listed, and its first
            // use starts it (`on_use.rs`).
            FoundKind::Spawn { .. } if state == ExtState::Idle => {
                ext.lock().seed(&ext);
            }
            FoundKind::Spawn { .. } | FoundKind::Connect { .. } => to_launch.push(ext.clone()),
            FoundKind::Invalid(e) => {
                ext.lock().error = Some(e.to_string());
                manifest_errors.push(e);
            }
            FoundKind::Shadowed { by_scope, by_dir } => {
                ext.lock().shadowed.push(Shadowing {
                    kind: ShadowKind::Extension,
                    name: f.name.clone(),
                    by: format!("{} ({})", f.name, scope_word(by_scope)),
                    reason: format!(
                        "an extension with the same name loads from {} first",
                        by_dir.display()
                    ),
                });
            }
            FoundKind::Untrusted { shadows, .. } => {
                mark_untrusted(&ext, &inner.cfg.cwd, shadows.as_deref())
            }
            FoundKind::Disabled | FoundKind::Theme => {}
        }
        if matches!(state, ExtState::Loading | ExtState::Theme | ExtState::Idle) {
            load_themes(&ext, &mut themes);
        }
        exts.push(ext);
    }
    // A first-seen grant that cannot be written is recorded on a later
    // load; the extensions run either way, as first-seen ones do.
    let _ = book.save();
    let spawned = to_launch.len();
    {
        let mut st = inner.lock();
        st.exts = exts.clone();
        st.registry = Arc::new(Registry::default());
        st.activated.clear();
        st.panels.clear();
        st.themes = themes;
        st.manifest_errors = manifest_errors;
    }
    inner.rebuild();
    for ext in &exts {
        let m = ext.lock();
        if let (Some(ExtState::Failed), Some(err)) = (m.state, &m.error) {
            inner.post(
                HostEvent::Ui(UiEvent::ExtError {
                    extension: ext.name.clone(),
                    message: err.clone(),
                    log_path: ext.log.path().display().to_string(),
                    exit_status: None,
                }),
                None,
            );
        }
    }
    for ext in to_launch {
        supervisor::launch(inner.clone(), ext);
    }
    inner.changed();
    spawned
}

/// An installed extension whose manifest asks for more than the user
/// accepted is not started (it is listed as failed): the
/// permissions and the error that says how to accept them are returned.
/// `--ext` extensions are the author's own and are not checked.
fn unaccepted(book: &mut consent::Book, f: &discovery::Found) -> Option<(Vec<Permission>, String)> {
    if f.scope == Scope::Explicit || !matches!(f.kind, FoundKind::Spawn { .. }) {
        return None;
    }
    let grant = f.manifest.as_ref()?.grant();
    let consent::Verdict::AsksMore { more, had } = book.check(&f.dir, &f.name, &grant) else {
        return None;
    };
    let asks: Vec<String> = more
        .iter()
        .map(|p| format!("{} ({})", p.as_str(), permission_words(*p)))
        .collect();
    let had = match had {
        PermissionGrant::List(l) if l.is_empty() => "none".to_owned(),
        PermissionGrant::List(l) => l.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", "),
        PermissionGrant::Unrestricted(_) => "unrestricted".to_owned(),
    };
    let message = format!(
        "not started: its manifest now asks for permissions you have not accepted: {}; you had accepted: {had}. Accept them with `zot ext accept {}` (or \"Review permissions\" in the app's extension manager), then reload",
        asks.join(", "),
        f.name
    );
    Some((more, message))
}

/// How a found extension is started or reached.
fn target_of(kind: &FoundKind, m: Option<&zot_ext_protocol::Manifest>) -> Option<Target> {
    let mcp = m.is_some_and(|m| m.kind == zot_ext_protocol::ExtKind::Mcp);
    match kind {
        FoundKind::Spawn { exec } if mcp => Some(Target::McpStdio(exec.clone())),
        FoundKind::Spawn { exec } => Some(Target::Process(exec.clone())),
        FoundKind::Connect { url } if mcp => Some(Target::McpHttp {
            url: url.clone(),
            headers: m
                .map(|m| {
                    m.headers
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                })
                .unwrap_or_default(),
        }),
        FoundKind::Connect { url } => Some(Target::WebSocket(url.clone())),
        _ => None,
    }
}

/// Notes on an untrusted extension's record, for `ext_list`, the manager
/// and the doctor: why it did not start, and whose global extension it
/// would replace.
fn mark_untrusted(ext: &Ext, cwd: &Path, shadows: Option<&Path>) {
    let mut m = ext.lock();
    m.error = Some(format!(
        "not started: {} is not a trusted project; trust it with `zot ext trust` (or \"Trust and run\" in the app) to run its extensions",
        cwd.display()
    ));
    if let Some(global) = shadows {
        m.warnings.push(format!(
            "shadows your global extension '{}' ({}): once this project is trusted, this project's copy runs instead of yours",
            ext.name,
            global.display()
        ));
    }
}

fn load_themes(ext: &Ext, themes: &mut Vec<LoadedTheme>) {
    let mut m = ext.lock();
    for file in theme::theme_files(&ext.dir) {
        match theme::load_file(&file, &ext.name) {
            Err(msg) => m.warnings.push(msg),
            Ok(t) => {
                m.warnings.extend(t.warnings.iter().cloned());
                let name = t.theme.name.clone();
                let taken_by = if BUILTIN_THEMES.contains(&name.as_str()) {
                    Some("built-in".to_owned())
                } else {
                    themes
                        .iter()
                        .find(|o| o.theme.name == name)
                        .map(|o| o.extension.clone())
                };
                match taken_by {
                    Some(by) => m.shadowed.push(Shadowing {
                        kind: ShadowKind::Theme,
                        name: name.clone(),
                        reason: format!("theme name '{name}' is already taken by {by}"),
                        by,
                    }),
                    None => {
                        m.themes.push(name);
                        themes.push(t);
                    }
                }
            }
        }
    }
}

/// Whether a found extension is started on first use rather than now.
fn on_use(f: &discovery::Found) -> bool {
    f.manifest
        .as_ref()
        .is_some_and(|m| m.activation == zot_ext_protocol::Activation::OnUse)
}
