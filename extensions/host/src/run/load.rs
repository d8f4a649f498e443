//! Loading: discovery → one record per extension → a supervisor per
//! extension to spawn. [`crate::Host::start`] and reload share it; it
//! replaces the tables of the previous load in one step.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use zot_ext_protocol::rpc::{ExtState, Scope, ShadowKind, Shadowing, UiEvent};
use zot_ext_protocol::{Permission, Widening};

use crate::home;
use crate::manage::theme::{self, LoadedTheme, BUILTIN_THEMES};
use crate::owner::events::HostEvent;
use crate::owner::state::{scope_word, Shared};
use crate::policy::consent;
use crate::policy::permission_words::permission_words;
use crate::policy::permissions::PermSet;
use crate::records::extension::{Ext, ExtSpec};
use crate::records::registry::Registry;
use crate::run::discovery::{self, FoundKind};
use crate::run::supervisor;
use crate::run::target::Target;

/// Runs discovery and starts every enabled extension; returns how many were
/// spawned. Used by [`Host::start`] and by reload.
pub(crate) fn load(inner: &Arc<Shared>) -> usize {
    let cfg = inner.discovery_config();
    let mut found: VecDeque<discovery::Found> = discovery::discover(&cfg).into();
    // An untrusted project's themes come last, so they can never take a
    // name from the user's own (or make a trusted name mean their colours).
    let project_trusted = discovery::project_trusted(&cfg);
    let mut untrusted_themes = Vec::new();
    let mut exts = Vec::new();
    let mut to_launch = Vec::new();
    let mut manifest_errors = Vec::new();
    let mut themes: Vec<LoadedTheme> = Vec::new();
    let mut book = consent::Book::open(&inner.cfg.zot_home);
    // `--trust-project` trusts the folder as it is: what this load finds
    // there is accepted; what appears later waits for the user.
    let accept_new = inner.cfg.run_trust.take_accept_new();
    while let Some(f) = found.pop_front() {
        let log_path = home::log_path(&inner.cfg.zot_home, &f.name);
        let held = held(&mut book, &f, accept_new, &inner.cfg.cwd);
        if held.is_some() && f.scope == Scope::Project {
            release_shadowed(&mut found, &f.dir);
        }
        // A program that is not there (a Rust extension whose binary is
        // not built) is said before anything is started: `failed` with
        // the step that fixes it, never an `idle` that fails on first use.
        let setup = match &f.kind {
            FoundKind::Spawn { .. } | FoundKind::Disabled => {
                crate::io::program::setup_needed(&f.dir)
            }
            _ => None,
        };
        let state = match &f.kind {
            _ if matches!(held, Some(Held::New(_))) => ExtState::Untrusted,
            _ if held.is_some() => ExtState::Failed,
            FoundKind::Spawn { .. } if setup.is_some() => ExtState::Failed,
            FoundKind::Spawn { .. } if on_use(&f) => ExtState::Idle,
            FoundKind::Spawn { .. } | FoundKind::Connect { .. } => ExtState::Loading,
            FoundKind::Disabled | FoundKind::Shadowed { .. } => ExtState::Disabled,
            FoundKind::Theme => ExtState::Theme,
            FoundKind::Invalid(_) => ExtState::Failed,
            FoundKind::Untrusted { .. } => ExtState::Untrusted,
        };
        let target = match held {
            Some(_) => None,
            None => target_of(&f.kind, f.manifest.as_ref()),
        };
        let (unaccepted, widened) = match &held {
            Some(Held::Widened { more, widened, .. }) => (more.clone(), widened.clone()),
            _ => Default::default(),
        };
        let spec = ExtSpec {
            name: f.name.clone(),
            scope: f.scope,
            dir: f.dir.clone(),
            manifest_path: f.manifest_path.clone(),
            grant: PermSet::of(f.manifest.as_ref()),
            manifest: f.manifest.clone(),
            target,
            unaccepted,
            widened,
            setup: setup.clone(),
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
            FoundKind::Spawn { .. } | FoundKind::Connect { .. } if held.is_some() => {
                let shadows = shadow_warning(&f, &found);
                let mut m = ext.lock();
                m.error = held.map(Held::message);
                m.warnings.extend(shadows);
            }
            FoundKind::Spawn { .. } if setup.is_some() => {
                ext.lock().error = setup.map(|step| format!("needs setup: {step}"));
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
            if f.scope == Scope::Project && !project_trusted {
                untrusted_themes.push(ext.clone());
            } else {
                load_themes(&ext, &mut themes);
            }
        }
        exts.push(ext);
    }
    for ext in &untrusted_themes {
        load_themes(ext, &mut themes);
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

/// Why a found extension is held back by consent.
enum Held {
    /// It reaches further than the user accepted: `failed` until accepted.
    Widened {
        more: Vec<Permission>,
        widened: Vec<Widening>,
        message: String,
    },
    /// A project's extension zot has never seen: it waits for the user
    /// like an untrusted project's (the trust banner lists it).
    New(String),
}

impl Held {
    fn message(self) -> String {
        match self {
            Held::Widened { message, .. } | Held::New(message) => message,
        }
    }
}

/// Checks a found extension against what the user accepted
/// (`consent.rs`). `--ext` extensions are the author's own and are not
/// checked; nor is anything that runs nothing (themes, disabled ones).
fn held(
    book: &mut consent::Book,
    f: &discovery::Found,
    accept_new: bool,
    cwd: &Path,
) -> Option<Held> {
    if f.scope == Scope::Explicit
        || !matches!(f.kind, FoundKind::Spawn { .. } | FoundKind::Connect { .. })
    {
        return None;
    }
    let m = f.manifest.as_ref()?;
    match book.check(&f.dir, &f.name, f.scope, m, accept_new) {
        consent::Verdict::Accepted | consent::Verdict::FirstSeen => None,
        consent::Verdict::New => Some(Held::New(format!(
            "not started: zot has not run this extension of {} before (it appeared in .zot/extensions after you trusted the folder: a pull, a copy, or a file the model wrote); review what it runs and start it with `zot ext accept {}` or \"Run\" on the app's banner",
            cwd.display(),
            f.name
        ))),
        consent::Verdict::Widened { more, widened } => {
            // Permissions by name and in words, as the install summary
            // and `zot ext accept` say them; the rest in words.
            let words: Vec<String> = widened
                .iter()
                .filter(|w| w.field != "permissions")
                .map(|w| w.words.clone())
                .chain(
                    more.iter()
                        .map(|p| format!("{} ({})", p.as_str(), permission_words(*p))),
                )
                .collect();
            let fields: Vec<&str> = {
                let mut v: Vec<&str> = widened.iter().map(|w| w.field.as_str()).collect();
                v.dedup();
                v
            };
            let message = format!(
                "not started: its manifest changed since you accepted it ({}) and now reaches further: {}. Accept the change with `zot ext accept {}` (or \"Review changes\" in the app's extension manager), then reload",
                fields.join(", "),
                words.join("; "),
                f.name
            );
            Some(Held::Widened {
                more,
                widened,
                message,
            })
        }
    }
}

/// A project extension held back by consent (never seen, or changed)
/// replaces nothing, as in an untrusted project: the global extension of its name that discovery
/// shadowed by it is looked at again (so planting `.zot/extensions/guard`
/// cannot switch off the user's `guard`).
fn release_shadowed(rest: &mut VecDeque<discovery::Found>, waiting: &Path) {
    for g in rest.iter_mut() {
        if matches!(&g.kind, FoundKind::Shadowed { by_dir, .. } if by_dir == waiting) {
            *g = discovery::inspect(&g.dir, g.scope);
        }
    }
}

/// The warning of a held-back project extension named like a global one.
fn shadow_warning(f: &discovery::Found, rest: &VecDeque<discovery::Found>) -> Option<String> {
    if f.scope != Scope::Project {
        return None;
    }
    let global = rest
        .iter()
        .find(|g| g.scope == Scope::Global && g.name == f.name)?;
    Some(format!(
        "shadows your global extension '{}' ({}): once you accept it, this project's copy runs instead of yours",
        f.name,
        global.dir.display()
    ))
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
