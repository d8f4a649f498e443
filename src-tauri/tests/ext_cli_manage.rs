//! `zot ext remove|enable|disable` through the real binary.

use zot_test_support::fixtures;

use std::io::Write;
use std::process::{Command, Stdio};

use zot_test_support::cli::Env;
use zot_test_support::fixtures::write_ext;

fn installed(env: &Env, name: &str) {
    write_ext(
        &env.extensions().join(name),
        &format!(r#"{{"name":"{name}","exec":"./run.sh"}}"#),
    );
}

#[test]
fn remove_without_a_terminal_needs_yes() {
    let env = Env::new();
    installed(&env, "keepme");

    let err = env.zot(&["ext", "remove", "keepme"]).failed();
    assert!(
        err.contains("--yes") && err.contains("not a terminal"),
        "{err}"
    );
    assert_eq!(env.installed_entries(), ["keepme"]);

    let out = env.zot(&["ext", "remove", "keepme", "--yes"]).ok();
    assert!(out.contains("removed keepme"), "{out}");
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

#[test]
fn yes_works_before_the_name_too() {
    let env = Env::new();
    installed(&env, "x");
    env.zot(&["ext", "remove", "-y", "x"]).ok();
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

/// Runs `zot ext remove NAME` under a pseudo-terminal (util-linux `script`)
/// and types `answer`.
fn remove_on_a_terminal(env: &Env, name: &str, answer: &str) -> std::process::Output {
    let zot = env!("CARGO_BIN_EXE_zot");
    let mut child = Command::new("script")
        .args(["-qec", &format!("{zot} ext remove {name}"), "/dev/null"])
        .current_dir(&env.project)
        .env("ZOT_HOME", &env.home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answer.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn remove_on_a_terminal_asks_and_respects_the_answer() {
    let env = Env::new();
    installed(&env, "asked");

    let no = remove_on_a_terminal(&env, "asked", "n\n");
    let shown = String::from_utf8_lossy(&no.stdout);
    assert!(shown.contains("remove extension `asked`"), "{shown}");
    assert_eq!(env.installed_entries(), ["asked"]);

    let yes = remove_on_a_terminal(&env, "asked", "y\n");
    assert!(yes.status.success(), "{yes:?}");
    assert_eq!(env.installed_entries(), Vec::<String>::new());
}

#[test]
fn remove_refuses_names_that_escape() {
    let env = Env::new();
    installed(&env, "a");
    std::fs::write(env.home.join("precious"), "keep").unwrap();
    for bad in ["../..", "..", "../extensions", "a/../..", ".git", "-rf", ""] {
        let err = env.zot(&["ext", "remove", "--yes", bad]).failed();
        assert!(err.contains("invalid extension name"), "{bad:?}: {err}");
    }
    assert!(env.home.join("precious").exists());
    assert_eq!(env.installed_entries(), ["a"]);
}

#[test]
fn an_unknown_name_lists_the_installed_ones() {
    let env = Env::new();
    installed(&env, "alpha");
    installed(&env, "beta");
    for cmd in ["remove", "enable", "disable", "logs"] {
        let err = env
            .zot(&["ext", cmd, "gamma", "--yes"][..if cmd == "remove" { 4 } else { 3 }])
            .failed();
        assert!(err.contains("no extension named `gamma`"), "{cmd}: {err}");
        assert!(err.contains("installed: alpha, beta"), "{cmd}: {err}");
    }
}

#[test]
fn disable_and_enable_flip_only_the_flag() {
    let env = Env::new();
    let dir = env.extensions().join("flip");
    std::fs::create_dir_all(&dir).unwrap();
    let manifest =
        r#"{"name":"flip","exec":"./run.sh","zeta":1,"enabled":true,"alpha":{"b":2,"a":1}}"#;
    std::fs::write(dir.join("extension.json"), manifest).unwrap();

    let out = env.zot(&["ext", "disable", "flip"]).ok();
    assert!(out.contains("disabled `flip`"), "{out}");
    let text = std::fs::read_to_string(dir.join("extension.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["name", "exec", "zeta", "enabled", "alpha"]);
    assert_eq!(v["enabled"], false);
    assert_eq!(v["alpha"], serde_json::json!({"b":2,"a":1}));

    let out = env.zot(&["ext", "disable", "flip"]).ok();
    assert!(out.contains("already disabled"), "{out}");

    env.zot(&["ext", "enable", "flip"]).ok();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("extension.json")).unwrap())
            .unwrap();
    assert_eq!(v["enabled"], true);
    assert_eq!(
        fixtures::entries(&dir),
        ["extension.json"],
        "no temp file left"
    );
}

#[test]
fn a_project_local_extension_is_toggled_in_place_but_not_removed() {
    let env = Env::new();
    let dir = env.project.join(".zot/extensions/local");
    write_ext(&dir, r#"{"name":"local","exec":"./run.sh"}"#);

    let out = env.zot(&["ext", "disable", "local"]).ok();
    assert!(out.contains("project"), "{out}");
    let text = std::fs::read_to_string(dir.join("extension.json")).unwrap();
    assert!(text.contains(r#""enabled": false"#), "{text}");

    let err = env.zot(&["ext", "remove", "--yes", "local"]).failed();
    assert!(err.contains("project-local"), "{err}");
    assert!(dir.join("extension.json").exists());
}
