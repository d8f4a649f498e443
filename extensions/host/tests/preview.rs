//! Consent before code: installing for the manager's summary (the desktop's
//! install path, `Consent::OnSummary`) runs nothing of the extension, from
//! a folder or a git URL. What it registers is read from its manifest's
//! `contributes` and theme files, or said to be unknown until it is
//! enabled. A fixture whose program writes a marker file when run proves
//! it: the marker appears only once the user enables it.

use zot_test_support::fixtures;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_ext_host::install::{install_and_describe, Cancel, Consent, Hooks, InstallOptions};
use zot_ext_host::{Host, HostConfig};

/// An extension in `dir` whose program writes `marker` as soon as it runs,
/// with `extra` merged into its manifest.
fn marking_ext(dir: &Path, marker: &Path, extra: Value) {
    std::fs::create_dir_all(dir).unwrap();
    let script = format!(
        "#!/bin/sh\necho ran > '{}'\nprintf '%s\\n' '{{\"type\":\"hello\",\"name\":\"marks\"}}' '{{\"type\":\"ready\"}}'\nexec cat >/dev/null\n",
        marker.display()
    );
    std::fs::write(dir.join("run.sh"), script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut manifest = json!({"name": "marks", "version": "1.0.0", "exec": "./run.sh"});
    manifest
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
}

/// Installs `source` as the manager does: left disabled for the summary.
fn install_for_summary(home: &Path, source: &str) -> zot_ext_host::install::InstallOutcome {
    let options = InstallOptions {
        force: false,
        consent: Consent::OnSummary,
        update: false,
    };
    let hooks = Hooks {
        progress: &mut |_| {},
        approve_more: &mut |_| false,
    };
    install_and_describe(home, source, options, &Cancel::new(), hooks).unwrap()
}

struct Case {
    tmp: tempfile::TempDir,
    home: PathBuf,
    marker: PathBuf,
}

fn case() -> Case {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let marker = tmp.path().join("marker");
    Case { tmp, home, marker }
}

#[tokio::test]
async fn installing_from_a_folder_for_the_summary_runs_nothing_until_enabled() {
    let c = case();
    let src = c.tmp.path().join("src/marks");
    marking_ext(&src, &c.marker, json!({}));
    let done = install_for_summary(&c.home, src.to_str().unwrap());
    assert!(!c.marker.exists(), "the install ran the extension");
    assert!(!done.enabled);
    let summary = done.summary();
    // Nothing declared: what it registers is unknown until it runs.
    assert!(!summary.registers_known);
    assert!(summary.commands.is_empty() && summary.tools.is_empty());
    // A load with it disabled runs nothing either; Enable runs it.
    let cwd = c.tmp.path().join("project");
    std::fs::create_dir_all(&cwd).unwrap();
    let (host, _rx) = Host::start(HostConfig::new(&c.home, &cwd));
    host.wait_ready().await;
    assert!(!c.marker.exists());
    zot_ext_host::toggle::set_enabled(&done.dir.join("extension.json"), true).unwrap();
    host.reload().await;
    host.wait_ready().await;
    assert!(c.marker.exists(), "enabled, it runs (the fixture works)");
    host.shutdown().await;
}

#[test]
fn installing_from_a_git_url_reads_what_it_registers_from_its_manifest() {
    let c = case();
    let src = c.tmp.path().join("repo");
    marking_ext(
        &src,
        &c.marker,
        json!({"contributes": {
            "commands": [{"name": "mark", "description": "leave a mark"}],
            "tools": [{"name": "mark_tool", "description": "d", "schema": {"type": "object"}}]
        }}),
    );
    std::fs::write(
        src.join("theme.json"),
        json!({"name": "marked", "appearance": "dark", "colors": {"bg": "#000000"}}).to_string(),
    )
    .unwrap();
    let url = fixtures::git_repo(&src);
    let summary = install_for_summary(&c.home, &url).summary();
    assert!(!c.marker.exists(), "the install ran the extension");
    assert!(summary.registers_known);
    assert_eq!(summary.commands, ["mark"]);
    assert_eq!(summary.tools, ["mark_tool"]);
    assert_eq!(summary.themes, ["marked"]);
    assert!(!summary.enabled);
}
