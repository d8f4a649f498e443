//! The one owner of the host's shared tables: the extensions of the
//! current load, the name registry, activated deferred tools, open panels
//! and themes, plus the rebuild that keeps the registry in step with who is
//! ready. Extension tasks change these only through [`Shared`]'s methods,
//! so a state change and the registry it implies land in one step under
//! one lock: nobody ever sees a registry naming an extension that is gone.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use zot_ext_protocol::rpc::{ExtState, UiEvent};

use crate::config::HostConfig;
use crate::manage::theme::LoadedTheme;
use crate::manifest::ManifestError;
use crate::owner::deadlines::Deadlines;
use crate::owner::events::{Bus, HostEvent};
use crate::records::ext_id::ExtId;
use crate::records::extension::{Ext, ExtMut};
use crate::records::panel_table::PanelTable;
use crate::records::registry::{ExtRegistry, Offer, Registry};

/// How long late registrations are gathered before one registry rebuild.
const REBUILD_DEBOUNCE: Duration = Duration::from_millis(20);

/// What every clone of the host and every extension task share.
pub(crate) struct Shared {
    pub cfg: HostConfig,
    state: Mutex<State>,
    bus: Bus,
    /// Correlation ids, unique per host.
    pub next_id: Arc<AtomicU64>,
    /// Extension ids, unique per host.
    next_ext: AtomicU32,
    /// Request timeouts, watched by one sweeper task.
    pub deadlines: Arc<Deadlines>,
    /// A registry rebuild is scheduled (late registrations are batched).
    rebuild_pending: AtomicBool,
    /// Held for a whole reload or shutdown, so two never interleave: two
    /// overlapping reloads each stopped the same old set and each loaded a
    /// new one, and the first new set was orphaned (running, unlisted).
    pub lifecycle: tokio::sync::Mutex<()>,
    /// zot's unpacked SDKs (`$ZOT_HOME/sdk/…`), or why they could not be
    /// unpacked (each extension's log and the doctor say so). Unpacked by
    /// the first spawn ([`Shared::sdk`]), not at start: a fresh
    /// `$ZOT_HOME` otherwise had 163 files written while the window was
    /// loading, and a start with nothing to spawn needs none of them.
    sdk: OnceLock<Result<std::path::PathBuf, String>>,
    /// Dev folders added while running ("Develop a folder…"), loaded after
    /// the `--ext` paths (`develop.rs`).
    dev: Mutex<Vec<std::path::PathBuf>>,
    /// Makes an idle `on_use` extension's start one step for concurrent
    /// first uses (`on_use.rs`).
    pub activation_gate: Mutex<()>,
    /// Set when shutdown begins: a first use then starts nothing.
    pub closing: AtomicBool,
    /// The extensions' state in the current session (`session_state.rs`).
    pub session_state: crate::owner::state_table::StateTable,
}

impl Drop for Shared {
    fn drop(&mut self) {
        self.deadlines.close();
    }
}

/// The tables; reach them through [`Shared::lock`].
#[derive(Default)]
pub(crate) struct State {
    /// Every extension in load order, loaded or not.
    pub exts: Vec<Arc<Ext>>,
    pub registry: Arc<ExtRegistry>,
    /// Deferred tools that a `tool_result` activated.
    pub activated: HashSet<String>,
    /// Open panel id → its owner.
    pub panels: PanelTable,
    pub themes: Vec<LoadedTheme>,
    pub manifest_errors: Vec<ManifestError>,
    /// Dialogs that wait for an answer (`dialogs.rs`).
    pub dialogs: crate::records::dialog_queue::DialogQueue,
}

impl State {
    /// The extension with id `id` in the current load.
    pub fn ext(&self, id: ExtId) -> Option<&Arc<Ext>> {
        self.exts.iter().find(|e| e.id == id)
    }

    /// The name of extension `id`, for messages.
    pub fn name_of(&self, id: ExtId) -> String {
        self.ext(id)
            .map(|e| e.name.clone())
            .unwrap_or_else(|| format!("extension {id}"))
    }

    /// Recomputes who owns which name from the extensions that are ready.
    fn rebuild(&mut self, cfg: &HostConfig) {
        let guards: Vec<(&Arc<Ext>, MutexGuard<'_, ExtMut>)> = self
            .exts
            .iter()
            .map(|e| (e, e.lock()))
            // An idle `on_use` extension offers what it declared, and keeps
            // offering it while its first use starts it, so a second caller
            // meanwhile finds the name and waits for the same start.
            .filter(|(e, m)| match m.state {
                Some(ExtState::Ready | ExtState::Idle) => true,
                Some(ExtState::Loading) => declared(e).is_some(),
                _ => false,
            })
            .collect();
        let offers: Vec<Offer<'_, ExtId>> = guards
            .iter()
            .map(|(e, m)| match (m.state, declared(e)) {
                (Some(ExtState::Loading), Some(c)) => Offer {
                    owner: e.id,
                    name: &e.name,
                    label: label(e),
                    commands: &c.commands,
                    tools: &c.tools,
                },
                _ => Offer {
                    owner: e.id,
                    name: &e.name,
                    label: label(e),
                    commands: &m.commands,
                    tools: &m.tools,
                },
            })
            .collect();
        let reg = Registry::build(&cfg.builtin_commands, &cfg.builtin_tools, &offers);
        drop(offers);
        drop(guards);
        self.registry = Arc::new(reg);
    }
}

impl Shared {
    /// Empty tables for `cfg`, posting on `bus`.
    pub fn new(cfg: HostConfig, bus: Bus) -> Self {
        Shared {
            sdk: OnceLock::new(),
            cfg,
            state: Mutex::new(State::default()),
            bus,
            next_id: Arc::new(AtomicU64::new(1)),
            next_ext: AtomicU32::new(1),
            deadlines: Arc::default(),
            rebuild_pending: AtomicBool::new(false),
            lifecycle: tokio::sync::Mutex::new(()),
            dev: Mutex::new(Vec::new()),
            activation_gate: Mutex::new(()),
            closing: AtomicBool::new(false),
            session_state: Default::default(),
        }
    }

    /// zot's SDKs, unpacked now if this is the first spawn that asks
    /// (concurrent first spawns wait for the one unpack).
    pub fn sdk(&self) -> Result<&std::path::Path, &str> {
        self.sdk
            .get_or_init(|| {
                crate::manage::sdk::ensure(&self.cfg.zot_home).map_err(|e| e.to_string())
            })
            .as_deref()
            .map_err(String::as_str)
    }

    /// Adds a dev folder for every later load; `false` if it was there.
    pub fn add_dev(&self, dir: &std::path::Path) -> bool {
        let mut dev = self.dev.lock().unwrap_or_else(|e| e.into_inner());
        if dev.iter().any(|d| d == dir) {
            return false;
        }
        dev.push(dir.to_path_buf());
        true
    }

    /// The dev folders, in the order they were added.
    pub fn dev_folders(&self) -> Vec<std::path::PathBuf> {
        self.dev.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// What each load discovers from: the configuration with this run's dev
    /// folders after the `--ext` paths.
    pub fn discovery_config(&self) -> std::borrow::Cow<'_, HostConfig> {
        let dev = self.dev_folders();
        if dev.is_empty() {
            return std::borrow::Cow::Borrowed(&self.cfg);
        }
        let mut cfg = self.cfg.clone();
        for d in dev {
            if !cfg.explicit.contains(&d) {
                cfg.explicit.push(d);
            }
        }
        std::borrow::Cow::Owned(cfg)
    }

    /// The tables, for reading or for a change that needs no rebuild.
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh extension id.
    pub fn new_ext_id(&self) -> ExtId {
        ExtId(self.next_ext.fetch_add(1, Ordering::Relaxed))
    }

    /// Sends an event to the app; when its queue is full the event is
    /// dropped, with a throttled line in `from`'s log.
    pub fn post(&self, ev: HostEvent, from: Option<&Ext>) {
        if !self.bus.post(ev) {
            if let Some(ext) = from {
                if let Some(n) = ext.dropped_events.hit() {
                    ext.log.line(&format!(
                        "dropped {n} event(s) so far: the app's event queue is full"
                    ));
                }
            }
        }
    }

    /// Tells the app the extension list or registry changed.
    pub fn changed(&self) {
        self.post(HostEvent::Ui(UiEvent::ExtChanged {}), None);
    }

    /// Recomputes who owns which name from the extensions that are ready.
    pub fn rebuild(&self) {
        self.lock().rebuild(&self.cfg);
    }

    /// Changes `ext` with `f` and rebuilds the registry in the same step,
    /// under the tables' lock, so no reader sees the new state with the
    /// old registry (or the other way round).
    pub fn update<R>(&self, ext: &Ext, f: impl FnOnce(&mut ExtMut) -> R) -> R {
        let mut st = self.lock();
        let r = f(&mut ext.lock());
        st.rebuild(&self.cfg);
        r
    }

    /// `ext` stopped running: `f` records how (its state, its error), and
    /// in the same step its names leave the registry and its panels close.
    /// Returns the ids of the panels it had open.
    pub fn retire(&self, ext: &Ext, f: impl FnOnce(&mut ExtMut)) -> Vec<String> {
        let mut st = self.lock();
        f(&mut ext.lock());
        let panels = st.panels.remove_all_of(ext.id);
        // Its dialogs close with it; nothing answers a process that is gone.
        let dialogs = st.dialogs.remove_all_of(ext.id);
        st.rebuild(&self.cfg);
        drop(st);
        for d in dialogs {
            self.post(
                HostEvent::Ui(UiEvent::UiRequestDone {
                    request_id: d.request_id,
                    action: zot_ext_protocol::DialogAction::Cancel,
                    reason: Some(format!("'{}' stopped", d.ext_name)),
                }),
                None,
            );
        }
        panels
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
            if let Some(shared) = weak.upgrade() {
                shared.rebuild_pending.store(false, Ordering::Release);
                shared.rebuild();
                shared.changed();
            }
        });
    }
}

/// What an `on_use` extension declares in its manifest, if it is one.
fn declared(e: &Ext) -> Option<&zot_ext_protocol::Contributes> {
    e.manifest
        .as_ref()
        .filter(|m| m.activation == zot_ext_protocol::Activation::OnUse)
        .and_then(|m| m.contributes.as_ref())
}

/// `name (scope)`, how shadowing records name a winner.
pub(crate) fn label(e: &Ext) -> String {
    format!("{} ({})", e.name, scope_word(e.scope))
}

/// How a scope is named in shadowing records.
pub(crate) fn scope_word(s: zot_ext_protocol::rpc::Scope) -> &'static str {
    match s {
        zot_ext_protocol::rpc::Scope::Explicit => "--ext",
        zot_ext_protocol::rpc::Scope::Project => "project",
        zot_ext_protocol::rpc::Scope::Global => "global",
    }
}
