//! Checkpoints of the project's files before each prompt, and rewinding
//! to them (docs/desktop.md "Checkpoints", docs/rpc.md "Checkpoints and
//! rewind"). [`Checkpoints`] is the one owner of a project's shadow
//! repository in this process: it decides whether a checkpoint is taken
//! (size limit, git missing), serializes git on it (an index has one
//! writer: a file lock also keeps a second zot on the same project out
//! while one works), and says once why a project is skipped. The agent
//! and the session know only checkpoint ids.

pub mod git;
pub mod preview;
pub mod prune;
pub mod shadow;
pub mod size;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;
use zot_ext_protocol::checkpoints::CheckpointInfo;

use shadow::Shadow;
use size::Limits;

/// Whether checkpoints are taken, and why not.
enum Gate {
    /// Not decided yet: the first checkpoint measures the project.
    Unknown,
    /// Taken before each prompt.
    Open(Shadow),
    /// Skipped for this run, for the reason already said.
    Closed,
}

/// What happened when a checkpoint was asked for.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Taken {
    /// The checkpoint, unless it was skipped.
    pub id: Option<String>,
    /// Said once to the user (`error` event): why checkpoints are skipped,
    /// or which files could not be read.
    pub problem: Option<String>,
}

/// The checkpoints of one project in this process.
pub struct Checkpoints {
    /// `$ZOT_HOME`.
    zot_home: PathBuf,
    /// The project.
    cwd: PathBuf,
    /// The size limit.
    limits: Limits,
    /// Decided at the first checkpoint.
    gate: Mutex<Gate>,
}

impl Checkpoints {
    /// Checkpoints for `cwd`; nothing is created until the first one.
    pub fn new(zot_home: &Path, cwd: &Path, limits: Limits) -> Checkpoints {
        Checkpoints {
            zot_home: zot_home.to_path_buf(),
            cwd: cwd.to_path_buf(),
            limits,
            gate: Mutex::new(Gate::Unknown),
        }
    }

    /// `$ZOT_HOME/checkpoints`, where every project's shadow repository is.
    pub fn root(zot_home: &Path) -> PathBuf {
        zot_home.join("checkpoints")
    }

    /// Takes the checkpoint before a prompt (blocking: git runs). Never
    /// fails: a problem skips it and is described in [`Taken::problem`]
    /// (once per run for a project over the limit or without git).
    pub fn before_prompt(&self) -> Taken {
        let mut gate = self.gate.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*gate, Gate::Unknown) {
            match self.open_checked() {
                Ok(s) => *gate = Gate::Open(s),
                Err(why) => {
                    *gate = Gate::Closed;
                    return Taken {
                        id: None,
                        problem: Some(why),
                    };
                }
            }
        }
        let Gate::Open(shadow) = &*gate else {
            return Taken::default();
        };
        let r = with_lock(shadow, || shadow.checkpoint("before a prompt"));
        match r {
            Ok(snap) => Taken {
                id: Some(snap.id),
                problem: (!snap.unreadable.is_empty()).then(|| unreadable_note(&snap.unreadable)),
            },
            Err(e) => Taken {
                id: None,
                problem: Some(format!(
                    "checkpoint skipped for this prompt: {e:#}; the prompt runs, but it cannot be rewound"
                )),
            },
        }
    }

    /// Records the files as the prompt of checkpoint `id` left them, so a
    /// later preview can tell the user's own changes from zot's.
    pub fn after_prompt(&self, id: &str) {
        if let Some(shadow) = self.shadow() {
            let _ = with_lock(&shadow, || shadow.mark_after(id));
        }
    }

    /// The shadow repository, opened if checkpoints were not skipped
    /// (commands on old checkpoints work before this run took any).
    pub fn shadow(&self) -> Option<Shadow> {
        let gate = self.gate.lock().unwrap_or_else(|e| e.into_inner());
        match &*gate {
            Gate::Open(s) => Some(s.clone()),
            Gate::Closed => None,
            Gate::Unknown => Shadow::open(&self.zot_home, &self.cwd).ok(),
        }
    }

    /// The checkpoints of `marks` (message index, checkpoint id, in
    /// transcript order) that the shadow repository still has, with how
    /// many files a rewind to each would change now.
    pub fn list(&self, marks: &[(usize, String)]) -> anyhow::Result<Vec<CheckpointInfo>> {
        let Some(shadow) = self.shadow() else {
            return Ok(Vec::new());
        };
        with_lock(&shadow, || {
            let created = shadow.created()?;
            let kept: Vec<_> = marks
                .iter()
                .filter(|(_, id)| created.contains_key(id))
                .collect();
            if kept.is_empty() {
                return Ok(Vec::new());
            }
            let now = shadow.tree()?.id;
            let mut out = Vec::new();
            for (index, id) in kept {
                let files = shadow.changes(&now, id)?.len();
                out.push(CheckpointInfo {
                    id: id.clone(),
                    message_index: u32::try_from(*index).unwrap_or(u32::MAX),
                    created_at: created.get(id).cloned().unwrap_or_default(),
                    files_changed: u32::try_from(files).unwrap_or(u32::MAX),
                });
            }
            Ok(out)
        })
    }

    /// What a rewind of code to `id` would change; `later` are the
    /// checkpoints after it in the transcript, oldest first (to tell the
    /// user's changes between prompts from zot's).
    pub fn preview(
        &self,
        id: &str,
        later: &[String],
    ) -> anyhow::Result<Vec<zot_ext_protocol::checkpoints::FileChange>> {
        let shadow = self.known(id)?;
        with_lock(&shadow, || preview::build(&shadow, id, later))
    }

    /// Restores the files of checkpoint `id`; answers the undo checkpoint
    /// and the paths changed.
    pub fn restore(&self, id: &str) -> anyhow::Result<(String, Vec<String>)> {
        let shadow = self.known(id)?;
        with_lock(&shadow, || shadow.restore(id))
    }

    /// The shadow repository, if it has checkpoint `id`.
    fn known(&self, id: &str) -> anyhow::Result<Shadow> {
        let shadow = self.shadow().context(
            "checkpoints are off for this project in this run (see the earlier error), so there is nothing to rewind to",
        )?;
        if !shadow.has(id) {
            anyhow::bail!(
                "no checkpoint {id} for this project (pruned, or from another project); list them with `checkpoints`"
            );
        }
        Ok(shadow)
    }

    /// Opens the shadow repository and checks the project against the
    /// size limit; `Err` says why checkpoints are skipped for this run.
    fn open_checked(&self) -> Result<Shadow, String> {
        let shadow = Shadow::open(&self.zot_home, &self.cwd).map_err(|e| {
            format!("checkpoints are off for this run: {e:#}; prompts run, but cannot be rewound")
        })?;
        let m = with_lock(&shadow, || size::measure(shadow.git(), self.limits)).map_err(|e| {
            format!("checkpoints are off for this run: {e:#}; prompts run, but cannot be rewound")
        })?;
        if let Some(why) = size::over(m, self.limits) {
            return Err(format!(
                "checkpoints are off for {}: the project has {why}, over the checkpoint limit (raise checkpoints.max_files / checkpoints.max_bytes in config.json, or ignore big directories in .gitignore); prompts run, but cannot be rewound",
                self.cwd.display()
            ));
        }
        Ok(shadow)
    }
}

/// The one note for files a checkpoint left out.
fn unreadable_note(paths: &[String]) -> String {
    let shown: Vec<&str> = paths.iter().take(5).map(String::as_str).collect();
    let more = paths.len().saturating_sub(shown.len());
    format!(
        "checkpoint: {} file{} could not be read and {} left out of it ({}{}); a rewind will not restore {}",
        paths.len(),
        if paths.len() == 1 { "" } else { "s" },
        if paths.len() == 1 { "is" } else { "are" },
        shown.join(", "),
        if more > 0 { format!(" and {more} more") } else { String::new() },
        if paths.len() == 1 { "it" } else { "them" },
    )
}

/// Runs `f` holding the shadow repository's lock file, so two zots on one
/// project never write its index at the same time.
pub(crate) fn with_lock<T>(
    shadow: &Shadow,
    f: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let path = shadow.dir().join("lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    let r = f();
    let _ = file.unlock();
    r
}
