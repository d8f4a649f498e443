//! Project trust: project-local extensions run only in a trusted project
//! (remembered in `trust.json` by canonical path, or for one run); `--ext`
//! and global extensions are unaffected; a broken trust file means
//! "nothing trusted"; a symlink cannot borrow another folder's trust.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use support::*;
use zot_ext_host::trust;
use zot_ext_host::Host;
use zot_ext_protocol::rpc::{ExtState, Scope, UiEvent};

/// A plan registering command `name`, marked so its process can be found
/// in /proc by `marker`.
fn plan(cmd: &str, marker: &str) -> Value {
    json!({"register":[{"type":"register_command","name":cmd}], "marker": marker})
}

/// Processes whose command line holds `marker`, asked of the OS.
fn processes_with(marker: &str) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmd).contains(marker) && alive(pid) {
            out.push(pid);
        }
    }
    out
}

fn states(host: &Host) -> Vec<(String, Scope, ExtState)> {
    host.list()
        .into_iter()
        .map(|s| (s.name, s.scope, s.state))
        .collect()
}

fn commands(host: &Host) -> Vec<String> {
    host.commands().into_iter().map(|c| c.name).collect()
}

#[tokio::test]
async fn untrusted_project_extensions_are_listed_but_never_spawned() {
    let env = Env::new();
    let marker = format!("untrusted-{}", std::process::id());
    let local = env.project_ext("local", plan("loc", &marker));
    env.global("installed", plan("glob", "g"));
    let cfg = {
        let mut c = env.untrusted_config();
        c.explicit = vec![env.loose("mine", plan("mine", "m"))];
        c
    };
    let (host, _rx) = start(cfg).await;
    assert_eq!(
        states(&host),
        vec![
            ("mine".into(), Scope::Explicit, ExtState::Ready),
            ("local".into(), Scope::Project, ExtState::Untrusted),
            ("installed".into(), Scope::Global, ExtState::Ready),
        ]
    );
    assert_eq!(commands(&host), vec!["mine", "glob"]);
    assert!(!local.join("pid").exists(), "an untrusted extension ran");
    assert!(processes_with(&marker).is_empty());
    let s = &host.list()[1];
    assert!(
        s.error
            .as_deref()
            .unwrap()
            .contains("not a trusted project"),
        "{s:?}"
    );
    // What the banner shows.
    let Some(UiEvent::ProjectUntrusted {
        dir,
        extensions,
        details,
    }) = host.project_untrusted()
    else {
        panic!("no project_untrusted event")
    };
    assert_eq!(
        PathBuf::from(dir),
        std::fs::canonicalize(env.project.path()).unwrap()
    );
    assert_eq!(extensions, vec!["local"]);
    assert!(details[0].exec.contains("python"), "{details:?}");
    assert!(details[0].exec.contains("scripted.py"), "{details:?}");
    assert_eq!(
        details[0].description.as_deref(),
        Some("test extension local")
    );
    assert_eq!(details[0].shadows_global, None);
    host.shutdown().await;
}

#[tokio::test]
async fn a_project_without_extensions_gets_no_project_untrusted_event() {
    let env = Env::new();
    std::fs::write(trust::trust_file(env.home.path()), "{broken").unwrap();
    env.global("installed", json!({}));
    let (host, _rx) = start(env.untrusted_config()).await;
    assert!(host.project_untrusted().is_none());
    assert_eq!(states(&host)[0].2, ExtState::Ready);
    host.shutdown().await;
}

#[tokio::test]
async fn trust_project_remembered_starts_them_and_untrust_stops_them() {
    let env = Env::new();
    let marker = format!("trustflow-{}", std::process::id());
    let local = env.project_ext("local", plan("loc", &marker));
    let (host, _rx) = start(env.untrusted_config()).await;
    assert_eq!(states(&host)[0].2, ExtState::Untrusted);

    let started = host.trust_project(true).await.unwrap();
    assert_eq!(started, vec!["local"]);
    assert_eq!(states(&host)[0].2, ExtState::Ready);
    assert_eq!(commands(&host), vec!["loc"]);
    let pid = read_pid(&local, "pid");
    assert!(alive(pid));
    // Remembered by its canonical path, in a private file.
    let file = trust::trust_file(env.home.path());
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let canon = std::fs::canonicalize(env.project.path()).unwrap();
    assert_eq!(saved["trusted"], json!([canon]));
    assert_eq!(mode(&file), 0o600);
    assert!(host.trust_status().remembered);

    // A new start in the same folder runs them straight away.
    let (again, _rx2) = start(env.untrusted_config()).await;
    assert_eq!(states(&again)[0].2, ExtState::Ready);
    assert!(again.project_untrusted().is_none());
    again.shutdown().await;

    let stopped = host.untrust_project(None).await.unwrap();
    assert_eq!(stopped, vec!["local"]);
    assert_eq!(states(&host)[0].2, ExtState::Untrusted);
    assert!(commands(&host).is_empty());
    eventually(|| !alive(pid)).await;
    assert!(processes_with(&marker).is_empty());
    assert!(trust::trusted_dirs(env.home.path()).unwrap().is_empty());
    host.shutdown().await;
}

#[tokio::test]
async fn trust_for_one_run_is_not_remembered() {
    let env = Env::new();
    env.project_ext("local", json!({}));
    let (host, _rx) = start(env.untrusted_config()).await;
    assert_eq!(host.trust_project(false).await.unwrap(), vec!["local"]);
    assert_eq!(states(&host)[0].2, ExtState::Ready);
    assert!(!trust::trust_file(env.home.path()).exists());
    let st = host.trust_status();
    assert!(st.trusted && !st.remembered, "{st:?}");
    host.shutdown().await;
}

#[tokio::test]
async fn an_untrusted_copy_never_replaces_the_users_global_extension_and_is_called_out() {
    let env = Env::new();
    let global = env.global("guard", plan("g-cmd", "g"));
    env.project_ext("guard", plan("p-cmd", "p"));
    let (host, _rx) = start(env.untrusted_config()).await;
    assert_eq!(
        states(&host),
        vec![
            ("guard".into(), Scope::Project, ExtState::Untrusted),
            ("guard".into(), Scope::Global, ExtState::Ready),
        ]
    );
    assert_eq!(commands(&host), vec!["g-cmd"]);
    let details = host.untrusted_extensions();
    assert_eq!(
        details[0].shadows_global.as_deref(),
        Some(global.display().to_string().as_str())
    );
    // The doctor says it too.
    let r = host.report();
    assert!(
        r.extensions[0]
            .warnings
            .iter()
            .any(|w| w.contains("shadows your global extension 'guard'")),
        "{:?}",
        r.extensions[0].warnings
    );

    // Trusted, the project's copy wins as the spec says.
    assert_eq!(host.trust_project(false).await.unwrap(), vec!["guard"]);
    assert_eq!(
        states(&host),
        vec![
            ("guard".into(), Scope::Project, ExtState::Ready),
            ("guard".into(), Scope::Global, ExtState::Disabled),
        ]
    );
    assert_eq!(commands(&host), vec!["p-cmd"]);
    host.shutdown().await;
}

#[tokio::test]
async fn a_disabled_copy_in_an_untrusted_project_cannot_switch_off_the_users_extension() {
    let env = Env::new();
    env.global("guard", plan("g-cmd", "g"));
    raw_manifest(
        &env.project_dir(),
        "guard",
        &json!({"name":"guard","exec":python(),"enabled":false}).to_string(),
    );
    let (host, _rx) = start(env.untrusted_config()).await;
    assert_eq!(
        states(&host),
        vec![
            ("guard".into(), Scope::Project, ExtState::Disabled),
            ("guard".into(), Scope::Global, ExtState::Ready),
        ]
    );
    assert_eq!(commands(&host), vec!["g-cmd"]);
    host.shutdown().await;
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Files beside trust.json that a write left behind.
fn leftovers(home: &Path) -> Vec<String> {
    std::fs::read_dir(home)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect()
}

async fn broken_file_means_nothing_trusted(contents: &[u8], says: &str) {
    let env = Env::new();
    let file = trust::trust_file(env.home.path());
    // Even an entry for this very project does not count in a broken file.
    let canon = std::fs::canonicalize(env.project.path()).unwrap();
    let mut bytes = format!("{{\"trusted\":[{:?}]", canon.display().to_string()).into_bytes();
    bytes.extend_from_slice(contents);
    std::fs::write(&file, &bytes).unwrap();
    env.project_ext("local", json!({}));
    let (host, _rx) = start(env.untrusted_config()).await;
    assert_eq!(states(&host)[0].2, ExtState::Untrusted);
    let first = host
        .take_trust_problem()
        .expect("the broken file was not reported");
    assert!(first.contains(&file.display().to_string()), "{first}");
    assert!(first.contains(says), "{first}");
    // Once per run, not on every look.
    assert_eq!(host.take_trust_problem(), None);
    assert!(host.trust_status().problem.is_some());

    assert_eq!(host.trust_project(true).await.unwrap(), vec!["local"]);
    let saved: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(saved["trusted"], json!([canon]));
    assert_eq!(mode(&file), 0o600);
    assert!(leftovers(env.home.path()).is_empty());
    host.shutdown().await;
}

#[tokio::test]
async fn a_corrupt_trust_file_means_nothing_trusted_is_reported_once_and_rewritten() {
    broken_file_means_nothing_trusted(b",,, not json", "is corrupt").await;
}

#[tokio::test]
async fn an_unreadable_trust_file_means_nothing_trusted_is_reported_once_and_rewritten() {
    broken_file_means_nothing_trusted(&[0xff, 0xfe, 0x00, b'}'], "cannot read").await;
}

#[tokio::test]
async fn a_symlink_cannot_borrow_another_folders_trust() {
    let env = Env::new();
    let root = tempfile::tempdir().unwrap();
    // A trusted project and an untrusted one, each with an extension.
    let trusted = root.path().join("trusted");
    let other = root.path().join("other");
    for (p, name) in [(&trusted, "good"), (&other, "evil")] {
        scripted(&p.join(".zot/extensions"), name, json!({}));
    }
    trust::remember(env.home.path(), &trusted).unwrap();
    // Its extension accepted with the trust, as `zot ext trust` does.
    let good = trusted.join(".zot/extensions/good");
    let m = zot_ext_host::manifest::load(&good.join("extension.json")).unwrap();
    zot_ext_host::consent::record(env.home.path(), &good, "good", &m).unwrap();
    // A link whose *name* is in trust.json but which now points elsewhere.
    let link = root.path().join("link");
    std::os::unix::fs::symlink(&other, &link).unwrap();
    let mut dirs: Vec<PathBuf> = trust::trusted_dirs(env.home.path())
        .unwrap()
        .into_iter()
        .collect();
    dirs.push(link.clone());
    std::fs::write(
        trust::trust_file(env.home.path()),
        json!({"version":1,"trusted":dirs}).to_string(),
    )
    .unwrap();

    let run = |cwd: &Path| {
        let mut c = zot_ext_host::HostConfig::new(env.home.path(), cwd);
        c.zot_version = "9.9.9".into();
        c
    };
    // Through the link, the project is the other folder: not trusted.
    let (h, _rx) = start(run(&link)).await;
    assert_eq!(
        states(&h)[0],
        ("evil".into(), Scope::Project, ExtState::Untrusted)
    );
    assert!(!other.join(".zot/extensions/evil/pid").exists());
    h.shutdown().await;
    let (h, _rx) = start(run(&other)).await;
    assert_eq!(states(&h)[0].2, ExtState::Untrusted);
    h.shutdown().await;

    // A link to the trusted folder, or a path with `..`, is that folder.
    let to_trusted = root.path().join("to-trusted");
    std::os::unix::fs::symlink(&trusted, &to_trusted).unwrap();
    for cwd in [to_trusted, trusted.join(".zot/../.zot/..")] {
        let (h, _rx) = start(run(&cwd)).await;
        assert_eq!(
            states(&h)[0],
            ("good".into(), Scope::Project, ExtState::Ready),
            "{}",
            cwd.display()
        );
        h.shutdown().await;
    }
    // Trusting through a link stores the folder it names.
    let link2 = root.path().join("link2");
    std::os::unix::fs::symlink(&other, &link2).unwrap();
    let key = trust::remember(env.home.path(), &link2).unwrap();
    assert_eq!(key, std::fs::canonicalize(&other).unwrap());
}

#[tokio::test]
async fn a_new_extension_in_a_trusted_project_waits_for_the_user_and_replaces_nothing() {
    let env = Env::new();
    let marker = format!("planted-{}", std::process::id());
    env.project_ext("known", plan("known", "k"));
    env.global("guard", plan("guard", "g"));
    // Trusted and remembered; what is there now is accepted with it.
    let (host, _rx) = start(env.untrusted_config()).await;
    assert_eq!(host.trust_project(true).await.unwrap(), vec!["known"]);
    // Later something writes a new extension into .zot/extensions, named
    // like the user's own guard (a pull, or the model's `write`).
    let planted = env.project_ext("guard", plan("pwn", &marker));
    host.reload().await;
    host.wait_settled().await;
    assert_eq!(
        states(&host),
        vec![
            ("guard".into(), Scope::Project, ExtState::Untrusted),
            ("known".into(), Scope::Project, ExtState::Ready),
            ("guard".into(), Scope::Global, ExtState::Ready),
        ]
    );
    assert!(!planted.join("pid").exists(), "the planted extension ran");
    assert!(processes_with(&marker).is_empty());
    // The user's guard still runs: nothing waiting replaces it.
    assert_eq!(commands(&host), vec!["known", "guard"]);
    let s = &host.list()[0];
    assert!(
        s.error
            .as_deref()
            .unwrap()
            .contains("has not run this extension"),
        "{s:?}"
    );
    // The banner lists it, marked new, with the global it would replace.
    let Some(UiEvent::ProjectUntrusted { details, .. }) = host.project_untrusted() else {
        panic!("no project_untrusted event")
    };
    assert_eq!(details.len(), 1);
    assert!(
        details[0].new && details[0].shadows_global.is_some(),
        "{details:?}"
    );
    assert!(host.trust_status().trusted);
    // A fresh start of the trusted project does not run it either.
    host.shutdown().await;
    let (host, _rx) = start(env.untrusted_config()).await;
    assert_eq!(states(&host)[0].2, ExtState::Untrusted);
    // "Run" on the banner accepts it; then it runs and replaces the global.
    assert_eq!(host.trust_project(true).await.unwrap(), vec!["guard"]);
    assert!(planted.join("pid").exists());
    assert_eq!(commands(&host), vec!["pwn", "known"]);
    host.shutdown().await;
}

#[tokio::test]
async fn trusting_for_one_run_accepts_what_is_there_at_start_and_nothing_later() {
    let env = Env::new();
    let first = env.project_ext("first", plan("first", "f"));
    // `--trust-project`.
    let (host, _rx) = start(env.config()).await;
    assert_eq!(summary(&host, "first").state, ExtState::Ready);
    assert!(first.join("pid").exists());
    let later = env.project_ext("later", plan("later", "l"));
    host.reload().await;
    host.wait_settled().await;
    assert_eq!(summary(&host, "later").state, ExtState::Untrusted);
    assert!(!later.join("pid").exists(), "what appeared later ran");
    assert_eq!(summary(&host, "first").state, ExtState::Ready);
    host.shutdown().await;
}

#[tokio::test]
async fn an_untrusted_projects_theme_cannot_take_a_global_themes_name() {
    let env = Env::new();
    let theme = |dir: &Path, colour: &str| {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("theme.json"),
            json!({"name": "midnight", "appearance": "dark", "colors": {"background": colour}})
                .to_string(),
        )
        .unwrap();
    };
    theme(&env.global_dir().join("mine"), "#000000");
    theme(&env.project_dir().join("theirs"), "#ff0000");
    let (host, _rx) = start(env.untrusted_config()).await;
    let themes = host.themes();
    let midnight: Vec<_> = themes
        .iter()
        .filter(|t| t.theme.name == "midnight")
        .collect();
    assert_eq!(midnight.len(), 1);
    assert_eq!(midnight[0].extension, "mine");
    assert_eq!(midnight[0].theme.colors["background"], "#000000");
    let theirs = summary(&host, "theirs");
    assert!(
        theirs
            .shadowed
            .iter()
            .any(|s| s.name == "midnight" && s.by == "mine"),
        "{theirs:?}"
    );
    host.shutdown().await;
}
