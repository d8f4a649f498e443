//! `zot ext trust [DIR]`, `zot ext untrust [DIR]`, `zot ext trusted`, and
//! what `zot ext list` / `zot ext doctor` say in an untrusted project: the
//! real binary against a temp `ZOT_HOME` and project.

use serde_json::{json, Value};
use zot_test_support::cli::*;
use zot_test_support::fixtures::*;

fn trust_json(env: &Env) -> Value {
    serde_json::from_str(&std::fs::read_to_string(env.home.join("trust.json")).unwrap()).unwrap()
}

#[test]
fn trust_untrust_and_trusted_keep_the_canonical_folder() {
    let env = Env::new();
    scripted_ext(
        &env.project.join(".zot/extensions"),
        "local",
        json!({}),
        json!({}),
    );
    let canon = std::fs::canonicalize(&env.project).unwrap();

    assert!(env.zot(&["ext", "trusted"]).ok().is_empty());
    let out = env.zot(&["ext", "trust"]).ok();
    assert!(
        out.contains(&format!("trusted {}", canon.display())),
        "{out}"
    );
    assert!(out.contains("will run local"), "{out}");
    assert_eq!(trust_json(&env)["trusted"], json!([canon]));

    // A path through `..` and a symlink name the same folder: one entry.
    let link = env.path("link");
    std::os::unix::fs::symlink(&env.project, &link).unwrap();
    env.zot(&["ext", "trust", link.join("../project").to_str().unwrap()])
        .ok();
    env.zot(&["ext", "trust", link.to_str().unwrap()]).ok();
    assert_eq!(
        env.zot(&["ext", "trusted"]).ok(),
        format!("{}\n", canon.display())
    );
    let listed: Vec<String> =
        serde_json::from_str(&env.zot(&["ext", "trusted", "--json"]).ok()).unwrap();
    assert_eq!(listed, vec![canon.display().to_string()]);

    let row = env.zot(&["ext", "list", "--json"]).ok();
    assert!(row.contains("\"state\": \"ready\""), "{row}");

    let out = env.zot(&["ext", "untrust", link.to_str().unwrap()]).ok();
    assert!(out.contains("no longer trusted"), "{out}");
    assert_eq!(trust_json(&env)["trusted"], json!([]));
    let again = env.zot(&["ext", "untrust"]);
    assert_eq!(again.code(), 0);
    assert!(
        again.stderr().contains("was not trusted"),
        "{}",
        again.stderr()
    );
}

#[test]
fn an_untrusted_project_is_listed_untrusted_and_doctor_calls_out_shadowing() {
    let env = Env::new();
    scripted_ext(&env.extensions(), "guard", json!({}), json!({}));
    scripted_ext(
        &env.project.join(".zot/extensions"),
        "guard",
        json!({}),
        json!({}),
    );
    let list: Value = serde_json::from_str(&env.zot(&["ext", "list", "--json"]).ok()).unwrap();
    let states: Vec<(&str, &str)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["scope"].as_str().unwrap(), e["state"].as_str().unwrap()))
        .collect();
    assert_eq!(states, [("project", "untrusted"), ("global", "ready")]);
    // Waiting for trust is not broken; the shadowing is called out.
    let out = env.zot(&["ext", "doctor"]).ok();
    assert!(out.contains("untrusted"), "{out}");
    assert!(
        out.contains("shadows your global extension 'guard'"),
        "{out}"
    );
    // --trust-project runs it for this one command, and it wins.
    let list: Value =
        serde_json::from_str(&env.zot(&["--trust-project", "ext", "list", "--json"]).ok()).unwrap();
    assert_eq!(list[0]["state"], "ready");
    assert_eq!(list[1]["state"], "disabled");
    assert!(!env.home.join("trust.json").exists());
    // `zot ext trust` says whose global copy it replaces.
    let run = env.zot(&["ext", "trust"]);
    assert_eq!(run.code(), 0);
    assert!(
        run.stderr()
            .contains("shadows your global extension 'guard'"),
        "{}",
        run.stderr()
    );
}

#[test]
fn a_corrupt_trust_file_is_named_and_replaced_by_the_next_trust() {
    let env = Env::new();
    std::fs::write(env.home.join("trust.json"), "{\"trusted\": [").unwrap();
    let run = env.zot(&["ext", "trusted"]);
    assert_eq!(run.code(), 0);
    assert!(
        run.stderr()
            .contains(&env.home.join("trust.json").display().to_string()),
        "{}",
        run.stderr()
    );
    assert!(run.stderr().contains("corrupt"), "{}", run.stderr());
    env.zot(&["ext", "trust"]).ok();
    let canon = std::fs::canonicalize(&env.project).unwrap();
    assert_eq!(trust_json(&env)["trusted"], json!([canon]));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(env.home.join("trust.json"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn trusting_a_folder_that_does_not_exist_fails_and_says_so() {
    let env = Env::new();
    let err = env
        .zot(&["ext", "trust", env.path("nope").to_str().unwrap()])
        .failed();
    assert!(err.contains("is not a directory zot can open"), "{err}");
    assert!(!env.home.join("trust.json").exists());
}
