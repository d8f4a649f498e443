//! Swapping the running backend for one in another project folder, without
//! restarting the app. The new backend starts first and the old one is shut
//! down only after, so a refused folder or a failed start leaves the old
//! project running untouched. Front ends read the current backend from the
//! watch slot; a swap makes every later command reach the new one.
//!
//! The old backend is shut down in the background: its extensions may take
//! their whole shutdown grace (2 s, then 1 s after SIGTERM), and the user
//! who opened another folder should not wait for that. The app's own
//! shutdown waits for those still stopping, so nothing outlives zot.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use zot_ext_protocol::rpc::UiEvent;

use crate::agent::session::SessionChoice;
use crate::backend::{Backend, BackendOptions};

use super::{folder, recent};

/// The backend slot: `None` while the first one starts, then its result.
pub type Slot = Option<Result<Backend, String>>;

/// The current project and how to start a backend for another one.
pub struct Projects {
    /// The current backend; front ends wait on it.
    slot: watch::Sender<Slot>,
    /// The options the app was started with (provider, model, `-e`, …);
    /// a switch changes only the folder and the session.
    template: BackendOptions,
    /// The current project folder.
    cwd: Mutex<PathBuf>,
    /// One switch at a time (two clicks must not start three backends).
    switching: tokio::sync::Mutex<()>,
    /// Old backends still shutting down after a switch.
    retiring: Mutex<JoinSet<()>>,
}

/// What a successful switch hands the caller: the new project and its
/// event stream, which the caller forwards to its front end.
pub struct Switched {
    /// The new project folder (canonical).
    pub cwd: PathBuf,
    /// The new backend's events.
    pub events: mpsc::Receiver<UiEvent>,
}

impl Projects {
    /// Starts with `template.cwd` as the current project (its backend is
    /// set later with [`Projects::set_initial`]).
    pub fn new(template: BackendOptions) -> Self {
        let (slot, _) = watch::channel(None);
        Projects {
            cwd: Mutex::new(template.cwd.clone()),
            slot,
            template,
            switching: tokio::sync::Mutex::new(()),
            retiring: Mutex::new(JoinSet::new()),
        }
    }

    /// Records the first backend (or why it did not start) and puts its
    /// folder at the top of the recent list.
    pub fn set_initial(&self, started: Result<Backend, String>) {
        if started.is_ok() {
            self.remember(&self.cwd());
        }
        self.slot.send_replace(Some(started));
    }

    /// A receiver that sees every backend, for front ends.
    pub fn subscribe(&self) -> watch::Receiver<Slot> {
        self.slot.subscribe()
    }

    /// The current backend, if one is running.
    pub fn current(&self) -> Option<Backend> {
        match self.slot.borrow().as_ref() {
            Some(Ok(b)) => Some(b.clone()),
            _ => None,
        }
    }

    /// The current project folder.
    pub fn cwd(&self) -> PathBuf {
        self.cwd
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// `$ZOT_HOME` (the recent list lives there).
    pub fn zot_home(&self) -> &Path {
        &self.template.zot_home
    }

    /// Opens `dir` as the project: checks it, starts a backend there with a
    /// new session (the old project's extensions, trust and session are not
    /// carried over), makes it current, then starts shutting the old one
    /// down without waiting for it (extensions get `shutdown`, the session
    /// file is closed when the last handle drops). On any error nothing
    /// changed.
    pub async fn switch(&self, dir: &Path) -> Result<Switched, String> {
        let _one = self.switching.lock().await;
        let cwd = folder::validate(dir)?;
        let mut opts = self.template.clone();
        opts.cwd = cwd.clone();
        opts.session = SessionChoice::New;
        // `--trust-project` named the folder the app started in; another
        // folder goes through its own trust prompt.
        opts.trust_project = opts.trust_project && cwd == self.template.cwd;
        let (backend, events) = Backend::start(opts).await.map_err(|e| {
            format!(
                "could not open {}: {e:#}; the current project stays open",
                cwd.display()
            )
        })?;
        let old = self.slot.send_replace(Some(Ok(backend)));
        *self.cwd.lock().unwrap_or_else(PoisonError::into_inner) = cwd.clone();
        if let Some(Ok(old)) = old {
            let mut retiring = self.retiring.lock().unwrap_or_else(PoisonError::into_inner);
            // Forget the ones that have finished, then add this one.
            while retiring.try_join_next().is_some() {}
            retiring.spawn(async move { old.shutdown().await });
        }
        self.remember(&cwd);
        Ok(Switched { cwd, events })
    }

    /// Shuts the current backend down (the app is closing), and waits for
    /// the old ones a switch left still shutting down.
    pub async fn shutdown(&self) {
        let retiring =
            std::mem::take(&mut *self.retiring.lock().unwrap_or_else(PoisonError::into_inner));
        let current = async {
            if let Some(b) = self.current() {
                b.shutdown().await;
            }
        };
        tokio::join!(current, retiring.join_all());
    }

    fn remember(&self, cwd: &Path) {
        // The recent list is a convenience: failing to write it is reported
        // and does not undo the switch.
        if let Err(e) = recent::touch(self.zot_home(), cwd) {
            eprintln!("zot: {e}");
        }
    }
}
