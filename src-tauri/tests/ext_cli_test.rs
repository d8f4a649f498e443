//! `zot ext test DIR` through the real binary: a conforming extension
//! passes every check and exits 0; one deliberately broken fixture per
//! check fails exactly that check, with the frame and a fix, and exits 1;
//! `--json` carries the same report.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zot_test_support::cli::Env;

/// An extension folder running the fixture in `mode`.
fn fixture(env: &Env, mode: &str) -> PathBuf {
    let name = format!("fx-{}", mode.replace('_', "-"));
    let dir = env.path(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/conformance_fx.py");
    let manifest = json!({"name": name, "exec": zot_test_support::fixtures::python(), "args": [script, mode, name]});
    std::fs::write(dir.join("extension.json"), manifest.to_string()).unwrap();
    dir
}

fn test_json(env: &Env, dir: &Path) -> (i32, Value) {
    test_json_within(env, dir, "2")
}

fn test_json_within(env: &Env, dir: &Path, timeout: &str) -> (i32, Value) {
    let out = env
        .command(&[
            "ext",
            "test",
            dir.to_str().unwrap(),
            "--json",
            "--timeout",
            timeout,
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code().unwrap_or(-1), report)
}

fn status<'a>(report: &'a Value, check: &str) -> &'a str {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == check)
        .map(|c| c["status"].as_str().unwrap())
        .unwrap_or("missing")
}

#[test]
fn a_conforming_extension_passes_every_check() {
    let env = Env::new();
    let dir = fixture(&env, "good");
    let (code, report) = test_json(&env, &dir);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["ok"], true);
    for c in [
        "hello",
        "ready",
        "registrations",
        "commands",
        "tools",
        "shutdown",
    ] {
        assert_eq!(status(&report, c), "pass", "{c}: {report:#}");
    }
    assert_eq!(status(&report, "panels"), "skip");
    assert_eq!(status(&report, "cancel"), "skip", "no tool sent progress");
    let text = env.zot(&["ext", "test", dir.to_str().unwrap()]).ok();
    assert!(
        text.contains("✓ tools") && text.contains("all checks passed"),
        "{text}"
    );
}

#[test]
fn each_broken_fixture_fails_its_check_with_the_frame_and_a_fix() {
    let env = Env::new();
    let cases = [
        ("junk", "hello", "not JSON"),
        ("wrongname", "hello", "someone-else"),
        ("exit_after_ack", "ready", "exited after hello_ack"),
        ("bad_schema", "registrations", "\"type\" must be \"object\""),
        ("silent_command", "commands", "did not answer within"),
        ("accepts_invalid", "tools", "without is_error"),
        ("panel_crash", "panels", "exited while panel"),
        ("no_ack", "shutdown", "no shutdown_ack"),
        ("leaves_child", "shutdown", "left processes behind"),
    ];
    for (mode, check, says) in cases {
        let dir = fixture(&env, mode);
        let (code, report) = test_json(&env, &dir);
        assert_eq!(code, 1, "{mode}: {report:#}");
        assert_eq!(report["ok"], false, "{mode}");
        let failed: Vec<&Value> = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] == "fail")
            .collect();
        assert_eq!(
            failed.len(),
            1,
            "{mode}: exactly one check fails: {report:#}"
        );
        let c = failed[0];
        assert_eq!(c["name"], check, "{mode}: {report:#}");
        assert!(
            c["detail"].as_str().unwrap().contains(says),
            "{mode}: {c:#}"
        );
        assert!(
            c["fix"].as_str().is_some_and(|f| !f.is_empty()),
            "{mode}: {c:#}"
        );
        assert!(c["section"]
            .as_str()
            .unwrap()
            .starts_with("docs/extensions.md#"));
    }
    // The text report shows the breaking frame.
    let dir = fixture(&env, "bad_schema");
    let out = env
        .command(&["ext", "test", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("✗ registrations") && text.contains("frame: {"),
        "{text}"
    );
    assert!(text.contains("fix:"), "{text}");
}

#[test]
fn a_folder_without_a_manifest_fails_the_manifest_check() {
    let env = Env::new();
    let dir = env.path("empty");
    std::fs::create_dir_all(&dir).unwrap();
    let (code, report) = test_json(&env, &dir);
    assert_eq!(code, 1);
    assert_eq!(status(&report, "manifest"), "fail");
}

#[test]
fn dialogs_are_answered_by_a_scripted_user_and_a_bad_one_fails_its_check() {
    let env = Env::new();
    let (code, report) = test_json(&env, &fixture(&env, "asks"));
    assert_eq!(status(&report, "dialogs"), "pass", "{report:#}");
    assert_eq!(status(&report, "commands"), "pass", "{report:#}");
    assert_eq!(code, 0, "{report:#}");

    let (code, report) = test_json(&env, &fixture(&env, "asks_badly"));
    assert_eq!(status(&report, "dialogs"), "fail", "{report:#}");
    let c = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "dialogs")
        .unwrap();
    assert!(
        c["detail"].as_str().unwrap().contains("options: is empty"),
        "{c}"
    );
    assert_eq!(code, 1);
}

fn detail<'a>(report: &'a Value, check: &str) -> &'a str {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == check)
        .and_then(|c| c["detail"].as_str())
        .unwrap_or("")
}

#[test]
fn a_slow_tool_that_stops_on_tool_cancel_passes_and_one_that_goes_on_fails() {
    let env = Env::new();
    // The budget is the tools' (3 s of progress each), not a timing claim.
    let (code, report) = test_json_within(&env, &fixture(&env, "slow_honours"), "30");
    assert_eq!(status(&report, "tools"), "pass", "{report:#}");
    assert_eq!(status(&report, "cancel"), "pass", "{report:#}");
    assert!(
        detail(&report, "cancel").contains("'build' stopped"),
        "{report:#}"
    );
    assert_eq!(code, 0, "{report:#}");

    let (code, report) = test_json_within(&env, &fixture(&env, "slow_ignores"), "30");
    assert_eq!(status(&report, "tools"), "pass", "{report:#}");
    assert_eq!(status(&report, "cancel"), "fail", "{report:#}");
    let said = detail(&report, "cancel");
    assert!(
        said.contains("'build' sent tool_progress for call tcancel")
            && said.contains("after tool_cancel"),
        "{report:#}"
    );
    assert_eq!(status(&report, "shutdown"), "pass", "{report:#}");
    assert_eq!(code, 1, "{report:#}");
}
