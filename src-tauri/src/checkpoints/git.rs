//! Runs the `git` binary against a shadow repository, sealed off from the
//! user's own: `GIT_DIR`, `GIT_WORK_TREE` and `GIT_INDEX_FILE` point at the
//! shadow directory and the project, every other `GIT_*` variable the
//! process inherited is dropped (a zot started from a git hook must not
//! write the hook's repository), and `-c` settings turn off whatever could
//! change content or run user code (autocrlf, hooks, fsmonitor, auto gc).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use anyhow::Context;

/// Settings every shadow command runs with, over the user's own config.
const SEAL: &[&str] = &[
    "-c",
    "core.autocrlf=false",
    "-c",
    "core.safecrlf=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.quotepath=false",
    "-c",
    "gc.auto=0",
    "-c",
    "advice.addEmbeddedRepo=false",
    "-c",
    "core.untrackedCache=true",
    "-c",
    "core.splitIndex=false",
];

/// A git command line bound to one shadow repository and one work tree.
#[derive(Debug, Clone)]
pub struct Git {
    /// The shadow repository (`GIT_DIR`).
    pub git_dir: PathBuf,
    /// The project (`GIT_WORK_TREE`, and the commands' cwd).
    pub work_tree: PathBuf,
    /// The shadow index (`GIT_INDEX_FILE`), kept warm between checkpoints
    /// so git re-hashes only files whose stat data changed.
    pub index: PathBuf,
}

impl Git {
    /// A command with the sealed environment, not yet run.
    pub fn command<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut c = Command::new("git");
        for (k, _) in std::env::vars_os() {
            if k.to_string_lossy().starts_with("GIT_") {
                c.env_remove(k);
            }
        }
        c.env("GIT_DIR", &self.git_dir)
            .env("GIT_WORK_TREE", &self.work_tree)
            .env("GIT_INDEX_FILE", &self.index)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_AUTHOR_NAME", "zot")
            .env("GIT_AUTHOR_EMAIL", "checkpoints@zot.invalid")
            .env("GIT_COMMITTER_NAME", "zot")
            .env("GIT_COMMITTER_EMAIL", "checkpoints@zot.invalid")
            .env("LC_ALL", "C")
            .current_dir(&self.work_tree)
            .args(SEAL)
            .args(args)
            .stdin(Stdio::null());
        c
    }

    /// Runs `args`; a non-zero exit is an error quoting git's stderr.
    pub fn run<I, S>(&self, args: I) -> anyhow::Result<Output>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<S> = args.into_iter().collect();
        let what = args
            .iter()
            .take(2)
            .map(|a| a.as_ref().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        let out = self
            .command(&args)
            .output()
            .with_context(|| format!("cannot run git {what} (is git installed and on PATH?)"))?;
        if !out.status.success() {
            anyhow::bail!(
                "git {what} failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(out)
    }

    /// Runs `args` and returns stdout as text, trimmed.
    pub fn text<I, S>(&self, args: I) -> anyhow::Result<String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let out = self.run(args)?;
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }
}

/// Creates the shadow repository at `git_dir` if missing. A bare init (no
/// work tree of its own), then told it is not bare, since every command
/// names the project as its work tree.
pub fn init(git_dir: &Path) -> anyhow::Result<()> {
    if git_dir.join("HEAD").is_file() {
        return Ok(());
    }
    let mut c = Command::new("git");
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("GIT_") {
            c.env_remove(k);
        }
    }
    let out = c
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["init", "--quiet", "--bare"])
        .arg(git_dir)
        .stdin(Stdio::null())
        .output()
        .context(
            "cannot run git init for the checkpoint repository (is git installed and on PATH?)",
        )?;
    if !out.status.success() {
        anyhow::bail!(
            "cannot create the checkpoint repository {}: {}",
            git_dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let cfg = git_dir.join("config");
    let mut text =
        std::fs::read_to_string(&cfg).with_context(|| format!("cannot read {}", cfg.display()))?;
    text = text.replace("bare = true", "bare = false");
    std::fs::write(&cfg, text).with_context(|| format!("cannot write {}", cfg.display()))?;
    Ok(())
}
