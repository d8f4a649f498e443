//! `zot ext list` and `zot ext doctor` through the real binary, over real
//! extension processes, honouring `--ext` and `--no-ext`.

use serde_json::{json, Value};
use zot_test_support::cli::Env;
use zot_test_support::fixtures::scripted_ext;

#[test]
fn list_shows_every_scope_with_state_and_json_carries_the_same() {
    let env = Env::new();
    scripted_ext(
        &env.extensions(),
        "weather",
        json!({"tools":["weather"]}),
        json!({"version":"1.0.0","language":"python","description":"current weather"}),
    );
    scripted_ext(
        &env.extensions(),
        "sleepy",
        json!({}),
        json!({"enabled": false}),
    );
    scripted_ext(
        &env.project.join(".zot/extensions"),
        "local",
        json!({}),
        json!({}),
    );
    let dev = scripted_ext(&env.path("work"), "dev", json!({}), json!({}));

    let table = env
        .zot(&["--ext", dev.to_str().unwrap(), "ext", "list"])
        .ok();
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].starts_with("SCOPE") && lines[0].contains("DIRECTORY"),
        "{table}"
    );
    let row = |name: &str| {
        lines
            .iter()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("{name} missing:\n{table}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(row("dev")[0], "explicit");
    assert_eq!(row("local")[0], "project");
    assert_eq!(
        &row("weather")[..6],
        ["global", "weather", "1.0.0", "yes", "ready", "python"]
    );
    assert_eq!(&row("sleepy")[3..5], ["no", "disabled"]);

    let json_out = env
        .zot(&["-e", dev.to_str().unwrap(), "ext", "list", "--json"])
        .ok();
    let list: Value = serde_json::from_str(&json_out).unwrap();
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["dev", "local", "sleepy", "weather"]);
    let weather = &list[3];
    assert_eq!(weather["scope"], "global");
    assert_eq!(weather["state"], "ready");
    assert_eq!(weather["description"], "current weather");
    assert_eq!(weather["tools"][0]["name"], "weather");
}

#[test]
fn list_with_no_ext_shows_only_explicit_paths() {
    let env = Env::new();
    scripted_ext(&env.extensions(), "installed", json!({}), json!({}));
    let dev = scripted_ext(&env.path("work"), "dev", json!({}), json!({}));
    let out = env
        .zot(&[
            "--no-ext",
            "--ext",
            dev.to_str().unwrap(),
            "ext",
            "list",
            "--json",
        ])
        .ok();
    let list: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1, "{out}");
    assert_eq!(list[0]["name"], "dev");
}

#[test]
fn doctor_passes_when_everything_loads() {
    let env = Env::new();
    scripted_ext(
        &env.extensions(),
        "guard",
        json!({"commands":["guard"],"tools":["check"],"intercept":["tool_call"]}),
        json!({}),
    );
    scripted_ext(
        &env.extensions(),
        "quiet",
        json!({"ready": false, "intercept":["tool_call"]}),
        json!({}),
    );

    let run = env.zot(&["ext", "doctor"]);
    let out = run.ok();
    assert!(
        out.contains("guard") && out.contains("commands: /guard"),
        "{out}"
    );
    assert!(out.contains("tools: check"), "{out}");
    assert!(out.contains("auto-ready"), "{out}");
    assert!(out.contains("tool_call: guard -> quiet"), "{out}");
    assert!(
        out.contains("log: ") && out.contains("ext-guard.log"),
        "{out}"
    );
    assert!(out.contains("ok: nothing is broken"), "{out}");
    assert!(
        out.contains("health: ready in ") && out.contains("0 call(s), 0 failed"),
        "{out}"
    );
}

#[test]
fn doctor_fails_and_explains_broken_extensions() {
    let env = Env::new();
    let bad = env.extensions().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(
        bad.join("extension.json"),
        r#"{"name":"bad","args":"oops"}"#,
    )
    .unwrap();
    scripted_ext(
        &env.extensions(),
        "crashy",
        json!({"exit_before_hello": 7}),
        json!({}),
    );
    scripted_ext(
        &env.extensions(),
        "one",
        json!({"commands":["dup"]}),
        json!({}),
    );
    scripted_ext(
        &env.extensions(),
        "two",
        json!({"commands":["dup"]}),
        json!({}),
    );
    scripted_ext(
        &env.extensions(),
        "off",
        json!({}),
        json!({"enabled": false}),
    );

    let run = env.zot(&["ext", "doctor"]);
    assert_eq!(run.code(), 1, "{}", run.stdout());
    let out = run.stdout();
    assert!(out.contains("bad/extension.json: field 'args'"), "{out}");
    assert!(out.contains("crashy") && out.contains("status 7"), "{out}");
    assert!(out.contains("ext-crashy.log"), "{out}");
    assert!(
        out.contains("| doctor_ext: exiting before hello as asked"),
        "the log tail: {out}"
    );
    assert!(
        out.contains("command `dup` of two is shadowed by one"),
        "{out}"
    );
    assert!(out.contains("off [global] disabled"), "{out}");

    let run = env.zot(&["ext", "doctor", "--json"]);
    assert_eq!(run.code(), 1);
    let report: Value = serde_json::from_str(&run.stdout()).unwrap();
    assert_eq!(report["ok"], false);
    assert_eq!(report["manifest_errors"][0]["field"], "args");
    assert_eq!(
        report["problems"].as_array().unwrap().len(),
        2,
        "{report:#}"
    );
    let conflict = &report["conflicts"][0];
    assert_eq!(conflict["extension"], "two");
    assert_eq!(conflict["kind"], "command");
}

#[test]
fn doctor_honours_explicit_paths_over_installed_copies() {
    let env = Env::new();
    scripted_ext(
        &env.extensions(),
        "same",
        json!({"exit_before_hello": 1}),
        json!({}),
    );
    let dev = scripted_ext(
        &env.path("work"),
        "same",
        json!({"commands":["fixed"]}),
        json!({}),
    );

    // The installed copy is broken...
    assert_eq!(env.zot(&["ext", "doctor"]).code(), 1);
    // ...but the --ext working copy shadows it, and the shadowed copy is not started.
    let run = env.zot(&["--ext", dev.to_str().unwrap(), "ext", "doctor", "--json"]);
    let report: Value = serde_json::from_str(&run.stdout()).unwrap();
    assert_eq!(run.code(), 0, "{report:#}");
    assert_eq!(report["extensions"][0]["scope"], "explicit");
    assert_eq!(report["extensions"][0]["commands"][0]["name"], "fixed");
    assert_eq!(report["extensions"][1]["state"], "disabled");
    assert_eq!(report["conflicts"][0]["kind"], "extension");
}

#[test]
fn doctor_with_nothing_installed_says_where_it_looked() {
    let env = Env::new();
    let out = env.zot(&["ext", "doctor"]).ok();
    assert!(out.contains("no extensions found"), "{out}");
    assert!(out.contains(env.extensions().to_str().unwrap()), "{out}");
}
