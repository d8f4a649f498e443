//! Installing from a directory or a git URL: what lands where, and that
//! every refused or failed install leaves nothing under `extensions/`.

use zot_test_support::fixtures;

use std::path::{Path, PathBuf};

use fixtures::{entries, git_repo, write_ext};

use zot_ext_host::ext_ops::OpsError;
use zot_ext_host::install::{install, Cancel, Progress, Source};

fn run(home: &Path, source: &Source, force: bool) -> Result<PathBuf, OpsError> {
    install(home, source, force, &Cancel::new(), &mut |_| {}).map(|i| i.dir)
}

#[test]
fn a_directory_is_copied_under_its_manifest_name() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("work-copy");
    write_ext(
        &src,
        r#"{"name":"hello","version":"1.2.0","exec":"./run.sh"}"#,
    );
    std::fs::create_dir(src.join("sub")).unwrap();
    std::fs::write(src.join("sub/data.txt"), "x").unwrap();
    let home = tmp.path().join("home");

    let dir = run(&home, &Source::Dir(src), false).unwrap();

    assert_eq!(dir, home.join("extensions/hello"));
    assert_eq!(
        std::fs::read_to_string(dir.join("sub/data.txt")).unwrap(),
        "x"
    );
    assert_eq!(entries(&home.join("extensions")), ["hello"]);
}

#[test]
fn a_missing_or_invalid_manifest_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let none = tmp.path().join("none");
    std::fs::create_dir(&none).unwrap();
    let err = run(&home, &Source::Dir(none), false).unwrap_err();
    assert!(matches!(err, OpsError::NoManifest { .. }), "{err}");
    assert!(err.to_string().contains("no extension.json"), "{err}");

    for (i, bad) in [
        "{not json",
        r#"{"version":"1"}"#,
        r#"{"name":"../evil"}"#,
        r#"{"name":"a/b"}"#,
        r#"{"name":".hidden"}"#,
        r#"{"name":"-rf"}"#,
        r#"{"name":"a..b"}"#,
    ]
    .iter()
    .enumerate()
    {
        let src = tmp.path().join(format!("bad{i}"));
        write_ext(&src, bad);
        let err = run(&home, &Source::Dir(src), false).unwrap_err();
        assert!(matches!(err, OpsError::BadManifest { .. }), "{bad}: {err}");
        assert!(err.to_string().contains("extension.json"), "{err}");
    }
    assert_eq!(entries(&home.join("extensions")), Vec::<String>::new());
}

#[test]
fn an_existing_install_is_kept_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let v1 = tmp.path().join("v1");
    let v2 = tmp.path().join("v2");
    write_ext(&v1, r#"{"name":"e","version":"1"}"#);
    write_ext(&v2, r#"{"name":"e","version":"2"}"#);
    run(&home, &Source::Dir(v1), false).unwrap();

    let err = run(&home, &Source::Dir(v2.clone()), false).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    let kept = std::fs::read_to_string(home.join("extensions/e/extension.json")).unwrap();
    assert!(kept.contains(r#""version":"1""#), "{kept}");

    run(&home, &Source::Dir(v2), true).unwrap();
    let now = std::fs::read_to_string(home.join("extensions/e/extension.json")).unwrap();
    assert!(now.contains(r#""version":"2""#), "{now}");
    assert_eq!(entries(&home.join("extensions")), ["e"]);
}

#[cfg(unix)]
#[test]
fn a_symlink_pointing_outside_is_copied_as_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("secret"), "s").unwrap();
    let src = tmp.path().join("src");
    write_ext(&src, r#"{"name":"linky"}"#);
    std::os::unix::fs::symlink(&outside, src.join("escape")).unwrap();
    std::os::unix::fs::symlink("../outside/secret", src.join("file-link")).unwrap();
    let home = tmp.path().join("home");

    let dir = run(&home, &Source::Dir(src), false).unwrap();

    let link = dir.join("escape");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_link(&link).unwrap(), outside);
    let file_link = dir.join("file-link");
    assert!(file_link
        .symlink_metadata()
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_link(&file_link).unwrap(),
        Path::new("../outside/secret")
    );
}

#[test]
fn arguments_starting_with_a_dash_are_refused() {
    for arg in ["-x", "--upload-pack=touch /tmp/pwned", "-"] {
        let err = Source::parse(arg).unwrap_err();
        assert!(matches!(err, OpsError::DashArgument { .. }), "{arg}: {err}");
    }
}

/// A git repository holding an extension with `manifest`.
fn ext_repo(dir: &Path, manifest: &str) -> String {
    write_ext(dir, manifest);
    git_repo(dir)
}

#[test]
fn a_git_url_is_shallow_cloned_with_progress() {
    let tmp = tempfile::tempdir().unwrap();
    let url = ext_repo(
        &tmp.path().join("repo"),
        r#"{"name":"cloned","version":"0.3"}"#,
    );
    let home = tmp.path().join("home");
    let mut seen = Vec::new();

    let got = install(
        &home,
        &Source::parse(&url).unwrap(),
        false,
        &Cancel::new(),
        &mut |p| seen.push(p),
    )
    .unwrap();

    assert_eq!(got.name, "cloned");
    assert_eq!(got.version.as_deref(), Some("0.3"));
    assert!(got.dir.join("run.sh").is_file());
    assert!(seen.contains(&Progress::Cloning { url }), "{seen:?}");
    assert!(
        seen.iter().any(|p| matches!(p, Progress::Git(_))),
        "{seen:?}"
    );
    assert_eq!(entries(&home.join("extensions")), ["cloned"]);
}

#[test]
fn a_failed_clone_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let url = format!("file://{}/no-such-repo", tmp.path().display());
    let err = run(&home, &Source::Git(url), false).unwrap_err();
    assert!(matches!(err, OpsError::CloneFailed { .. }), "{err}");
    assert!(err.to_string().contains("no-such-repo"), "{err}");
    assert_eq!(entries(&home.join("extensions")), Vec::<String>::new());
}

#[test]
fn a_cloned_repo_without_a_manifest_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    std::fs::write(repo.join("README"), "no manifest").unwrap();
    let url = git_repo(&repo);
    let home = tmp.path().join("home");
    let err = run(&home, &Source::Git(url), false).unwrap_err();
    assert!(matches!(err, OpsError::NoManifest { .. }), "{err}");
    assert_eq!(entries(&home.join("extensions")), Vec::<String>::new());
}

#[test]
fn a_cancelled_clone_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let url = ext_repo(&tmp.path().join("repo"), r#"{"name":"slow"}"#);
    let home = tmp.path().join("home");
    let cancel = Cancel::new();
    let on_progress = cancel.clone();
    // Cancel as soon as git reports anything: the clone is then in flight.
    let err = install(&home, &Source::Git(url), false, &cancel, &mut |p| {
        if matches!(p, Progress::Git(_)) {
            on_progress.cancel();
        }
    })
    .unwrap_err();
    assert!(matches!(err, OpsError::Cancelled), "{err}");
    assert_eq!(entries(&home.join("extensions")), Vec::<String>::new());
}

#[test]
fn leftovers_of_a_killed_install_are_swept_but_live_ones_are_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let base = home.join("extensions");
    // A pid far above any pid_max: that process cannot be running.
    let dead = base.join(".zot-install-2147483600-0");
    let live = base.join(format!(".zot-install-{}-999", std::process::id()));
    std::fs::create_dir_all(dead.join("half")).unwrap();
    std::fs::create_dir_all(&live).unwrap();
    let src = tmp.path().join("src");
    write_ext(&src, r#"{"name":"next"}"#);

    run(&home, &Source::Dir(src), false).unwrap();

    assert!(!dead.exists(), "a dead install's leftovers stayed");
    assert!(live.exists(), "a running install's directory was swept");
}
