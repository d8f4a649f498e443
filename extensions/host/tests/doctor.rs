//! The doctor runs the real startup path over real extension processes and
//! reports each kind of trouble, and only real trouble makes it fail.

use zot_test_support::fixtures;

use std::path::{Path, PathBuf};

use fixtures::scripted_ext;

use serde_json::json;
use zot_ext_host::doctor::{diagnose, Readiness};
use zot_ext_host::HostConfig;
use zot_ext_protocol::rpc::{ExtState, ShadowKind};
use zot_ext_protocol::LifecycleEvent;

/// An extension directory whose manifest runs the fixture with `spec`.
fn ext(base: &Path, name: &str, spec: serde_json::Value, enabled: bool) -> PathBuf {
    scripted_ext(base, name, spec, json!({ "enabled": enabled }))
}

struct Setup {
    _tmp: tempfile::TempDir,
    cfg: HostConfig,
    global: PathBuf,
    project: PathBuf,
}

fn setup() -> Setup {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let cwd = tmp.path().join("project");
    let global = home.join("extensions");
    let project = cwd.join(".zot/extensions");
    std::fs::create_dir_all(&global).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    // Trusted, so the project's extensions run as before trust existed.
    let cfg = HostConfig::new(&home, &cwd);
    cfg.run_trust.grant();
    Setup {
        cfg,
        _tmp: tmp,
        global,
        project,
    }
}

#[tokio::test]
async fn healthy_extensions_pass_with_commands_tools_and_interception_order() {
    let s = setup();
    ext(
        &s.global,
        "alpha",
        json!({"commands":["hi"],"tools":["lookup"],"intercept":["tool_call"]}),
        true,
    );
    ext(
        &s.global,
        "beta",
        json!({"intercept":["tool_call","turn_start"], "ready": false}),
        true,
    );

    let report = diagnose(s.cfg.clone()).await;

    assert!(report.ok, "{:#?}", report.problems);
    let alpha = &report.extensions[0];
    assert_eq!(alpha.summary.name, "alpha");
    assert_eq!(alpha.summary.state, ExtState::Ready);
    assert_eq!(alpha.readiness, Readiness::Ready);
    assert_eq!(alpha.summary.commands[0].name, "hi");
    assert_eq!(alpha.summary.tools[0].name, "lookup");
    assert!(alpha.summary.log_path.ends_with("logs/ext-alpha.log"));
    let beta = &report.extensions[1];
    assert_eq!(beta.readiness, Readiness::AutoReady);
    let chain = report
        .interception
        .iter()
        .find(|c| c.event == LifecycleEvent::ToolCall)
        .unwrap();
    assert_eq!(chain.chain, ["alpha", "beta"]);
}

#[tokio::test]
async fn broken_manifests_and_crashes_fail_the_doctor_with_details() {
    let s = setup();
    let bad = s.global.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("extension.json"), r#"{"name":"bad","exec":42}"#).unwrap();
    ext(&s.global, "crasher", json!({"exit_before_hello": 3}), true);
    ext(&s.global, "fine", json!({}), true);

    let report = diagnose(s.cfg.clone()).await;

    assert!(!report.ok);
    let m = &report.manifest_errors[0];
    assert_eq!(m.field.as_deref(), Some("exec"));
    assert!(m.file.ends_with("bad/extension.json"), "{m:?}");
    let crash = report
        .problems
        .iter()
        .find(|p| p.contains("crasher"))
        .unwrap();
    assert!(crash.contains("status 3"), "{crash}");
    assert!(crash.contains("ext-crasher.log"), "{crash}");
    let crasher = report
        .extensions
        .iter()
        .find(|e| e.summary.name == "crasher")
        .unwrap();
    assert!(
        crasher
            .log_tail
            .iter()
            .any(|l| l.contains("exiting before hello")),
        "{:?}",
        crasher.log_tail
    );
    // One problem each: the manifest error is not repeated as a load failure.
    assert_eq!(report.problems.len(), 2, "{:#?}", report.problems);
}

#[tokio::test]
async fn disabled_shadowed_and_conflicting_extensions_are_reported_but_not_broken() {
    let s = setup();
    ext(&s.global, "off", json!({}), false);
    ext(&s.global, "twin", json!({}), true);
    ext(&s.project, "twin", json!({}), true);
    ext(&s.global, "first", json!({"commands":["same"]}), true);
    ext(
        &s.global,
        "second",
        json!({"commands":["SAME", "help"]}),
        true,
    );

    let report = diagnose(s.cfg.clone()).await;

    assert!(report.ok, "{:#?}", report.problems);
    let off = report
        .extensions
        .iter()
        .find(|e| e.summary.name == "off")
        .unwrap();
    assert_eq!(off.summary.state, ExtState::Disabled);
    assert!(!off.summary.enabled);
    let shadowed_twin = report
        .conflicts
        .iter()
        .find(|c| c.shadowing.kind == ShadowKind::Extension)
        .expect("the global twin is shadowed");
    assert_eq!(shadowed_twin.extension, "twin");
    assert!(
        shadowed_twin.shadowing.by.contains("project"),
        "{shadowed_twin:?}"
    );
    let lost: Vec<_> = report
        .conflicts
        .iter()
        .filter(|c| c.extension == "second" && c.shadowing.kind == ShadowKind::Command)
        .map(|c| (c.shadowing.name.to_lowercase(), c.shadowing.by.clone()))
        .collect();
    assert!(
        lost.iter()
            .any(|(n, by)| n == "same" && by.starts_with("first")),
        "{lost:?}"
    );
    assert!(
        lost.iter().any(|(n, by)| n == "help" && by == "built-in"),
        "{lost:?}"
    );
}

#[tokio::test]
async fn explicit_paths_load_and_no_ext_skips_discovery() {
    let s = setup();
    ext(&s.global, "installed", json!({}), true);
    let work = s._tmp.path().join("work");
    let dev = ext(&work, "dev", json!({}), true);
    let mut cfg = s.cfg.clone();
    cfg.explicit = vec![dev];
    cfg.discover = false;

    let report = diagnose(cfg).await;

    let names: Vec<_> = report
        .extensions
        .iter()
        .map(|e| e.summary.name.as_str())
        .collect();
    assert_eq!(names, ["dev"]);
    assert!(report.ok, "{:#?}", report.problems);
}
