//! Projects (docs/desktop.md "Projects"): the recent list in
//! `$ZOT_HOME/recent.json`, which folders may be opened, and the backend
//! swap behind "Open folder…", with real backends and real fixture
//! extensions: the old project's extension gets `shutdown`, the new one's
//! trust prompt comes, and a refused folder changes nothing.

use crate::in_process;
use zot_test_support::fake_llm;
use zot_test_support::fixtures;
use zot_test_support::procs;

use std::path::{Path, PathBuf};

use serde_json::json;
use zot_ext_protocol::rpc::UiEvent;
use zot_lib::backend::{Backend, SessionChoice};
use zot_lib::projects::{folder, recent, switch::Projects};

fn canon(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap()
}

// ---- the recent list ----

#[test]
fn recent_is_newest_first_without_duplicates_and_capped() {
    let home = tempfile::tempdir().unwrap();
    let dirs: Vec<_> = (0..recent::CAP + 3)
        .map(|_| tempfile::tempdir().unwrap())
        .collect();
    for d in &dirs {
        recent::touch(home.path(), d.path()).unwrap();
    }
    // Opening an old one again moves it to the top, once.
    recent::touch(home.path(), dirs[recent::CAP + 1].path()).unwrap();
    let list = recent::list(home.path());
    assert_eq!(list.len(), recent::CAP);
    assert_eq!(list[0].path, dirs[recent::CAP + 1].path());
    assert_eq!(list[1].path, dirs[recent::CAP + 2].path());
    assert_eq!(
        list.iter()
            .filter(|p| p.path == dirs[recent::CAP + 1].path())
            .count(),
        1
    );
    // The oldest fell off.
    assert!(list.iter().all(|p| p.path != dirs[0].path()));
    assert!(list.iter().all(|p| !p.missing));
}

#[test]
fn a_missing_folder_stays_listed_marked_until_forgotten() {
    let home = tempfile::tempdir().unwrap();
    let keep = tempfile::tempdir().unwrap();
    let gone = tempfile::tempdir().unwrap();
    let gone_path = gone.path().to_path_buf();
    recent::touch(home.path(), &gone_path).unwrap();
    recent::touch(home.path(), keep.path()).unwrap();
    drop(gone);
    let list = recent::list(home.path());
    assert_eq!(list.len(), 2);
    assert!(!list[0].missing);
    assert!(list[1].missing, "{list:?}");
    assert_eq!(
        list[1].name,
        gone_path.file_name().unwrap().to_string_lossy()
    );
    recent::forget(home.path(), &gone_path).unwrap();
    let list = recent::list(home.path());
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].path, keep.path());
    // Forgetting what is not listed is a no-op.
    recent::forget(home.path(), Path::new("/nowhere")).unwrap();
    assert_eq!(recent::list(home.path()).len(), 1);
}

#[test]
fn a_damaged_recent_file_reads_as_empty_and_is_rewritten_private() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join(recent::FILE);
    std::fs::write(&file, "{not json").unwrap();
    assert!(recent::list(home.path()).is_empty());
    let d = tempfile::tempdir().unwrap();
    recent::touch(home.path(), d.path()).unwrap();
    assert_eq!(recent::list(home.path()).len(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    // No temp file left beside it (the write is a rename).
    let names: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

// ---- which folders can be opened ----

#[test]
fn bad_folders_are_refused_with_a_message() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("nope");
    let e = folder::validate(&missing).unwrap_err();
    assert!(e.contains("does not exist") && e.contains("nope"), "{e}");

    let file = d.path().join("f.txt");
    std::fs::write(&file, "x").unwrap();
    let e = folder::validate(&file).unwrap_err();
    assert!(e.contains("not a folder"), "{e}");

    let e = folder::validate(Path::new("/")).unwrap_err();
    assert!(e.contains("root of the file system"), "{e}");
    // `/..` and a symlink to `/` are `/` too.
    let e = folder::validate(Path::new("/..")).unwrap_err();
    assert!(e.contains("root"), "{e}");
    #[cfg(unix)]
    {
        let link = d.path().join("root-link");
        std::os::unix::fs::symlink("/", &link).unwrap();
        let e = folder::validate(&link).unwrap_err();
        assert!(e.contains("root"), "{e}");
    }

    assert_eq!(folder::validate(d.path()).unwrap(), canon(d.path()));
}

#[cfg(unix)]
#[test]
fn an_unreadable_folder_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let locked = d.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // root reads any folder, whatever its mode: then there is nothing
    // unreadable to test with.
    let readable_anyway = std::fs::read_dir(&locked).is_ok();
    let got = folder::validate(&locked);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o700)).unwrap();
    if readable_anyway {
        eprintln!("skipped: this user reads mode-000 folders (root)");
        return;
    }
    let e = got.unwrap_err();
    assert!(e.contains("cannot read") && e.contains("locked"), "{e}");
}

// ---- the switch, with real backends ----

struct Env {
    _s: fake_llm::FakeLlm,
    home: tempfile::TempDir,
    a: tempfile::TempDir,
    b: tempfile::TempDir,
    a_ext: PathBuf,
    b_ext: PathBuf,
    projects: Projects,
}

/// Project A (trusted for this run, like `--trust-project`) with extension
/// `a_ext`, project B with `b_ext`; A's backend running.
async fn env() -> (Env, tokio::sync::mpsc::Receiver<UiEvent>) {
    env_with(json!({"name": "a_ext"})).await
}

/// [`env`], with `a_plan` as a_ext's fixture plan.
async fn env_with(a_plan: serde_json::Value) -> (Env, tokio::sync::mpsc::Receiver<UiEvent>) {
    let s = fake_llm::FakeLlm::start().await;
    let home = tempfile::tempdir().unwrap();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a_ext = fixtures::agent_ext(&a.path().join(".zot/extensions"), "a_ext", a_plan);
    let b_ext = fixtures::agent_ext(
        &b.path().join(".zot/extensions"),
        "b_ext",
        json!({"name": "b_ext"}),
    );
    let opts = zot_lib::backend::BackendOptions {
        no_ext: false,
        trust_project: true,
        session: SessionChoice::New,
        ..in_process::options(home.path(), &canon(a.path()), &s.url)
    };
    let projects = Projects::new(opts.clone());
    let (backend, events) = Backend::start(opts).await.unwrap();
    backend.wait_ready().await;
    projects.set_initial(Ok(backend));
    (
        Env {
            _s: s,
            home,
            a,
            b,
            a_ext,
            b_ext,
            projects,
        },
        events,
    )
}

#[tokio::test]
async fn switching_shuts_the_old_project_down_and_starts_the_new_one() {
    let (e, _a_events) = env().await;
    fixtures::wait_seen(&e.a_ext, |v| v["type"] != "shutdown").await;

    let mut sw = e.projects.switch(e.b.path()).await.unwrap();
    assert_eq!(sw.cwd, canon(e.b.path()));
    assert_eq!(e.projects.cwd(), canon(e.b.path()));
    // The old project's extension got its shutdown frame.
    fixtures::wait_seen(&e.a_ext, |v| v["type"] == "shutdown").await;

    // The new backend is B's: its extension waits on B's trust prompt
    // (`--trust-project` named A, not B) and never ran.
    let new = e.projects.current().unwrap();
    assert_eq!(new.options().cwd, canon(e.b.path()));
    new.wait_ready().await;
    let seen = in_process::until(&mut sw.events, |ev| {
        matches!(ev, UiEvent::ProjectUntrusted { .. })
    })
    .await;
    match seen.last() {
        Some(UiEvent::ProjectUntrusted {
            dir, extensions, ..
        }) => {
            assert_eq!(Path::new(dir), canon(e.b.path()));
            assert_eq!(extensions, &vec!["b_ext".to_string()]);
        }
        other => panic!("{other:?}"),
    }
    assert!(!e.b_ext.join("seen.jsonl").exists());

    // B is now first in the recent list, A after it.
    let list = recent::list(e.home.path());
    let paths: Vec<_> = list.iter().map(|p| p.path.clone()).collect();
    assert_eq!(paths, vec![canon(e.b.path()), canon(e.a.path())]);

    e.projects.shutdown().await;
}

/// The user who opened another folder does not wait for the old project's
/// extensions to stop: one that takes its whole shutdown grace is still
/// running when the switch returns, and the app's own shutdown waits for it.
#[tokio::test]
async fn a_switch_does_not_wait_for_the_old_projects_extensions_to_stop() {
    let (e, _a_events) = env_with(json!({"name": "a_ext", "linger": 30})).await;
    fixtures::wait_seen(&e.a_ext, |v| v["type"] == "hello_ack").await;
    let pid: i32 = std::fs::read_to_string(e.a_ext.join("pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();

    let _sw = e.projects.switch(e.b.path()).await.unwrap();
    // It lingers after `shutdown`, and the host SIGTERMs it only 2 s after
    // sending that: a switch that waited would find it gone.
    assert!(procs::alive(pid), "the switch waited for the old extension");
    assert_eq!(e.projects.cwd(), canon(e.b.path()));
    // The old backend is being shut down all the same.
    fixtures::wait_seen(&e.a_ext, |v| v["type"] == "shutdown").await;

    e.projects.shutdown().await;
    assert!(!procs::alive(pid), "the app's shutdown left it running");
}

#[tokio::test]
async fn a_refused_folder_leaves_the_old_project_running() {
    let (e, _events) = env().await;
    fixtures::wait_seen(&e.a_ext, |v| v["type"] != "shutdown").await;
    let file = e.b.path().join("file.txt");
    std::fs::write(&file, "x").unwrap();
    for bad in [e.b.path().join("missing"), file, PathBuf::from("/")] {
        let err = match e.projects.switch(&bad).await {
            Err(err) => err,
            Ok(_) => panic!("{} was accepted", bad.display()),
        };
        assert!(!err.is_empty());
        assert_eq!(e.projects.cwd(), canon(e.a.path()), "{err}");
        let cur = e.projects.current().unwrap();
        assert_eq!(cur.options().cwd, canon(e.a.path()));
    }
    // A's extension is still running: it never got a shutdown.
    assert!(fixtures::seen(&e.a_ext)
        .iter()
        .all(|v| v["type"] != "shutdown"));
    let list = recent::list(e.home.path());
    assert_eq!(list.len(), 1);
    e.projects.shutdown().await;
}
