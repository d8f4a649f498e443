//! The `zot` binary run to completion, as the `zot ext …` CLI tests run it:
//! against a temp `ZOT_HOME` and a temp project directory.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use crate::fixtures::entries;

/// A temp `ZOT_HOME` plus a temp project directory used as cwd.
pub struct Env {
    /// Owns every temp file.
    pub tmp: tempfile::TempDir,
    /// `$ZOT_HOME`.
    pub home: PathBuf,
    /// The cwd `zot` runs in.
    pub project: PathBuf,
}

impl Env {
    /// Fresh directories.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let project = tmp.path().join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        Env { tmp, home, project }
    }

    /// `zot <args>` with stdin closed (not a terminal).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = crate::rpc::std_command(&self.home, &self.project, args);
        c.env_remove("XDG_STATE_HOME").stdin(Stdio::null());
        c
    }

    /// Runs `zot <args>` to completion.
    pub fn zot(&self, args: &[&str]) -> Run {
        Run(self.command(args).output().unwrap())
    }

    /// `$ZOT_HOME/extensions`.
    pub fn extensions(&self) -> PathBuf {
        self.home.join("extensions")
    }

    /// Entries under `$ZOT_HOME/extensions`, hidden ones included.
    pub fn installed_entries(&self) -> Vec<String> {
        entries(&self.extensions())
    }

    /// A directory under the temp root.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }
}

/// A finished `zot` run.
pub struct Run(pub Output);

impl Run {
    /// The exit status (-1 when a signal ended it).
    pub fn code(&self) -> i32 {
        self.0.status.code().unwrap_or(-1)
    }
    /// What it printed on stdout.
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }
    /// What it printed on stderr.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }
    /// Asserts success and returns stdout.
    pub fn ok(&self) -> String {
        assert_eq!(
            self.code(),
            0,
            "stdout: {}\nstderr: {}",
            self.stdout(),
            self.stderr()
        );
        self.stdout()
    }
    /// Asserts a non-zero exit and returns stderr.
    pub fn failed(&self) -> String {
        assert_ne!(
            self.code(),
            0,
            "unexpected success; stdout: {}",
            self.stdout()
        );
        self.stderr()
    }
}
