//! `zot ext install` through the real binary: directories, `file://` git
//! URLs, and every bad input leaving nothing under `extensions/`.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use zot_test_support::cli::Env;
use zot_test_support::fixtures::{entries, git_repo, write_ext};

#[test]
fn a_directory_installs_under_its_manifest_name() {
    let env = Env::new();
    let src = env.path("work/hello-src");
    write_ext(
        &src,
        r#"{"name":"hello","version":"1.0.0","exec":"./run.sh"}"#,
    );

    let out = env.zot(&["ext", "install", src.to_str().unwrap()]).ok();

    assert!(out.contains("installed hello 1.0.0"), "{out}");
    assert_eq!(env.installed_entries(), ["hello"]);
    assert!(env.extensions().join("hello/run.sh").is_file());
}

#[test]
fn a_relative_directory_is_resolved_against_the_cwd() {
    let env = Env::new();
    write_ext(&env.project.join("my-ext"), r#"{"name":"rel"}"#);
    env.zot(&["ext", "install", "./my-ext"]).ok();
    assert_eq!(env.installed_entries(), ["rel"]);
}

#[test]
fn a_local_git_repository_installs_from_a_file_url() {
    let env = Env::new();
    let repo = env.path("repo");
    write_ext(&repo, r#"{"name":"from-git","version":"2.0.0"}"#);
    let url = git_repo(&repo);

    let run = env.zot(&["ext", "install", &url]);

    let out = run.ok();
    assert!(out.contains("installed from-git 2.0.0"), "{out}");
    assert!(run.stderr().contains("cloning"), "{}", run.stderr());
    assert_eq!(env.installed_entries(), ["from-git"]);
    assert!(
        env.extensions().join("from-git/.git").is_dir(),
        "a clone keeps its history"
    );
}

#[test]
fn a_source_without_a_manifest_fails_and_leaves_nothing() {
    let env = Env::new();
    let src = env.path("empty");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("README"), "hi").unwrap();

    let err = env.zot(&["ext", "install", src.to_str().unwrap()]).failed();

    assert!(err.contains("no extension.json"), "{err}");
    assert!(
        err.contains(src.to_str().unwrap()),
        "names the directory: {err}"
    );
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

#[test]
fn an_invalid_manifest_fails_naming_the_file_and_leaves_nothing() {
    let env = Env::new();
    for (i, (manifest, says)) in [
        ("{ not json", "extension.json"),
        (r#"{"version":"1"}"#, "name"),
        (r#"{"name":"a/b"}"#, "name"),
        (r#"{"name":"../../escape"}"#, "name"),
        (r#"{"name":".hidden"}"#, "name"),
        (r#"{"name":"-dash"}"#, "name"),
    ]
    .iter()
    .enumerate()
    {
        let src = env.path(&format!("bad{i}"));
        write_ext(&src, manifest);
        let err = env.zot(&["ext", "install", src.to_str().unwrap()]).failed();
        assert!(err.contains("extension.json"), "{manifest}: {err}");
        assert!(err.contains(says), "{manifest}: {err}");
    }
    assert_eq!(env.installed_entries(), Vec::<String>::new());
    assert!(!env.tmp.path().join("escape").exists());
}

#[test]
fn an_existing_install_is_refused_without_force() {
    let env = Env::new();
    let v1 = env.path("v1");
    let v2 = env.path("v2");
    write_ext(&v1, r#"{"name":"dup","version":"1"}"#);
    write_ext(&v2, r#"{"name":"dup","version":"2"}"#);
    env.zot(&["ext", "install", v1.to_str().unwrap()]).ok();

    let err = env.zot(&["ext", "install", v2.to_str().unwrap()]).failed();
    assert!(
        err.contains("already installed") && err.contains("--force"),
        "{err}"
    );

    let out = env
        .zot(&["ext", "install", "--force", v2.to_str().unwrap()])
        .ok();
    assert!(out.contains("replaced dup 2"), "{out}");
    assert_eq!(env.installed_entries(), ["dup"]);
}

#[test]
fn a_symlink_pointing_outside_is_installed_as_a_link() {
    let env = Env::new();
    let outside = env.path("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("big-secret"), "s").unwrap();
    let src = env.path("linky");
    write_ext(&src, r#"{"name":"linky"}"#);
    std::os::unix::fs::symlink(&outside, src.join("escape")).unwrap();

    env.zot(&["ext", "install", src.to_str().unwrap()]).ok();

    let link = env.extensions().join("linky/escape");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), outside);
}

#[test]
fn sources_starting_with_a_dash_are_refused() {
    let env = Env::new();
    let marker = env.path("pwned");
    let evil = format!("--upload-pack=touch {}", marker.display());
    for arg in [evil.as_str(), "-x", "--", "-"] {
        let run = env.zot(&["ext", "install", arg]);
        let err = run.failed();
        assert!(
            err.contains("refusing") || err.contains("error"),
            "{arg}: {err}"
        );
    }
    assert!(!marker.exists(), "git ran with the dash argument");
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

#[test]
fn a_failed_clone_leaves_nothing() {
    let env = Env::new();
    let url = format!("file://{}", env.path("no-such-repo").display());
    let err = env.zot(&["ext", "install", &url]).failed();
    assert!(
        err.contains("git clone") && err.contains("no-such-repo"),
        "{err}"
    );
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

#[test]
fn a_clone_without_a_manifest_leaves_nothing() {
    let env = Env::new();
    let repo = env.path("repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("README"), "no manifest").unwrap();
    let url = git_repo(&repo);
    let err = env.zot(&["ext", "install", &url]).failed();
    assert!(err.contains("no extension.json"), "{err}");
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

#[test]
fn something_that_is_neither_a_directory_nor_a_url_is_explained() {
    let env = Env::new();
    let err = env.zot(&["ext", "install", "./no-such-dir"]).failed();
    assert!(
        err.contains("not a directory") && err.contains("git URL"),
        "{err}"
    );
    // A bare name is a catalog name; the error says how to name a folder.
    let err = env.zot(&["ext", "install", "no-such-dir"]).failed();
    assert!(
        err.contains("catalog") && err.contains("./no-such-dir") && err.contains("git URL"),
        "{err}"
    );
}

/// A stand-in `git` that starts writing into the clone target and then
/// hangs, so the interrupt lands mid-clone every time.
const HANGING_GIT: &str = r#"#!/bin/sh
for last; do :; done
echo "$$" > "$PGID_FILE"
echo partial > "$last/partial-file"
echo "Receiving objects:   1% (1/100)" >&2
exec sleep 300
"#;

#[test]
fn an_interrupted_clone_leaves_nothing_and_stops_git() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let bin = env.path("fakebin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("git"), HANGING_GIT).unwrap();
    std::fs::set_permissions(bin.join("git"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let pgid_file = env.path("git.pgid");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let mut child = env
        .command(&["ext", "install", "https://example.invalid/ext.git"])
        .env("PATH", path)
        .env("PGID_FILE", &pgid_file)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until git has reported progress: the clone is in flight.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("Receiving objects") {
        line.clear();
        assert_ne!(stderr.read_line(&mut line).unwrap(), 0, "zot ended early");
    }
    assert!(entries(&env.extensions())
        .iter()
        .any(|e| e.starts_with('.')));

    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();

    assert_eq!(status.code(), Some(130));
    assert_eq!(env.installed_entries(), Vec::<String>::new());
    // git's whole process group is gone (hang guard, not a speed check).
    let pgid = std::fs::read_to_string(&pgid_file)
        .unwrap()
        .trim()
        .to_string();
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::process::Command::new("kill")
        .args(["-0", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
    {
        assert!(Instant::now() < deadline, "git's process group survived");
        std::thread::sleep(Duration::from_millis(50));
    }
}
