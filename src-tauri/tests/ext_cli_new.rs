//! `zot ext new` through the real binary: each scaffold loads with `--ext`
//! at once and answers its command, its tool (called by the fake model) and,
//! with `--panel`, its panel's keys; its own generated test passes; and bad
//! names, languages and existing folders create nothing.

use zot_test_support::fixtures;
use zot_test_support::rpc;

use std::path::{Path, PathBuf};

use rpc::{of, Rpc};
use serde_json::json;
use zot_test_support::cli::Env;
use zot_test_support::fake_llm::*;

fn new_ext(env: &Env, name: &str, lang: &str) -> PathBuf {
    let out = env
        .zot(&["ext", "new", name, "--lang", lang, "--panel"])
        .ok();
    assert!(out.contains("created"), "{out}");
    env.project.join(name)
}

/// Loads `dir` with `--ext` and drives the command, the tool and the panel.
async fn drive(env: &Env, dir: &Path, name: &str) {
    let llm = FakeLlm::start().await;
    let mut z = Rpc::against(
        &llm,
        &env.home,
        &env.project,
        &["--no-session", "--no-ext", "--ext", dir.to_str().unwrap()],
        &[],
    )
    .await;
    let r = z
        .call(json!({"type":"command","name":name,"args":"there"}))
        .await;
    assert_eq!(
        r["data"]["display"],
        format!("hello from {name}: there"),
        "{r}"
    );

    let tool = format!("{}_echo", name.replace('-', "_"));
    llm.push(anthropic_tool("", "t1", &tool, &["{\"text\":\"echo me\"}"]));
    llm.push(anthropic_text(&["ok"]));
    let evs = z.prompt("go").await;
    let result = of(&evs, "tool_result")[0];
    assert_eq!(result["content"][0]["text"], "echo me", "{result}");

    let r = z
        .call(json!({"type":"command","name":format!("{name}-panel")}))
        .await;
    assert_eq!(r["data"]["action"], "open_panel", "{r}");
    let id = r["data"]["open_panel"]["id"].as_str().unwrap().to_owned();
    z.call(json!({"type":"panel_key","panel_id":id,"key":"rune","text":"+"}))
        .await;
    let evs = z.until(|v| v["type"] == "ext_panel_render").await;
    assert_eq!(evs.last().unwrap()["lines"][0], "count: 1");
    // The scaffold declares panel_mouse and panel_resize through its SDK.
    let r = z
        .call(json!({"type":"panel_resize","panel_id":id,"cols":80,"rows":12}))
        .await;
    assert_eq!(r["data"]["delivered"], true, "{r}");
    z.until(|v| v["type"] == "ext_panel_render" && v["lines"][4] == "panel size: 80 x 12 cells")
        .await;
    z.call(json!({"type":"panel_mouse","panel_id":id,"action":"wheel","delta":-2}))
        .await;
    z.until(|v| v["type"] == "ext_panel_render" && v["lines"][0] == "count: 3")
        .await;
    z.call(json!({"type":"panel_mouse","panel_id":id,"action":"click","row":3,"col":5}))
        .await;
    z.until(|v| {
        v["type"] == "ext_panel_render"
            && v["lines"][3] == "last click: click on line 3, character 5"
    })
    .await;
    z.call(json!({"type":"panel_key","panel_id":id,"key":"esc"}))
        .await;
    z.until(|v| v["type"] == "ext_panel_close").await;
    assert!(z.close().await.success());

    // And it passes the conformance kit.
    let report = env.zot(&["ext", "test", dir.to_str().unwrap()]).ok();
    assert!(report.contains("all checks passed"), "{report}");
}

#[tokio::test]
async fn a_python_scaffold_loads_at_once_and_its_own_test_passes() {
    let env = Env::new();
    let dir = new_ext(&env, "hi-py", "python");
    drive(&env, &dir, "hi-py").await;
    let out = std::process::Command::new("python3")
        .args(["-m", "unittest", "-v"])
        .current_dir(&dir)
        .env("ZOT_HOME", &env.home)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("... ok"), "{err}");
}

#[tokio::test]
async fn a_typescript_scaffold_ships_its_javascript_and_loads_at_once() {
    let env = Env::new();
    let dir = new_ext(&env, "hi-ts", "typescript");
    assert!(dir.join("main.ts").is_file() && dir.join("main.js").is_file());
    drive(&env, &dir, "hi-ts").await;
    let out = std::process::Command::new("node")
        .args(["--test"])
        .current_dir(&dir)
        .env("ZOT_HOME", &env.home)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("# pass 1") && text.contains("# skipped 0"),
        "{text}"
    );
}

#[test]
fn a_rust_scaffold_builds_and_passes_its_own_test() {
    let env = Env::new();
    let sdk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../extensions/sdk");
    let out = env
        .command(&["ext", "new", "hi-rs", "--lang", "rust", "--panel"])
        .env("ZOT_RUST_SDK", &sdk)
        .output()
        .unwrap();
    assert!(out.status.success());
    let dir = env.project.join("hi-rs");
    for f in [
        "Cargo.toml",
        "src/main.rs",
        "tests/protocol.rs",
        "README.md",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let launch = dir.join("launch.sh");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&launch).unwrap().permissions().mode() & 0o111,
        0o111
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("extension.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["exec"], "./launch.sh");
    // Not built yet: the launcher says so instead of hanging.
    let out = std::process::Command::new(&launch).output().unwrap();
    assert_eq!(out.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cargo build --release"));

    // Its own test, built against this checkout's SDK (sharing the
    // workspace's target directory so dependencies are not rebuilt).
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let out = std::process::Command::new(env!("CARGO"))
        .args(["test", "-q"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_names_languages_and_existing_folders_create_nothing() {
    let env = Env::new();
    for bad in ["1abc", "a b", "../up", "-x", "sp@ce"] {
        let mut c = env.command(&["ext", "new", "--lang", "python", "--", bad]);
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot create extension"), "{bad}: {err}");
    }
    let err = env.zot(&["ext", "new", "ok", "--lang", "cobol"]).failed();
    assert!(err.contains("unknown language `cobol`"), "{err}");
    env.zot(&["ext", "new", "twice"]).ok();
    let err = env.zot(&["ext", "new", "twice"]).failed();
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(fixtures::entries(&env.project), ["twice"]);
}
