//! What the app does with project trust through the [`Host`] handle: say
//! which project extensions wait for trust (and what they would run), trust
//! the project and start them, or forget the trust and stop them. The
//! decision itself and the file live in [`crate::policy::trust`].

use std::path::Path;

use zot_ext_protocol::rpc::{ExtState, Scope, TrustStatus, UiEvent, UntrustedExtension};

use crate::api::host::Host;
use crate::manifest;
use crate::policy::trust::{self, TrustError};

impl Host {
    /// Project extensions that wait for trust, in load order, with what
    /// each would run.
    pub fn untrusted_extensions(&self) -> Vec<UntrustedExtension> {
        let exts = self.inner.lock().exts.clone();
        // In a trusted project, what waits is new since the trust.
        let trusted = trust::decide(&self.inner.cfg).trusted;
        exts.iter()
            .filter(|e| e.scope == Scope::Project && e.state() == ExtState::Untrusted)
            .map(|e| {
                let shadows_global = exts
                    .iter()
                    .find(|g| g.scope == Scope::Global && g.name == e.name)
                    .map(|g| g.dir.display().to_string());
                let man = e.manifest.as_ref();
                let exec = man
                    .and_then(|m| m.exec.as_deref().map(|x| (x, &m.args)))
                    .map(|(x, args)| {
                        // `components` drops the `.` of an `./main.py` exec.
                        let prog = manifest::resolve_exec(&e.manifest_path, x)
                            .map(|p| p.components().collect::<std::path::PathBuf>())
                            .map(|p| p.display().to_string())
                            .unwrap_or_else(|_| x.to_owned());
                        std::iter::once(prog)
                            .chain(args.iter().cloned())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    // An MCP entry runs its command, or reaches its URL.
                    .or_else(|| {
                        man.and_then(|m| match (&m.command, &m.url) {
                            (Some(c), _) => Some(
                                std::iter::once(c.clone())
                                    .chain(m.args.iter().cloned())
                                    .collect::<Vec<_>>()
                                    .join(" "),
                            ),
                            (None, Some(u)) => Some(u.clone()),
                            _ => m.transport.as_ref().and_then(|t| match t {
                                zot_ext_protocol::Transport::Websocket { url } => Some(url.clone()),
                                zot_ext_protocol::Transport::Stdio => None,
                            }),
                        })
                    })
                    .unwrap_or_default();
                UntrustedExtension {
                    name: e.name.clone(),
                    dir: e.dir.display().to_string(),
                    exec,
                    description: man.and_then(|m| m.description.clone()),
                    shadows_global,
                    new: trusted,
                }
            })
            .collect()
    }

    /// The `project_untrusted` event, when the project has extensions that
    /// did not start because it is not trusted.
    pub fn project_untrusted(&self) -> Option<UiEvent> {
        let details = self.untrusted_extensions();
        if details.is_empty() {
            return None;
        }
        Some(UiEvent::ProjectUntrusted {
            dir: self.project_dir().display().to_string(),
            extensions: details.iter().map(|d| d.name.clone()).collect(),
            details,
        })
    }

    /// Why the trust file could not be used, the first time it is asked in
    /// this run (a broken file is reported once, not on every reload).
    pub fn take_trust_problem(&self) -> Option<String> {
        let cfg = &self.inner.cfg;
        let problem = trust::trusted_dirs(&cfg.zot_home).err()?;
        cfg.run_trust.first_report().then(|| problem.to_string())
    }

    /// Whether the project is trusted, what waits for trust, and every
    /// remembered folder.
    pub fn trust_status(&self) -> TrustStatus {
        let cfg = &self.inner.cfg;
        let d = trust::decide(cfg);
        TrustStatus {
            dir: self.project_dir().display().to_string(),
            trusted: d.trusted,
            remembered: d.remembered,
            extensions: self.untrusted_extensions(),
            trusted_dirs: trust::trusted_dirs(&cfg.zot_home)
                .unwrap_or_default()
                .into_iter()
                .map(|p| p.display().to_string())
                .collect(),
            problem: d.problem.map(|e| e.to_string()),
        }
    }

    /// Trusts the project (remembered in `trust.json` when `remember`,
    /// else for this run), accepts the extensions that waited for it (as
    /// they were listed: what appeared since still waits), and restarts
    /// the extension set so they run, replacing any global one they
    /// shadow; returns the names of the project extensions that started.
    /// The same call runs a trusted project's new extensions (the banner
    /// lists them too). Nothing changes when remembering fails.
    pub async fn trust_project(&self, remember: bool) -> Result<Vec<String>, TrustError> {
        let cfg = &self.inner.cfg;
        if remember {
            trust::remember(&cfg.zot_home, &cfg.cwd)?;
        }
        let waiting: Vec<std::sync::Arc<crate::records::extension::Ext>> = {
            let exts = self.inner.lock().exts.clone();
            exts.into_iter()
                .filter(|e| e.scope == Scope::Project && e.state() == ExtState::Untrusted)
                .collect()
        };
        if !waiting.is_empty() {
            let listed = waiting
                .iter()
                .filter_map(|e| Some((e.dir.as_path(), e.name.as_str(), e.manifest.as_ref()?)));
            crate::policy::consent::record_all(&cfg.zot_home, listed)?;
        }
        cfg.run_trust.grant_trust_only();
        let waiting: Vec<String> = waiting.iter().map(|e| e.name.clone()).collect();
        if waiting.is_empty() {
            return Ok(Vec::new());
        }
        self.reload().await;
        Ok(self.project_names(
            |s| matches!(s, ExtState::Ready | ExtState::Loading),
            &waiting,
        ))
    }

    /// Forgets trust. Without `dir`, or with the project's own directory:
    /// forgets the project's trust (remembered and for this run) and
    /// restarts the set without its extensions; returns the project
    /// extensions that were stopped. With another directory: only forgets
    /// it in `trust.json`.
    pub async fn untrust_project(&self, dir: Option<&Path>) -> Result<Vec<String>, TrustError> {
        let cfg = &self.inner.cfg;
        let project = self.project_dir();
        let target = match dir {
            None => project.clone(),
            Some(d) => trust::canonical(d).unwrap_or_else(|_| d.to_path_buf()),
        };
        trust::forget(&cfg.zot_home, &target)?;
        if target != project {
            return Ok(Vec::new());
        }
        cfg.run_trust.revoke();
        let running: Vec<String> = {
            let exts = self.inner.lock().exts.clone();
            exts.iter()
                .filter(|e| e.scope == Scope::Project)
                .filter(|e| matches!(e.state(), ExtState::Ready | ExtState::Loading))
                .map(|e| e.name.clone())
                .collect()
        };
        if running.is_empty() {
            return Ok(Vec::new());
        }
        self.reload().await;
        Ok(self.project_names(|s| s == ExtState::Untrusted, &running))
    }

    /// This run's trust, to share with a host started beside this one (the
    /// desktop's doctor) so it sees a trust given for this run only.
    pub fn run_trust(&self) -> trust::RunTrust {
        self.inner.cfg.run_trust.clone()
    }

    /// The project directory, canonical when it resolves.
    fn project_dir(&self) -> std::path::PathBuf {
        let cwd = &self.inner.cfg.cwd;
        trust::canonical(cwd).unwrap_or_else(|_| cwd.clone())
    }

    /// Project extensions named in `among` whose state passes `keep`.
    fn project_names(&self, keep: impl Fn(ExtState) -> bool, among: &[String]) -> Vec<String> {
        let exts = self.inner.lock().exts.clone();
        exts.iter()
            .filter(|e| e.scope == Scope::Project && among.contains(&e.name))
            .filter(|e| keep(e.state()))
            .map(|e| e.name.clone())
            .collect()
    }
}
