//! What the host can say about itself: the extension list for the manager
//! and `ext_list`, and the fuller report `zot ext doctor` prints.

use std::path::PathBuf;
use std::sync::Arc;

use zot_ext_protocol::rpc::{
    CommandInfo, ExtHealth, ExtState, ExtensionSummary, Shadowing, ToolInfo,
};
use zot_ext_protocol::LifecycleEvent;

use crate::api::host::Host;
use crate::io::proc_usage;
use crate::manifest::ManifestError;
use crate::records::extension::{Ext, ReadyKind};

/// One extension in the doctor report.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtReport {
    /// What the manager shows.
    pub summary: ExtensionSummary,
    /// Whether it sent `ready` or was made ready by the idle rule.
    pub ready: ReadyKind,
    /// Refused registrations, bad theme colours, and the like.
    pub warnings: Vec<String>,
    /// Behaviour zot tolerates only for compatibility with the reference
    /// zot: odd note levels, a hello name that differs, a slow start.
    pub tolerated: Vec<String>,
    /// Its stderr log.
    pub log_path: PathBuf,
    /// Its `extension.json`.
    pub manifest_path: PathBuf,
}

/// One name that lost, and to whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The extension whose registration lost.
    pub extension: String,
    /// What lost, to whom, and why.
    pub shadowing: Shadowing,
}

/// Everything `zot ext doctor` needs.
#[derive(Debug, Clone, PartialEq)]
pub struct HostReport {
    /// Manifests that could not be used.
    pub manifest_errors: Vec<ManifestError>,
    /// Every extension in load order.
    pub extensions: Vec<ExtReport>,
    /// Per interceptable event, the extensions asked, in order.
    pub interception: Vec<(LifecycleEvent, Vec<String>)>,
    /// Every shadowed command, tool, theme and extension.
    pub conflicts: Vec<Conflict>,
}

impl Host {
    /// Every extension, including disabled, failed, shadowed and theme-only
    /// ones, in load order.
    pub fn list(&self) -> Vec<ExtensionSummary> {
        let exts = self.inner.lock().exts.clone();
        let sources = crate::manage::sources::read(&self.inner.cfg.zot_home);
        exts.iter().map(|e| self.summary(e, &sources)).collect()
    }

    /// [`Host::list`] with each running extension's memory filled in
    /// (`health.rss_bytes`), for `ext_list` and the manager. Kept apart from
    /// `list` because it walks /proc, and `list` is polled in tight loops.
    pub fn list_measured(&self) -> Vec<ExtensionSummary> {
        let exts = self.inner.lock().exts.clone();
        let pids: Vec<Option<i32>> = exts.iter().map(|e| e.lock().pid).collect();
        let rss = proc_usage::tree_rss(&pids.iter().flatten().copied().collect::<Vec<_>>());
        let sources = crate::manage::sources::read(&self.inner.cfg.zot_home);
        exts.iter()
            .zip(pids)
            .map(|(e, pid)| {
                let mut s = self.summary(e, &sources);
                s.health.rss_bytes = pid.and_then(|p| rss.get(&p).copied());
                s
            })
            .collect()
    }

    /// One extension's summary; `sources` is `sources.json`, read once per
    /// listing (a small file) rather than kept per load, so an install's
    /// record shows at once.
    fn summary(
        &self,
        e: &Arc<Ext>,
        sources: &std::collections::BTreeMap<std::path::PathBuf, zot_ext_protocol::ExtSource>,
    ) -> ExtensionSummary {
        let (reg, active) = {
            let st = self.inner.lock();
            (st.registry.clone(), st.activated.clone())
        };
        let commands = reg
            .command_order
            .iter()
            .filter_map(|k| reg.commands.get(k))
            .filter(|(_, o)| *o == e.id)
            .map(|(c, _)| CommandInfo {
                name: c.name.clone(),
                description: c.description.clone(),
                extension: Some(e.name.clone()),
            })
            .collect();
        let tools = reg
            .tool_order
            .iter()
            .filter_map(|n| reg.tools.get(n))
            .filter(|(_, o)| *o == e.id)
            .map(|(t, _)| ToolInfo {
                name: t.name.clone(),
                description: t.description.clone(),
                deferred: t.deferred,
                active: !t.deferred || active.contains(&t.name),
                read_only: t.read_only,
                destructive: t.destructive,
            })
            .collect();
        let m = e.lock();
        let mut shadowed = m.shadowed.clone();
        shadowed.extend(reg.shadowed.get(&e.name).into_iter().flatten().cloned());
        let man = e.manifest.as_ref();
        ExtensionSummary {
            name: e.name.clone(),
            version: man.and_then(|m| m.version.clone()),
            description: man.and_then(|m| m.description.clone()),
            language: man.and_then(|m| m.language.clone()),
            scope: e.scope,
            dir: e.dir.display().to_string(),
            enabled: man.is_none_or(|m| m.enabled),
            state: m.state.unwrap_or(ExtState::Failed),
            commands,
            tools,
            themes: m.themes.clone(),
            shadowed,
            error: m.error.clone(),
            log_path: e.log.path().display().to_string(),
            starting_ms: match (m.state, m.spawned_at) {
                (Some(ExtState::Loading), Some(t)) => Some(millis(t.elapsed())),
                _ => None,
            },
            startup_ms: m.startup.map(millis),
            restarts: m.budget.in_window(tokio::time::Instant::now()),
            last_exit: m.last_exit.clone(),
            health: health(e),
            settings: man
                .map(|m| m.config.keys().cloned().collect())
                .unwrap_or_default(),
            sandboxed: man.is_some_and(|m| m.sandbox.is_some()),
            permissions: e.grant.grant(),
            permission_words: man
                .map(|m| crate::policy::permission_words::manifest_words(m, &e.dir))
                .unwrap_or_default(),
            refused: e.refusals.counts(),
            unaccepted: e.unaccepted.clone(),
            unaccepted_words: e
                .unaccepted
                .iter()
                .map(|p| crate::policy::permission_words::permission_words(*p).to_owned())
                .collect(),
            widened: e.widened.clone(),
            kind: man.map(|m| m.kind).unwrap_or_default(),
            source: match e.scope {
                zot_ext_protocol::rpc::Scope::Global => {
                    crate::manage::sources::lookup(sources, &e.dir).cloned()
                }
                _ => None,
            },
            rollback_to: match e.scope {
                zot_ext_protocol::rpc::Scope::Global => {
                    crate::manage::rollback::kept(&self.inner.cfg.zot_home, &e.name)
                        .map(|k| k.version.unwrap_or_else(|| "-".into()))
                }
                _ => None,
            },
            setup: e.setup.clone(),
        }
    }

    /// The doctor report: manifest errors, each extension in detail, the
    /// interception order per event, and every conflict.
    pub fn report(&self) -> HostReport {
        let (exts, manifest_errors) = {
            let st = self.inner.lock();
            (st.exts.clone(), st.manifest_errors.clone())
        };
        let sources = crate::manage::sources::read(&self.inner.cfg.zot_home);
        let extensions: Vec<ExtReport> = exts
            .iter()
            .map(|e| {
                let summary = self.summary(e, &sources);
                let m = e.lock();
                ExtReport {
                    summary,
                    ready: m.ready,
                    warnings: m.reported_warnings(),
                    tolerated: m.tolerated.clone(),
                    log_path: e.log.path().to_path_buf(),
                    manifest_path: e.manifest_path.clone(),
                }
            })
            .collect();
        let interception = [
            LifecycleEvent::TurnStart,
            LifecycleEvent::ToolCall,
            LifecycleEvent::AssistantMessage,
        ]
        .into_iter()
        .map(|ev| {
            let names = exts
                .iter()
                .filter(|e| {
                    let m = e.lock();
                    m.state == Some(ExtState::Ready) && m.intercepts.contains(&ev)
                })
                .map(|e| e.name.clone())
                .collect();
            (ev, names)
        })
        .collect();
        let conflicts = extensions
            .iter()
            .flat_map(|r| {
                r.summary.shadowed.iter().map(|s| Conflict {
                    extension: r.summary.name.clone(),
                    shadowing: s.clone(),
                })
            })
            .collect();
        HostReport {
            manifest_errors,
            extensions,
            interception,
            conflicts,
        }
    }
}

/// Whole milliseconds, saturating (a duration that does not fit is absurd).
fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Its calls, their latency and its log's size (`ExtHealth`).
fn health(e: &Ext) -> ExtHealth {
    let s = e.stats.lock().unwrap_or_else(|p| p.into_inner()).clone();
    ExtHealth {
        calls: s.calls(),
        errors: s.errors(),
        p50_ms: s.quantile(500).map(millis),
        p99_ms: s.quantile(990).map(millis),
        busy_ms: millis(s.busy()),
        rss_bytes: None,
        log_bytes: std::fs::metadata(e.log.path())
            .map(|m| m.len())
            .unwrap_or(0),
    }
}
