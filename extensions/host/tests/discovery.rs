//! Discovery: precedence (`--ext`, project, global), shadowing by name,
//! `--no-ext`, disabled and theme-only extensions, exec resolution, and
//! broken manifests that never stop the others from loading.

use crate::support;

use serde_json::json;
use support::*;
use zot_ext_protocol::rpc::{ExtState, Scope, ShadowKind};

#[tokio::test]
async fn explicit_then_project_then_global_each_sorted_and_same_names_shadowed() {
    let env = Env::new();
    env.global("zeta", json!({}));
    env.global("same", json!({}));
    env.project_ext("same", json!({}));
    env.project_ext("beta", json!({}));
    let e2 = env.loose("same", json!({}));
    let e1 = scripted(&env.loose.path().join("x"), "first", json!({}));
    let mut cfg = env.config();
    cfg.explicit = vec![e1, e2];
    let (host, _rx) = start(cfg).await;
    let list: Vec<(String, Scope, ExtState)> = host
        .list()
        .into_iter()
        .map(|s| (s.name, s.scope, s.state))
        .collect();
    assert_eq!(
        list,
        vec![
            ("first".into(), Scope::Explicit, ExtState::Ready),
            ("same".into(), Scope::Explicit, ExtState::Ready),
            ("beta".into(), Scope::Project, ExtState::Ready),
            ("same".into(), Scope::Project, ExtState::Disabled),
            ("same".into(), Scope::Global, ExtState::Disabled),
            ("zeta".into(), Scope::Global, ExtState::Ready),
        ]
    );
    let shadowed = &host.list()[3].shadowed[0];
    assert_eq!(shadowed.kind, ShadowKind::Extension);
    assert_eq!(shadowed.by, "same (--ext)");
    // The shadowed copies were never started.
    assert!(!env.project_dir().join("same/pid").exists());
    assert!(!env.global_dir().join("same/pid").exists());
    host.shutdown().await;
}

#[tokio::test]
async fn no_ext_loads_only_explicit_paths() {
    let env = Env::new();
    env.global("installed", json!({}));
    env.project_ext("local", json!({}));
    let mut cfg = env.config();
    cfg.discover = false;
    cfg.explicit = vec![env.loose("mine", json!({}))];
    let (host, _rx) = start(cfg).await;
    let names: Vec<String> = host.list().into_iter().map(|s| s.name).collect();
    assert_eq!(names, vec!["mine"]);
    host.shutdown().await;
}

#[tokio::test]
async fn disabled_extensions_are_listed_but_not_started() {
    let env = Env::new();
    let dir = raw_manifest(
        &env.global_dir(),
        "off",
        &json!({"name":"off","exec":python(),"args":[zot_test_support::fixtures::fixture("scripted.py"),"{}"],"enabled":false})
            .to_string(),
    );
    let (host, _rx) = start(env.config()).await;
    let s = &host.list()[0];
    assert_eq!((s.state, s.enabled), (ExtState::Disabled, false));
    assert!(!dir.join("pid").exists());
}

#[tokio::test]
async fn theme_only_directories_are_listed_and_never_spawned() {
    let env = Env::new();
    let g = env.global_dir();
    // theme.json alone, no manifest.
    let a = g.join("solar");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(
        a.join("theme.json"),
        r##"{"name":"solarized","appearance":"dark","colors":{"fg":"#eee8d5","accent":"javascript:alert(1)"}}"##,
    )
    .unwrap();
    // A manifest without exec, and several themes/*.json (one shadowed by a built-in).
    let b = raw_manifest(&g, "packs", r#"{"name":"packs","version":"2.0.0"}"#);
    std::fs::create_dir_all(b.join("themes")).unwrap();
    std::fs::write(
        b.join("themes/one.json"),
        r##"{"name":"one","appearance":"light","colors":{"bg":"#fff"}}"##,
    )
    .unwrap();
    std::fs::write(b.join("themes/two.json"), r#"{"name":"dark"}"#).unwrap();
    std::fs::write(b.join("themes/bad.json"), "not json").unwrap();
    let (host, _rx) = start(env.config()).await;
    let list = host.list();
    assert_eq!(
        list.iter().map(|s| s.state).collect::<Vec<_>>(),
        vec![ExtState::Theme, ExtState::Theme]
    );
    assert_eq!(list[0].name, "packs");
    assert_eq!(list[0].themes, vec!["one"]);
    assert_eq!(list[1].themes, vec!["solarized"]);
    assert!(list[0]
        .shadowed
        .iter()
        .any(|s| s.kind == ShadowKind::Theme && s.name == "dark" && s.by == "built-in"));
    let themes = host.themes();
    assert_eq!(themes.len(), 2);
    let solar = themes.iter().find(|t| t.theme.name == "solarized").unwrap();
    assert_eq!(solar.extension, "solar");
    assert_eq!(
        solar.theme.colors.len(),
        1,
        "the non-hex colour must not survive"
    );
    let report = host.report();
    let warnings: Vec<String> = report
        .extensions
        .iter()
        .flat_map(|e| e.warnings.clone())
        .collect();
    assert!(
        warnings.iter().any(|w| w.contains("javascript:alert(1)")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("unknown colour 'bg'")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("bad.json")),
        "{warnings:?}"
    );
}

#[tokio::test]
async fn broken_manifests_name_file_and_field_and_the_rest_still_load() {
    let env = Env::new();
    let g = env.global_dir();
    std::fs::create_dir_all(g.join("a-empty")).unwrap();
    raw_manifest(&g, "b-badjson", "{ not json");
    raw_manifest(&g, "c-noname", r#"{"exec":"./x"}"#);
    raw_manifest(&g, "d-noexec", r#"{"name":"d-noexec"}"#);
    raw_manifest(&g, "e-missing", r#"{"name":"e-missing","exec":"./nope"}"#);
    let f = raw_manifest(
        &g,
        "f-noexecbit",
        r#"{"name":"f-noexecbit","exec":"./run.sh"}"#,
    );
    std::fs::write(f.join("run.sh"), "#!/bin/sh\n").unwrap();
    raw_manifest(
        &g,
        "g-notonpath",
        r#"{"name":"g-notonpath","exec":"zot-no-such-binary-xyz"}"#,
    );
    raw_manifest(&g, "h-badname", r#"{"name":"../evil","exec":"./x"}"#);
    env.global("z-good", json!({}));
    let (host, mut rx) = start(env.config()).await;
    let report = host.report();
    let errs: Vec<(String, Option<String>)> = report
        .manifest_errors
        .iter()
        .map(|e| {
            (
                e.path
                    .parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                e.field.clone(),
            )
        })
        .collect();
    let f = |s: &str| Some(s.to_string());
    assert_eq!(
        errs,
        vec![
            ("a-empty".into(), None),
            ("b-badjson".into(), None),
            ("c-noname".into(), f("name")),
            ("d-noexec".into(), f("exec")),
            ("e-missing".into(), f("exec")),
            ("f-noexecbit".into(), f("exec")),
            ("g-notonpath".into(), f("exec")),
            ("h-badname".into(), f("name")),
        ]
    );
    for e in &report.manifest_errors {
        assert!(e.to_string().contains(&e.path.display().to_string()), "{e}");
    }
    let msgs: Vec<String> = report
        .manifest_errors
        .iter()
        .map(|e| e.message.clone())
        .collect();
    assert!(msgs[5].contains("chmod +x"), "{msgs:?}");
    assert!(msgs[6].contains("not found on PATH"), "{msgs:?}");
    let list = host.list();
    assert_eq!(list.len(), 9);
    assert!(list[..8]
        .iter()
        .all(|s| s.state == ExtState::Failed && s.error.is_some()));
    assert_eq!(list[8].state, ExtState::Ready);
    // Each failure was announced to the UI.
    let mut errors = 0;
    while let Ok(ev) = rx.try_recv() {
        if matches!(
            ev,
            zot_ext_host::HostEvent::Ui(zot_ext_protocol::rpc::UiEvent::ExtError { .. })
        ) {
            errors += 1;
        }
    }
    assert_eq!(errors, 8);
    host.shutdown().await;
}

#[tokio::test]
async fn exec_resolves_relative_paths_and_bare_names_on_path() {
    let env = Env::new();
    let script = r#"echo '{"type":"hello","name":"NAME"}'
while read -r line; do
  case "$line" in
    *hello_ack*) echo '{"type":"register_command","name":"CMD"}'; echo '{"type":"ready"}';;
    *shutdown*) echo '{"type":"shutdown_ack"}'; exit 0;;
  esac
done
"#;
    // `./run.sh`, relative to the manifest.
    let rel = env.global_dir().join("rel");
    std::fs::create_dir_all(&rel).unwrap();
    std::fs::write(
        rel.join("run.sh"),
        format!(
            "#!/bin/sh\n{}",
            script.replace("NAME", "rel").replace("CMD", "relcmd")
        ),
    )
    .unwrap();
    set_mode(&rel.join("run.sh"), 0o755);
    std::fs::write(
        rel.join("extension.json"),
        r#"{"name":"rel","exec":"./run.sh"}"#,
    )
    .unwrap();
    // `sh` found on PATH, with args.
    let bare = env.global_dir().join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::write(
        bare.join("ext.sh"),
        script.replace("NAME", "bare").replace("CMD", "barecmd"),
    )
    .unwrap();
    std::fs::write(
        bare.join("extension.json"),
        r#"{"name":"bare","exec":"sh","args":["ext.sh"]}"#,
    )
    .unwrap();
    let (host, _rx) = start(env.config()).await;
    let names: Vec<String> = host.commands().into_iter().map(|c| c.name).collect();
    assert_eq!(names, vec!["barecmd", "relcmd"]);
    host.shutdown().await;
}

fn set_mode(p: &std::path::Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[tokio::test]
async fn two_extensions_in_one_scope_with_one_name_the_second_fails_naming_both() {
    let env = Env::new();
    // Directory names differ; the manifest names are the same.
    let a = env.global("a-dir", json!({"name": "twin"}));
    let b = env.global("b-dir", json!({"name": "twin"}));
    for dir in [&a, &b] {
        let p = dir.join("extension.json");
        let mut m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        m["name"] = json!("twin");
        std::fs::write(&p, m.to_string()).unwrap();
    }
    let (host, _rx) = start(env.config()).await;
    let list = host.list();
    let states: Vec<(String, ExtState)> = list.iter().map(|s| (s.name.clone(), s.state)).collect();
    assert_eq!(
        states,
        vec![
            ("twin".into(), ExtState::Ready),
            ("twin".into(), ExtState::Failed)
        ]
    );
    let err = list[1].error.clone().unwrap();
    assert!(err.contains(&a.display().to_string()), "{err}");
    assert!(err.contains(&b.display().to_string()), "{err}");
    assert!(a.join("pid").exists());
    assert!(!b.join("pid").exists(), "the duplicate was started");
    host.shutdown().await;
}
