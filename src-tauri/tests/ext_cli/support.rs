//! Shared by the `ext_cli*` tests: run the real `zot` binary against a temp
//! `ZOT_HOME` and a temp project directory, and build extensions on disk.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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
        let mut c = Command::new(env!("CARGO_BIN_EXE_zot"));
        c.args(args)
            .current_dir(&self.project)
            .env("ZOT_HOME", &self.home)
            .env_remove("XDG_STATE_HOME")
            .stdin(Stdio::null());
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

/// Sorted names in a directory, hidden ones included; empty if it is missing.
pub fn entries(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<String> = rd
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Writes an extension directory with `manifest` and a trivial script.
pub fn write_ext(dir: &Path, manifest: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("extension.json"), manifest).unwrap();
    std::fs::write(dir.join("run.sh"), "#!/bin/sh\n").unwrap();
}

/// A finished `zot` run.
pub struct Run(pub Output);

impl Run {
    pub fn code(&self) -> i32 {
        self.0.status.code().unwrap_or(-1)
    }
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }
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

/// Runs git with a fixed identity in `dir`.
pub fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// Makes `dir` a git repository with one commit of its contents; returns
/// its `file://` URL.
pub fn git_repo(dir: &Path) -> String {
    git(dir, &["init", "-q"]);
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "init"]);
    format!("file://{}", dir.display())
}

/// The configurable test extension shared with the host crate's tests.
pub fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../extensions/host/tests/fixtures/doctor_ext.py")
}

/// An extension directory under `base` that runs the fixture with `spec`
/// (a JSON object; see the fixture's header).
pub fn scripted_ext(
    base: &Path,
    name: &str,
    spec: serde_json::Value,
    extra: serde_json::Value,
) -> PathBuf {
    let dir = base.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut spec = spec;
    spec["name"] = serde_json::json!(name);
    let mut manifest = serde_json::json!({
        "name": name,
        "exec": fixture().to_str().unwrap(),
        "args": [spec.to_string()],
    });
    for (k, v) in extra.as_object().unwrap() {
        manifest[k] = v.clone();
    }
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}
