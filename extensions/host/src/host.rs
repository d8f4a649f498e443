//! The handle the agent and the UI hold: a cheap clone over shared state,
//! with async methods, plus one bounded stream of [`HostEvent`]s. Loading
//! (discovery → records → supervisors) lives here too because start and
//! reload share it.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;
use zot_ext_protocol::rpc::{CommandInfo, ExtState, ShadowKind, Shadowing, UiEvent};
use zot_ext_protocol::{
    CommandAction, CommandInvoked, CommandResponse, ContentBlock, Event, EventFields, HostToExt,
    LifecycleEvent, RequestId,
};

use crate::codec::{self, encode};
use crate::config::HostConfig;
use crate::deadlines::{self, Deadlines};
use crate::discovery::{self, FoundKind};
use crate::error::HostError;
use crate::event_bus::EventBus;
use crate::extension::{During, Ext, ExtMut, Reply};
use crate::home;
use crate::manifest::ManifestError;
use crate::registry::{ExtRegistry, ExtTool, Offer, Registry};
use crate::supervisor;
use crate::theme::{self, LoadedTheme, BUILTIN_THEMES};

/// How many host events may wait for the app before new ones are dropped.
pub const EVENT_QUEUE: usize = 1024;

/// How long late registrations are gathered before one registry rebuild.
const REBUILD_DEBOUNCE: Duration = Duration::from_millis(20);

/// Something the app should show or do, in the order it happened.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum HostEvent {
    /// Notes, panel frames, errors and registry changes, ready for the UI.
    Ui(UiEvent),
    /// An extension's `submit` (blank text is already dropped).
    Submit {
        /// Who submitted.
        extension: String,
        /// The prompt.
        text: String,
    },
}

/// The answer to [`Host::invoke_command`].
#[derive(Debug, Clone, PartialEq)]
pub struct CommandOutcome {
    /// The extension that answered.
    pub extension: String,
    /// Its `command_response`; the caller applies the action.
    pub response: CommandResponse,
}

/// The answer to [`Host::call_tool`].
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    /// The extension that ran the tool.
    pub extension: String,
    /// What it returned.
    pub content: Vec<ContentBlock>,
    /// Whether it failed.
    pub is_error: bool,
    /// Deferred tools this result activated (unknown names are ignored).
    pub activated: Vec<String>,
}

/// The extension host. Clone it freely; all clones share one state.
#[derive(Clone)]
pub struct Host {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub cfg: HostConfig,
    pub state: Mutex<State>,
    /// The app's event queue (bounded; see `event_bus.rs`).
    pub events: EventBus,
    /// Correlation ids, unique per host.
    pub next_id: Arc<AtomicU64>,
    /// Request timeouts, watched by one sweeper task.
    pub deadlines: Arc<Deadlines>,
    /// A registry rebuild is scheduled (late registrations are batched).
    pub rebuild_pending: AtomicBool,
    /// Held for a whole reload or shutdown, so two never interleave: two
    /// overlapping reloads each stopped the same old set and each loaded a
    /// new one, and the first new set was orphaned (running, unlisted).
    pub lifecycle: tokio::sync::Mutex<()>,
    /// zot's unpacked SDKs (`$ZOT_HOME/sdk/…`), or why they could not be
    /// unpacked (each extension's log and the doctor say so).
    pub sdk: Result<std::path::PathBuf, String>,
    /// Dev folders added while running ("Develop a folder…"), loaded after
    /// the `--ext` paths ([`crate::develop`]).
    pub dev: Mutex<Vec<std::path::PathBuf>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.deadlines.close();
    }
}

#[derive(Default)]
pub(crate) struct State {
    /// Every extension in load order, loaded or not.
    pub exts: Vec<Arc<Ext>>,
    pub registry: Arc<ExtRegistry>,
    /// Deferred tools that a `tool_result` activated.
    pub activated: HashSet<String>,
    /// Open panel id → its owner.
    pub panels: HashMap<String, Arc<Ext>>,
    pub themes: Vec<LoadedTheme>,
    pub manifest_errors: Vec<ManifestError>,
}

impl Inner {
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends an event to the app. When its queue is full a note is dropped,
    /// with a throttled line in `from`'s log; anything else waits its turn
    /// (see `event_bus.rs`).
    pub fn post(&self, ev: HostEvent, from: Option<&Ext>) {
        if !self.events.post(ev) {
            if let Some(ext) = from {
                if let Some(n) = ext.dropped_events.hit() {
                    ext.log.line(&format!(
                        "dropped {n} event(s) so far: the app's event queue is full"
                    ));
                }
            }
        }
    }

    pub fn changed(&self) {
        self.post(HostEvent::Ui(UiEvent::ExtChanged {}), None);
    }

    /// Recomputes who owns which name from the extensions that are ready.
    pub fn rebuild(&self) {
        let mut st = self.lock();
        let exts = st.exts.clone();
        let guards: Vec<(Arc<Ext>, MutexGuard<'_, ExtMut>)> = exts
            .iter()
            .map(|e| (e.clone(), e.lock()))
            .filter(|(_, m)| m.state == Some(ExtState::Ready))
            .collect();
        let offers: Vec<Offer<'_, Arc<Ext>>> = guards
            .iter()
            .map(|(e, m)| Offer {
                owner: e.clone(),
                name: &e.name,
                label: label(e),
                commands: &m.commands,
                tools: &m.tools,
            })
            .collect();
        let reg = Registry::build(&self.cfg.builtin_commands, &self.cfg.builtin_tools, &offers);
        drop(offers);
        drop(guards);
        st.registry = Arc::new(reg);
    }

    /// Rebuilds the registry shortly, once for every registration that
    /// arrives meanwhile: a flood of late registrations then costs one
    /// rebuild per batch, not one per frame.
    pub fn rebuild_soon(self: &Arc<Self>) {
        if self.rebuild_pending.swap(true, Ordering::AcqRel) {
            return;
        }
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            tokio::time::sleep(REBUILD_DEBOUNCE).await;
            if let Some(inner) = weak.upgrade() {
                inner.rebuild_pending.store(false, Ordering::Release);
                inner.rebuild();
                inner.changed();
            }
        });
    }

    pub fn registry(&self) -> Arc<ExtRegistry> {
        self.lock().registry.clone()
    }
}

/// `name (scope)`, how shadowing records name a winner.
pub(crate) fn label(e: &Ext) -> String {
    format!("{} ({})", e.name, scope_word(e.scope))
}

pub(crate) fn scope_word(s: zot_ext_protocol::rpc::Scope) -> &'static str {
    match s {
        zot_ext_protocol::rpc::Scope::Explicit => "--ext",
        zot_ext_protocol::rpc::Scope::Project => "project",
        zot_ext_protocol::rpc::Scope::Global => "global",
    }
}

/// Runs discovery and starts every enabled extension; returns how many were
/// spawned. Used by [`Host::start`] and by reload.
pub(crate) fn load(inner: &Arc<Inner>) -> usize {
    let found = discovery::discover(&crate::develop::config_with_dev(inner));
    let mut exts = Vec::new();
    let mut to_launch = Vec::new();
    let mut manifest_errors = Vec::new();
    let mut themes: Vec<LoadedTheme> = Vec::new();
    for f in found {
        let log_path = home::log_path(&inner.cfg.zot_home, &f.name);
        let state = match &f.kind {
            FoundKind::Spawn { .. } => ExtState::Loading,
            FoundKind::Disabled | FoundKind::Shadowed { .. } => ExtState::Disabled,
            FoundKind::Theme => ExtState::Theme,
            FoundKind::Invalid(_) => ExtState::Failed,
            FoundKind::Untrusted { .. } => ExtState::Untrusted,
        };
        let ext = Arc::new(Ext::new(
            f.name.clone(),
            f.scope,
            f.dir.clone(),
            f.manifest_path.clone(),
            f.manifest.clone(),
            log_path,
            state,
            inner.next_id.clone(),
            inner.deadlines.clone(),
        ));
        match f.kind {
            FoundKind::Spawn { exec } => to_launch.push((ext.clone(), exec)),
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
                crate::trust_ops::mark_untrusted(&ext, &inner.cfg.cwd, shadows.as_deref())
            }
            FoundKind::Disabled | FoundKind::Theme => {}
        }
        if matches!(state, ExtState::Loading | ExtState::Theme) {
            load_themes(&ext, &mut themes);
        }
        exts.push(ext);
    }
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
    for (ext, exec) in to_launch {
        supervisor::launch(inner.clone(), ext, exec);
    }
    inner.changed();
    spawned
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

impl Host {
    /// Discovers extensions and spawns them in parallel; returns at once.
    /// Call inside a tokio runtime.
    pub fn start(cfg: HostConfig) -> (Host, mpsc::Receiver<HostEvent>) {
        let (tx, rx) = mpsc::channel(EVENT_QUEUE);
        let sdk = crate::sdk::ensure(&cfg.zot_home).map_err(|e| e.to_string());
        let inner = Arc::new(Inner {
            sdk,
            cfg,
            state: Mutex::new(State::default()),
            events: EventBus::new(tx),
            next_id: Arc::new(AtomicU64::new(1)),
            deadlines: Arc::default(),
            rebuild_pending: AtomicBool::new(false),
            lifecycle: tokio::sync::Mutex::new(()),
            dev: Mutex::new(Vec::new()),
        });
        tokio::spawn(deadlines::sweep(
            inner.deadlines.clone(),
            Arc::downgrade(&inner),
        ));
        load(&inner);
        (Host { inner }, rx)
    }

    /// Waits until every spawned extension is ready (explicitly, or by the
    /// 250 ms idle rule within its 3 s grace after `hello_ack`), failed or
    /// exited, except that one which has not said `hello` within
    /// `startup_wait` (5 s) is left to finish starting in the background: a
    /// `go run .` that builds for 15 s must neither fail (the reference zot
    /// waits for it) nor hold up the app and the other extensions. It joins
    /// the registries when it is ready, with an `ext_changed` event.
    pub async fn wait_ready(&self) {
        let exts = self.inner.lock().exts.clone();
        let until = Instant::now() + self.inner.cfg.startup_wait;
        for e in exts {
            let mut rx = e.settled.subscribe();
            let settled = rx.wait_for(|s| *s);
            tokio::pin!(settled);
            tokio::select! {
                _ = &mut settled => continue,
                _ = tokio::time::sleep_until(until) => {}
            }
            if e.lock().said_hello {
                // Only its bounded registration window is left.
                let _ = settled.await;
            }
        }
    }

    /// Waits until every spawned extension is ready, failed or exited, however
    /// long its start takes (at most the hello timeout plus the registration
    /// grace). For the doctor and the install preview, which must say how a
    /// slow starter ends rather than that it is still starting.
    pub async fn wait_settled(&self) {
        let exts = self.inner.lock().exts.clone();
        for e in exts {
            let mut rx = e.settled.subscribe();
            let _ = rx.wait_for(|s| *s).await;
        }
    }

    /// Active extension commands, in load order.
    pub fn commands(&self) -> Vec<CommandInfo> {
        let reg = self.inner.registry();
        reg.command_order
            .iter()
            .filter_map(|k| reg.commands.get(k))
            .map(|(c, owner)| CommandInfo {
                name: c.name.clone(),
                description: c.description.clone(),
                extension: Some(owner.name.clone()),
            })
            .collect()
    }

    /// Tools to advertise: every non-deferred tool plus activated deferred ones.
    pub fn tools(&self) -> Vec<ExtTool> {
        let (reg, active) = {
            let st = self.inner.lock();
            (st.registry.clone(), st.activated.clone())
        };
        reg.tool_order
            .iter()
            .filter_map(|n| reg.tools.get(n))
            .filter(|(t, _)| !t.deferred || active.contains(&t.name))
            .map(|(t, owner)| ExtTool {
                name: t.name.clone(),
                description: t.description.clone(),
                schema: t.schema.clone(),
                extension: owner.name.clone(),
                deferred: t.deferred,
            })
            .collect()
    }

    /// Themes shipped by extensions (shadowed ones left out).
    pub fn themes(&self) -> Vec<LoadedTheme> {
        self.inner.lock().themes.clone()
    }

    /// Runs an extension command by name (case-insensitive, `/` optional).
    /// The answer's `insert`, `display` and `open_panel` actions are also
    /// posted as UI events (see `actions.rs`); an `open_panel` answer makes
    /// the extension that panel's owner.
    pub async fn invoke_command(
        &self,
        name: &str,
        args: &str,
    ) -> Result<CommandOutcome, HostError> {
        let key = name.trim().trim_start_matches('/').to_lowercase();
        let found = self.inner.registry().commands.get(&key).cloned();
        let Some((cmd, ext)) = found else {
            return Err(HostError::UnknownCommand(
                name.trim_start_matches('/').to_owned(),
            ));
        };
        let during = During::Command(cmd.name.clone());
        let reply = ext
            .request(during, self.inner.cfg.command_timeout, |id| {
                encode(&HostToExt::CommandInvoked(CommandInvoked {
                    id: RequestId(id.to_owned()),
                    name: cmd.name.clone(),
                    args: args.trim().to_owned(),
                }))
            })
            .await?;
        // `complete` only delivers replies of the kind the request expects;
        // anything else is still an error for the caller, never a panic.
        let response = match reply {
            Reply::Command(r) => r,
            other => return Err(ext.wrong_reply(&During::Command(cmd.name.clone()), other.kind())),
        };
        if response.action == Some(CommandAction::Unknown) {
            ext.log.line(&format!(
                "command '/{}' answered with an unknown action; treated as noop",
                cmd.name
            ));
        }
        Ok(CommandOutcome {
            extension: ext.name.clone(),
            response,
        })
    }

    /// Calls an extension tool with the model's args and waits for its
    /// result (the tool timeout, 60 s by default).
    pub async fn call_tool(&self, name: &str, args: Value) -> Result<ToolOutcome, HostError> {
        // Only the owner and the name are copied out: cloning the whole
        // registration (its schema) showed up in the round-trip profile.
        let found = self
            .inner
            .registry()
            .tools
            .get(name)
            .map(|(tool, ext)| (tool.name.clone(), ext.clone()));
        let Some((tool_name, ext)) = found else {
            return Err(HostError::UnknownTool(name.to_owned()));
        };
        let reply = ext
            .request(
                During::Tool(tool_name.clone()),
                self.inner.cfg.tool_timeout,
                |id| codec::tool_call_line(id, &tool_name, &args),
            )
            .await?;
        let result = match reply {
            Reply::Tool(r) => r,
            other => return Err(ext.wrong_reply(&During::Tool(tool_name), other.kind())),
        };
        let activated = self.activate(&ext, &result.activate_tools);
        Ok(ToolOutcome {
            extension: ext.name.clone(),
            content: result.content,
            is_error: result.is_error,
            activated,
        })
    }

    fn activate(&self, ext: &Ext, names: &[String]) -> Vec<String> {
        if names.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut newly = false;
        {
            let mut st = self.inner.lock();
            let reg = st.registry.clone();
            for n in names {
                match reg.tools.get(n) {
                    Some((t, _)) if t.deferred => {
                        newly |= st.activated.insert(n.clone());
                        out.push(n.clone());
                    }
                    _ => ext.log.line(&format!(
                        "activate_tools names '{n}', which is not a registered deferred tool; ignored"
                    )),
                }
            }
        }
        if newly {
            self.inner.changed();
        }
        out
    }

    /// Tells every subscriber of `event`; one-way, never waits.
    pub fn emit(&self, event: LifecycleEvent, fields: EventFields) {
        let exts = self.inner.lock().exts.clone();
        let mut line: Option<Vec<u8>> = None;
        for e in exts {
            let wants = {
                let m = e.lock();
                m.state == Some(ExtState::Ready) && m.events.contains(&event)
            };
            if wants {
                let line = line.get_or_insert_with(|| {
                    encode(&HostToExt::Event(Event {
                        event: event.into(),
                        fields: fields.clone(),
                    }))
                });
                e.send_one_way(line);
            }
        }
    }
}
